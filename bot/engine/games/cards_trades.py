"""Pooker's Trades (seed 002, rules 394-395) by private mail, with a sealed public record.

Rule 395: each party notifies the Dealer privately of the same Trade, the
PCards e gives and those e receives, and pays the Dealer one Point.  The
bot keeps the first notice until the other party's arrives; when the second
matches, it moves both sides' PCards (rule 394) and takes the fees.

The public archive is the record (docs/archive.md), yet a notice names
hidden Cards.  So for each notice it accepts the bot mails the list a
signed record ``cards.trade`` (sealed notices, version 1):

* ``sealed``: the notice (sender, words, instant, place in the post) as
  canonical JSON, XORed with the stream ``HMAC-SHA256(key, "stream\\n" + i)``
  (32-byte blocks, i from 0), base64; ``tag``: ``HMAC-SHA256(key, plaintext)``;
* ``key = HMAC-SHA256(master secret, "nomicbot sealed notice v1\\n" + record id)``.

Nobody without the master secret can read it; a replay of the archive by the
bot (which has the master secret) opens it and judges the notice again at
its instant, so the Hands and balances come out the same.  The record says
only that a private Trade notice was accepted, and when; whether it made a
Trade shows in the ledger (the fees).  When every PCard a Trade moved has
been shown and returned to the Deck, the key is published
(``hidden-v1 notice=<record> key=<hex>``) and anyone can open the notice and
check it against the tag.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from bot.engine import ledger, objects
from bot.engine.admin_records import (
    AdminRecord,
    RecordError,
)
from bot.engine.games.cards_deals import card_object, dealer_of, sealed_notice_key
from bot.engine.games.cards_state import (
    CardsSettings,
    CardsState,
    SealedNotice,
    TradeNoticeRecord,
    load_state,
    save_state,
)
from bot.engine.holdings import POINTS, Cause, gain, spend
from bot.engine.players import find_player_by_name
from bot.engine.private_records import canonical_json, private_turn, publish_record
from bot.engine.rulings import Outcome, Ruling, Turn
from bot.games.cards import parse_card_name
from bot.games.cards.pooker import TRADE_FEE, Trade, TradeNotice, match_notices, resolve_pcards
from bot.games.cards.pooker.trades import check_notice
from bot.games.errors import IllegalActionError
from bot.games.objects import player_holder
from bot.store.models import Message, Player

if TYPE_CHECKING:
    from bot.engine.services import Services

COMMAND = "cards.trade"
SOURCE = "cards-record"  # Message.source of a record the engine made for a Trade notice
RULE_TRADE = "395"
PREAMBLE = (
    "A Trade notice sent privately to the Dealer (rule 395), sealed for the public archive: "
    "it names hidden Cards, and its key is published once they have been shown"
)


class TradeDesk:
    """Judges one private Trade notice against the state; ``state`` holds the result."""

    def __init__(
        self, session: Session, services: Services, state: CardsState, settings: CardsSettings
    ) -> None:
        self.session = session
        self.services = services
        self.state = state
        self.settings = settings

    def notice(
        self,
        args: Mapping[str, Any],
        turn: Turn,
        player: str,
        locked: Sequence[int] = (),
    ) -> str:
        """Rule 395: keep the notice, or carry out the Trade it completes; the summary.

        Raises ``ActionError`` for a notice the rules refuse.
        """
        if not turn.private:
            raise IllegalActionError(
                "a Trade is notified to the Dealer privately: send it to the referee alone, "
                "not to the list",
                rule=RULE_TRADE,
            )
        partner = find_player_by_name(self.session, str(args["partner"])).name
        gives = tuple(str(name) for name in args.get("gives", []))
        receives = tuple(str(name) for name in args.get("receives", []))
        notice = _notice(player, partner, gives, receives)
        dealer = dealer_of(self.services)
        table = self.state.table
        check_notice(table, notice, self._points(player, partner), dealer)
        given = resolve_pcards(table, player, notice.gives, RULE_TRADE)
        _check_not_shown(given, locked)
        waiting = next(
            (n for n in self.state.notices if (n.sender, n.partner) == (partner, player)), None
        )
        if waiting is None:
            return self._keep(notice, gives, receives, turn)
        first = _notice(waiting.sender, waiting.partner, waiting.gives, waiting.receives)
        trade = match_notices(table, first, notice, self._points(player, partner), dealer)
        _check_not_shown(trade.first_gives, locked)
        return self._make(trade, waiting, turn)

    def _points(self, *players: str) -> dict[str, int]:
        return {
            name: ledger.balance(self.session, find_player_by_name(self.session, name).id, POINTS)
            for name in players
        }

    def _keep(
        self, notice: TradeNotice, gives: tuple[str, ...], receives: tuple[str, ...], turn: Turn
    ) -> str:
        kept = TradeNoticeRecord(
            notice.sender,
            notice.partner,
            gives,
            receives,
            turn.occurred_at,
            record_id(turn.message_id, turn.position),
        )
        others = tuple(
            n for n in self.state.notices if (n.sender, n.partner) != (kept.sender, kept.partner)
        )
        self.state = replace(self.state, notices=(*others, kept))
        return (
            f"your notice of a Trade with {notice.partner} is kept (rule 395): you give "
            f"{', '.join(gives)} for {', '.join(receives)}.  The Trade is made when "
            f"{notice.partner} notifies the Dealer of the same Trade; each of you then pays "
            f"the Dealer {TRADE_FEE} Point"
        )

    def _make(self, trade: Trade, waiting: TradeNoticeRecord, turn: Turn) -> str:
        at = turn.occurred_at
        note = f"Trade between {trade.first} and {trade.second}"
        cause = Cause(at, RULE_TRADE, note, "post", None)
        for giver, receiver, cards in (
            (trade.first, trade.second, trade.first_gives),
            (trade.second, trade.first, trade.second_gives),
        ):
            source = player_holder(find_player_by_name(self.session, giver).id)
            destination = player_holder(find_player_by_name(self.session, receiver).id)
            for card in cards:
                object_id = card_object(self.session, source, card.number)
                if object_id is not None:
                    objects.transfer(self.session, object_id, destination, cause)
        self._fees(trade, at)
        notices = tuple(n for n in self.state.notices if n != waiting)
        moved = tuple(card.number for card in (*trade.first_gives, *trade.second_gives))
        after = len(self.state.events)
        sealed = tuple(
            SealedNotice(record, moved, after)
            for record in (waiting.record, record_id(turn.message_id, turn.position))
        )
        self.state = replace(
            self.state,
            table=trade.apply(self.state.table),
            notices=notices,
            trades=self.state.trades + 1,
            sealed=(*self.state.sealed, *sealed),
        )
        return (
            f"the Trade is made (rules 394, 395): {trade.first} gives "
            f"{_cards(trade.first_gives)} to {trade.second} for {_cards(trade.second_gives)}; "
            f"each pays the Dealer {TRADE_FEE} Point"
        )

    def _fees(self, trade: Trade, at: datetime) -> None:
        """Rule 395: "The Players also must each pay the Dealer a transaction fee of one Point"."""
        dealer = dealer_of(self.services)
        for name in (trade.first, trade.second):
            payer = find_player_by_name(self.session, name)
            spend(
                self.session,
                payer.id,
                POINTS,
                TRADE_FEE,
                at=at,
                rule=RULE_TRADE,
                note="Trade fee to the Dealer",
            )
            if dealer is not None:
                gain(
                    self.session,
                    find_player_by_name(self.session, dealer).id,
                    POINTS,
                    TRADE_FEE,
                    at=at,
                    rule=RULE_TRADE,
                    note=f"Trade fee from {name}",
                )


def _notice(
    sender: str, partner: str, gives: Sequence[str], receives: Sequence[str]
) -> TradeNotice:
    return TradeNotice(
        sender,
        partner,
        tuple(parse_card_name(name) for name in gives),
        tuple(parse_card_name(name) for name in receives),
    )


def _check_not_shown(cards: Sequence[Any], locked: Sequence[int]) -> None:
    shown = [card for card in cards if card.number in locked]
    if shown:
        raise IllegalActionError(
            f"the {shown[0].name} is shown in the Showdown in progress and returns to the "
            "Deck when it ends",
            rule="396",
        )


def _cards(cards: Sequence[Any]) -> str:
    return ", ".join(card.short for card in cards)


# -- sealing ---------------------------------------------------------------------------------


def record_id(message_id: str, position: int) -> str:
    """The id of the record of a notice: derived from its post, so a replay writes the same."""
    return hashlib.sha256(f"{COMMAND} {message_id} {position}".encode()).hexdigest()[:32]


def notice_key(master_secret: bytes, record: str) -> bytes:
    return sealed_notice_key(master_secret, record)


def _stream(key: bytes, length: int) -> bytes:
    blocks = (length + 31) // 32
    return b"".join(
        hmac.new(key, f"stream\n{index}".encode(), hashlib.sha256).digest()
        for index in range(blocks)
    )[:length]


def seal(key: bytes, document: Mapping[str, Any]) -> tuple[str, str]:
    """(base64 ciphertext, hex tag) of ``document``'s canonical JSON."""
    plain = canonical_json(document)
    cipher = bytes(a ^ b for a, b in zip(plain, _stream(key, len(plain)), strict=True))
    tag = hmac.new(key, plain, hashlib.sha256).hexdigest()
    return base64.b64encode(cipher).decode("ascii"), tag


