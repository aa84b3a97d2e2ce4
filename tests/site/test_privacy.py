"""Issue 15, acceptance 3: nothing private on the site before its reveal.

The site is built from the governance nweek just before its Ballot closes:
Erin's vote on proposal 100 was mailed privately to the bot (a Concealable
Ballot, rule 15 B), Alice asked privately for her digest, and every Minister
has had digests mailed to em alone.  Every built file is searched for each
private value.  After the close, the Ballot's results reveal Erin's vote,
and the same search finds it: the search would see a leak.  Each line of
every mail sent off the list that the list never carried is in no build.
The games with hidden values, Cards and Contests: test_privacy_games.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from bot.site import build_site
from bot.store.models import GameRecord, OutboxMessage
from bot.testing.governance_week import BALLOT_CLOSES, END, SECRET_WORD, week_posts
from bot.testing.site_files import document, every_file_text
from bot.testing.site_games import PlayedWeek
from bot.testing.site_privacy import (
    never_on_the_site,
    private_mail_lines,
    public_text,
    read_site,
    view_pages_text,
)

PRIVATE_VOTER = "Erin"


def private_values(played: PlayedWeek) -> list[str]:
    """The private posts' Message-IDs and words, every mail the bot sent off the list, and
    the private votes' nonces."""
    posts = [post for post in week_posts() if post.private]
    values = [SECRET_WORD]
    values += [post.message_id for post in posts]
    values += [post.body.rstrip(".") for post in posts]
    list_address = played.app.settings.bot.list_address
    with played.app.session_factory() as session:
        private_mails = session.execute(
            select(OutboxMessage.message_id, OutboxMessage.recipients)
        ).all()
    values += [
        message_id for message_id, recipients in private_mails if recipients != [list_address]
    ]
    return values + private_vote_nonces(played)


def private_vote_nonces(played: PlayedWeek) -> list[str]:
    """The nonce behind each private vote's commitment (rule 15 B), kept by the bot."""
    with played.app.session_factory() as session:
        query = select(GameRecord.state).where(GameRecord.name.startswith("private-poll-"))
        polls = session.scalars(query).all()
    nonces = [str(entry["nonce"]) for poll in polls for entry in poll["entries"]]
    assert len(nonces) == 2  # Erin's vote on each of the Ballot's two polls
    return nonces


def leaks(site: Path, values: list[str]) -> list[tuple[str, str]]:
    return [
        (name, value)
        for name, text in every_file_text(site).items()
        for value in values
        if value.lower() in text.lower()
    ]


def test_no_private_value_is_in_any_file_before_the_close(week_played: PlayedWeek) -> None:
    site = week_played.site_before_the_close
    values = private_values(week_played)
    assert len(values) > 10  # the secret word, two private posts, the digests and private replies
    assert leaks(site, values) == []
    ballot = document(site, "view-ballot")["data"]
    assert ballot["state"] == "open"
    for item in ballot["proposals"]:
        assert PRIVATE_VOTER not in [vote["voter"] for vote in item["votes"]]
    assert [item["withheld"] for item in ballot["proposals"]] == [1, 1]
    # The front page's next deadlines: the Ballot's two polls, once each (rule 23).
    closes = BALLOT_CLOSES.isoformat()
    assert document(site, "index")["data"]["deadlines"] == [
        {"subject": "proposal 100/0", "deadline": closes},
        {"subject": "proposal 101/1", "deadline": closes},
    ]


@pytest.fixture(scope="module")
def site_after_the_close(week_played: PlayedWeek, tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("after") / "site"
    build_site(week_played.app, site, at=END)
    return site


def test_after_the_close_the_revealed_vote_is_found_by_the_same_search(
    site_after_the_close: Path,
) -> None:
    found = leaks(site_after_the_close, [SECRET_WORD])
    assert ("view-ballot.html", SECRET_WORD) not in found  # the view shows the vote, not its word
    assert any(name.startswith("mail-") for name, _ in found)  # the Ballot's results reveal it


def test_no_line_of_a_mail_sent_off_the_list_is_in_any_file(
    week_played: PlayedWeek, site_after_the_close: Path
) -> None:
    # Each digest, private ruling and private reply, by its lines the list never carried
    # and the build's views do not show (a digest copies the views, rule 625 D).
    app = week_played.app
    public_posts = [post.raw() for post in week_posts() if not post.private]
    public = public_text(app, public_posts)
    for site in (week_played.site_before_the_close, site_after_the_close):
        mails = private_mail_lines(app, public + "\n" + view_pages_text(site))
        assert len(mails) > 5
        assert never_on_the_site(read_site(site), mails) == {}
