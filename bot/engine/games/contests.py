"""Contests and Challenge/Response Games (A Nomic, seed 002, rules 336-343) by mail.

The pure rules are ``bot.games.contests``; this module maps them onto mail
(docs/readings.md, "Contests"):

* The Contestmaster's challenge is a list post, acknowledged in its ruling
  with its deadline (the post's instant plus the contest's period).
* Answers are sent privately to the bot, which receives them for the
  Contestmaster (rule 336: "submitted privately via a time-stampable
  medium").  An answer posted to the list is no answer: its ruling says so.
* On receipt the bot mails the list a signed **commitment** to the answer
  (``contests.commit``: the contest, the challenge, the answerer, the
  arrival time, the fee and sha256 of the answer with a secret nonce; never
  the answer), as rule 15 B's private votes are committed to
  (``bot.engine.private_records``).  At the period's end it mails the
  signed **reveal** (``contests.reveal``: each answer with its nonce), then
  the answers to the list and to the Contestmaster, and the fees, refunds
  and prizes move through the ledger (``bot.engine.holdings``), each entry
  naming its rule.
* A replay of the list archive alone meets each commitment where the
  private post stood, opens it from the reveal (stored before anything is
  judged), and takes the same fee; the period's end then runs as it did
  live.  So the archive alone rebuilds every contest and balance.
* A timed event reminds the Contestmaster when judging is overdue (336:
  "like 2 days at most").

Contest actions take effect on arrival whatever the Clock (rule 336 times
answers by their stamp; seed 002 has no Clock of its own), and periods are
real time.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from bot.engine import ledger
from bot.engine.game import AdminCommand, Game, StateView, TimedEvent, rule
from bot.engine.games.base import GameAdapter
from bot.engine.games.contests_records import (
    COMMIT,
    REVEAL,
    answer_document,
    apply_commit,
    apply_reveal,
    commit_private_answers,
    describe_commit,
    describe_reveal,
    publish_reveal,
)
from bot.engine.games.contests_store import (
    ANSWER,
    NAME,
    SEED,
    ContestsSettings,
    carry_out,
    definitions,
    load_state,
    save_state,
    settings_of,
)
from bot.engine.holdings import POINTS, message_pk_of
from bot.engine.players import find_player_by_name, registered_addresses
from bot.engine.private_records import (
    commitment_of,
)
from bot.engine.renames import JsonState, rename_in_json, rewrite_record
from bot.engine.rulings import Board, Ruling, Turn, applied, rejected
from bot.engine.views import View
from bot.games.contests.challenges import (
    close_period,
    due_challenges,
    judge,
    mark_incomplete,
    mark_reminded,
    overdue_judgements,
    post_challenge,
    start_mediocrity,
    submit_answer,
)
from bot.games.contests.mediocrity import concluded_by_last
from bot.games.contests.render import (
    render_answer,
    render_challenge,
    render_state,
    sealed_while_open,
    utc,
)
from bot.games.contests.rules import (
    RULE_CRG,
    RULE_MEDIOCRITY,
    Contest,
    ContestDefinition,
)
from bot.games.contests.serialize import state_to_json
from bot.games.contests.state import (
    Challenge,
    ContestsState,
    ContestState,
    Status,
)
from bot.games.errors import ActionError, AmbiguousActionError, IllegalActionError
from bot.outbound.compose import compose_report
from bot.parser import ParsedAction
from bot.parser.areas import contests as contests_area

if TYPE_CHECKING:
    from bot.engine.services import Services

# -- the adapter -----------------------------------------------------------------------------


class ContestsAdapter:
    prefix = NAME
    # Rule 336: "Answers must be submitted privately".
    private_actions: frozenset[str] = frozenset({ANSWER})

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services
        self.definitions = definitions(services)
        self.state: ContestsState | None = None
        self.boards: list[Board] = []

    def _loaded(self) -> ContestsState:
        if self.state is None:
            self.state = load_state(self.session, self.services)
        return self.state

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        try:
            if turn.player is None:
                raise IllegalActionError("only players take part in contests", rule=RULE_CRG)
            handlers = {
                "contests.challenge": self._challenge,
                ANSWER: self._answer,
                "contests.judge": self._judge,
                "contests.start": self._start,
            }
            if action.action not in handlers:
                raise IllegalActionError(f"no contest action {action.action}")
            return handlers[action.action](action, turn, turn.player.name)
        except ActionError as error:
            return rejected(
                action.action, action.args, action.text, turn, error.message, error.rule
            )

    def _definition(self, action: ParsedAction, wanted: Status | None = None) -> ContestDefinition:
        """The contest the action names; unnamed, the one whose current challenge is
        ``wanted`` (open for answers, or to be judged), if there is exactly one."""
        written = action.args.get("contest")
        if written:
            return self.definitions[Contest(str(written))]
        candidates = [
            contest.contest
            for contest in self._loaded().contests
            if contest.current is not None and (wanted is None or contest.current.status is wanted)
        ]
        if len(candidates) == 1:
            return self.definitions[candidates[0]]
        names = ", ".join(self.definitions[c].game_name for c in candidates) or "none is open"
        raise AmbiguousActionError(
            f"name the contest (the Similarity Game, the Poetry Contest, Mediocrity): {names}",
            rule=RULE_CRG,
        )

    def _challenge(self, action: ParsedAction, turn: Turn, player: str) -> Ruling:
        definition = self._definition(action)
        text = str(action.args.get("text", ""))
        state, challenge = post_challenge(
            self._loaded(), definition, player, text, turn.occurred_at
        )
        self.state = state
        summary = (
            f"{definition.game_name}, challenge {challenge.number}, posted by {player} "
            f"({definition.title}): answers privately to {self.services.settings.bot.address} "
            f"until {utc(challenge.deadline)}; each answer costs {definition.fee} points "
            f"(entry fee {definition.entry_fee}, x2)"
        )
        return applied(action.action, action.args, action.text, turn, summary, rule=RULE_CRG)

    def _answer(self, action: ParsedAction, turn: Turn, player: str) -> Ruling:
        definition = self._definition(action, Status.OPEN)
        if not turn.private:
            raise IllegalActionError(
                "answers must be submitted privately: mail it to the bot alone at "
                f"{self.services.settings.bot.address}; this post is no answer to "
                f"{definition.game_name}",
                rule=RULE_CRG,
            )
        content = str(action.args.get("answer", ""))
        state = self._loaded()
        current = state.of(definition.contest).current
        number = 0 if current is None else current.number
        document = answer_document(definition.contest, number, player, content, turn.occurred_at)
        nonce = secrets.token_hex(16)
        commitment = commitment_of(document, nonce)
        state, challenge, fee = submit_answer(
            state, definition, player, content, turn.occurred_at, commitment, nonce
        )
        message_pk = message_pk_of(self.session, turn.message_id)
        try:
            carry_out(self.session, (fee,), turn.occurred_at, "post", message_pk)
        except IllegalActionError:
            held = ledger.balance(self.session, turn.player.id if turn.player else 0, POINTS)
            raise IllegalActionError(
                f"an answer's entry fee is {fee.amount} points and you hold {held}; an "
                "answer whose fee cannot be paid is not submitted",
                rule=RULE_CRG,
            ) from None
        self.state = state
        summary = (
            f"answer to {definition.game_name} challenge {challenge.number} received "
            f"{utc(turn.occurred_at)}, sealed until {utc(challenge.deadline)}; "
            f"{fee.amount} points paid to {fee.payee or 'the game collection'}; "
            f"its commitment {commitment} is mailed to the list"
        )
        effect = {
            "game": NAME,
            "contest": definition.contest.value,
            "challenge": challenge.number,
            "commitment": commitment,
        }
        return applied(
            action.action,
            action.args,
            action.text,
            turn,
            summary,
            rule=RULE_CRG,
            effects=(effect,),
        )

    def _judge(self, action: ParsedAction, turn: Turn, player: str) -> Ruling:
        definition = self._definition(action, Status.JUDGING)
        written = [str(name) for name in _list(action.args.get("players"))]
        names = tuple(find_player_by_name(self.session, name).name for name in written)
        state = self._loaded()
        if action.args.get("verdict") == "incomplete":
            state, transfers = mark_incomplete(state, definition, player, names, turn.occurred_at)
        else:
            state, transfers = judge(state, definition, player, names, turn.occurred_at)
        message_pk = message_pk_of(self.session, turn.message_id)
        moved = carry_out(self.session, transfers, turn.occurred_at, "post", message_pk)
        self.state = state
        contest = state.of(definition.contest)
        challenge = contest.challenges[-1] if contest.current is None else contest.current
        self.boards.append(
            Board(
                f"{definition.game_name} challenge {challenge.number}",
                render_challenge(challenge) + "\n",
            )
        )
        summary = _judgement_summary(definition, challenge, moved, contest.contestmaster)
        return applied(action.action, action.args, action.text, turn, summary, rule=RULE_CRG)

    def _start(self, action: ParsedAction, turn: Turn, player: str) -> Ruling:
        definition = self.definitions[Contest.MEDIOCRITY]
        args = action.args
        missing = [key for key in ("level", "players", "sub_games") if key not in args]
        if missing:
            raise IllegalActionError(
                "the S.M specifies the limits of the game: the level (x), the players "
                'required (y) and the sub-games per level (z), e.g. "level 2, at least 3 '
                'players, 2 sub-games"',
                rule=RULE_MEDIOCRITY,
            )
        most = settings_of(self.services).mediocrity_most_challenges
        self.state = start_mediocrity(
            self._loaded(),
            definition,
            player,
            int(str(args["level"])),
            int(str(args["players"])),
            int(str(args["sub_games"])),
            turn.occurred_at,
            most,
        )
        game = self.state.of(Contest.MEDIOCRITY).active_game
        assert game is not None
        summary = (
            f"Mediocrity game {game.number} started, {player} the Supremely Mediocre: level "
            f"{game.level}, at least {game.players_required} players, {game.sub_games} "
            f"sub-games per level, so {game.challenges_needed} challenges; each entry costs "
            f"{definition.fee} points, all paid to the game's winner at its end (rule 343)"
        )
        return applied(action.action, args, action.text, turn, summary, rule=RULE_MEDIOCRITY)

    def changed_boards(self) -> tuple[Board, ...]:
        return tuple(self.boards)

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def save(self) -> None:
        if self.state is not None:
            save_state(self.session, self.services, self.state)


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def _judgement_summary(
    definition: ContestDefinition, challenge: Challenge, moved: Sequence[str], master: str | None
) -> str:
    outcome = challenge.outcome
    if outcome is None:  # answers marked incomplete, the challenge still to judge
        return f"{definition.game_name} challenge {challenge.number}: " + "; ".join(moved)
    if outcome.winner is None:
        return f"{definition.game_name} challenge {challenge.number}: {outcome.reason}" + "".join(
            f"; {line}" for line in moved
        )
    return (
        f"{definition.game_name} challenge {challenge.number}: {outcome.winner} wins "
        f"({outcome.reason}); "
        + "; ".join(moved)
        + f"; {master} is the Contestmaster ({definition.title}) for the next challenge"
    )


def contests_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    return (ContestsAdapter(session, services),)


# -- timed events ----------------------------------------------------------------------------


def end_periods(session: Session, services: Services, after: datetime, until: datetime) -> None:
    """Rule 336: at each period's end the answers are revealed, then judged or refunded."""
    made = definitions(services)
    state = load_state(session, services)
    for challenge in due_challenges(state, until):
        if any(answer.content is None for answer in challenge.answers):
            continue  # a replay of an archive without the reveal yet: nothing to publish
        definition = made[challenge.contest]
        publish_reveal(session, services, definition, challenge)
        state, transfers = close_period(state, definition, challenge.number)
        moved = carry_out(session, transfers, challenge.deadline, "scheduler", None)
        save_state(session, services, state)
        _report_period_end(session, services, state, definition, challenge.number, moved)


