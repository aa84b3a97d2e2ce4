"""Issue 15, acceptance 3, for the games with private values: Cards and Contests.

The by-mail worlds of tests/engine/cards and tests/engine/contests are
played again from their own scripts (posts judged as the daemon judges
them, no IMAP), and the site is built at instants before their reveals:

* Cards and Pooker (seed 002): every Card dealt is told to its holder by
  private mail (rule 387) and the Dealer's report shows Backs only (390);
  Alice and Bob trade by private notices (395).  The site built just before
  the Motion to Show Cards passes names no dealt Card in any form, no deal
  secret, no nweek's deal key, no Trade notice's key.  After the Showdown
  (396, 397) the Cards shown, their deals' secrets and the notices' keys are
  on the site, and Carol's unshown Cards still nowhere.
* Contests (seed 002, rule 336): answers are sent privately and committed
  to on the list.  The site is built a minute before each Mediocrity
  period ends (rule 343), five instants at which every answer of every
  contest is sealed at least once: every answer whose period has not ended,
  and its nonce, is in no file; every answer whose period has ended is.

At every build, every file (HTML, JSON, the Atom feed, the style sheet) is
searched for the private posts' bodies and for each distinctive line of
every mail the bot sent off the list (deal notices, private rulings, the
answers mailed to a Contestmaster), which no build may hold.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.app import App
from bot.config import Settings
from bot.engine.games.cards_deals import sealed_notice_key
from bot.engine.games.cards_state import load_state as load_cards
from bot.engine.games.contests_store import load_state as load_contests
from bot.engine.worker import process_queue
from bot.games import dice
from bot.games.cards import Card
from bot.games.cards.hidden import deal_key, deal_secret
from bot.runner import advance_to, store_message
from bot.site import build_site
from bot.store.models import OutboxMessage
from bot.testing.go_game import EPOCH
from bot.testing.kgs import shared_key_file
from bot.testing.records import RecordedGame, recording_app
from bot.testing.site_privacy import (
    BuiltSite,
    as_word,
    body_of,
    files_naming,
    leaked,
    message_ids,
    never_on_the_site,
    private_mail_lines,
    public_text,
    read_site,
    squeezed,
    unfound,
)
from tests.engine.cards import test_cards_by_mail as cards_world
from tests.engine.contests import test_contests_by_mail as contests_world


def with_shared_key(settings: Settings) -> Settings:
    """``settings`` signing with the process's one key: making a key costs openssl a
    fraction of a second, and neither world's privacy depends on which key signs."""
    return replace(settings, bot=replace(settings.bot, dkim_key_file=shared_key_file()))


# -- Cards and Pooker --------------------------------------------------------------------------

# The Motion to Show Cards passes at 10:00 on day 72 (rule 396): every deal
# and the Trade are made, nothing is shown.
BEFORE_THE_SHOWDOWN = cards_world.day(72, 9, 30)
AFTER_THE_SHOWDOWN = cards_world.day(75, 1)


@dataclass
class BuildingTable(cards_world.Table):
    """The cards world's table, building the site once the script reaches ``cut``."""

    cut: datetime = BEFORE_THE_SHOWDOWN
    folder: Path = Path()
    built: BuiltSite = BuiltSite((), "")

    def post(self, at: datetime, author: str, body: str, private: bool = False) -> str:
        if at >= self.cut and not self.built.files:
            advance_to(self.app, self.cut)
            self.built = read_site(build_site(self.app, self.folder / "before", at=self.cut))
        return super().post(at, author, body, private)


@dataclass(frozen=True)
class CardsPlayed:
    app: App
    before: BuiltSite
    after: BuiltSite
    public_posts: tuple[tuple[bytes, datetime], ...]
    private_posts: tuple[bytes, ...]
    shown: tuple[Card, ...]  # shown in the Showdown: public once shown
    unshown: tuple[Card, ...]  # Carol's Cards she did not show: private to the end


@pytest.fixture(scope="module")
def cards_played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CardsPlayed]:
    folder = tmp_path_factory.mktemp("cards-privacy")
    app = recording_app(with_shared_key(cards_world.settings(folder / "bot")))
    table = BuildingTable(app, [], [], folder=folder)
    hands: dict[str, list[Card]] = {}
    _, _, shown_by_carol, _ = cards_world.play(table, hands)
    assert table.built.files, "the script never reached the instant before the Showdown"
    after = read_site(build_site(app, folder / "after", at=AFTER_THE_SHOWDOWN))
    unshown = tuple(card for card in hands["Carol"] if card not in shown_by_carol)
    shown = tuple(hands["Alice"] + hands["Bob"]) + shown_by_carol
    public = {raw for raw, _ in table.public}
    yield CardsPlayed(
        app,
        table.built,
        after,
        tuple(table.public),
        tuple(raw for raw, _ in table.posts if raw not in public),
        shown,
        unshown,
    )
    app.dispose()


