"""Verifiable rolls: frozen known answers, the documented derivation, fairness, verification."""

from __future__ import annotations

import hashlib
import hmac
import textwrap
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import bot.games.dice as dice_package
from bot.games.dice import (
    DiceSpec,
    DrawSource,
    VerifyOutcome,
    commitment,
    draw_below,
    nweek_seed,
    reveal,
    roll,
    seed_from_hex,
    verify_roll,
)

MASTER = bytes(range(32))
SEED_13 = nweek_seed(MASTER, 13)
D6 = DiceSpec(1, 6)


class FixedBytes:
    """A byte source that hands out exactly the given bytes."""

    def __init__(self, data: bytes) -> None:
        self.remaining = data

    def take(self, count: int) -> bytes:
        assert len(self.remaining) >= count, "the sampler read more bytes than expected"
        taken, self.remaining = self.remaining[:count], self.remaining[count:]
        return taken


def reference() -> dict[str, Callable[..., Any]]:
    """Execute the reference implementation printed in the package docstring."""
    doc = dice_package.__doc__ or ""
    block = doc.split("Reference implementation", 1)[1].split("::\n", 1)[1]
    lines = []
    for line in block.splitlines():
        if line and not line.startswith(" "):
            break
        lines.append(line)
    namespace: dict[str, Any] = {}
    exec(textwrap.dedent("\n".join(lines)), namespace)
    return namespace


def test_known_answers_are_frozen() -> None:
    # Computed once with this module and cross-checked with
    # `openssl dgst -sha256 -mac HMAC`; a change here breaks every archived proof.
    assert nweek_seed(MASTER, 0).hex() == (
        "b94e8d4600a31b978dc10eb43329d190ca85b53845aafe24f2cb48f20e63a335"
    )
    assert reveal(SEED_13) == "aca11af870591b9d24c628d39cd0e799aa59bdc06b8ca067e026699971b52a59"
    assert commitment(SEED_13) == (
        "1da4d988072539cc20fb4c2f95316f0b5dfa8f48c14c85880da731d023ebf123"
    )
    assert roll(SEED_13, "<abc@example.org>", 0, DiceSpec(3, 6)).faces == (6, 6, 5)
    assert roll(SEED_13, "abc@example.org", 1, DiceSpec(3, 6)).faces == (5, 1, 5)
    assert roll(SEED_13, "abc@example.org", 0, DiceSpec(2, 1000)).faces == (648, 356)
    assert roll(SEED_13, "x@y", 0, DiceSpec(10, 7)).faces == (1, 7, 1, 7, 1, 6, 2, 2, 6, 2)


def test_the_documented_reference_implementation_agrees() -> None:
    ref = reference()
    for nweek in (0, 1, 13, 999):
        assert ref["nweek_seed"](MASTER, nweek) == nweek_seed(MASTER, nweek)
    assert ref["commitment"](SEED_13) == commitment(SEED_13)
    for count, faces in ((3, 6), (100, 7), (5, 1000), (20, 256), (20, 257)):
        for index in range(3):
            expected = ref["roll"](SEED_13, "m@x", index, count, faces)
            assert list(roll(SEED_13, "<m@x>", index, DiceSpec(count, faces)).faces) == expected
    source = DrawSource(SEED_13, "ctx")
    for number, size in enumerate((1, 2, 7, 52)):
        shuffled = source.shuffle(list(range(size)), purpose="deal")
        assert shuffled == ref["shuffle_order"](SEED_13, "ctx", number, size)


def test_roll_proof_and_display() -> None:
    result = roll(SEED_13, " <abc@example.org> ", 0, DiceSpec(3, 6))
    assert result.total == 17
    assert result.display() == "3d6: 6 + 6 + 5 = 17"
    assert result.proof == "dice-v1 message-id=abc@example.org action=0 spec=3d6 faces=6,6,5"


def test_each_action_in_a_post_rolls_independently() -> None:
    rolls = [roll(SEED_13, "twice@example.org", index, DiceSpec(8, 6)).faces for index in range(5)]
    assert len(set(rolls)) == 5


@pytest.mark.parametrize("message_id", ["", "<>", "a\nb@x", "a\rb@x"])
def test_message_ids_that_cannot_label_a_stream_are_refused(message_id: str) -> None:
    with pytest.raises(ValueError, match="Message-ID"):
        roll(SEED_13, message_id, 0, D6)


def test_seed_must_be_raw_bytes() -> None:
    with pytest.raises(ValueError, match="32 raw bytes"):
        roll(SEED_13[:16], "a@b", 0, D6)


def test_rejected_bytes_are_skipped() -> None:
    assert draw_below(FixedBytes(bytes([253, 5])), 6) == 5  # 252..255 would favour 0..3
    assert draw_below(FixedBytes(bytes([252, 255, 13])), 7) == 6
    # d1000 takes two bytes; 65000..65535 are rejected.
    assert (
        draw_below(FixedBytes((65_000).to_bytes(2, "big") + (1_999).to_bytes(2, "big")), 1000)
        == 999
    )
    assert draw_below(FixedBytes(bytes([255])), 256) == 255  # 256 divides 256: nothing rejected


