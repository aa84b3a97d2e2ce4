"""A Nomic's Cards and Pooker (seed 002) by mail: deals, a Trade, a Motion, a Showdown.

Four players, Dave the Dealer (rule 386).  Alice moves to show cards in
nweek 1 and the others vote against the Motion nweek after nweek, so each
voter is dealt a Card at the start of every nweek (rule 391), told it
privately (387), and the Dealer's report shows Backs only (390).  Alice and
Bob trade by private notices to the referee (395; a mismatched notice is
refused), then Bob and Carol vote for the Motion and it passes (396); in
the Showdown Alice shows her PCards worse arranged than she could and is
told the best arrangement (397), Bob shows his best, Carol only part of
hers.  The prize comes from the Bank, the shown PCards return to the Deck
and their deals are revealed; ``verify-dice`` checks each one, and nothing
of Carol's unshown Cards is derivable from the list.

The posts are scripted against a scratch bot (the players read their Hands
from it), then reach a second bot over real IMAP (Dovecot) with their
arrival times; the list's archive alone, replayed into a fresh database,
gives the same Hands, Deck and balances.  One world for the module.

Refresh the golden files after a deliberate change with
    NOMICBOT_UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/cards

The packs are the Red and Blue only (``[cards] packs = 2``, the Pooker
Packs of rule 399), so that every Card dealt counts in the Showdown.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.app import App, build_app
from bot.audit import verify_archive
from bot.config import DEFAULT_GAMES, GamesSettings, PlayerEntry, Settings
from bot.engine import ledger, scheduler
from bot.engine.admin_records import RECORD_TYPE
from bot.engine.game import TimedEvent
from bot.engine.games.cards_state import CardsState, load_state
from bot.engine.games.cards_trades import unseal
from bot.engine.holdings import POINTS
from bot.engine.players import find_player_by_name
from bot.engine.services import Services
from bot.engine.views import game_view
from bot.engine.worker import process_queue
from bot.games.cards import Card
from bot.games.cards.pooker import best_arrangement, pcards_of
from bot.ingress.imap import ImapPoller
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post
from bot.runner import advance_to, replay_archive, store_message
from bot.store.models import ActionRecord, Message, OutboxMessage
from bot.testing.apps import append_to_mailbox, game_settings, imap_settings
from bot.testing.dovecot import DovecotServer
from bot.testing.go_game import BOT_ADDRESS, LIST_ADDRESS, RECEIVING_SERVER
from bot.testing.goldens import check_golden
from bot.testing.records import recording_app, write_list_archive
from bot.trust.bot_key import GENERATED_RECORD

PLAYERS = {
    "Alice": "alice@example.test",
    "Bob": "bob@example.test",
    "Carol": "carol@example.test",
    "Dave": "dave@example.test",
}
NWEEKS_OF_VOTES = 7  # each voter is dealt seven Cards: more than five, so Hands may be split
LIST_DELAY = timedelta(seconds=3)
GOLDEN = Path(__file__).parent / "golden"


def day(number: int, hour: int = 0, minute: int = 0) -> datetime:
    """Day ``number`` of 2026 (the ntime epoch is 1 January; an nweek is ten days)."""
    return datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=number - 1, hours=hour, minutes=minute)


def settings(folder: Path) -> Settings:
    # The one line that enables the game.
    games = GamesSettings(enabled=(*DEFAULT_GAMES, "cards"))
    base = game_settings(folder, games=games)
    return replace(
        base,
        # Alice and Bob join by mail (rule 14: a Point each, for the Trade's fee).
        players=tuple(PlayerEntry(name, (PLAYERS[name],)) for name in ("Carol", "Dave")),
        game_sections={"cards": {"dealer": "Dave", "packs": 2, "motion_days": 100}},
    )


@dataclass
class Table:
    """A bot fed posts as the daemon feeds them, and every post kept with its arrival."""

    app: App
    posts: list[tuple[bytes, datetime]]
    public: list[tuple[bytes, datetime]]

    def post(self, at: datetime, author: str, body: str, private: bool = False) -> str:
        message_id = f"post-{len(self.posts) + 1}@example.test"
        raw = compose_post(
            author,
            PLAYERS[author],
            "Pooker",
            body,
            message_id,
            at,
            to=BOT_ADDRESS if private else LIST_ADDRESS,
            vouched_by=RECEIVING_SERVER if private else "",
        )
        advance_to(self.app, at)
        store_message(self.app, raw, "smtp", at)
        process_queue(self.app.session_factory, self.app.services)
        self.posts.append((raw, at))
        if not private:
            self.public.append((raw, at))
        return message_id

    def state(self) -> CardsState:
        with self.app.session_factory() as session:
            return load_state(session, 2)

    def hand(self, player: str) -> list[Card]:
        return list(self.state().table.hand_of(player))


@dataclass(frozen=True)
class World:
    scratch: Table
    live: App
    replayed: App
    trade: tuple[Card, Card]
    showdown_starts: datetime
    shown_by_carol: tuple[Card, ...]
    hands_before: dict[str, list[Card]]
    archive: Path
    audit_box: Path
    ids: dict[str, str]


def play(
    table: Table, hands_before: dict[str, list[Card]]
) -> tuple[tuple[Card, Card], datetime, tuple[Card, ...], dict[str, Any]]:
    """The whole game; ``hands_before`` gets the Hands as the Showdown begins."""
    ids: dict[str, Any] = {}
    advance_to(table.app, day(1, 0, 1))
    for minute, player in ((0, "Alice"), (5, "Bob")):
        table.post(day(1, 8, minute), player, f"I want to become a player named {player}.")
    table.post(day(1, 9), "Alice", "I move to show cards.")
    for nweek in range(NWEEKS_OF_VOTES):
        first = 1 + 10 * nweek
        for hour, voter in ((10, "Bob"), (11, "Carol")):
            table.post(day(first, hour), voter, "I vote no on poll 1.")
        if nweek:
            table.post(day(first, 12), "Alice", "I vote yes on poll 1.")
    # Nweek 8 begins on day 71: the seventh deals.
    advance_to(table.app, day(71, 1))
    alice, bob = table.hand("Alice"), table.hand("Bob")
    give, take = alice[-1], bob[0]
    ids["public_trade"] = table.post(
        day(71, 8), "Alice", f"I trade my {give.short} for Bob's {take.short}."
    )
    ids["first_notice"] = table.post(
        day(71, 9), "Alice", f"I trade my {give.short} for Bob's {take.short}.", private=True
    )
    ids["mismatch"] = table.post(
        day(71, 10), "Bob", f"I trade my {bob[1].short} for Alice's {give.short}.", private=True
    )
    ids["second_notice"] = table.post(
        day(71, 11), "Bob", f"I trade my {take.short} for Alice's {give.short}.", private=True
    )
    ids["early_show"] = table.post(day(71, 12), "Carol", "I show 2H.")
    table.post(day(72, 9), "Bob", "I vote yes on poll 1.")
    passing = day(72, 10)
    table.post(passing, "Carol", "I vote yes on poll 1.")
    for player in ("Alice", "Bob", "Carol"):
        hands_before[player] = table.hand(player)
    # Alice shows each PCard as a Poker Hand of its own: a worse arrangement.
    ids["alice_show"] = table.post(
        day(72, 12), "Alice", "I show " + " ; ".join(c.short for c in table.hand("Alice")) + "."
    )
    best_bob = best_arrangement(pcards_of(table.state().table, "Bob"))
    assert best_bob is not None
    bob_hands = " ; ".join(" ".join(c.short for c in hand.cards) for hand in best_bob.hands)
    ids["bob_show"] = table.post(day(72, 13), "Bob", f"I show {bob_hands}.")
    carol = table.hand("Carol")[:3]
    ids["carol_show"] = table.post(
        day(72, 14), "Carol", "I show " + " ".join(c.short for c in carol) + "."
    )
    advance_to(table.app, day(75, 1))
    ids["passing"] = passing.isoformat()
    return (give, take), passing, tuple(carol), ids


def list_archive(table: Table, path: Path) -> Path:
    """The list's archive: the public posts and every mail the bot sent to the list."""
    return write_list_archive(table.app, table.public, path, LIST_DELAY)


