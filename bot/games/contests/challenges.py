"""Rule 336's machinery: a challenge's life from its post to its outcome.

Every function takes the state and returns the new state with the points
to move (``Transfer``), raising an ``ActionError`` citing the rule when the
rules forbid the action.  Nothing here reads a clock: instants come in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from bot.games.contests.mediocre import quantity_of
from bot.games.contests.mediocrity import challenge_winner, concluded_by_last
from bot.games.contests.rules import (
    FEWEST_ANSWERS,
    RULE_CRG,
    RULE_MEDIOCRITY,
    RULE_SIMILARITY,
    SIMILARITY_ITEMS,
    Contest,
    ContestDefinition,
)
from bot.games.contests.state import (
    Answer,
    Challenge,
    ContestsState,
    ContestState,
    MediocrityGame,
    Outcome,
    PlayerId,
    Status,
)
from bot.games.contests.transfers import Transfer
from bot.games.errors import IllegalActionError, NotYetError

Result = tuple[ContestsState, tuple[Transfer, ...]]


def similarity_items(text: str) -> tuple[str, ...]:
    """337's "list containing at least three distinct items", as written (commas, "and")."""
    parts = re.split(r"\s*(?:,|;|\band\b)\s*", text.strip().rstrip("."), flags=re.IGNORECASE)
    return tuple(part.strip() for part in parts if part.strip())


def post_challenge(
    state: ContestsState, definition: ContestDefinition, player: PlayerId, text: str, at: datetime
) -> tuple[ContestsState, Challenge]:
    """336: "The Contestmaster ... should post the/a Challenge to a public forum"."""
    contest = state.of(definition.contest)
    _check_contestmaster(contest, definition, player)
    current = contest.current
    if current is not None:
        raise IllegalActionError(
            f"{definition.game_name} has challenge {current.number} still "
            f"{'open' if current.status is Status.OPEN else 'to be judged'}; "
            "one challenge at a time",
            rule=RULE_CRG,
        )
    game = contest.active_game
    if definition.contest is Contest.SIMILARITY:
        items = similarity_items(text)
        distinct = len({item.lower() for item in items})
        if distinct < SIMILARITY_ITEMS:
            raise IllegalActionError(
                f"the challenge lists {distinct} distinct item(s); the S.O. publishes "
                f"a list of at least {SIMILARITY_ITEMS} distinct items",
                rule=RULE_SIMILARITY,
            )
    if definition.contest is Contest.MEDIOCRITY and game is None:
        raise IllegalActionError(
            'no game of Mediocrity is active; start one ("I start a Mediocrity game: level 1, '
            'at least 3 players, 3 sub-games")',
            rule=RULE_MEDIOCRITY,
        )
    challenge = Challenge(
        number=len(contest.challenges) + 1,
        contest=definition.contest,
        contestmaster=player,
        text=text.strip(),
        posted_at=at,
        deadline=at + definition.period,
        mediocrity_game=None if game is None else game.number,
    )
    return state.with_contest(contest.with_challenge(challenge)), challenge


def _check_contestmaster(
    contest: ContestState, definition: ContestDefinition, player: PlayerId
) -> None:
    if contest.contestmaster != player:
        holder = contest.contestmaster or "nobody"
        raise IllegalActionError(
            f"only the {definition.title} ({holder}) posts {definition.game_name}'s challenge",
            rule=definition.rule,
        )


def submit_answer(
    state: ContestsState,
    definition: ContestDefinition,
    player: PlayerId,
    content: str | None,
    at: datetime,
    commitment: str = "",
    nonce: str | None = None,
) -> tuple[ContestsState, Challenge, Transfer]:
    """336: a player's answer, private, in the period, one each, for (entry fee)*2 points.

    ``content`` None: an answer whose content is sealed (a replay that has
    its commitment and not yet its reveal); it is checked when revealed.
    """
    contest = state.of(definition.contest)
    challenge = contest.current
    if challenge is None or challenge.status is not Status.OPEN or at >= challenge.deadline:
        raise IllegalActionError(
            f"{definition.game_name} has no challenge open for answers"
            + (
                ""
                if challenge is None
                else f" (challenge {challenge.number} closed at "
                f"{challenge.deadline:%Y-%m-%d %H:%M} UTC)"
            ),
            rule=RULE_CRG,
        )
    if player == challenge.contestmaster:
        raise IllegalActionError(
            f"the {definition.title} sets the challenge; only the other players answer it",
            rule=RULE_CRG,
        )
    if challenge.answer_of(player) is not None:
        raise IllegalActionError(
            f"you answered challenge {challenge.number} already; each player may submit up "
            "to one complete answer",
            rule=RULE_CRG,
        )
    if content is not None:
        check_content(definition, content)
    answer = Answer(player, at, content, definition.fee, commitment, nonce, committed_as=player)
    challenge = challenge.with_answer(answer)
    state = state.with_contest(contest.with_challenge(challenge))
    payee = None if definition.contest is Contest.MEDIOCRITY else challenge.contestmaster
    note = f"entry fee of {definition.game_name} challenge {challenge.number}"
    fee = Transfer(player, payee, definition.fee, RULE_CRG, note, entry_fee=True)
    if payee is None:
        state = _collect(state, definition, challenge, definition.fee)
    return state, challenge, fee