def periods_due(session: Session, services: Services, after: datetime) -> datetime | None:
    """When ``end_periods`` next has something to do: the first open period's end.

    The challenges ``due_challenges`` would pick, by the same test.
    """
    deadlines = (
        challenge.deadline
        for contest in load_state(session, services).contests
        for challenge in contest.challenges
        if challenge.status is Status.OPEN
    )
    return min(deadlines, default=None)


def _report_period_end(
    session: Session,
    services: Services,
    state: ContestsState,
    definition: ContestDefinition,
    number: int,
    moved: Sequence[str],
) -> None:
    contest = state.of(definition.contest)
    challenge = contest.challenge(number)
    variables = {
        "definition": definition,
        "challenge": challenge,
        "answers": [render_answer(answer, challenge) for answer in challenge.answers],
        "judging": challenge.status is Status.JUDGING,
        "outcome": challenge.outcome,
        "moved": list(moved),
        "results": _mediocrity_results(contest, challenge),
        "next_master": contest.contestmaster,
        "judge_by": utc(challenge.deadline + _judging_time(services)),
    }
    key = f"{definition.contest.value}-{number}"
    subject = f"[contests] {definition.game_name}, challenge {number}: the answers"
    session.add(
        compose_report(
            services,
            "contests-period-end",
            key,
            subject,
            "contests/period_end.txt.j2",
            variables,
            challenge.deadline,
        )
    )
    addresses = _addresses_of(session, challenge.contestmaster)
    if challenge.status is Status.JUDGING and addresses:
        session.add(
            compose_report(
                services,
                "contests-to-judge",
                key,
                f"[contests] {definition.game_name}, challenge {number}: to judge",
                "contests/to_judge.txt.j2",
                variables,
                challenge.deadline,
                recipients=addresses,
            )
        )