def replay(source: App, archive: Path, folder: Path, until: datetime) -> App:
    """A fresh bot that knows the live bot's published key, fed the list archive alone."""
    published = source.settings.data_path / GENERATED_RECORD
    fresh = settings(folder)
    fresh = replace(fresh, trust=replace(fresh.trust, key_file=str(published)))
    app = build_app(fresh)
    replay_archive(app, archive, MaildirTransport(folder / "replayed"), until=until)
    return app


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, dovecot: DovecotServer) -> Iterator[World]:
    folder = tmp_path_factory.mktemp("cards")
    table = Table(recording_app(settings(folder / "scratch")), [], [])
    hands_before: dict[str, list[Card]] = {}
    trade, passing, carol, ids = play(table, hands_before)
    account = dovecot.add_user("cards-live", "cards-password")
    append_to_mailbox(account, table.posts)
    live = recording_app(settings(folder / "live"))
    advance_to(live, day(1, 0, 1))
    polled = ImapPoller(imap_settings(account), live.session_factory).poll_once()
    assert polled.stored == len(table.posts)
    process_queue(live.session_factory, live.services)
    advance_to(live, day(75, 1))
    archive = list_archive(table, folder / "list.mbox")
    replayed = replay(table.app, archive, folder / "replay", day(75, 1))
    yield World(
        table,
        live,
        replayed,
        trade,
        passing,
        carol,
        hands_before,
        archive,
        folder / "audit.mbox",
        ids,
    )
    live.dispose()
    replayed.dispose()