def dealt_cards(app: App) -> list[Card]:
    with app.session_factory() as session:
        state = load_cards(session, 2)
    return [Card.from_number(record.number, 2) for record in state.deals]


def face_pattern(card: Card) -> re.Pattern[str]:
    """``QH`` as a word: not inside a longer token (a hash, base64, another Card's ``10H``)."""
    return as_word(card.face.short)


def card_forms(card: Card, faces_too: bool) -> list[str]:
    """How the bot's mails name ``card`` (rules 384, 387): ``Queen of Hearts (Red back)``,
    ``Red QH``, a proof's ``card=38``; with ``faces_too``, its Face alone (``QH``, ``Queen
    of Hearts``), which the other Pack's twin shares."""
    forms = [card.name, card.short, f"card={card.number}"]
    return forms + [card.face.short, card.face.name] if faces_too else forms


def names_a_card_object(value: Any, card: Card) -> bool:
    """``card`` as a JSON object names it: its ``number`` (rule 387) beside its ``back``."""
    if isinstance(value, dict):
        if "back" in value and value.get("number") == card.number:
            return True
        return any(names_a_card_object(item, card) for item in value.values())
    if isinstance(value, list):
        return any(names_a_card_object(item, card) for item in value)
    return False


def card_leaks(built: BuiltSite, card: Card, faces_too: bool) -> list[str]:
    """The files that name ``card`` in words or as a JSON object."""
    names = [name for form in card_forms(card, faces_too) for name in files_naming(built, form)]
    names += [
        each.name
        for each in built
        if any(names_a_card_object(document, card) for document in each.documents)
    ]
    return sorted(set(names))


def card_objects(built: BuiltSite) -> int:
    """How many Card objects the JSON documents hold (the ``inventory`` view's, by Back)."""
    text = "".join(json.dumps(document) for each in built for document in each.documents)
    return text.count('"type": "Card", "attributes": {')


def posted_to_the_list(
    posts: Iterable[bytes], cards: Iterable[Card]
) -> tuple[set[Card], set[Card]]:
    """The Cards a player emself named on the list, with their Backs, and those whose Faces
    e named: public by the player's act, not the site's (Alice posted her Trade to the list
    by mistake, rule 395; the Red and the Blue Pack share each Face, rule 385)."""
    texts = [body_of(raw) for raw in posts]
    cards = list(cards)
    named = {card for card in cards if any(as_word(card.short).search(text) for text in texts)}
    faces = {card for card in cards if any(face_pattern(card).search(text) for text in texts)}
    return named, faces


def deal_notices(app: App) -> list[str]:
    """The body of each private deal notice (rule 387), in the order of the deals."""
    with app.session_factory() as session:
        query = select(OutboxMessage.raw).where(OutboxMessage.kind == "cards-deal")
        return [body_of(raw) for raw in session.scalars(query.order_by(OutboxMessage.id))]


def deal_secrets(app: App) -> dict[int, str]:
    """Each deal's secret (hidden-v1), by Card number."""
    with app.session_factory() as session:
        state = load_cards(session, 2)
    master = app.services.master_secret
    return {
        record.number: deal_secret(deal_key(master, record.deal.nweek), record.deal).hex()
        for record in state.deals
    }


def notice_keys(app: App) -> list[str]:
    with app.session_factory() as session:
        state = load_cards(session, 2)
    master = app.services.master_secret
    return [sealed_notice_key(master, notice.record).hex() for notice in state.sealed]


def test_no_dealt_card_is_on_the_site_before_the_showdown(cards_played: CardsPlayed) -> None:
    dealt = dealt_cards(cards_played.app)
    assert len(dealt) == 3 * cards_world.NWEEKS_OF_VOTES
    posts = [raw for raw, at in cards_played.public_posts if at < BEFORE_THE_SHOWDOWN]
    named, faces = posted_to_the_list(posts, dealt)
    assert len(named) == 2 and len(faces) <= 5  # the Trade's two Cards, their Faces' twins
    found = {
        card.short: card_leaks(cards_played.before, card, faces_too=card not in faces)
        for card in dealt
        if card not in named
    }
    assert len(found) >= len(dealt) - 2
    assert {card: names for card, names in found.items() if names} == {}
    # The forms searched are those the private deal notices use, and the documents searched
    # hold every Card in a Hand as an object (by its Back alone).
    notices = deal_notices(cards_played.app)
    assert len(notices) == len(dealt)
    for card, notice in zip(dealt, notices, strict=True):
        assert [form for form in card_forms(card, True) if as_word(form).search(notice)]

    assert card_objects(cards_played.before) == len(dealt)
    assert "view-cards.html" in [each.name for each in cards_played.before]


