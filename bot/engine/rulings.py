"""Rulings: what happened to each action of a post, as values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any


class Outcome(Enum):
    APPLIED = "applied"
    REJECTED = "rejected"
    NOT_TAKEN = "not_taken"


@dataclass(frozen=True)
class PlayerRef:
    id: int
    name: str


@dataclass(frozen=True)
class Turn:
    """The circumstances one action is judged in."""

    message_id: str
    occurred_at: datetime  # arrival time of the post (rule 3 B, rule 1896)
    ntime_label: str  # e.g. "nweek 4, nday 7", displayed one-based (rule 3 A)
    nweek: int  # zero-based, as the Clock holds it
    checking_period: int
    position: int  # 1-based order of the action in the post, after repeats
    author: str  # the address the post is attributed to
    player: PlayerRef | None
    private: bool = False  # sent to the bot alone, not through the list


@dataclass(frozen=True)
class Board:
    """A board changed by a post, as text to mail back."""

    title: str
    text: str


@dataclass(frozen=True)
class Ruling:
    position: int
    action: str
    args: Mapping[str, Any]
    text: str
    outcome: Outcome
    summary: str  # what happened, in a player's words
    reason: str = ""  # why it was rejected or not taken
    rule: str = ""  # the rule the ruling rests on, e.g. "1639 C"
    draws: tuple[Mapping[str, Any], ...] = field(default=())
    effects: tuple[Mapping[str, Any], ...] = field(default=())  # what it changed, as data

    @property
    def rule_label(self) -> str:
        return f"rule {self.rule}" if self.rule else ""


def applied(
    action: str,
    args: Mapping[str, Any],
    text: str,
    turn: Turn,
    summary: str,
    rule: str = "",
    draws: tuple[Mapping[str, Any], ...] = (),
    effects: tuple[Mapping[str, Any], ...] = (),
) -> Ruling:
    return Ruling(
        turn.position, action, args, text, Outcome.APPLIED, summary, "", rule, draws, effects
    )


def rejected(
    action: str, args: Mapping[str, Any], text: str, turn: Turn, reason: str, rule: str = ""
) -> Ruling:
    return Ruling(turn.position, action, args, text, Outcome.REJECTED, "", reason, rule)


def not_taken(
    action: str, args: Mapping[str, Any], text: str, turn: Turn, reason: str, rule: str = ""
) -> Ruling:
    return Ruling(turn.position, action, args, text, Outcome.NOT_TAKEN, "", reason, rule)
