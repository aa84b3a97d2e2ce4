"""A Nomic's Cards (seed 002, rules 384-391) by mail: deals, private notices, the report.

At the start of each nweek (rule 391) the bot, dealing for the Dealer
(rule 386), deals one Card to each player who voted on a poll in the
previous nweek, by rule 387's die rolled from the deal's hidden secret
(``bot.games.cards.hidden``: the hidden-v1 scheme), tells each recipient
eir Card by private mail (rule 387), and posts the Dealer's report (rule
390) to the list: who received Cards, their Backs and each deal's
commitment, nothing else, with the commitment to the next nweek's deal key.
A deal is revealed when its Card is shown or returns to the Deck, once the
reveal discloses nothing more (``HiddenDeal.exposed_by_reveal``), and an
nweek's key once all its deals are revealed (``publish_due_reveals``).

Card objects (``CARD``) mirror the Hands for statements and the inventory,
which show their Back only; the state row is the table rules code reads.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from bot.engine import objects
from bot.engine.games.cards_state import CardsSettings, CardsState, DealRecord
from bot.engine.governance.polls import all_polls
from bot.engine.holdings import Cause
from bot.engine.players import (
    all_players,
    find_player_by_name,
    player_known_as,
    registered_addresses,
)
from bot.games.cards import (
    Card,
    CardTable,
    DealId,
    HiddenDeal,
    deal_hidden,
    deal_key,
    deal_secret,
    key_commitment,
    voters_to_deal,
    whereabouts_before,
)
from bot.games.cards.dealing import DeckEmpty
from bot.games.cards.hidden import PROOF_VERSION
from bot.games.cards.proofs import (
    key_commitment_line,
    key_reveal_line,
    packs_line,
    return_line,
)
from bot.games.cards.report import render_deal_notice, render_report, report_entries
from bot.games.objects import PLAYER, Holder, ObjectType, entity_holder, player_holder
from bot.outbound.compose import compose_report

if TYPE_CHECKING:
    from bot.engine.services import Services

SEED = "002"
DECK = entity_holder("deck", "the Deck")  # rule 389: the Cards the Dealer owns


def _describe(attributes: Any) -> str:
    return Card.from_number(int(attributes["number"])).name


def _describe_public(attributes: Any) -> str:
    return f"a Card with a {attributes['back']} back"


# Rule 384: "Cards are only transferrable under conditions stated by the
# rules"; rule 387 tells only the recipient which Card e has, and rule 390
# lets everyone else know its Back.  Rule 14 (seed 004): a player who
# forfeits loses eir Cards, which the Dealer owns again, in the Deck (389).
CARD = objects.declare(
    ObjectType(
        "Card",
        "Cards",
        rule="384",
        transferable=False,
        holder_kinds=frozenset({PLAYER, DECK.kind}),
        hidden=True,
        public_attributes=("back",),
        forfeit_to=DECK,
        describe=_describe,
        describe_public=_describe_public,
        refusal="Cards are only transferrable under conditions stated by the rules (a Trade)",
        # How players name a Card in a gift ("I give my Red QH to Bob", rule 13).
        nouns=(
            r"(?:(?:red|blue|fish|corporate)\s+)?(?:(?:10|[2-9atjqk])[dshc]"
            r"|(?:ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king)"
            r"\s+of\s+(?:diamonds|spades|hearts|clubs))",
        ),
    )
)


def cards_settings(services: Services) -> CardsSettings:
    return services.settings.section("cards", CardsSettings)


def dealer_of(services: Services) -> str | None:
    """Rule 386: the Dealer's name, or None when the bot itself is the Dealer."""
    return cards_settings(services).dealer or None


# -- who voted (rule 391) --------------------------------------------------------------------


def voters_in_nweek(session: Session, services: Services, nweek: int) -> list[str]:
    """The players (by current name) who cast a vote on any poll during zero-based ``nweek``."""
    players = {str(player.id): player.name for player in all_players(session)}
    voted: set[str] = set()
    for stored in all_polls(session, services.clock):
        for cast in stored.poll.votes:
            if cast.voter in players and services.clock.reading(cast.cast_at).nweek == nweek:
                voted.add(players[cast.voter])
    return sorted(voted)


# -- dealing ---------------------------------------------------------------------------------