def test_no_secret_behind_a_deal_or_a_notice_is_on_the_site_before_the_showdown(
    cards_played: CardsPlayed,
) -> None:
    app = cards_played.app
    nweeks = range(cards_world.NWEEKS_OF_VOTES + 1)
    keys = [deal_key(app.services.master_secret, nweek).hex() for nweek in nweeks]
    secrets = [*deal_secrets(app).values(), *notice_keys(app), *keys]
    assert len(notice_keys(app)) == 2  # Alice's and Bob's accepted notices
    assert leaked(cards_played.before, [*secrets, app.services.master_secret.hex()]) == {}


def test_the_dice_seed_of_the_nweek_is_on_the_site_only_once_revealed(
    cards_played: CardsPlayed,
) -> None:
    # Rule 9: each nweek's seed is committed to before and revealed after its nweek.
    current = (BEFORE_THE_SHOWDOWN - cards_world.day(1)).days // 10
    seeds = [dice.nweek_seed(cards_played.app.services.master_secret, n).hex() for n in range(9)]
    assert leaked(cards_played.before, seeds[current:]) == {}
    assert unfound(cards_played.before, seeds[:current]) == []


def test_no_private_post_or_mail_of_the_cards_is_on_the_site(cards_played: CardsPlayed) -> None:
    app = cards_played.app
    public_posts = [raw for raw, _ in cards_played.public_posts]
    public = public_text(app, public_posts)
    # The Trade notices and the refused mismatch; Alice's first notice repeats her public post.
    notices = [squeezed(body_of(raw)) for raw in cards_played.private_posts]
    assert len(notices) == 3
    posted = {squeezed(body_of(raw)) for raw in public_posts}
    private_notices = [text for text in notices if text not in posted]
    assert len(private_notices) == 2
    mails = private_mail_lines(app, public)
    # A deal notice for each deal (rule 387), an answer to each private notice.
    assert len(mails) >= 3 * cards_world.NWEEKS_OF_VOTES + 3
    posts = message_ids(cards_played.private_posts)
    for built in (cards_played.before, cards_played.after):
        assert leaked(built, private_notices) == {}
        assert never_on_the_site(built, mails) == {}
        assert [files_naming(built, message_id) for message_id in posts] == [[]] * len(posts)


def test_after_the_showdown_the_shown_cards_and_their_secrets_are_on_the_site(
    cards_played: CardsPlayed,
) -> None:
    after = cards_played.after
    # The search finds what has been revealed: every Card shown, each by its Back and Face.
    assert [card.short for card in cards_played.shown if not card_leaks(after, card, False)] == []
    secrets = deal_secrets(cards_played.app)
    shown = {card.number for card in cards_played.shown}
    assert unfound(after, [secrets[number] for number in shown]) == []
    assert unfound(after, notice_keys(cards_played.app)) == []
    # Carol's unshown Cards stay hidden, and so do their deals' secrets.
    assert cards_played.unshown
    assert {card.short: card_leaks(after, card, False) for card in cards_played.unshown} == {
        card.short: [] for card in cards_played.unshown
    }
    unshown = {card.number for card in cards_played.unshown}
    assert leaked(after, [secrets[number] for number in unshown]) == {}


# -- Contests ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cut:
    """The site built a minute before a Mediocrity period ends."""

    at: datetime
    built: BuiltSite


@dataclass(frozen=True)
class ContestsPlayed:
    app: App
    cuts: tuple[Cut, ...]
    end: BuiltSite
    posts: tuple[bytes, ...]  # each mail of the script, as the bot received it


def cuts() -> list[datetime]:
    """A minute before each Mediocrity challenge's period ends (rule 343): at these five
    instants every answer of every contest is sealed at least once, and revealed later."""
    announced = (contests_world.M1, contests_world.M2, contests_world.M3, contests_world.M4)
    ends = [contests_world.mediocrity_end(at) for at in (*announced, contests_world.M5)]
    return [end - timedelta(minutes=1) for end in ends]


def stake_the_players(app: App) -> None:
    game = RecordedGame(app)
    for name in contests_world.STAKED:
        arguments = {"player": name, "amount": contests_world.STAKE, "reason": "a stake"}
        status, reason = game.act(
            EPOCH + timedelta(hours=1), "ledger.credit", {**arguments, "currency": "points"}
        )
        assert status == "processed", reason


