"""PCards in a Hand, and the Cards a player's words name: rules 394 and 399 (seed 002).

Rule 399: "The Red and Blue Decks are defined to be part of the Card Game
entitled 'Pooker'", and rule 394 calls a Card of such a Pack a PCard.  The
Fish and Corporate Cards dealt for votes (rule 391) are no PCards.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.cards.cards import Card, CardName, Pack, PlayerName
from bot.games.cards.table import CardTable
from bot.games.errors import AmbiguousActionError, IllegalActionError

POOKER_PACKS = frozenset({Pack.RED, Pack.BLUE})


def is_pcard(card: Card) -> bool:
    """Rules 394, 399: a Card of the Red or Blue Pack."""
    return card.pack in POOKER_PACKS


def pcards_of(table: CardTable, player: PlayerName) -> tuple[Card, ...]:
    return tuple(card for card in table.hand_of(player) if is_pcard(card))


def resolve_pcards(
    table: CardTable, holder: PlayerName, names: Sequence[CardName], rule: str
) -> tuple[Card, ...]:
    """The PCards of ``holder``'s Hand that ``names`` mean, in the order named.

    Names with a Back are matched first.  Raises ``IllegalActionError`` when
    the Hand lacks one, ``AmbiguousActionError`` when a Face without a Back
    fits more of eir PCards than are named with it; ``rule`` is cited.
    """
    available = list(pcards_of(table, holder))
    chosen: dict[int, Card] = {}
    order = sorted(range(len(names)), key=lambda index: names[index].pack is None)
    for index in order:
        name = names[index]
        fitting = [card for card in available if name.matches(card)]
        if not fitting:
            more = "more " if any(names[other] == name for other in chosen) else ""
            raise IllegalActionError(f"{holder} has no {more}PCard {name}", rule=rule)
        wanted = sum(1 for other in names if other == name)
        if len(fitting) > 1 and wanted < len(fitting):
            held = " and ".join(card.short for card in fitting)
            raise AmbiguousActionError(
                f"{holder} holds {held}: say which Back {name} is (e.g. {fitting[0].short})",
                rule=rule,
            )
        available.remove(fitting[0])
        chosen[index] = fitting[0]
    return tuple(chosen[index] for index in range(len(names)))
