"""DiceSpec: rule 9's xdy form and the bot's limits."""

from __future__ import annotations

import pytest

from bot.games.dice import DiceSpec
from bot.games.errors import ActionSyntaxError, IllegalActionError


@pytest.mark.parametrize(
    ("text", "count", "faces"),
    [("3d6", 3, 6), (" 1d20 ", 1, 20), ("d6", 1, 6), ("2D10", 2, 10), ("100d1000", 100, 1000)],
)
def test_parse_reads_xdy(text: str, count: int, faces: int) -> None:
    spec = DiceSpec.parse(text)
    assert (spec.count, spec.faces) == (count, faces)
    assert str(spec) == f"{count}d{faces}"


@pytest.mark.parametrize("text", ["three d six", "3d", "3x6", "3d6+1", "-1d6", "", "3 d 6"])
def test_parse_refuses_other_forms_citing_rule_9(text: str) -> None:
    with pytest.raises(ActionSyntaxError, match="xdy") as caught:
        DiceSpec.parse(text)
    assert caught.value.rule == "9"


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("0d6", "asks for 0 dice"),
        ("101d6", "asks for 101 dice"),
        ("3d1", "dice of 1 faces"),
        ("3d0", "dice of 0 faces"),
        ("1d1001", "dice of 1001 faces"),
        ("99999999999999999999999d6", "too many dice"),
        ("1d" + "9" * 5000, "too many faces"),
    ],
)
def test_numbers_outside_the_limits_are_illegal(text: str, phrase: str) -> None:
    with pytest.raises(IllegalActionError, match=phrase) as caught:
        DiceSpec.parse(text)
    assert caught.value.rule == "9"
    assert "1 to 100 dice" in caught.value.message or "2 to 1000 faces" in caught.value.message


def test_direct_construction_is_checked_too() -> None:
    with pytest.raises(IllegalActionError):
        DiceSpec(3, 1001)