@pytest.fixture(scope="module")
def contests_played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ContestsPlayed]:
    folder = tmp_path_factory.mktemp("contests-privacy")
    app = recording_app(with_shared_key(contests_world.settings(folder / "bot")))
    stake_the_players(app)
    built: list[Cut] = []
    posts = [contests_world.raw_of(n, mail) for n, mail in enumerate(contests_world.SCRIPT, 1)]
    script = list(zip(contests_world.SCRIPT, posts, strict=True))
    for cut in cuts():
        # The posts up to the cut, judged in their order of arrival as the daemon judges them.
        while script and script[0][0].at < cut:
            mail, raw = script.pop(0)
            store_message(app, raw, "smtp", mail.at)
        process_queue(app.session_factory, app.services)
        built.append(build_at(app, cut, folder))
    for mail, raw in script:
        store_message(app, raw, "smtp", mail.at)
    process_queue(app.session_factory, app.services)
    advance_to(app, contests_world.END)
    end = read_site(build_site(app, folder / "end", at=contests_world.END))
    yield ContestsPlayed(app, tuple(built), end, tuple(posts))
    app.dispose()


def build_at(app: App, at: datetime, folder: Path) -> Cut:
    advance_to(app, at)
    return Cut(at, read_site(build_site(app, folder / f"site-{at:%d%H%M}", at=at)))


def nonces(app: App) -> list[tuple[datetime, str]]:
    """Each answer's nonce (behind its commitment), with the end of its challenge's period."""
    with app.session_factory() as session:
        state = load_contests(session, app.services)
    return [
        (challenge.deadline, str(answer.nonce))
        for contest in state.contests
        for challenge in contest.challenges
        for answer in challenge.answers
        if answer.nonce
    ]


def test_no_answer_is_on_the_site_before_its_period_ends(contests_played: ContestsPlayed) -> None:
    answers = [mail for mail in contests_world.SCRIPT if mail.secret]
    assert len(answers) == 21
    sealed_at: dict[str, list[datetime]] = {mail.secret: [] for mail in answers}
    for cut in contests_played.cuts:
        received = [mail for mail in answers if mail.at < cut.at]
        sealed = [mail.secret for mail in received if mail.deadline and mail.deadline > cut.at]
        opened = [mail.secret for mail in received if mail.deadline and mail.deadline <= cut.at]
        assert leaked(cut.built, sealed) == {}, cut.at
        # The search is not blind: the answers whose period has ended are found.
        assert unfound(cut.built, opened) == [], cut.at
        for secret in sealed:
            sealed_at[secret].append(cut.at)
    # Each answer was searched for while sealed (the five Mediocrity periods cover the
    # Similarity Game's and the Poetry Contest's too), and every one is found at the end.
    assert [secret for secret, instants in sealed_at.items() if not instants] == []
    assert unfound(contests_played.end, [mail.secret for mail in answers]) == []


def test_no_nonce_is_on_the_site_before_its_period_ends(contests_played: ContestsPlayed) -> None:
    committed = nonces(contests_played.app)
    assert len(committed) == 21
    for cut in contests_played.cuts:
        sealed = [nonce for deadline, nonce in committed if deadline > cut.at]
        opened = [nonce for deadline, nonce in committed if deadline <= cut.at]
        assert sealed
        assert leaked(cut.built, sealed) == {}, cut.at
        assert unfound(cut.built, opened) == [], cut.at
    assert unfound(contests_played.end, [nonce for _, nonce in committed]) == []


def test_no_private_post_or_mail_of_the_contests_is_on_the_site(
    contests_played: ContestsPlayed,
) -> None:
    app = contests_played.app
    script = contests_world.SCRIPT
    posted = list(zip(contests_played.posts, script, strict=True))
    public_posts = [raw for raw, mail in posted if not mail.private]
    private_posts = [raw for raw, mail in posted if mail.private]
    public = public_text(app, public_posts)
    mails = private_mail_lines(app, public)
    # Answers refused privately (a second answer, the S.O.'s own, one unpaid): never revealed.
    refused = [mail.body for mail in script if mail.private and not mail.secret]
    assert len(refused) == 3
    posts = message_ids(private_posts)
    assert len(posts) == 24
    for built in [cut.built for cut in contests_played.cuts] + [contests_played.end]:
        assert leaked(built, refused) == {}
        assert never_on_the_site(built, mails) == {}
        assert [files_naming(built, message_id) for message_id in posts] == [[]] * len(posts)
