"""How the Gardens' rulings and display name things."""

from __future__ import annotations

from bot.games.garden.plants import GardenKey


def garden_name(garden: GardenKey) -> str:
    """``Alice's Garden``, or ``the Town Square`` (rule 1902 C)."""
    return "the Town Square" if garden is None else f"{garden}'s Garden"


def owner_name(garden: GardenKey) -> str:
    """Who owns a Garden's Plants: its owner, or "nobody" in the Town Square (1908 B.1)."""
    return "nobody" if garden is None else garden