def rulings_of(app: App) -> list[tuple[str, str, str]]:
    with app.session_factory() as session:
        rows = session.scalars(
            select(ActionRecord)
            .where(ActionRecord.action != "admin.record")
            .order_by(ActionRecord.occurred_at, ActionRecord.id)
        )
        return [(row.action, row.ruling, row.summary or row.reason) for row in rows]


def bot_mails(app: App, public: bool) -> list[tuple[str, str, str, str]]:
    """(kind, In-Reply-To, recipients, every text part decoded) of the bot's mails."""
    found = []
    with app.session_factory() as session:
        for row in session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)):
            if (LIST_ADDRESS in row.recipients) != public:
                continue
            mail = message_from_bytes(row.raw, policy=default)
            texts = []
            for part in mail.walk():
                payload = part.get_payload(decode=True)
                if isinstance(payload, bytes):
                    texts.append(payload.decode("utf-8", "replace"))
            replying = str(mail.get("In-Reply-To", "")).strip("<>")
            found.append((row.kind, replying, ",".join(row.recipients), "\n".join(texts)))
    return found


def trade_records(app: App) -> list[dict[str, Any]]:
    """The JSON of each signed ``cards.trade`` record the bot mailed to the list."""
    found = []
    with app.session_factory() as session:
        query = select(OutboxMessage).where(OutboxMessage.kind == "admin-record")
        for row in session.scalars(query.order_by(OutboxMessage.id)):
            mail = message_from_bytes(row.raw, policy=default)
            for part in mail.walk():
                if part.get_content_type() != RECORD_TYPE:
                    continue
                payload = part.get_payload(decode=True)
                assert isinstance(payload, bytes)
                inner = message_from_bytes(payload, policy=default)
                document = json.loads(inner.get_content())
                if document["command"] == "cards.trade":
                    found.append(document)
    return found


def mentions(text: str, card: Card) -> list[str]:
    """How ``text`` could name ``card``: its number in a proof line, its Face with its Back."""
    patterns = [
        rf"card={card.number}\b",
        rf"\b{card.back} {card.face.short}\b",
        rf"{card.face.name} \({card.back}",
    ]
    return [pattern for pattern in patterns if re.search(pattern, text)]


def faces_named(text: str, cards: list[Card]) -> list[str]:
    """The Faces of ``cards`` that ``text`` names in any form."""
    return [
        card.short
        for card in cards
        if re.search(rf"(?<![\w+/=]){card.face.short}(?![\w+/=])", text)
        or card.face.name in text
        or f"card={card.number}" in text
    ]


def balances(app: App) -> dict[str, int]:
    with app.session_factory() as session:
        return {
            name: ledger.balance(session, find_player_by_name(session, name).id, POINTS)
            for name in PLAYERS
        }


def view(app: App) -> dict[str, Any]:
    with app.session_factory() as session:
        return dict(game_view(session, app.services, "cards").data)


