"""Per-nweek seeds, their public commitments and their reveal."""

from __future__ import annotations

import hashlib
import hmac

from bot.games.dice.stream import SEED_LENGTH

MINIMUM_MASTER_SECRET_LENGTH = 32


def nweek_seed(master_secret: bytes, nweek: int) -> bytes:
    """The 32-byte seed of (zero-based) ``nweek``.

    HMAC-SHA256 keyed by the master secret, so publishing one nweek's seed
    reveals nothing about another's.  Raises ``ValueError`` for a master secret
    shorter than 32 bytes or a negative nweek.
    """
    if len(master_secret) < MINIMUM_MASTER_SECRET_LENGTH:
        raise ValueError(f"the master secret must be at least {MINIMUM_MASTER_SECRET_LENGTH} bytes")
    if nweek < 0:
        raise ValueError(f"nweek {nweek} is negative (use the zero-based Clock value)")
    message = b"nomicbot nweek seed v1\n" + str(nweek).encode("ascii")
    return hmac.new(master_secret, message, hashlib.sha256).digest()


def commitment(seed: bytes) -> str:
    """SHA-256 of the 32 raw seed bytes (not of their hex text), as lowercase hex."""
    if len(seed) != SEED_LENGTH:
        raise ValueError(f"a dice seed is {SEED_LENGTH} bytes, got {len(seed)}")
    return hashlib.sha256(seed).hexdigest()


def reveal(seed: bytes) -> str:
    """The seed as published when its nweek ends: lowercase hex of the raw bytes."""
    return seed.hex()


def seed_from_hex(seed_hex: str) -> bytes:
    """Raises ``ValueError`` unless ``seed_hex`` is 64 hex digits."""
    seed = bytes.fromhex(seed_hex.strip())
    if len(seed) != SEED_LENGTH:
        raise ValueError(f"a dice seed is {SEED_LENGTH} bytes, {seed_hex!r} is {len(seed)}")
    return seed