def check_content(definition: ContestDefinition, content: str) -> None:
    """Raises ``IllegalActionError`` for an answer that is no entry of its contest."""
    if not content.strip():
        raise IllegalActionError("the answer is empty", rule=RULE_CRG)
    if definition.contest is Contest.MEDIOCRITY:
        try:
            quantity_of(content)
        except (ValueError, ZeroDivisionError):
            raise IllegalActionError(
                f'"{content.strip()}" is not a quantity; a valid entry specifies one quantity',
                rule=RULE_MEDIOCRITY,
            ) from None


def _collect(
    state: ContestsState, definition: ContestDefinition, challenge: Challenge, amount: int
) -> ContestsState:
    contest = state.of(definition.contest)
    game = _game_of(contest, challenge)
    return state.with_contest(contest.with_game(replace(game, collection=game.collection + amount)))


def _game_of(contest: ContestState, challenge: Challenge) -> MediocrityGame:
    for game in contest.games:
        if game.number == challenge.mediocrity_game:
            return game
    raise ValueError(f"challenge {challenge.number} belongs to no game of Mediocrity")


def reveal_answer(
    state: ContestsState,
    contest_key: Contest,
    number: int,
    player: PlayerId,
    content: str,
    nonce: str,
) -> ContestsState:
    """A sealed answer's content, once its reveal is known."""
    contest = state.of(contest_key)
    challenge = contest.challenge(number)
    answer = challenge.answer_of(player)
    if answer is None:
        raise ValueError(f"{player} did not answer challenge {number}")
    challenge = challenge.with_answer(replace(answer, content=content, nonce=nonce))
    return state.with_contest(contest.with_challenge(challenge))


def due_challenges(state: ContestsState, until: datetime) -> tuple[Challenge, ...]:
    """The open challenges whose period ends at or before ``until``, earliest first."""
    due = [
        challenge
        for contest in state.contests
        for challenge in contest.challenges
        if challenge.status is Status.OPEN and challenge.deadline <= until
    ]
    return tuple(sorted(due, key=lambda challenge: (challenge.deadline, challenge.number)))


def close_period(state: ContestsState, definition: ContestDefinition, number: int) -> Result:
    """The end of the period: judging, or finished with no winner and the fees refunded."""
    contest = state.of(definition.contest)
    challenge = contest.challenge(number)
    at = challenge.deadline
    needed = FEWEST_ANSWERS
    game = None
    if definition.contest is Contest.MEDIOCRITY:
        game = _game_of(contest, challenge)
        needed = max(FEWEST_ANSWERS, game.players_required)
    if len(challenge.submissions) < needed:
        return _no_winner(state, definition, challenge, at, needed)
    if game is None:
        challenge = replace(challenge, status=Status.JUDGING)
        return state.with_contest(contest.with_challenge(challenge)), ()
    return _mediocre_challenge(state, definition, challenge, game)