def test_each_voter_is_dealt_a_card_each_nweek_and_told_it_privately(world: World) -> None:
    state = world.scratch.state()
    assert len(state.deals) == 3 * NWEEKS_OF_VOTES  # Alice, Bob, Carol; Dave deals
    assert {record.recipient for record in state.deals} == {"Alice", "Bob", "Carol"}
    notices = [
        mail for mail in bot_mails(world.scratch.app, public=False) if mail[0] == "cards-deal"
    ]
    assert len(notices) == len(state.deals)
    for record, (_, _, recipients, text) in zip(state.deals, notices, strict=True):
        card = Card.from_number(record.number, 2)
        assert recipients == PLAYERS[record.recipient]
        assert f"you were dealt the {card.name}, deal {record.deal}" in text
    reports = [
        mail for mail in bot_mails(world.scratch.app, public=True) if mail[0] == "cards-report"
    ]
    assert len(reports) == NWEEKS_OF_VOTES
    assert "Alice received 1 Card:" in reports[0][3] and "hidden-v1 deal=1/1 back=" in reports[0][3]


def test_no_public_mail_names_a_card_before_it_is_shown(world: World) -> None:
    dealt = [Card.from_number(record.number, 2) for record in world.scratch.state().deals]
    passing = world.showdown_starts
    checked = 0
    for kind, replying, _, text in bot_mails(world.scratch.app, public=True):
        if replying == world.ids["public_trade"]:
            continue  # it quotes what Alice herself posted to the list
        if kind == "cards-motion":
            break  # the Showdown begins: from here players show Cards on the list
        assert faces_named(text, dealt) == [], (kind, text)
        checked += 1
    assert checked > 30
    # Carol's Cards that she did not show are named nowhere, their deals unrevealed.
    unshown = [c for c in world.hands_before["Carol"] if c not in world.shown_by_carol]
    assert unshown
    state = world.scratch.state()
    for kind, _, _, text in bot_mails(world.scratch.app, public=True):
        for card in unshown:
            assert mentions(text, card) == [], (kind, card)
            record = state.latest_deal_of(card.number)
            assert record is not None and f"deal={record.deal} card=" not in text
    assert passing < datetime(2026, 3, 20, tzinfo=UTC)


def test_a_trade_by_two_private_notices_and_a_mismatch_refused(world: World) -> None:
    give, take = world.trade
    assert give in world.hands_before["Bob"] and take in world.hands_before["Alice"]
    rulings = [r for r in rulings_of(world.scratch.app) if r[0] == "cards.trade"]
    assert [ruling for _, ruling, _ in rulings] == ["rejected", "applied", "rejected", "applied"]
    assert "privately" in rulings[0][2]
    assert "both notices must describe the same Trade" in rulings[2][2]
    assert "the Trade is made" in rulings[3][2]
    # The referee answered each private notice privately.
    private = bot_mails(world.scratch.app, public=False)
    for key in ("first_notice", "mismatch", "second_notice"):
        (answer,) = [mail for mail in private if mail[1] == world.ids[key]]
        sender = "Alice" if key == "first_notice" else "Bob"
        assert answer[2] == PLAYERS[sender]
    # The list got one sealed record per accepted notice, naming no Card.
    records = [
        mail for mail in bot_mails(world.scratch.app, public=True) if "cards.trade" in mail[3]
    ]
    assert len(records) == 2
    assert all(faces_named(text, [give, take]) == [] for *_, text in records)


def test_each_sealed_notice_opens_once_its_cards_are_shown(world: World) -> None:
    give, take = world.trade
    (result,) = [m for m in bot_mails(world.scratch.app, public=True) if m[0] == "cards-showdown"]
    keys = dict(re.findall(r"hidden-v1 notice=(\w+) key=([0-9a-f]{64})", result[3]))
    assert len(keys) == 2
    opened = []
    for document in trade_records(world.scratch.app):
        key = bytes.fromhex(keys[document["record"]])
        arguments = document["arguments"]
        opened.append(unseal(key, arguments["sealed"], arguments["tag"]))
    assert [(notice["sender"], notice["args"]["gives"]) for notice in opened] == [
        ("Alice", [give.short]),
        ("Bob", [take.short]),
    ]


def test_the_motion_passes_and_the_showdown_pays_the_best_total(world: World) -> None:
    rulings = {
        r[2].split(" shows")[0]: r
        for r in rulings_of(world.scratch.app)
        if r[0] == "cards.show" and r[1] == "applied"
    }
    alice = rulings["Alice"][2]
    assert "Your Cards could have scored" in alice and "rather than 0" in alice
    assert "could have scored" not in rulings["Bob"][2]
    (result,) = [m for m in bot_mails(world.scratch.app, public=True) if m[0] == "cards-showdown"]
    bob_total = int(re.search(r"Bob showed:.*?total (\d+)", result[3], re.S)[1])  # type: ignore[index]
    assert bob_total > 0
    assert f"the Bank pays Bob {bob_total} Points" in result[3]
    # Each of Alice and Bob had 1 Point (rule 14) and paid it to Dave (rule 395).
    assert balances(world.scratch.app) == {"Alice": 0, "Bob": bob_total, "Carol": 0, "Dave": 2}
    assert view(world.scratch.app)["motion_poll"] is None