def deal_for_nweek(
    session: Session, services: Services, state: CardsState, nweek: int, at: datetime
) -> CardsState:
    """Rule 391 at the start of ``nweek``: a Card to each player who voted in the nweek before.

    Each recipient is told eir Card privately (387); the Dealer's report
    (390) goes to the list with the commitment to the next nweek's key.
    """
    key = deal_key(services.master_secret, nweek)
    dealer = dealer_of(services)
    table = state.table
    dealt: list[tuple[str, HiddenDeal]] = []
    unserved: list[str] = []
    for recipient in voters_to_deal(voters_in_nweek(session, services, nweek - 1), dealer):
        if table.deck_size() == 0:  # rule 387: no deal from an empty Deck
            unserved.append(recipient)
            continue
        deal_id = DealId(nweek, len(dealt) + 1)
        table, outcome = deal_hidden(table, recipient, key, deal_id, dealer)
        if isinstance(outcome, DeckEmpty):
            unserved.append(recipient)
            continue
        dealt.append((recipient, outcome))
    state = replace(state, table=table, dealt_nweeks=state.dealt_nweeks | {nweek})
    for recipient, hidden in dealt:
        state = state.with_deal(
            DealRecord(hidden.deal, recipient, hidden.card.number, hidden.rolls)
        )
        _give_card_object(session, recipient, hidden, at)
        _notify_recipient(session, services, recipient, hidden, at)
    state = replace(state, committed_keys=state.committed_keys | {nweek + 1})
    _post_report(session, services, state, nweek, dealt, unserved, at)
    return state


def _give_card_object(session: Session, recipient: str, hidden: HiddenDeal, at: datetime) -> None:
    cause = Cause(at, "387", f"dealt in deal {hidden.deal}", "scheduler", None)
    holder = player_holder(find_player_by_name(session, recipient).id)
    in_deck = card_object(session, DECK, hidden.card.number)
    if in_deck is not None:  # a Card shown and returned before: the same object again
        objects.transfer(session, in_deck, holder, cause)
        return
    attributes = {"number": hidden.card.number, "back": hidden.card.back}
    objects.create(session, CARD, holder, cause, attributes=attributes)


def card_object(session: Session, holder: Holder, number: int) -> int | None:
    """The id of the Card object numbered ``number`` that ``holder`` holds, if any."""
    for held in objects.held_by(session, holder, CARD):
        if int(held.attributes["number"]) == number:
            return held.id
    return None


def _notify_recipient(
    session: Session, services: Services, recipient: str, hidden: HiddenDeal, at: datetime
) -> None:
    """Rule 387: the Dealer "notifies that Player of what the Card is": to em alone."""
    player = find_player_by_name(session, recipient)
    addresses = registered_addresses(session, player.id)
    if not addresses:  # a player always has one (the roster keeps the last)
        raise ValueError(f"{recipient} has no registered address to be told eir Card")
    session.add(
        compose_report(
            services,
            "cards-deal",
            str(hidden.deal),
            f"[cards] You were dealt a Card (deal {hidden.deal})",
            "cards/deal.txt.j2",
            {
                "notice": render_deal_notice(recipient, hidden.card, hidden.commitment),
                "proof": hidden.commitment.proof,
            },
            at,
            recipients=addresses,
        )
    )


def _post_report(
    session: Session,
    services: Services,
    state: CardsState,
    nweek: int,
    dealt: Sequence[tuple[str, HiddenDeal]],
    unserved: Sequence[str],
    at: datetime,
) -> None:
    next_key = deal_key(services.master_secret, nweek + 1)
    session.add(
        compose_report(
            services,
            "cards-report",
            str(nweek),
            f"[cards] Dealer's report for nweek {nweek + 1}",
            "cards/report.txt.j2",
            {
                "report": render_report(nweek + 1, report_entries(dealt)).rstrip("\n"),
                "unserved": list(unserved),
                "packs": packs_line(state.table.pack_count),
                "next_nweek": nweek + 2,
                "key_line": key_commitment_line(nweek + 1, key_commitment(next_key)),
            },
            at,
        )
    )


def commit_next_key(
    session: Session, services: Services, state: CardsState, nweek: int, at: datetime
) -> CardsState:
    """Publish the commitment to nweek ``nweek + 1``'s deal key, if it is not yet published.

    The Dealer's report carries it; this is for the nweek the game starts in,
    which has no report before it.
    """
    if nweek + 1 in state.committed_keys:
        return state
    key = deal_key(services.master_secret, nweek + 1)
    session.add(
        compose_report(
            services,
            "cards-key",
            str(nweek + 1),
            f"[cards] Deal key commitment for nweek {nweek + 2}",
            "cards/key.txt.j2",
            {
                "next_nweek": nweek + 2,
                "packs": packs_line(state.table.pack_count),
                "key_line": key_commitment_line(nweek + 1, key_commitment(key)),
            },
            at,
        )
    )
    return replace(state, committed_keys=state.committed_keys | {nweek + 1})