def _mediocrity_results(contest: ContestState, challenge: Challenge) -> list[str]:
    if challenge.mediocrity_game is None or challenge.outcome is None:
        return []
    game = next(g for g in contest.games if g.number == challenge.mediocrity_game)
    if challenge.number not in game.challenges:
        return []
    by_number = {c.number: c for c in contest.challenges}
    counted = replace(
        game, challenges=game.challenges[: game.challenges.index(challenge.number) + 1]
    )
    return [result.describe() for result in concluded_by_last(counted, by_number)]


def _addresses_of(session: Session, name: str) -> list[str]:
    try:
        player = find_player_by_name(session, name)
    except ActionError:
        return []
    return list(registered_addresses(session, player.id))


def _judging_time(services: Services) -> timedelta:
    return timedelta(hours=settings_of(services).judging_reminder_hours)


def reminders_due(session: Session, services: Services, after: datetime) -> datetime | None:
    """When ``remind_judges`` next has something to do: the first judgement to fall overdue.

    The challenges ``overdue_judgements`` would pick, by the same test.
    """
    judging_time = _judging_time(services)
    deadlines = (
        challenge.deadline + judging_time
        for contest in load_state(session, services).contests
        for challenge in contest.challenges
        if challenge.status is Status.JUDGING and not challenge.reminded
    )
    return min(deadlines, default=None)