@pytest.mark.parametrize("bound", [2, 3, 6, 7, 10, 20, 100, 255, 256, 257, 1000])
def test_every_result_is_equally_likely_over_all_byte_values(bound: int) -> None:
    size = max(1, ((bound - 1).bit_length() + 7) // 8)
    counts: Counter[int] = Counter()
    for value in range(256**size):
        source = FixedBytes(value.to_bytes(size, "big") + bytes(size))
        counts[draw_below(source, bound)] += 1 if source.remaining == bytes(size) else 0
    assert set(counts) == set(range(bound))
    assert len(set(counts.values())) == 1


def test_rejection_happens_in_real_streams_for_d7() -> None:
    # Find a post whose first stream byte falls in d7's rejected zone (252..255)
    # and check the die came from the next byte instead.
    for number in range(10_000):
        label = f"nomicbot dice v1\nroll\nreject-{number}@test\n0\n0".encode()
        block = hmac.new(SEED_13, label, hashlib.sha256).digest()
        if block[0] >= 252 and block[1] < 252:
            assert roll(SEED_13, f"reject-{number}@test", 0, DiceSpec(1, 7)).faces == (
                block[1] % 7 + 1,
            )
            return
    pytest.fail("no rejected first byte in 10,000 posts")


def chi_square(counts: Counter[int], faces: int) -> float:
    expected = sum(counts.values()) / faces
    return sum((counts[face] - expected) ** 2 / expected for face in range(1, faces + 1))


def test_sixty_thousand_d6_look_fair() -> None:
    counts: Counter[int] = Counter()
    for number in range(600):
        counts.update(roll(SEED_13, f"chi-{number}@test", 0, DiceSpec(100, 6)).faces)
    assert sum(counts.values()) == 60_000
    # df = 5; 30 is far beyond the 0.01% point (about 25.7): only a broken sampler fails.
    assert chi_square(counts, 6) < 30


def test_d7_and_d1000_look_fair() -> None:
    sevens: Counter[int] = Counter()
    thousands: Counter[int] = Counter()
    for number in range(1000):
        sevens.update(roll(SEED_13, f"seven-{number}@test", 0, DiceSpec(70, 7)).faces)
        thousands.update(roll(SEED_13, f"thousand-{number}@test", 0, DiceSpec(100, 1000)).faces)
    assert chi_square(sevens, 7) < 32  # df = 6
    assert chi_square(thousands, 1000) < 999 + 6 * 45  # df = 999, sd about 45


def test_verify_accepts_an_honest_roll() -> None:
    published = roll(SEED_13, "<abc@example.org>", 0, DiceSpec(3, 6))
    result = verify_roll(
        reveal(SEED_13), commitment(SEED_13).upper(), "abc@example.org", 0, "3d6", published.faces
    )
    assert result.ok
    assert result.outcome is VerifyOutcome.OK
    assert result.expected_faces == (6, 6, 5)


def test_verify_catches_a_tampered_roll() -> None:
    result = verify_roll(
        reveal(SEED_13), commitment(SEED_13), "abc@example.org", 0, "3d6", [6, 6, 6]
    )
    assert result.outcome is VerifyOutcome.ROLL_DIFFERS
    assert result.expected_faces == (6, 6, 5)
    assert "should have rolled [6, 6, 5], not [6, 6, 6]" in result.explanation


def test_verify_catches_a_seed_that_was_not_committed() -> None:
    other = nweek_seed(MASTER, 14)
    result = verify_roll(reveal(other), commitment(SEED_13), "abc@example.org", 0, "3d6", [6, 6, 5])
    assert result.outcome is VerifyOutcome.SEED_MISMATCH
    assert result.expected_faces is None
    bad_hex = verify_roll("zz", commitment(SEED_13), "abc@example.org", 0, "3d6", [6, 6, 5])
    assert bad_hex.outcome is VerifyOutcome.SEED_MISMATCH
    assert "not valid" in bad_hex.explanation


def test_nweek_seeds_are_independent() -> None:
    seeds = [nweek_seed(MASTER, nweek) for nweek in range(200)]
    assert len(set(seeds)) == 200
    assert all(len(seed) == 32 for seed in seeds)
    assert nweek_seed(bytes(range(1, 33)), 13) != SEED_13
    # The seed is the keyed HMAC, not a plain hash anyone could compute.
    assert hashlib.sha256(b"nomicbot nweek seed v1\n13").digest() != SEED_13
    assert seed_from_hex(reveal(SEED_13)) == SEED_13


def test_nweek_seed_refuses_weak_inputs() -> None:
    with pytest.raises(ValueError, match="at least 32 bytes"):
        nweek_seed(b"short", 0)
    with pytest.raises(ValueError, match="negative"):
        nweek_seed(MASTER, -1)


def test_a_players_roll_names_its_item_number_and_rolls_as_v1_did() -> None:
    # The same derivation (index 0): an archive judged before dice-v2 replays as it was.
    result = roll(SEED_13, " <abc@example.org> ", 0, DiceSpec(3, 6))
    assert result.item_proof == "dice-v2 message-id=abc@example.org action=1 spec=3d6 faces=6,6,5"
