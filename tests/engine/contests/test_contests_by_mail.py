"""Contests (A Nomic rules 336-343, seed 002) by mail over real IMAP, then replayed.

One world for the module: five players, each staked 20 points by an
administrator's credit.  Posts to the list and answers sent privately to
the bot reach it through a real Dovecot mailbox with their arrival times:

* The Similarity Game (337), S.O. Alice: a challenge; three private answers;
  one answer posted to the list (refused, rule 336: private) and a second
  answer and the S.O.'s own (refused); a judgement before the period's end
  and one by somebody else (refused); at the period's end the reveal and the
  answers mailed; Alice judges Dave's and Carol's answers most correct, and
  Carol's, the earlier, wins half the fees and is the next S.O.  Her
  challenge gets one answer: finished with no winner, the fee returned.
* Mediocrity (343), level 2, at least 3 players, 2 sub-games: four
  challenges that count and one with too few entries (void, refunded); the
  winners computed (ties to the earliest), the S.M passed to each previous
  sub-game's winner, and every fee paid to the game's winner at the end.
* The Poetry Contest (339): two poems, judging overdue (the reminder), then
  the Poet Laureate's judgement.

Then: no answer's text is in any public mail (the players' list posts, the
bot's mails to the list) before its period ended, and each is after; the
fees and prizes are exact in the ledger; the list's archive alone, replayed
into a fresh database, gives the same contests and balances.

Refresh the golden files after a deliberate change with
    NOMICBOT_UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/contests
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import default
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.app import App
from bot.config import DEFAULT_GAMES, GamesSettings, PlayerEntry, Settings
from bot.engine.admin_records import RECORD_TYPE
from bot.engine.refusals import refused_posts
from bot.engine.views import game_view
from bot.engine.worker import process_queue
from bot.ingress.imap import ImapPoller
from bot.posts import compose_post
from bot.runner import advance_to
from bot.store.models import OutboxMessage
from bot.testing.apps import append_to_mailbox, game_settings, imap_settings
from bot.testing.dovecot import DovecotServer
from bot.testing.go_game import BOT_ADDRESS, EPOCH, LIST_ADDRESS, RECEIVING_SERVER
from bot.testing.goldens import check_golden
from bot.testing.records import (
    LIST_DELAY,
    RecordedGame,
    recording_app,
    relayed_by_list,
    rulings,
    tampered,
)

GOLDEN = Path(__file__).parent / "golden"
PLAYERS = {
    "Alice": "alice@example.test",
    "Bob": "bob@example.test",
    "Carol": "carol@example.test",
    "Dave": "dave@example.test",
    "Erin": "erin@example.test",
    "Fay": "fay@example.test",  # staked nothing: eir answer's fee cannot be paid
}
STAKED = ("Alice", "Bob", "Carol", "Dave", "Erin")
STAKE = 20
END = datetime(2026, 1, 24, tzinfo=UTC)


def day(number: int, hour: int = 0, minute: int = 0) -> datetime:
    """Day ``number`` of January 2026 (the epoch is the 1st)."""
    return datetime(2026, 1, number, hour, minute, tzinfo=UTC)


@dataclass(frozen=True)
class Mail:
    at: datetime
    author: str
    body: str
    private: bool = False
    deadline: datetime | None = None  # a private answer: when its period ends
    secret: str = ""  # the text no public mail may hold before the deadline


def public(at: datetime, author: str, body: str) -> Mail:
    return Mail(at, author, body)


def answer(at: datetime, author: str, body: str, secret: str, deadline: datetime) -> Mail:
    return Mail(at, author, body, True, deadline, secret)


SIMILARITY_1_END = day(9, 9)
SIMILARITY_2_END = day(17, 12)
POETRY_END = day(19, 8)


def mediocrity_end(announced: datetime) -> datetime:
    return announced + timedelta(days=3)


def quantity(at: datetime, author: str, value: str, announced: datetime) -> Mail:
    # Quantities with three decimals: no date, hash or header holds them by chance.
    return answer(at, author, f"My quantity is {value}.", value, mediocrity_end(announced))


M1, M2, M3, M4, M5 = day(2, 13), day(5, 14), day(8, 14), day(11, 15), day(14, 18)
SCRIPT = (
    # The Similarity Game, challenge 1: Alice is the S.O. (configured for 337's Benjamin).
    public(day(2, 9), "Alice", "I post the Similarity Challenge: apple, fire engine, ladybird."),
    answer(
        day(2, 10),
        "Bob",
        "My answer to the Similarity Game: all of them are red",
        "all of them are red",
        SIMILARITY_1_END,
    ),
    public(day(2, 11), "Carol", "My answer to the Similarity Game: shiny lacquer"),
    # Mediocrity: Bob starts a game and is its first S.M.
    public(
        day(2, 12), "Bob", "I start a Mediocrity game: level 2, at least 3 players, 2 sub-games."
    ),
    public(M1, "Bob", "I announce the next Mediocrity challenge: submit your quantities."),
    quantity(day(2, 14), "Alice", "10.125", M1),
    quantity(day(2, 15), "Carol", "20.375", M1),
    quantity(day(2, 16), "Dave", "30.625", M1),
    quantity(day(2, 17), "Erin", "40.875", M1),
    answer(
        day(3, 12),
        "Carol",
        "My answer to the Similarity Game: red and roundish",
        "red and roundish",
        SIMILARITY_1_END,
    ),
    answer(
        day(4, 8),
        "Dave",
        "My answer to the Similarity Game: things coloured red",
        "things coloured red",
        SIMILARITY_1_END,
    ),
    Mail(day(4, 9), "Dave", "My answer to the Similarity Game: crimson hue", True),
    Mail(day(4, 10), "Alice", "My answer to the Similarity Game: obviously scarlet", True),
    Mail(day(4, 11), "Fay", "My answer to the Similarity Game: a penniless guess", True),
    public(day(5, 10), "Alice", "I judge Carol's answer the winner of the Similarity Game."),
    public(day(5, 11), "Bob", "I judge Bob's answer the winner of the Similarity Game."),
    public(M2, "Carol", "I announce the next Mediocrity challenge: submit your quantities."),
    quantity(day(5, 15), "Alice", "5.125", M2),
    quantity(day(5, 15, 30), "Bob", "7.375", M2),
    quantity(day(5, 16), "Dave", "9.625", M2),
    public(M3, "Alice", "I announce the next Mediocrity challenge: submit your quantities."),
    quantity(day(8, 15), "Bob", "1.125", M3),
    quantity(day(8, 16), "Carol", "2.375", M3),
    # The Similarity period ended on the 9th at 09:00: Alice judges.
    public(day(10, 10), "Alice", "I judge Dave's and Carol's answers most correct."),
    public(day(10, 12), "Carol", "I post the Similarity Challenge: snow, milk, chalk."),
    answer(
        day(11, 8),
        "Erin",
        "My answer to the Similarity Game: pale as moonlight",
        "pale as moonlight",
        SIMILARITY_2_END,
    ),
    public(M4, "Alice", "I announce the next Mediocrity challenge: submit your quantities."),
    quantity(day(11, 16), "Bob", "100.125", M4),
    quantity(day(11, 16, 30), "Carol", "50.375", M4),
    quantity(day(11, 17), "Dave", "75.625", M4),
    public(day(12, 8), "Erin", "I set the Poetry Challenge: the sea, in one line."),
    answer(
        day(12, 9),
        "Alice",
        "My poem for the Poetry Contest: grey water folds the gulls to sleep",
        "grey water folds the gulls to sleep",
        POETRY_END,
    ),
    answer(
        day(12, 10),
        "Bob",
        "My poem for the Poetry Contest: salt remembers every shore",
        "salt remembers every shore",
        POETRY_END,
    ),
    public(M5, "Dave", "I announce the next Mediocrity challenge: submit your quantities."),
    quantity(day(14, 19), "Alice", "3.125", M5),
    quantity(day(14, 19, 30), "Bob", "3.125", M5),
    quantity(day(14, 20), "Erin", "8.375", M5),
    # Judging the poems is overdue on the 21st at 08:00 (336: "like 2 days at most").
    public(day(22, 9), "Erin", "I judge Bob's poem the winner of the Poetry Contest."),
)


def settings(folder: Path) -> Settings:
    # The one line that enables the game, and the nomic's own first Contestmasters.
    games = GamesSettings(enabled=(*DEFAULT_GAMES, "contests"))
    return game_settings(
        folder,
        games=games,
        players=tuple(PlayerEntry(name, (address,)) for name, address in PLAYERS.items()),
        game_sections={
            "contests": {"similarity_contestmaster": "Alice", "poetry_contestmaster": "Erin"}
        },
    )


def raw_of(number: int, mail: Mail) -> bytes:
    return compose_post(
        mail.author,
        PLAYERS[mail.author],
        "Contests",
        mail.body,
        f"contests-{number}@example.test",
        mail.at,
        to=BOT_ADDRESS if mail.private else LIST_ADDRESS,
        vouched_by=RECEIVING_SERVER if mail.private else "",
    )


@dataclass
class World:
    app: App
    game: RecordedGame  # its archive: the list's, built by ``list_archive``
    public_mails: list[tuple[bytes, datetime]]


def bot_mails_to_list(app: App) -> list[tuple[bytes, datetime]]:
    """Every mail the bot sent the list, with the instant it names (its Date)."""
    with app.session_factory() as session:
        rows = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
        mails = []
        for row in rows:
            if LIST_ADDRESS in row.recipients:
                date = message_from_bytes(row.raw, policy=default)["Date"]
                mails.append((row.raw, parsedate_to_datetime(str(date))))
        return mails


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, dovecot: DovecotServer) -> Iterator[World]:
    folder = tmp_path_factory.mktemp("contests")
    app = recording_app(settings(folder / "live"))
    game = RecordedGame(app)
    for name in STAKED:
        status, reason = game.act(
            EPOCH + timedelta(hours=1),
            "ledger.credit",
            {"player": name, "amount": STAKE, "currency": "points", "reason": "a stake"},
        )
        assert status == "processed", reason
    game.archive.clear()  # rebuilt below from everything the list carried
    account = dovecot.add_user(f"contests-{secrets.token_hex(3)}", secrets.token_urlsafe(12))
    raws = [(raw_of(number, mail), mail.at) for number, mail in enumerate(SCRIPT, start=1)]
    append_to_mailbox(account, raws)
    polled = ImapPoller(imap_settings(account), app.session_factory).poll_once()
    assert polled.stored == len(SCRIPT)
    process_queue(app.session_factory, app.services)
    advance_to(app, END)
    posts = [
        (raw, mail.at) for (raw, _), mail in zip(raws, SCRIPT, strict=True) if not mail.private
    ]
    from_bot = bot_mails_to_list(app)
    game.archive.extend(posts)
    game.archive.extend((relayed_by_list(raw), at + LIST_DELAY) for raw, at in from_bot)
    yield World(app, game, posts + from_bot)
    app.dispose()


def view(app: App, name: str) -> Any:
    with app.session_factory() as session:
        return game_view(session, app.services, name).data


def points(app: App) -> dict[str, int]:
    with app.session_factory() as session:
        text = game_view(session, app.services, "holdings").text
    balances = {}
    for line in text.splitlines():
        name = line.split(":", 1)[0].strip()
        if name in PLAYERS:
            balances[name] = _points_in(line)
    return balances


def _points_in(line: str) -> int:
    for part in line.split(":", 1)[1].split(","):
        words = part.split()
        if len(words) == 2 and words[1] in ("point", "points"):
            return int(words[0])
    return 0


def public_text(raw: bytes) -> str:
    """Everything a reader of ``raw`` sees: every part decoded, records opened."""
    texts = []
    mail = message_from_bytes(raw, policy=default)
    for part in mail.walk():
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            continue
        if part.get_content_type() == RECORD_TYPE:
            texts.append(public_text(payload))
        else:
            texts.append(payload.decode("utf-8", "replace"))
    texts.append(str(mail["Subject"]))
    return "\n".join(texts)


def contest(app: App, key: str) -> dict[str, Any]:
    for each in view(app, "contests")["contests"]:
        if each["contest"] == key:
            return dict(each)
    raise AssertionError(key)


def public_rulings(app: App) -> list[tuple[str, str, str, str, str]]:
    # The private answers' rulings went to their authors alone; the archive has
    # their commitments instead (applied as records, not rulings).
    return [
        entry for entry in rulings(app) if entry[0] != "contests.answer" or "privately" in entry[2]
    ]


def contest_mails(app: App) -> list[tuple[str, str]]:
    with app.session_factory() as session:
        rows = session.scalars(
            select(OutboxMessage)
            .where(OutboxMessage.kind.startswith("contests"))
            .order_by(OutboxMessage.id)
        ).all()
        return [(row.message_id, public_text(row.raw)) for row in rows]


def test_the_rulings_are_the_golden_ones(world: World) -> None:
    lines = "".join(
        f"{action} | {ruling} | {reason}\n" for action, ruling, reason, _, _ in rulings(world.app)
    )
    # A commitment hashes a random nonce: it differs from run to run.
    check_golden(GOLDEN / "rulings.txt", re.sub(r"\b[0-9a-f]{64}\b", "<commitment>", lines))


def test_the_similarity_game_fees_prize_and_succession(world: World) -> None:
    similarity = contest(world.app, "similarity")
    first, second = similarity["challenges"]
    assert [a["player"] for a in first["answers"]] == ["Bob", "Carol", "Dave"]
    assert first["outcome"]["winner"] == "Carol"  # Dave's and Carol's most correct: Carol earlier
    assert first["outcome"]["prize"] == 6  # half of 3 x (2 x 2)
    assert second["contestmaster"] == "Carol"
    assert second["outcome"]["winner"] is None  # one answer: finished with no winner
    assert similarity["contestmaster"] == "Carol"  # unchanged by a round with no winner


def test_mediocrity_winners_are_computed_and_the_fees_go_to_the_winner(world: World) -> None:
    mediocrity = contest(world.app, "mediocrity")
    (game,) = mediocrity["games"]
    winners = [c["outcome"]["winner"] for c in mediocrity["challenges"]]
    # 20.375 and 30.625 are equally mediocre: Carol's came first; 7.375 the median;
    # the third challenge had two entries of three required; 75.625; 3.125 twice.
    assert winners == ["Carol", "Bob", None, "Dave", "Alice"]
    # The S.M of each challenge: the winner of the sub-game concluded last.
    masters = [c["contestmaster"] for c in mediocrity["challenges"]]
    assert masters == ["Bob", "Carol", "Alice", "Alice", "Dave"]
    assert game["challenges"] == [1, 2, 4, 5]
    assert (game["winner"], game["collection"]) == ("Carol", 13 * 4)
    assert mediocrity["contestmaster"] is None  # over: any player may start the next


def test_the_ledger_holds_exactly_the_fees_and_prizes(world: World) -> None:
    fee = 4
    expected = {name: STAKE if name in STAKED else 0 for name in PLAYERS}
    # The Similarity Game: three answers to Alice, half to Carol; Erin's refunded.
    for name in ("Bob", "Carol", "Dave"):
        expected[name] -= fee
    expected["Alice"] += 3 * fee - 6
    expected["Carol"] += 6
    # Mediocrity: 13 counted entries, all to Carol; the void challenge's refunded.
    entries = {"Alice": 3, "Bob": 3, "Carol": 2, "Dave": 3, "Erin": 2}
    for name, count in entries.items():
        expected[name] -= count * fee
    expected["Carol"] += 13 * fee
    # The Poetry Contest: two poems to Erin, half to Bob.
    expected["Alice"] -= fee
    expected["Bob"] += -fee + fee
    expected["Erin"] += 2 * fee - fee
    assert points(world.app) == expected


def test_no_answer_is_public_before_its_period_ends(world: World) -> None:
    answers = [mail for mail in SCRIPT if mail.secret]
    assert len(answers) == 21
    texts = [(public_text(raw), at) for raw, at in world.public_mails]
    for mail in answers:
        assert mail.deadline is not None
        before = [text for text, at in texts if at < mail.deadline and mail.secret in text]
        assert before == [], f"{mail.secret!r} was public before {mail.deadline}"
        after = [text for text, at in texts if at >= mail.deadline and mail.secret in text]
        assert after, f"{mail.secret!r} was never published"


def test_the_list_archive_alone_rebuilds_the_contests(
    world: World, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("replay")
    fresh = world.game.replay_into(settings(folder), END)
    try:
        assert view(fresh, "contests") == view(world.app, "contests")
        assert points(fresh) == points(world.app)
        assert public_rulings(fresh) == public_rulings(world.app)
        # The same reports, to the list and to the Contestmasters, in the same order.
        assert contest_mails(fresh) == contest_mails(world.app)
    finally:
        fresh.dispose()


def test_the_reports_are_the_golden_ones(world: World) -> None:
    # The periods' ends, the answers mailed to the Contestmaster, the reminder.
    with world.app.session_factory() as session:
        rows = session.scalars(
            select(OutboxMessage)
            .where(OutboxMessage.kind.startswith("contests"))
            .order_by(OutboxMessage.id)
        ).all()
        mails = [message_from_bytes(row.raw, policy=default) for row in rows]
    kinds = [str(mail["X-Nomicbot-Kind"]) for mail in mails]
    assert kinds.count("contests-reminder") == 1  # the poems, judged late
    assert kinds.count("contests-to-judge") == 2  # the Similarity and Poetry rounds judged
    text = "\n=====\n".join(
        f"To: {mail['To']}\nSubject: {mail['Subject']}\n\n{mail.get_body().get_content()}"  # type: ignore[union-attr]
        for mail in mails
    )
    check_golden(GOLDEN / "reports.txt", text)


def test_the_state_view_shows_the_contests(world: World) -> None:
    with world.app.session_factory() as session:
        text = game_view(session, world.app.services, "contests").text
    check_golden(GOLDEN / "view.txt", re.sub(r"\b[0-9a-f]{16}\.\.\.", "<commitment>...", text))


def test_an_archive_cut_before_the_period_ends_keeps_the_answers_sealed(
    world: World, tmp_path_factory: pytest.TempPathFactory
) -> None:
    cut = day(5)
    early = RecordedGame(world.app, [entry for entry in world.game.archive if entry[1] < cut])
    fresh = early.replay_into(settings(tmp_path_factory.mktemp("early")), cut)
    try:
        answers = contest(fresh, "similarity")["challenges"][0]["answers"]
        live = contest(world.app, "similarity")["challenges"][0]["answers"]
        assert [(a["player"], a["content"]) for a in answers] == [
            ("Bob", None),
            ("Carol", None),
            ("Dave", None),
        ]
        assert [a["commitment"] for a in answers] == [a["commitment"] for a in live]
        # The fees are taken all the same: Alice holds her stake and three fees, less
        # her own Mediocrity entry.
        assert points(fresh)["Alice"] == STAKE + 3 * 4 - 4
        with fresh.session_factory() as session:
            text = game_view(session, fresh.services, "contests").text
        assert "sealed (commitment" in text and "all of them are red" not in text
    finally:
        fresh.dispose()


def is_similarity_reveal(raw: bytes) -> bool:
    text = public_text(raw)
    return '"command": "contests.reveal"' in text and "red and roundish" in text


def test_a_changed_reveal_is_refused_and_opens_nothing(
    world: World, tmp_path_factory: pytest.TempPathFactory
) -> None:
    changed = [
        (tampered(raw, b"red and roundish", b"blue and square"), at)
        if is_similarity_reveal(raw)
        else (raw, at)
        for raw, at in world.game.archive
    ]
    assert changed != world.game.archive
    fresh = RecordedGame(world.app, changed).replay_into(
        settings(tmp_path_factory.mktemp("changed")), END
    )
    try:
        with fresh.session_factory() as session:
            reasons = [post.reason for post in refused_posts(session)]
        assert any("not the referee's" in reason for reason in reasons), reasons
        first = contest(fresh, "similarity")["challenges"][0]
        assert "blue and square" not in str(first)
    finally:
        fresh.dispose()