def remind_judges(session: Session, services: Services, after: datetime, until: datetime) -> None:
    """Rule 336: "This judgement should be made in a reasonable amount of time [[like 2
    days at most]]": the list and the Contestmaster are reminded once, then."""
    state = load_state(session, services)
    made = definitions(services)
    for challenge in overdue_judgements(state, until, _judging_time(services)):
        state = mark_reminded(state, challenge)
        save_state(session, services, state)
        definition = made[challenge.contest]
        at = challenge.deadline + _judging_time(services)
        variables = {
            "definition": definition,
            "challenge": challenge,
            "answers": [
                render_answer(a, replace(challenge, status=Status.JUDGING))
                for a in challenge.answers
            ],
        }
        recipients = [
            services.settings.bot.list_address,
            *_addresses_of(session, challenge.contestmaster),
        ]
        session.add(
            compose_report(
                services,
                "contests-reminder",
                f"{challenge.contest.value}-{challenge.number}",
                f"[contests] {definition.game_name}, challenge {challenge.number}: judging overdue",
                "contests/reminder.txt.j2",
                variables,
                at,
                recipients=recipients,
            )
        )


# -- renames (rule 151) and the view ---------------------------------------------------------


def rename_in_contests(session: Session, services: Services, old: str, new: str) -> tuple[str, ...]:
    """Rule 151: the Contestmasters, answerers and winners named ``old`` are named ``new``."""
    return (NAME,) if rewrite_record(session, NAME, renamed_state, old, new) else ()


# What players wrote, and what the commitments hashed, keep their words.
UNRENAMED = frozenset({"text", "content", "committed_as", "commitment", "nonce"})


def renamed_state(data: JsonState, old: str, new: str) -> JsonState | None:
    """The stored state with every name ``old`` written ``new``, but not in ``UNRENAMED``."""
    return rename_in_json(data, old, new, UNRENAMED)


def contests_view(session: Session, services: Services, at: datetime | None = None) -> View:
    """Every contest: its Contestmaster, its challenges (answers sealed while open), Mediocrity."""
    state = load_state(session, services)
    # The stored state keeps each answer for the Contestmaster; the view shows what the
    # archive shows, so `state contests --json` and the web site never hold a sealed answer.
    return View(render_state(state, definitions(services)), state_to_json(sealed_while_open(state)))


CONTESTS = Game(
    name=NAME,
    title="Contests and Challenge/Response Games (seed 002, rules 336-343)",
    adapters=contests_adapters,
    areas=(contests_area.AREA,),
    refereed_subgames=("challenges", "similarity_game", "poetry_contest", "mediocrity"),
    settings_type=ContestsSettings,
    renames=(rename_in_contests,),
    views=(StateView(NAME, "the contests, their challenges and answers", contests_view),),
    timed_events=(
        TimedEvent(end_periods, rule(336, seed=SEED), next_due=periods_due),
        TimedEvent(remind_judges, rule(336, seed=SEED), next_due=reminders_due),
    ),
    admin_commands={
        COMMIT: AdminCommand(apply_commit, describe_commit),
        REVEAL: AdminCommand(apply_reveal, describe_reveal),
    },
    private_actions=ContestsAdapter.private_actions,
    # Rule 336 times answers by their stamp; seed 002 has no Clock (docs/readings.md).
    while_clock_off=frozenset({"contests.challenge", ANSWER, "contests.judge", "contests.start"}),
    after_private_post=commit_private_answers,
    templates=NAME,
)