def _no_winner(
    state: ContestsState,
    definition: ContestDefinition,
    challenge: Challenge,
    at: datetime,
    needed: int,
) -> Result:
    """336: "If less than 2 answers are submitted, the game is considered finished with
    no winner.  All points taken from players as entry fees ... are returned"."""
    contest = state.of(definition.contest)
    rule = RULE_CRG if needed == FEWEST_ANSWERS else RULE_MEDIOCRITY
    count = len(challenge.submissions)
    reason = f"{count} answer(s), fewer than {needed}: finished with no winner, fees returned"
    refunds = tuple(
        Transfer(
            None if definition.contest is Contest.MEDIOCRITY else challenge.contestmaster,
            answer.player,
            answer.fee,
            rule,
            f"entry fee of {definition.game_name} challenge {challenge.number} returned",
        )
        for answer in challenge.answers
        if answer.fee
    )
    answers = tuple(replace(answer, fee=0) for answer in challenge.answers)
    challenge = replace(
        challenge, status=Status.FINISHED, answers=answers, outcome=Outcome(None, reason, 0, at)
    )
    contest = contest.with_challenge(challenge)
    if definition.contest is Contest.MEDIOCRITY:
        game = _game_of(contest, challenge)
        refunded = sum(transfer.amount for transfer in refunds)
        contest = contest.with_game(replace(game, collection=game.collection - refunded))
    # The Contestmaster does not change (336: "play proceeds as normal").
    return state.with_contest(contest), refunds


def judge(
    state: ContestsState,
    definition: ContestDefinition,
    player: PlayerId,
    best: Sequence[PlayerId],
    at: datetime,
) -> Result:
    """336: the Contestmaster judges; of several judged most correct the earliest wins;
    half the fees to the winner; the winner is the next Contestmaster of a repetitive game."""
    contest = state.of(definition.contest)
    challenge = _judgeable(contest, definition, player, at)
    submitted = {answer.player: answer for answer in challenge.submissions}
    strangers = [name for name in best if name not in submitted]
    if strangers or not best:
        answered = ", ".join(submitted) or "nobody"
        raise IllegalActionError(
            f"{', '.join(strangers) or 'nobody'} submitted no answer to challenge "
            f"{challenge.number} (the answers are {answered}'s)",
            rule=RULE_CRG,
        )
    winner = min(best, key=lambda name: (submitted[name].received_at, name))
    prize = sum(answer.fee for answer in challenge.answers) // 2
    tie = (
        f"; of the answers of {' and '.join(best)}, judged equally correct, {winner}'s "
        "came earliest"
        if len(best) > 1
        else ""
    )
    outcome = Outcome(winner, f"judged by {player}{tie}", prize, at, tuple(best))
    challenge = replace(challenge, status=Status.FINISHED, outcome=outcome)
    contest = contest.with_challenge(challenge)
    # 336: "If the C/RG is repetitive, the winner ... shall be the Contestmaster for
    # the following challenge" (all three instances are repetitive).
    contest = replace(contest, contestmaster=winner)
    note = f"half the entry fees of {definition.game_name} challenge {challenge.number}"
    transfers = (Transfer(challenge.contestmaster, winner, prize, RULE_CRG, note),) if prize else ()
    return state.with_contest(contest), transfers


def _judgeable(
    contest: ContestState, definition: ContestDefinition, player: PlayerId, at: datetime
) -> Challenge:
    challenge = contest.current
    if challenge is None:
        raise IllegalActionError(
            f"{definition.game_name} has no challenge awaiting judgement", rule=RULE_CRG
        )
    if player != challenge.contestmaster:
        raise IllegalActionError(
            f"only the {definition.title} ({challenge.contestmaster}) judges challenge "
            f"{challenge.number}",
            rule=RULE_CRG,
        )
    if challenge.status is Status.OPEN:
        raise NotYetError(
            f"the period of challenge {challenge.number} has not ended",
            rule=RULE_CRG,
            again=f"the {definition.title} may judge",
            from_instant=challenge.deadline,
        )
    if definition.contest is Contest.MEDIOCRITY:
        raise IllegalActionError(
            "Mediocrity's winners are computed from the quantities, not judged",
            rule=RULE_MEDIOCRITY,
        )
    return challenge


def mark_incomplete(
    state: ContestsState,
    definition: ContestDefinition,
    player: PlayerId,
    names: Sequence[PlayerId],
    at: datetime,
) -> Result:
    """336: "Partial or incomplete answers (as determined by the Contestmaster) are not
    considered submissions": their fees are returned; fewer than 2 left, no winner."""
    contest = state.of(definition.contest)
    challenge = _judgeable(contest, definition, player, at)
    submitted = {answer.player: answer for answer in challenge.submissions}
    strangers = [name for name in names if name not in submitted]
    if strangers:
        raise IllegalActionError(
            f"{', '.join(strangers)} submitted no answer to challenge {challenge.number}",
            rule=RULE_CRG,
        )
    refunds = tuple(
        Transfer(
            challenge.contestmaster,
            name,
            submitted[name].fee,
            RULE_CRG,
            f"incomplete answer to {definition.game_name} challenge {challenge.number}: "
            "its entry fee returned",
        )
        for name in names
        if submitted[name].fee
    )
    answers = tuple(
        replace(answer, incomplete=True, fee=0) if answer.player in names else answer
        for answer in challenge.answers
    )
    challenge = replace(challenge, answers=answers)
    state = state.with_contest(contest.with_challenge(challenge))
    if len(challenge.submissions) < FEWEST_ANSWERS:
        state, more = _no_winner(state, definition, challenge, at, FEWEST_ANSWERS)
        return state, refunds + more
    return state, refunds