def test_shown_cards_return_to_the_deck_and_verify(world: World) -> None:
    state = world.scratch.state()
    shown = 7 + 7 + len(world.shown_by_carol)
    assert state.table.deck_size() == 104 - 3 * NWEEKS_OF_VOTES + shown
    for player in ("Alice", "Bob"):
        assert state.table.hand_of(player) == ()
    (result,) = [m for m in bot_mails(world.scratch.app, public=True) if m[0] == "cards-showdown"]
    returns = re.findall(r"hidden-v1 return card=(\d+)", result[3])
    reveals = re.findall(r"hidden-v1 deal=(\S+) card=(\d+) secret=", result[3])
    assert len(returns) == shown
    assert reveals and {int(number) for _, number in reveals} <= {int(n) for n in returns}
    report = verify_archive(world.archive)
    assert report.ok, report.lines
    # Every reveal re-derived (rule 387's rolls from the deal's secret).
    assert report.checked == len(reveals), report.summary


def test_the_bot_over_imap_rules_the_same(world: World) -> None:
    assert rulings_of(world.live) == rulings_of(world.scratch.app)
    assert view(world.live) == view(world.scratch.app)
    assert balances(world.live) == balances(world.scratch.app)
    with world.live.session_factory() as session:
        assert load_state(session, 2) == world.scratch.state()


def test_the_list_archive_alone_gives_the_same_hands_deck_and_balances(world: World) -> None:
    with world.replayed.session_factory() as session:
        replayed = load_state(session, 2)
        statuses = session.scalars(select(Message.status)).all()
    assert "refused" not in statuses and "shunted" not in statuses
    assert replayed.table == world.scratch.state().table
    assert replayed.deals == world.scratch.state().deals
    assert view(world.replayed) == view(world.scratch.app)
    assert balances(world.replayed) == balances(world.scratch.app)


def body(raw: bytes) -> str:
    return str(message_from_bytes(raw, policy=default).get_body().get_content())  # type: ignore[union-attr]


def test_golden_rulings_report_and_showdown(world: World) -> None:
    rulings = [row for row in rulings_of(world.live) if row[0].startswith("cards.")]
    check_golden(
        GOLDEN / "rulings.txt", "".join(f"{a} | {r} | {reason}\n" for a, r, reason in rulings)
    )
    with world.live.session_factory() as session:
        kinds = ("cards-report", "cards-showdown", "cards-motion")
        rows = session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind.in_(kinds)).order_by(OutboxMessage.id)
        ).all()
        mails = [body(row.raw) for row in rows]
    check_golden(GOLDEN / "reports.txt", "\n=====\n".join([mails[0], *mails[-2:]]))


def test_the_cards_events_next_due_changes_no_mail_and_no_state(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The list archive replayed again with every timed handler run over every
    # piece of time, as before Cards said when its events fall due: the deals
    # (rule 391), the key commitments, the Motion and the Showdown (rule 396)
    # come out the same, mail for mail.
    def every_handler_every_time(services: Services) -> tuple[TimedEvent, ...]:
        events = (*scheduler.OWN_EVENTS, *services.timed_events())
        return tuple(
            replace(event, next_due=None) for event in sorted(events, key=TimedEvent.order)
        )

    monkeypatch.setattr(scheduler, "timed_events", every_handler_every_time)
    running_all = replay(world.scratch.app, world.archive, tmp_path / "running-all", day(75, 1))
    try:
        mails = bot_mails(running_all, public=True)
        assert {kind for kind, *_ in mails} >= {"cards-key", "cards-report"}
        assert mails == bot_mails(world.replayed, public=True)
        assert bot_mails(running_all, public=False) == bot_mails(world.replayed, public=False)
        assert rulings_of(running_all) == rulings_of(world.replayed)
        with running_all.session_factory() as session:
            assert load_state(session, 2) == load_state_of(world.replayed)
    finally:
        running_all.dispose()


def load_state_of(app: App) -> CardsState:
    with app.session_factory() as session:
        return load_state(session, 2)
