"""The contests as text: the state view and the answers published at a period's end.

Before its period ends an answer is shown as its player, arrival time and
commitment only (rule 336: answers are submitted privately); its content
is shown once the challenge is no longer open.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime

from bot.games.contests.mediocrity import every_result
from bot.games.contests.rules import DEFINITIONS, Contest, ContestDefinition, Repetition
from bot.games.contests.state import Answer, Challenge, ContestsState, ContestState, Status


def utc(instant: datetime) -> str:
    return f"{instant:%Y-%m-%d %H:%M} UTC"


def render_answer(answer: Answer, challenge: Challenge) -> str:
    received = f"{answer.player}, received {utc(answer.received_at)}"
    if challenge.status is Status.OPEN:
        return f"{received}: sealed (commitment {answer.commitment[:16]}...)"
    if answer.content is None:
        return f"{received}: sealed, the archive has no reveal of it yet"
    marks = " [incomplete: not a submission]" if answer.incomplete else ""
    return f"{received}: {answer.content}{marks}"


def sealed_while_open(state: ContestsState) -> ContestsState:
    """``state`` as anyone may see it: each open challenge's answers without their content
    or nonce, as a replay of the archive holds them before the reveal (rule 336: answers
    are submitted privately; the nonce would let anyone test a guess at the commitment)."""
    return replace(
        state,
        contests=tuple(
            replace(contest, challenges=tuple(_sealed(c) for c in contest.challenges))
            for contest in state.contests
        ),
    )


def _sealed(challenge: Challenge) -> Challenge:
    if challenge.status is not Status.OPEN:
        return challenge
    answers = tuple(replace(answer, content=None, nonce=None) for answer in challenge.answers)
    return replace(challenge, answers=answers)


def render_challenge(challenge: Challenge) -> str:
    definition = DEFINITIONS[challenge.contest]
    lines = [
        f"{definition.game_name}, challenge {challenge.number} by {challenge.contestmaster} "
        f"({utc(challenge.posted_at)}): {challenge.text}",
        f"  answers until {utc(challenge.deadline)}; {challenge.status.value}",
    ]
    lines.extend(f"  - {render_answer(answer, challenge)}" for answer in challenge.answers)
    if challenge.outcome is not None:
        winner = challenge.outcome.winner or "no winner"
        prize = f", {challenge.outcome.prize} points" if challenge.outcome.prize else ""
        lines.append(f"  outcome: {winner}{prize} ({challenge.outcome.reason})")
    return "\n".join(lines)


def render_contest(contest: ContestState, definition: ContestDefinition) -> str:
    holder = contest.contestmaster or "nobody (no game active)"
    lines = [
        f"{definition.game_name} (rule {definition.rule}): {definition.title} {holder}; "
        f"entry fee {definition.entry_fee} ({definition.fee} points an answer); "
        f"period {_days(definition)}; repetitive: {definition.repetition.value}"
    ]
    by_number = {challenge.number: challenge for challenge in contest.challenges}
    for game in contest.games:
        state = f"won by {game.winner}" if game.finished else "active"
        lines.append(
            f"Mediocrity game {game.number} (S.M {game.founder} first): level {game.level}, "
            f"at least {game.players_required} players, {game.sub_games} sub-games; "
            f"{len(game.challenges)} of {game.challenges_needed} challenges; "
            f"{game.collection} points collected; {state}"
        )
        lines.extend(f"  {result.describe()}" for result in every_result(game, by_number))
    lines.extend(render_challenge(challenge) for challenge in contest.challenges)
    lines.extend(expectations(contest, definition))
    return "\n".join(lines)


def expectations(contest: ContestState, definition: ContestDefinition) -> list[str]:
    """What the rules expect next of the Contestmaster (336, 337), for the view."""
    if contest.current is not None or contest.contestmaster is None:
        return []
    lines = [f"next: {contest.contestmaster} may post challenge {len(contest.challenges) + 1}"]
    if definition.repetition is Repetition.NWEEKLY and contest.challenges:
        due = contest.challenges[-1].posted_at + definition.period
        lines[0] += f" (337: once every nweek; due from {utc(due)})"
    unchanged = 0
    for challenge in reversed(contest.challenges):
        if challenge.contestmaster != contest.contestmaster:
            break
        unchanged += 1
    if unchanged >= 2:
        lines.append(
            f"{contest.contestmaster} has been Contestmaster for {unchanged} periods: rule 336's "
            "Secondary Unilateral Motion may name another (not refereed by the bot)"
        )
    return lines


def _days(definition: ContestDefinition) -> str:
    hours = int(definition.period.total_seconds() // 3600)
    return f"{hours // 24} days" if hours % 24 == 0 else f"{hours} hours"


def render_state(state: ContestsState, definitions: Mapping[Contest, ContestDefinition]) -> str:
    return (
        "\n\n".join(
            render_contest(contest, definitions[contest.contest]) for contest in state.contests
        )
        + "\n"
    )
