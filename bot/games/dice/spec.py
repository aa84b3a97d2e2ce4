"""Dice in rule 9's "xdy" form (seed 004): x dice of y faces each."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games.errors import ActionSyntaxError, IllegalActionError

FEWEST_DICE, MOST_DICE = 1, 100
FEWEST_FACES, MOST_FACES = 2, 1000
_LONGEST_NUMBER = 9  # digits; anything longer is far beyond every limit
_XDY = re.compile(r"(?P<count>\d*)[dD](?P<faces>\d+)")


@dataclass(frozen=True)
class DiceSpec:
    """``count`` dice of ``faces`` faces; raises ``IllegalActionError`` outside the limits.

    Rule 9 sets no limits; these are the bot's, so that a roll fits in a reply.
    """

    count: int
    faces: int

    def __post_init__(self) -> None:
        if not FEWEST_DICE <= self.count <= MOST_DICE:
            raise IllegalActionError(
                f"{self.display()} asks for {self.count} dice; I roll "
                f"{FEWEST_DICE} to {MOST_DICE} dice at a time (rule 9: xdy is x dice of y faces)",
                rule="9",
            )
        if not FEWEST_FACES <= self.faces <= MOST_FACES:
            raise IllegalActionError(
                f"{self.display()} asks for dice of {self.faces} faces; I roll dice of "
                f"{FEWEST_FACES} to {MOST_FACES} faces (rule 9: xdy is x dice of y faces)",
                rule="9",
            )

    @classmethod
    def parse(cls, text: str) -> DiceSpec:
        """Read ``"3d6"`` (``"d6"`` means one die; ``D`` is accepted too).

        Raises ``ActionSyntaxError`` for text not in xdy form and
        ``IllegalActionError`` for numbers outside the limits.
        """
        match = _XDY.fullmatch(text.strip())
        if match is None:
            raise ActionSyntaxError(
                f"I can't read {text.strip()!r} as dice: rule 9 writes a roll as xdy, "
                "x dice of y faces each, e.g. 3d6",
                rule="9",
            )
        count_digits, faces_digits = match["count"] or "1", match["faces"]
        for digits, what in ((count_digits, "dice"), (faces_digits, "faces")):
            if len(digits.lstrip("0")) > _LONGEST_NUMBER:
                raise IllegalActionError(
                    f"{text.strip()} asks for too many {what}; I roll {FEWEST_DICE} to "
                    f"{MOST_DICE} dice of {FEWEST_FACES} to {MOST_FACES} faces",
                    rule="9",
                )
        return cls(int(count_digits), int(faces_digits))

    def display(self) -> str:
        return f"{self.count}d{self.faces}"

    def __str__(self) -> str:
        return self.display()