def start_mediocrity(
    state: ContestsState,
    definition: ContestDefinition,
    player: PlayerId,
    level: int,
    players_required: int,
    sub_games: int,
    at: datetime,
    most_challenges: int,
) -> ContestsState:
    """343: "If there is no Mediocrity game active any Player [may] start one and declare
    emself ContestMaster of the new game"."""
    contest = state.of(Contest.MEDIOCRITY)
    if contest.active_game is not None:
        raise IllegalActionError(
            f"Mediocrity game {contest.active_game.number} is active "
            f"({contest.contestmaster} is the S.M); one game at a time",
            rule=RULE_MEDIOCRITY,
        )
    if level < 1 or players_required < 1 or sub_games < 1:
        raise IllegalActionError(
            "the level, the players required and the sub-games are each at least 1",
            rule=RULE_MEDIOCRITY,
        )
    if sub_games**level > most_challenges:
        raise IllegalActionError(
            f"level {level} with {sub_games} sub-games is {sub_games**level} challenges; "
            f"this referee plays games of at most {most_challenges}",
            rule=RULE_MEDIOCRITY,
        )
    game = MediocrityGame(len(contest.games) + 1, player, level, players_required, sub_games, at)
    return state.with_contest(replace(contest.with_game(game), contestmaster=player))


def _mediocre_challenge(
    state: ContestsState,
    definition: ContestDefinition,
    challenge: Challenge,
    game: MediocrityGame,
) -> Result:
    """343: the challenge's winner computed; the sub-games it concludes; the game's end."""
    contest = state.of(definition.contest)
    if any(answer.content is None for answer in challenge.submissions):
        raise ValueError(f"challenge {challenge.number} has sealed quantities: no winner yet")
    winner, tied = challenge_winner(challenge)
    if winner is None:
        raise ValueError(f"challenge {challenge.number} has no quantity to compare")
    tie = ""
    if len(tied) > 1:
        tie = f"; {', '.join(e.player for e in tied)} equally mediocre, the earliest wins"
    outcome = Outcome(winner.player, f"the most mediocre quantity{tie}", 0, challenge.deadline)
    challenge = replace(challenge, status=Status.FINISHED, outcome=outcome)
    contest = contest.with_challenge(challenge)
    game = replace(game, challenges=(*game.challenges, challenge.number))
    by_number = {c.number: c for c in contest.challenges}
    concluded = concluded_by_last(game, by_number)
    next_master = concluded[-1].winner or contest.contestmaster
    transfers: tuple[Transfer, ...] = ()
    if len(game.challenges) == game.challenges_needed:
        champion = concluded[-1].winner
        game = replace(game, winner=champion, finished_at=challenge.deadline)
        if champion is not None and game.collection:
            note = f"every entry fee of Mediocrity game {game.number}"
            transfers = (Transfer(None, champion, game.collection, RULE_MEDIOCRITY, note),)
        next_master = None  # 343: with no game active, any player may start one
    contest = replace(contest.with_game(game), contestmaster=next_master)
    return state.with_contest(contest), transfers


def overdue_judgements(
    state: ContestsState, until: datetime, judging_time: timedelta
) -> tuple[Challenge, ...]:
    """Challenges still to be judged ``judging_time`` after their period, not reminded yet."""
    return tuple(
        challenge
        for contest in state.contests
        for challenge in contest.challenges
        if challenge.status is Status.JUDGING
        and not challenge.reminded
        and challenge.deadline + judging_time <= until
    )


def mark_reminded(state: ContestsState, challenge: Challenge) -> ContestsState:
    contest = state.of(challenge.contest)
    return state.with_contest(contest.with_challenge(replace(challenge, reminded=True)))