# -- returns and reveals ---------------------------------------------------------------------


def return_to_deck(
    session: Session, state: CardsState, numbers: Sequence[int], cause: Cause
) -> tuple[CardsState, list[str]]:
    """Cards back in the Deck (rule 396: shown; rule 14: forfeited): the table, the
    objects, and the public ``return`` lines; each Card's deal becomes due to be revealed."""
    table: CardTable = state.table.moved(numbers, None)
    events = list(state.events)
    deals = list(state.deals)
    lines: list[str] = []
    for number in sorted(numbers):
        holder = state.table.holder_of(number)
        # A Lost Soul keeps eir name (rule 14); eir objects went to the Deck already.
        player = None if holder is None else player_known_as(session, holder)
        object_id = (
            None if player is None else card_object(session, player_holder(player.id), number)
        )
        if object_id is not None:
            objects.transfer(session, object_id, DECK, cause)
        events.append(("return", str(number)))
        lines.append(return_line(number))
        latest = state.latest_deal_of(number)
        if latest is not None:
            deals = [replace(d, due=True) if d.deal == latest.deal else d for d in deals]
    return replace(state, table=table, events=tuple(events), deals=tuple(deals)), lines


def publish_due_reveals(services: Services, state: CardsState) -> tuple[CardsState, list[str]]:
    """Reveal every due deal whose reveal tells nothing more than its Card, and every
    nweek's key once all its deals are revealed: the state and the lines to publish."""
    lines: list[str] = []
    progress = True
    while progress:
        progress = False
        for record in state.deals:
            if not record.due or record.revealed:
                continue
            hidden = _hidden(services, state, record)
            places = whereabouts_before(state.public_history(), record.deal, state.table.pack_count)
            if hidden.exposed_by_reveal(places):
                continue  # it would tell where a re-rolled Card was: wait (hidden-v1, step 5)
            state = _revealed(state, record)
            lines.append(hidden.reveal.proof)
            progress = True
    state, notice_lines = _reveal_notice_keys(services, state)
    lines += notice_lines
    for nweek in sorted(state.dealt_nweeks - state.revealed_keys):
        of_nweek = [record for record in state.deals if record.deal.nweek == nweek]
        if of_nweek and all(record.revealed for record in of_nweek):
            key = deal_key(services.master_secret, nweek)
            lines.append(key_reveal_line(nweek, key.hex()))
            state = replace(state, revealed_keys=state.revealed_keys | {nweek})
    return state, lines


def sealed_notice_key(master_secret: bytes, record: str) -> bytes:
    """The key that seals a Trade notice's record (``bot.engine.games.cards_trades``)."""
    message = f"nomicbot sealed notice v1\n{record}".encode()
    return hmac.new(master_secret, message, hashlib.sha256).digest()


def _reveal_notice_keys(services: Services, state: CardsState) -> tuple[CardsState, list[str]]:
    """The key of each sealed Trade notice whose Cards have all been shown back into the
    Deck since the Trade: the notice names nothing hidden any more."""
    lines: list[str] = []
    sealed = []
    for notice in state.sealed:
        returned = {int(value) for kind, value in state.events[notice.after :] if kind == "return"}
        if not notice.revealed and set(notice.numbers) <= returned:
            key = sealed_notice_key(services.master_secret, notice.record)
            lines.append(f"{PROOF_VERSION} notice={notice.record} key={key.hex()}")
            notice = replace(notice, revealed=True)
        sealed.append(notice)
    return replace(state, sealed=tuple(sealed)), lines


def _hidden(services: Services, state: CardsState, record: DealRecord) -> HiddenDeal:
    key = deal_key(services.master_secret, record.deal.nweek)
    card = Card.from_number(record.number, state.table.pack_count)
    return HiddenDeal(record.deal, card, record.rolls, deal_secret(key, record.deal))


def _revealed(state: CardsState, record: DealRecord) -> CardsState:
    deals = tuple(
        replace(each, revealed=True) if each.deal == record.deal else each for each in state.deals
    )
    return replace(state, deals=deals)
