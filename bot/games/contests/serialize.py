"""A ``ContestsState`` as JSON-able data and back, exactly (instants ISO 8601, enums by value)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.games.contests.rules import Contest
from bot.games.contests.state import (
    Answer,
    Challenge,
    ContestsState,
    ContestState,
    MediocrityGame,
    Outcome,
    Status,
)

FORMAT = "contests/1"


def state_to_json(state: ContestsState) -> dict[str, Any]:
    return {"format": FORMAT, "contests": [_contest_to_json(c) for c in state.contests]}


def state_from_json(data: Mapping[str, Any]) -> ContestsState:
    """Raises ``ValueError`` if ``data`` is not in this format."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a contests state in format {FORMAT}: {data.get('format')!r}")
    return ContestsState(tuple(_contest_from_json(c) for c in data["contests"]))


def _instant(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _read_instant(value: Any) -> datetime | None:
    return None if value is None else datetime.fromisoformat(str(value))


def _contest_to_json(contest: ContestState) -> dict[str, Any]:
    return {
        "contest": contest.contest.value,
        "contestmaster": contest.contestmaster,
        "challenges": [_challenge_to_json(c) for c in contest.challenges],
        "games": [_game_to_json(g) for g in contest.games],
    }


def _contest_from_json(data: Mapping[str, Any]) -> ContestState:
    return ContestState(
        Contest(data["contest"]),
        data["contestmaster"],
        tuple(_challenge_from_json(c) for c in data["challenges"]),
        tuple(_game_from_json(g) for g in data["games"]),
    )


def _challenge_to_json(challenge: Challenge) -> dict[str, Any]:
    outcome = challenge.outcome
    return {
        "number": challenge.number,
        "contest": challenge.contest.value,
        "contestmaster": challenge.contestmaster,
        "text": challenge.text,
        "posted_at": _instant(challenge.posted_at),
        "deadline": _instant(challenge.deadline),
        "status": challenge.status.value,
        "answers": [_answer_to_json(a) for a in challenge.answers],
        "outcome": None
        if outcome is None
        else {
            "winner": outcome.winner,
            "reason": outcome.reason,
            "prize": outcome.prize,
            "judged_at": _instant(outcome.judged_at),
            "judged_best": list(outcome.judged_best),
        },
        "reminded": challenge.reminded,
        "mediocrity_game": challenge.mediocrity_game,
    }


def _challenge_from_json(data: Mapping[str, Any]) -> Challenge:
    outcome = data["outcome"]
    posted_at = _read_instant(data["posted_at"])
    deadline = _read_instant(data["deadline"])
    assert posted_at is not None and deadline is not None
    return Challenge(
        number=int(data["number"]),
        contest=Contest(data["contest"]),
        contestmaster=str(data["contestmaster"]),
        text=str(data["text"]),
        posted_at=posted_at,
        deadline=deadline,
        status=Status(data["status"]),
        answers=tuple(_answer_from_json(a) for a in data["answers"]),
        outcome=None
        if outcome is None
        else Outcome(
            outcome["winner"],
            str(outcome["reason"]),
            int(outcome["prize"]),
            _read_instant(outcome["judged_at"]),
            tuple(outcome["judged_best"]),
        ),
        reminded=bool(data["reminded"]),
        mediocrity_game=data["mediocrity_game"],
    )


def _answer_to_json(answer: Answer) -> dict[str, Any]:
    return {
        "player": answer.player,
        "received_at": _instant(answer.received_at),
        "content": answer.content,
        "fee": answer.fee,
        "commitment": answer.commitment,
        "nonce": answer.nonce,
        "incomplete": answer.incomplete,
        "committed_as": answer.committed_as,
    }


def _answer_from_json(data: Mapping[str, Any]) -> Answer:
    received_at = _read_instant(data["received_at"])
    assert received_at is not None
    return Answer(
        str(data["player"]),
        received_at,
        data["content"],
        int(data["fee"]),
        str(data["commitment"]),
        data["nonce"],
        bool(data["incomplete"]),
        str(data["committed_as"]),
    )


def _game_to_json(game: MediocrityGame) -> dict[str, Any]:
    return {
        "number": game.number,
        "founder": game.founder,
        "level": game.level,
        "players_required": game.players_required,
        "sub_games": game.sub_games,
        "started_at": _instant(game.started_at),
        "challenges": list(game.challenges),
        "collection": game.collection,
        "winner": game.winner,
        "finished_at": _instant(game.finished_at),
    }


def _game_from_json(data: Mapping[str, Any]) -> MediocrityGame:
    started_at = _read_instant(data["started_at"])
    assert started_at is not None
    return MediocrityGame(
        int(data["number"]),
        str(data["founder"]),
        int(data["level"]),
        int(data["players_required"]),
        int(data["sub_games"]),
        started_at,
        tuple(int(n) for n in data["challenges"]),
        int(data["collection"]),
        data["winner"],
        _read_instant(data["finished_at"]),
    )
