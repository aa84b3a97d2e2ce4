"""Polls as JSON-able dicts and back (rule 15, seed 004), for the engine's poll store.

Pure: plain dicts of str, int, bool, list and None, with instants as ISO 8601
UTC text.  ``poll_from_dict(poll_to_dict(poll)) == poll`` for every Poll; the
reading raises ``ValueError`` for data ``poll_to_dict`` could not have
written, so a corrupted store is a loud defect rather than a quiet change of
a vote.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bot.games.governance.polls.durations import (
    Duration,
    Indeterminate,
    NtimePeriod,
    NtimePoint,
    RealTimePeriod,
    RealTimePoint,
)
from bot.games.governance.polls.poll import CastVote, Flag, Poll
from bot.games.governance.polls.votes import Choice, Vote, VoteOptions
from bot.games.ntime import require_utc

FORMAT_VERSION = 1


def instant_to_text(instant: datetime) -> str:
    return require_utc(instant).isoformat()


def instant_from_text(text: Any) -> datetime:
    """Raises ``ValueError`` for text that is not an aware ISO 8601 instant."""
    if not isinstance(text, str):
        raise ValueError(f"an instant is ISO 8601 text, not {text!r}")
    return require_utc(datetime.fromisoformat(text))


def duration_to_dict(duration: Duration) -> dict[str, Any]:
    if isinstance(duration, NtimePoint):
        return {"kind": "ntime-point", "reading": duration.reading, "ends_at": _at(duration)}
    if isinstance(duration, NtimePeriod):
        return {"kind": "ntime-period", "length": duration.length, "ends_at": _at(duration)}
    if isinstance(duration, RealTimePoint):
        return {"kind": "real-point", "ends_at": _at(duration)}
    if isinstance(duration, RealTimePeriod):
        return {"kind": "real-period", "seconds": duration.length.total_seconds()}
    return {"kind": "indeterminate"}


def _at(duration: NtimePoint | NtimePeriod | RealTimePoint) -> str:
    return instant_to_text(duration.ends_at)


def duration_from_dict(data: dict[str, Any]) -> Duration:
    """Raises ``ValueError`` for an unknown kind or a missing field."""
    kind = data.get("kind")
    try:
        if kind == "ntime-point":
            return NtimePoint(str(data["reading"]), instant_from_text(data["ends_at"]))
        if kind == "ntime-period":
            return NtimePeriod(str(data["length"]), instant_from_text(data["ends_at"]))
        if kind == "real-point":
            return RealTimePoint(instant_from_text(data["ends_at"]))
        if kind == "real-period":
            return RealTimePeriod(timedelta(seconds=float(data["seconds"])))
    except KeyError as error:
        raise ValueError(f"a {kind} Duration needs {error}") from None
    if kind == "indeterminate":
        return Indeterminate()
    raise ValueError(f"no such kind of Duration: {kind!r}")


def vote_to_dict(cast: CastVote) -> dict[str, Any]:
    return {
        "voter": cast.voter,
        "choice": cast.vote.choice.value,
        "text": cast.vote.text,
        "obvious": cast.vote.obvious,
        "reason": cast.vote.reason,
        "cast_at": instant_to_text(cast.cast_at),
        "private": cast.private,
    }


def vote_from_dict(data: dict[str, Any]) -> CastVote:
    """Raises ``ValueError`` for an unknown choice or a missing field."""
    try:
        vote = Vote(
            choice=Choice(data["choice"]),
            text=str(data["text"]),
            obvious=bool(data["obvious"]),
            reason=str(data["reason"]),
        )
        return CastVote(
            voter=str(data["voter"]),
            vote=vote,
            cast_at=instant_from_text(data["cast_at"]),
            private=bool(data.get("private", False)),
        )
    except KeyError as error:
        raise ValueError(f"a stored vote needs {error}") from None


def poll_to_dict(poll: Poll) -> dict[str, Any]:
    """``poll`` as a JSON-able dict; sets are written sorted, so equal polls give equal dicts."""
    return {
        "version": FORMAT_VERSION,
        "issue": poll.issue,
        "eligible_voters": sorted(poll.eligible_voters),
        "duration": duration_to_dict(poll.duration),
        "called_at": instant_to_text(poll.called_at),
        "flags": sorted(flag.value for flag in poll.flags),
        "options": {"refused": poll.options.refused, "true_false": poll.options.true_false},
        "active_players": None if poll.active_players is None else sorted(poll.active_players),
        "votes": [vote_to_dict(cast) for cast in poll.votes],
    }


def poll_from_dict(data: dict[str, Any]) -> Poll:
    """The Poll ``poll_to_dict`` wrote; ``ValueError`` for anything else."""
    if data.get("version") != FORMAT_VERSION:
        raise ValueError(f"unknown poll format version {data.get('version')!r}")
    try:
        active = data["active_players"]
        options = data["options"]
        return Poll(
            issue=str(data["issue"]),
            eligible_voters=frozenset(map(str, data["eligible_voters"])),
            duration=duration_from_dict(data["duration"]),
            called_at=instant_from_text(data["called_at"]),
            flags=frozenset(Flag(value) for value in data["flags"]),
            options=VoteOptions(bool(options["refused"]), bool(options["true_false"])),
            active_players=None if active is None else frozenset(map(str, active)),
            votes=tuple(vote_from_dict(item) for item in data["votes"]),
        )
    except KeyError as error:
        raise ValueError(f"a stored poll needs {error}") from None
