"""Transformer and triggers for grammar/dice.lark: dice rolls, rule 9 (seed 004)."""

from __future__ import annotations

import re

from lark import Token

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import NUMBER_WORDS, CommonTransformer, number_from
from bot.parser.limits import whole_number

DICE = re.compile(r"(\d*)\s*d(\d+)s?", re.IGNORECASE)
SIDED = re.compile(r"(?P<sides>[a-z0-9]+)[- \t]?sided", re.IGNORECASE)
SIDES_IN_WORDS = {**NUMBER_WORDS, "thirty": 30, "hundred": 100}

Dice = tuple[int, int]  # (count, sides)


def _dice_from(written: str, count: int | None = None) -> Dice:
    match = DICE.fullmatch(written.strip())
    if match is None:  # the grammar's DICE and SIDES patterns always match
        raise ValueError(f"not dice: {written!r}")
    written_count, sides = match.groups()
    # A thousand-digit count or die is refused by the dice rules, not the parser.
    count = count if count is not None else whole_number(written_count or "1")
    return (count, whole_number(sides))


class DiceTransformer(CommonTransformer):
    """Rule 9: "Dice rolls may be specified in the form xdy"."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def counted_dice(self, children: list[Token]) -> Dice:
        return _dice_from(str(children[0]))

    def single_die(self, children: list[Token]) -> Dice:
        return _dice_from(str(children[0]), count=1)

    def worded_dice(self, children: list[Token]) -> Dice:
        return _dice_from(str(children[1]), count=number_from(children[0]))

    def single_sided(self, children: list[Token]) -> Dice:
        return (1, _sides_in_words(str(children[-1])))

    def worded_sided(self, children: list[Token]) -> Dice:
        return (number_from(children[0]), _sides_in_words(str(children[1])))

    def roll(self, children: list[Dice]) -> ActionReading:
        # Rule 1896: several dice in one sentence are several rolls, in order.
        rolls = [{"count": count, "sides": sides} for count, sides in children]
        return ActionReading("dice.roll", rolls[0] if len(rolls) == 1 else {"each": rolls})


def _sides_in_words(written: str) -> int:
    """The faces of a "six-sided" or "20-sided" die."""
    match = SIDED.fullmatch(written.strip())
    word = match.group("sides").lower() if match else ""
    return SIDES_IN_WORDS.get(word) or whole_number(word if word.isdigit() else "0")


AREA = Area(
    namespace="dice",
    transformer=DiceTransformer,
    triggers=("roll",),
    terminals={"DICE": "dice such as 3d6", "SIDES": "a die such as d20"},
    problems={
        "DICE": (
            'I could not read "{word}" as dice: rule 9 writes a roll as xdy,'
            " the number of dice and the faces on each, such as 3d6 or d20"
        ),
        "SIDES": (
            'I could not read "{word}" as a die: rule 9 writes a roll as xdy, such as 3d6 or d20'
        ),
    },
)
