"""A Nomic's Cards and Pooker (seed 002): the state the bot keeps, and its JSON row.

One ``game`` row named ``cards`` holds who holds each Card (``CardTable``:
the Deck and the Hands, rules 388-389), every deal made (its Card and rolls,
for the reveal), the public order of deals and returns (what the archive
shows, ``bot.games.cards.hidden.whereabouts_before``), which nweeks were
dealt and which deal keys were committed to and revealed, the Motion to
Show Cards (its poll) and the Showdown in progress, and the Trade notices
waiting for their other half.  The Cards are private: the view shows only
what the archive shows (``bot.engine.games.cards``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.games.cards import CardTable, DealId
from bot.games.cards.hidden import PublicDeal, PublicEvent, PublicReturn
from bot.store.models import GameRecord

NAME = "cards"


@dataclass(frozen=True)
class DealRecord:
    """One deal: to whom, which Card after which rolls; ``due`` once it may be revealed
    (shown or back in the Deck), ``revealed`` once its reveal line is published."""

    deal: DealId
    recipient: str
    number: int
    rolls: tuple[int, ...]
    due: bool = False
    revealed: bool = False


@dataclass(frozen=True)
class ShownCards:
    """What one player showed in a Showdown: eir Poker Hands, as Card numbers."""

    player: str
    hands: tuple[tuple[int, ...], ...]
    message_id: str


@dataclass(frozen=True)
class Showdown:
    """A Showdown in progress (rule 396): when it began and ends, who declared it."""

    number: int
    started_at: datetime
    closes_at: datetime
    declarer: str | None
    shown: tuple[ShownCards, ...] = ()


@dataclass(frozen=True)
class TradeNoticeRecord:
    """A private Trade notice waiting for its other half (rule 395), as the player wrote it."""

    sender: str
    partner: str
    gives: tuple[str, ...]
    receives: tuple[str, ...]
    at: datetime
    record: str  # the id of the sealed record that published it


@dataclass(frozen=True)
class SealedNotice:
    """An accepted Trade notice's sealed record, the Cards its Trade moved, and from
    which public event on they must all have returned to the Deck for its key to be
    published (``after``, an index into ``CardsState.events``)."""

    record: str
    numbers: tuple[int, ...]
    after: int
    revealed: bool = False


@dataclass(frozen=True)
class CardsState:
    table: CardTable
    deals: tuple[DealRecord, ...] = ()
    # ("deal", "13/2") or ("return", "131"), in the order the archive shows them.
    events: tuple[tuple[str, str], ...] = ()
    dealt_nweeks: frozenset[int] = frozenset()
    committed_keys: frozenset[int] = frozenset()
    revealed_keys: frozenset[int] = frozenset()
    motion_poll: int | None = None
    showdown: Showdown | None = None
    showdowns: int = 0
    notices: tuple[TradeNoticeRecord, ...] = field(default=())
    trades: int = 0
    sealed: tuple[SealedNotice, ...] = ()

    def deal_record(self, deal: DealId) -> DealRecord:
        return next(record for record in self.deals if record.deal == deal)

    def latest_deal_of(self, number: int) -> DealRecord | None:
        """The deal that last gave Card ``number`` out."""
        found = [record for record in self.deals if record.number == number]
        return found[-1] if found else None

    def public_history(self) -> tuple[PublicEvent, ...]:
        """The deals and returns as the archive shows them now (reveals published so far)."""
        revealed = {record.deal: record.number for record in self.deals if record.revealed}
        history: list[PublicEvent] = []
        for kind, value in self.events:
            if kind == "deal":
                deal = DealId.parse(value)
                history.append(PublicDeal(deal, revealed.get(deal)))
            else:
                history.append(PublicReturn(int(value)))
        return tuple(history)

    def with_deal(self, record: DealRecord) -> CardsState:
        return replace(
            self, deals=(*self.deals, record), events=(*self.events, ("deal", str(record.deal)))
        )


def new_state(pack_count: int) -> CardsState:
    return CardsState(CardTable.new(pack_count))


# -- JSON ------------------------------------------------------------------------------------


def state_to_json(state: CardsState) -> dict[str, Any]:
    return {
        "table": state.table.to_dict(),
        "deals": [_deal_to_json(record) for record in state.deals],
        "events": [list(event) for event in state.events],
        "dealt_nweeks": sorted(state.dealt_nweeks),
        "committed_keys": sorted(state.committed_keys),
        "revealed_keys": sorted(state.revealed_keys),
        "motion_poll": state.motion_poll,
        "showdown": None if state.showdown is None else _showdown_to_json(state.showdown),
        "showdowns": state.showdowns,
        "notices": [_notice_to_json(notice) for notice in state.notices],
        "trades": state.trades,
        "sealed": [
            {
                "record": n.record,
                "numbers": list(n.numbers),
                "after": n.after,
                "revealed": n.revealed,
            }
            for n in state.sealed
        ],
    }


def state_from_json(data: Mapping[str, Any]) -> CardsState:
    showdown = data.get("showdown")
    return CardsState(
        table=CardTable.from_dict(data["table"]),
        deals=tuple(_deal_from_json(item) for item in data.get("deals", [])),
        events=tuple((str(kind), str(value)) for kind, value in data.get("events", [])),
        dealt_nweeks=frozenset(int(n) for n in data.get("dealt_nweeks", [])),
        committed_keys=frozenset(int(n) for n in data.get("committed_keys", [])),
        revealed_keys=frozenset(int(n) for n in data.get("revealed_keys", [])),
        motion_poll=data.get("motion_poll"),
        showdown=None if showdown is None else _showdown_from_json(showdown),
        showdowns=int(data.get("showdowns", 0)),
        notices=tuple(_notice_from_json(item) for item in data.get("notices", [])),
        trades=int(data.get("trades", 0)),
        sealed=tuple(
            SealedNotice(
                str(item["record"]),
                tuple(int(n) for n in item["numbers"]),
                int(item["after"]),
                bool(item["revealed"]),
            )
            for item in data.get("sealed", [])
        ),
    )


def _deal_to_json(record: DealRecord) -> dict[str, Any]:
    return {
        "deal": str(record.deal),
        "recipient": record.recipient,
        "number": record.number,
        "rolls": list(record.rolls),
        "due": record.due,
        "revealed": record.revealed,
    }


def _deal_from_json(data: Mapping[str, Any]) -> DealRecord:
    return DealRecord(
        DealId.parse(str(data["deal"])),
        str(data["recipient"]),
        int(data["number"]),
        tuple(int(roll) for roll in data["rolls"]),
        bool(data["due"]),
        bool(data["revealed"]),
    )


def _showdown_to_json(showdown: Showdown) -> dict[str, Any]:
    return {
        "number": showdown.number,
        "started_at": showdown.started_at.isoformat(),
        "closes_at": showdown.closes_at.isoformat(),
        "declarer": showdown.declarer,
        "shown": [
            {
                "player": shown.player,
                "hands": [list(hand) for hand in shown.hands],
                "message_id": shown.message_id,
            }
            for shown in showdown.shown
        ],
    }


def _showdown_from_json(data: Mapping[str, Any]) -> Showdown:
    return Showdown(
        int(data["number"]),
        datetime.fromisoformat(str(data["started_at"])),
        datetime.fromisoformat(str(data["closes_at"])),
        None if data["declarer"] is None else str(data["declarer"]),
        tuple(
            ShownCards(
                str(item["player"]),
                tuple(tuple(int(n) for n in hand) for hand in item["hands"]),
                str(item["message_id"]),
            )
            for item in data["shown"]
        ),
    )


def _notice_to_json(notice: TradeNoticeRecord) -> dict[str, Any]:
    return {
        "sender": notice.sender,
        "partner": notice.partner,
        "gives": list(notice.gives),
        "receives": list(notice.receives),
        "at": notice.at.isoformat(),
        "record": notice.record,
    }


def _notice_from_json(data: Mapping[str, Any]) -> TradeNoticeRecord:
    return TradeNoticeRecord(
        str(data["sender"]),
        str(data["partner"]),
        tuple(str(name) for name in data["gives"]),
        tuple(str(name) for name in data["receives"]),
        datetime.fromisoformat(str(data["at"])),
        str(data["record"]),
    )


# -- the row ---------------------------------------------------------------------------------


def load_record(session: Session, pack_count: int) -> GameRecord:
    record = session.scalar(select(GameRecord).where(GameRecord.name == NAME))
    if record is None:
        record = GameRecord(name=NAME, state=state_to_json(new_state(pack_count)), version=0)
        session.add(record)
    return record


def load_state(session: Session, pack_count: int) -> CardsState:
    return state_from_json(load_record(session, pack_count).state)


def save_state(session: Session, state: CardsState) -> None:
    record = load_record(session, state.table.pack_count)
    record.state = state_to_json(state)
    record.version += 1


@dataclass(frozen=True)
class CardsSettings:
    """The ``[cards]`` section."""

    # Rule 386: the Dealer, a player named here; empty, the bot itself is the
    # Dealer (it deals for the Dealer in any case) and the fees of rule 395
    # go to nobody.
    dealer: str = ""
    packs: int = 4  # rule 385: the Red, Blue, Fish and Corporate Packs
    # Rule 396 gives no time for either: the Motion is voted on for this many
    # days, and once a Showdown begins the players show their cards for this many.
    motion_days: int = 7
    showdown_days: int = 2