def unseal(key: bytes, sealed: str, tag: str) -> dict[str, Any]:
    """The document; ``RecordError`` if it does not match its tag."""
    import json

    cipher = base64.b64decode(sealed)
    plain = bytes(a ^ b for a, b in zip(cipher, _stream(key, len(cipher)), strict=True))
    if not hmac.compare_digest(hmac.new(key, plain, hashlib.sha256).hexdigest(), tag):
        raise RecordError("the sealed Trade notice does not match its tag")
    document: dict[str, Any] = json.loads(plain)
    return document


# -- live: the record of a private post's notices --------------------------------------------


def publish_trade_records(
    session: Session,
    services: Services,
    message: Message,
    judged: Sequence[tuple[Ruling, int | None]],
    effective_at: datetime,
) -> None:
    """Mail the list a sealed record of each Trade notice the private post had accepted."""
    for ruling, actor in judged:
        if ruling.action != COMMAND or ruling.outcome is not Outcome.APPLIED:
            continue
        player = session.get(Player, actor) if actor is not None else None
        if player is None:
            continue
        identifier = record_id(message.message_id, ruling.position)
        document = {
            "sender": player.name,
            "args": dict(ruling.args),
            "text": ruling.text,
            "at": effective_at.isoformat(),
            "message_id": message.message_id,
            "position": ruling.position,
        }
        sealed, tag = seal(notice_key(services.master_secret, identifier), document)
        arguments = {"sealed": sealed, "tag": tag, "version": "sealed-v1"}
        record = AdminRecord(identifier, COMMAND, arguments, effective_at)
        summary = "a sealed Trade notice"
        publish_record(session, services, record, PREAMBLE, message.received_at, summary, SOURCE)


# -- replay: judging a sealed notice again ---------------------------------------------------


def apply_trade_record(session: Session, services: Services, record: AdminRecord) -> str:
    """A ``cards.trade`` record met in the archive: open it and judge the notice again."""
    from bot.engine.games.cards_deals import cards_settings
    from bot.engine.games.cards_pooker import shown_numbers

    key = notice_key(services.master_secret, record.record_id)
    document = unseal(key, str(record.arguments["sealed"]), str(record.arguments["tag"]))
    settings = cards_settings(services)
    state = load_state(session, settings.packs)
    sender = find_player_by_name(session, str(document["sender"]))
    turn = private_turn(services, sender, document)
    desk = TradeDesk(session, services, state, settings)
    desk.notice(document["args"], turn, sender.name, locked=shown_numbers(state))
    save_state(session, desk.state)
    return "a sealed Trade notice judged again"


def describe_trade_record(arguments: Mapping[str, Any]) -> str:
    return "a Trade notice sent privately to the Dealer (rule 395), sealed"
