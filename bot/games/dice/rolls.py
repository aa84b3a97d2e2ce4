"""Verifiable dice rolls for players' "I roll 3d6" (rule 9, seed 004).

A roll is derived from the nweek's seed, the post's Message-ID and the
action's index within the post; the package docstring gives the exact
derivation so that anyone can check a ruling once the seed is revealed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from bot.games.dice.seeds import commitment, seed_from_hex
from bot.games.dice.spec import DiceSpec
from bot.games.dice.stream import HmacStream, check_label_part, draw_below, roll_label

PROOF_VERSION = "dice-v1"
# A player's roll prints the item number it is ruled under (its index + 1):
# the derivation is v1's, so every roll of an older archive replays as it was.
ITEM_PROOF_VERSION = "dice-v2"


def normalise_message_id(message_id: str) -> str:
    """``" <abc@example.org> "`` -> ``"abc@example.org"``; ``ValueError`` if empty or multi-line."""
    text = message_id.strip()
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1].strip()
    return check_label_part(text, "Message-ID")


@dataclass(frozen=True)
class Roll:
    """The dice one action rolled, and the inputs that reproduce them."""

    spec: DiceSpec
    faces: tuple[int, ...]
    message_id: str
    action_index: int

    @property
    def total(self) -> int:
        return sum(self.faces)

    @property
    def proof(self) -> str:
        """One line for a report: ``dice-v1 message-id=a@b action=0 spec=3d6 faces=4,1,6``."""
        return self._proof(PROOF_VERSION, self.action_index)

    @property
    def item_proof(self) -> str:
        """The line for a player's ruling, naming the item the roll is ruled under:
        ``dice-v2 message-id=a@b action=1 spec=3d6 faces=4,1,6`` (index + 1)."""
        return self._proof(ITEM_PROOF_VERSION, self.action_index + 1)

    def _proof(self, version: str, shown_index: int) -> str:
        faces = ",".join(str(face) for face in self.faces)
        return (
            f"{version} message-id={self.message_id} action={shown_index} "
            f"spec={self.spec} faces={faces}"
        )

    def display(self) -> str:
        """E.g. ``3d6: 4 + 1 + 6 = 11``."""
        return f"{self.spec}: {' + '.join(str(face) for face in self.faces)} = {self.total}"


def roll(seed: bytes, message_id: str, action_index: int, spec: DiceSpec) -> Roll:
    """Roll ``spec`` for action ``action_index`` (0 for the first) of the post ``message_id``.

    Raises ``ValueError`` for a seed that is not 32 bytes, a negative index or
    a Message-ID that is empty or spans lines.
    """
    if action_index < 0:
        raise ValueError(f"action index {action_index} is negative")
    message_id = normalise_message_id(message_id)
    source = HmacStream(seed, roll_label(message_id, action_index))
    faces = tuple(draw_below(source, spec.faces) + 1 for _ in range(spec.count))
    return Roll(spec=spec, faces=faces, message_id=message_id, action_index=action_index)


class VerifyOutcome(Enum):
    OK = "ok"
    SEED_MISMATCH = "seed does not match commitment"
    ROLL_DIFFERS = "roll differs"


@dataclass(frozen=True)
class VerifyResult:
    """Whether a published roll checks out; ``expected_faces`` is None if the seed is bad."""

    outcome: VerifyOutcome
    expected_faces: tuple[int, ...] | None
    explanation: str

    @property
    def ok(self) -> bool:
        return self.outcome is VerifyOutcome.OK


def verify_roll(
    seed_hex: str,
    commitment_hex: str,
    message_id: str,
    index: int,
    spec: DiceSpec | str,
    claimed_faces: Sequence[int],
) -> VerifyResult:
    """Check a published roll against the revealed seed and the earlier commitment."""
    seed = _seed_matching(seed_hex, commitment_hex)
    if isinstance(seed, VerifyResult):
        return seed
    dice = spec if isinstance(spec, DiceSpec) else DiceSpec.parse(spec)
    expected = roll(seed, message_id, index, dice).faces
    if tuple(claimed_faces) == expected:
        return VerifyResult(VerifyOutcome.OK, expected, f"{dice} rolled {list(expected)}")
    explanation = f"{dice} should have rolled {list(expected)}, not {list(claimed_faces)}"
    return VerifyResult(VerifyOutcome.ROLL_DIFFERS, expected, explanation)


def _seed_matching(seed_hex: str, commitment_hex: str) -> bytes | VerifyResult:
    try:
        seed = seed_from_hex(seed_hex)
    except ValueError as error:
        return VerifyResult(VerifyOutcome.SEED_MISMATCH, None, f"the seed is not valid: {error}")
    expected, published = commitment(seed), commitment_hex.strip().lower()
    if expected != published:  # nothing secret here: the seed is already public
        explanation = f"SHA-256 of the seed is {expected}, the commitment says {published}"
        return VerifyResult(VerifyOutcome.SEED_MISMATCH, None, explanation)
    return seed
