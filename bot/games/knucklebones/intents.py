"""Intents to play and how they pair into games (rule Knucklebones/Commencement).

"In each Rest Phase a Player can state their intention to join one or
multiple games of Knucklebones. [...] Their statement can name the opponent
(or multiple) they wish to play a game of Knucklebones against. If naming
multiple opponents, the statement must be specific wether they wish to play
one game of Knucklebones against one of the named opponents or multiple
games against any (sub-)set of the named opponents. If in this way the intent
of two players is stated to play a game of Knucklebones against each other,
for that two players a game starts at the beginning of the next Battle
Phase."

Readings:

* An intent naming nobody is an intent to play one game against any one
  player; an intent naming one opponent is one game against em.
* "Against each" (``IntentMode.EACH``) offers one game to every named
  opponent who also states an intent naming its author (or nobody): the
  "(sub-)set" is whoever reciprocates.  "Against one of" (``ONE_OF``) offers
  a single game.
* Each statement is one intent.  Two players whose intents admit each other
  play one game per pair of intents, so two statements each are two games;
  several games at once are the rule's "one or multiple games".
* The seed does not say who gets a player who wants one game against one of
  several and is wanted by several.  Intents are matched in the order they
  were stated: each intent in turn is paired with the earliest-stated intent
  that admits its author and that it admits, while both still offer a game.
  First come, first served, with no draw to publish.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from bot.games.errors import AmbiguousActionError, IllegalActionError
from bot.games.knucklebones.rules import RULE_COMMENCEMENT

PlayerId = str


class IntentMode(Enum):
    """What an intent naming several opponents asks for."""

    ONE_OF = "one game against one of them"
    EACH = "a game against each of them"


@dataclass(frozen=True)
class Intent:
    """One statement of intention to play, numbered in the order stated.

    ``opponents`` is empty for an intent against anyone (always ``ONE_OF``).
    """

    number: int
    player: PlayerId
    opponents: tuple[PlayerId, ...] = ()
    mode: IntentMode = IntentMode.ONE_OF

    def admits(self, other: PlayerId) -> bool:
        """Whether this intent would play ``other`` (never its own author)."""
        return other != self.player and (not self.opponents or other in self.opponents)

    def describe(self) -> str:
        """The intent in words: "Alice: a game against each of Bob and Carol"."""
        if not self.opponents:
            return f"{self.player}: one game against anyone"
        if len(self.opponents) == 1:
            return f"{self.player}: one game against {self.opponents[0]}"
        *others, last = self.opponents
        if self.mode is IntentMode.EACH:
            return f"{self.player}: a game against each of {', '.join(others)} and {last}"
        return f"{self.player}: one game against one of {', '.join(others)} or {last}"


@dataclass(frozen=True)
class Pairing:
    """Two intents that admit each other: a game starts between their authors.

    ``first`` is the author of the earlier-stated intent.
    """

    first: PlayerId
    second: PlayerId
    intents: tuple[int, int]


def make_intent(
    number: int, player: PlayerId, opponents: Sequence[PlayerId], mode: IntentMode | None
) -> Intent:
    """The intent ``player`` stated, checked against rule Knucklebones/Commencement.

    Raises ``IllegalActionError`` if ``player`` names emself, and
    ``AmbiguousActionError`` if several opponents are named without saying
    "one of" or "each".
    """
    named = tuple(dict.fromkeys(opponents))
    if player in named:
        raise IllegalActionError(
            f"{player} cannot play Knucklebones against emself", rule=RULE_COMMENCEMENT
        )
    if len(named) > 1 and mode is None:
        raise AmbiguousActionError(
            f"naming {', '.join(named)}, the statement must say whether it is one game against "
            "one of them or a game against each of them",
            rule=RULE_COMMENCEMENT,
        )
    chosen = mode if len(named) > 1 and mode is not None else IntentMode.ONE_OF
    return Intent(number, player, named, chosen)


def pair_intents(intents: Iterable[Intent]) -> tuple[Pairing, ...]:
    """The games the intents start, in the order they pair (see the module's readings)."""
    ordered = sorted(intents, key=lambda intent: intent.number)
    taken: set[tuple[int, PlayerId]] = set()
    pairings: list[Pairing] = []
    for index, intent in enumerate(ordered):
        for other in ordered[index + 1 :]:
            if _offers(intent, other.player, taken) and _offers(other, intent.player, taken):
                pairings.append(Pairing(intent.player, other.player, (intent.number, other.number)))
                taken.update({(intent.number, other.player), (other.number, intent.player)})
    return tuple(pairings)


def unpaired(intents: Iterable[Intent], pairings: Iterable[Pairing]) -> tuple[Intent, ...]:
    """The intents that took part in no pairing."""
    used = {number for pairing in pairings for number in pairing.intents}
    return tuple(intent for intent in intents if intent.number not in used)


def _offers(intent: Intent, other: PlayerId, taken: set[tuple[int, PlayerId]]) -> bool:
    # A "one of" intent offers a single game: once paired with anyone it is spent.
    if not intent.admits(other):
        return False
    if intent.mode is IntentMode.EACH:
        return (intent.number, other) not in taken
    return not any(number == intent.number for number, _ in taken)
