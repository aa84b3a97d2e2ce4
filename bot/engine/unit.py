"""One unit of work per message: judge every action of one post, atomically.

Load state, validate, apply, append the action log, write the state and the
reply to the outbox: all in the caller's transaction, so a crash leaves
either everything or nothing (and the message still queued).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine.admin_records import (
    ADMIN_SOURCE,
    AdminRecord,
    RecordError,
    RecordRefused,
    apply_record,
    record_outbox_row,
)
from bot.engine.clock_stops import settle_leave_stop
from bot.engine.games.base import GameAdapter, TurnPerPostAdapter
from bot.engine.players import player_for_address
from bot.engine.private_secrets import UNAUTHENTICATED_PRIVATE_MAIL, secret_authentication
from bot.engine.rule_changes import RELEASED
from bot.engine.rulings import Board, Outcome, Ruling, Turn, not_taken, rejected
from bot.engine.services import Services
from bot.ingress.ingest import REFUSED_MARK, post_message_id
from bot.mail.decode import DecodedMessage
from bot.outbound.compose import compose_ruling_reply
from bot.parser import NotUnderstood, ParsedAction
from bot.parser.limits import planned
from bot.parser.messages import is_registration_problem
from bot.pipeline import PostContext, run_pipeline
from bot.store.models import ActionRecord, Message

log = logging.getLogger(__name__)

# Actions a non-player may take (rule 14: becoming a player).
OPEN_TO_ANYONE = frozenset({"roster.register"})
# Actions after which the post's later actions are taken under a new name, or
# (a forfeit, rule 14) by a Lost Soul, who is no player.
RENAMING = frozenset({"roster.register", "roster.rename", "roster.forfeit"})


@dataclass(frozen=True)
class PostOutcome:
    rulings: tuple[Ruling, ...]
    actors: tuple[int | None, ...]  # the player id each ruling's action was taken as
    not_understood: tuple[NotUnderstood, ...]
    boards: tuple[Board, ...]
    effective_at: datetime  # when the actions took effect (rule 3 B)
    notes: tuple[str, ...] = ()  # remarks on the whole post, e.g. a board that disagrees


def process_message(
    session: Session, message: Message, services: Services, prepared: PostContext | None = None
) -> None:
    """Run the pipeline on one stored message and record the rulings and reply.

    ``prepared`` is the pipeline's result computed ahead (see
    ``bot.engine.prepare``); it is the same as running the pipeline here.
    """
    context = prepared or run_pipeline(message.raw, services.pipeline_settings)
    _judge_message(session, message, services, context)
    # Recorded last, so that they are written with the post's status in one
    # UPDATE: set first, they were flushed on their own by the judging's
    # first query.  The judging reads neither from the row (the ruling
    # quotes the Subject from the context).
    _record_headers(message, context)


def _judge_message(
    session: Session, message: Message, services: Services, context: PostContext
) -> None:
    if not context.refused and context.private and not context.authentication:
        context.authentication = secret_authentication(
            session,
            context.author,
            context.claimed_secret,
            services.master_secret,
        )
        if not context.authentication:
            context.refuse(UNAUTHENTICATED_PRIVATE_MAIL)
    if context.refused:
        _refuse(message, context.stop_reason or "refused")
        return
    if not _claim(session, message):
        _finish(message, "duplicate", "another copy of this post was judged")
        return
    if context.admin_record is not None:
        _apply_admin_record(session, message, context.admin_record, services)
        return
    if context.stop_reason is not None:
        _finish(message, "ignored", context.stop_reason)
        return
    assert context.parsed is not None
    if not context.parsed.actions and not context.parsed.not_understood and not context.remarks:
        _finish(message, "processed", "no actions")
        return
    if _stranger_without_action(session, context):
        # Rules 8 and 1896: a list member who is no player and states no action
        # is chatting; answering "not understood" to the list would be noise.
        _finish(message, "processed", "no actions from someone who is not a player")
        return
    # Only a post held while the Clock was Off may have had actions judged already.
    released = message.status_reason == RELEASED
    judged_before = _judged_positions(session, message) if released else frozenset()
    effective_at = services.clock.effective_time(message.received_at)
    if effective_at is None:
        _judge_while_off(session, message, context, services, judged_before)
        return
    if not judged_before:
        outcome = judge_post(session, message, context, services, effective_at)
        _record_and_reply(session, message, context, services, outcome, "")
        _finish(message, "processed", f"{len(outcome.rulings)} action(s) judged")
        return
    # Judged in part while the Clock was Off: a second ruling, on the rest.
    rest = frozenset(range(1, len(list(planned(context.parsed.actions))) + 1)) - judged_before
    outcome = judge_post(session, message, context, services, effective_at, rest)
    outcome = replace(outcome, not_understood=())  # answered in the first ruling
    _record_and_reply(session, message, context, services, outcome, "#clock-on")
    _finish(message, "processed", f"{len(outcome.rulings)} action(s) judged")


def _judge_while_off(
    session: Session,
    message: Message,
    context: PostContext,
    services: Services,
    judged_before: frozenset[int],
) -> None:
    """Rule 3 B, per action: what the rules let through is judged now, the rest waits.

    "While the Clock is Off, actions taken by players aren't implemented
    until the Clock is turned back on, except when the rules specify
    otherwise" (CFIs, forfeiting, leave, the GM's recognizer:
    ``bot.engine.clock_stops``).  The post stays held for its other actions;
    the worker queues it again when the Clock is On.
    """
    assert context.parsed is not None
    actions = list(planned(context.parsed.actions))  # numbered as judge_post numbers them
    pending = [(p, a) for p, a in enumerate(actions, start=1) if p not in judged_before]
    now = frozenset(p for p, a in pending if services.allowed_while_clock_off(a.action))
    waiting = [(p, a) for p, a in pending if p not in now]
    if not now:
        _finish(message, "held", "posted while the Clock is Off (rule 3 B)")
        return
    outcome = judge_post(session, message, context, services, message.received_at, now)
    if not waiting:
        _record_and_reply(session, message, context, services, outcome, "")
        _finish(message, "processed", f"{len(outcome.rulings)} action(s) judged")
        return
    if services.clock.effective_time(message.received_at) is not None:
        # The post itself turned the Clock On (a recognizer, an Off Leave): its
        # other actions take effect at once, with a ruling of their own.
        _record_and_reply(session, message, context, services, outcome, "")
        rest = frozenset(position for position, _action in waiting)
        later = judge_post(session, message, context, services, message.received_at, rest)
        later = replace(later, not_understood=())  # answered in the first ruling
        _record_and_reply(session, message, context, services, later, "#clock-on")
        _finish(
            message, "processed", f"{len(outcome.rulings) + len(later.rulings)} action(s) judged"
        )
        return
    outcome = replace(outcome, notes=(*outcome.notes, _waiting_note(services, message, waiting)))
    _record_and_reply(session, message, context, services, outcome, "")
    reason = f"{len(now)} action(s) judged while the Clock is Off; the rest held (rule 3 B)"
    _finish(message, "held", reason)


def _waiting_note(
    services: Services, message: Message, waiting: list[tuple[int, ParsedAction]]
) -> str:
    why = "; ".join(services.clock.reading(message.received_at).stopped_for)
    items = ", ".join(f'item {position} ("{action.text.strip()}")' for position, action in waiting)
    because = f" ({why})" if why else ""
    return (
        f"The Clock is Off{because}, so {items} will take effect when it is turned On "
        "again, with a ruling of its own then (rule 3 B)."
    )


def _record_and_reply(
    session: Session,
    message: Message,
    context: PostContext,
    services: Services,
    outcome: PostOutcome,
    part: str,
) -> None:
    _record_rulings(session, message, outcome, services)
    if context.private:  # rule 15 B: the list gets a commitment (docs/archive.md)
        judged = list(zip(outcome.rulings, outcome.actors, strict=True))
        for game in services.games:
            if game.after_private_post is not None:
                game.after_private_post(session, services, message, judged, outcome.effective_at)
    session.add(compose_ruling_reply(message, context, outcome, services, part))


def _judged_positions(session: Session, message: Message) -> frozenset[int]:
    """The actions of ``message`` already judged (while the Clock was Off, rule 3 B)."""
    rows = session.scalars(
        select(ActionRecord.position).where(ActionRecord.message_pk == message.id)
    )
    return frozenset(rows)


def judge_post(
    session: Session,
    message: Message,
    context: PostContext,
    services: Services,
    effective_at: datetime,
    positions: frozenset[int] | None = None,
) -> PostOutcome:
    """Judge the post's actions (those at ``positions`` only, when given) at ``effective_at``."""
    assert context.parsed is not None and context.author is not None
    player = player_for_address(session, context.author)
    clock = services.clock.reading(effective_at)
    base_turn = Turn(
        message_id=message.message_id,
        occurred_at=effective_at,
        ntime_label=clock.label,
        nweek=clock.nweek,
        checking_period=clock.checking_period,
        position=0,
        author=context.author,
        player=player,
        private=context.private,
    )
    # The games read the settings in force when the post takes effect (a rule
    # change recorded for a later instant does not reach back: docs/archive.md).
    adapters = services.at(effective_at).make_adapters(session)
    judged: dict[int, tuple[Ruling, int | None]] = {}
    actions = list(planned(context.parsed.actions))  # rule 1896, with the limits on one post
    for position, action in enumerate(actions, start=1):
        if position in judged or (positions is not None and position not in positions):
            continue  # judged with the other actions of its adapter's Turn, or not now
        turn = replace(base_turn, position=position)
        adapter = adapters.get(action.action.split(".", 1)[0])
        if isinstance(adapter, TurnPerPostAdapter):
            group = _judge_together(adapter, actions, position, turn, positions)
            group = [
                (_after_action(services, adapters, actions[r.position - 1], turn, r), actor)
                for r, actor in group
            ]  # rules 205, 151
            judged.update({ruling.position: (ruling, actor) for ruling, actor in group})
            continue
        ruling = _judge_one(action, turn, adapters)
        ruling = _after_action(services, adapters, action, turn, ruling)  # rules 205, 151
        if action.action in RENAMING and ruling.outcome is Outcome.APPLIED:
            base_turn = replace(base_turn, player=player_for_address(session, context.author))
        judged[position] = (ruling, turn.player.id if turn.player else None)
    rulings = [judged[position][0] for position in sorted(judged)]
    actors = [judged[position][1] for position in sorted(judged)]
    boards: list[Board] = []
    notes: list[str] = list(context.remarks)  # e.g. a body nested too deep to read
    for adapter in adapters.values():
        adapter.save()
        boards.extend(adapter.changed_boards())
        notes.extend(adapter.notes(context.visible_text))
    if getattr(adapters.get("roster"), "roster_changed", False):
        # Rule 205: more than two thirds On Leave turns the Clock Off, and back.
        note = settle_leave_stop(session, services, effective_at, message.message_id)
        if note:
            notes.append(note)
    return PostOutcome(
        tuple(rulings),
        tuple(actors),
        context.parsed.not_understood,
        tuple(boards),
        effective_at,
        tuple(notes),
    )


def _after_action(
    services: Services,
    adapters: dict[str, GameAdapter],
    action: ParsedAction,
    turn: Turn,
    ruling: Ruling,
) -> Ruling:
    """Each enabled game's hook after an action (the roster's: rules 205, 151 and 14)."""
    for game in services.games:
        if game.after_action is not None:
            ruling = game.after_action(adapters, action, turn, ruling)
    return ruling


def _stranger_without_action(session: Session, context: PostContext) -> bool:
    """A post with no action read, only sentences not understood, by no player.

    A request to become a player that lacks its name is still answered
    (rule 14): it is an action, and its author is no player by definition.
    """
    assert context.parsed is not None
    if context.parsed.actions or context.remarks or context.author is None:
        return False
    if any(is_registration_problem(problem) for problem in context.parsed.not_understood):
        return False
    return player_for_address(session, context.author) is None


def _judge_together(
    adapter: TurnPerPostAdapter,
    actions: list[ParsedAction],
    first: int,
    turn: Turn,
    positions: frozenset[int] | None = None,
) -> list[tuple[Ruling, int | None]]:
    """Judge every action of the post that ``adapter`` handles, as one Turn.

    They are judged when the first of them is reached, in the order listed;
    the ones the engine refuses by itself (conditional, not a player's,
    private) are refused here and left out of the Turn.
    """
    prefix = actions[first - 1].action.split(".", 1)[0]
    taken: list[tuple[ParsedAction, Turn]] = []
    results: list[tuple[Ruling, int | None]] = []
    actor = turn.player.id if turn.player else None
    for position in range(first, len(actions) + 1):
        action = actions[position - 1]
        if action.action.split(".", 1)[0] != prefix:
            continue
        if positions is not None and position not in positions:
            continue
        own_turn = replace(turn, position=position)
        refusal = _refusal(action, own_turn, adapter)
        if refusal is None:
            taken.append((action, own_turn))
        else:
            results.append((refusal, actor))
    results.extend((ruling, actor) for ruling in adapter.apply_all(taken))
    return results


def _judge_one(action: ParsedAction, turn: Turn, adapters: dict[str, GameAdapter]) -> Ruling:
    adapter = adapters.get(action.action.split(".", 1)[0])
    refusal = _refusal(action, turn, adapter)
    if refusal is not None:
        return refusal
    assert adapter is not None
    return adapter.apply(action, turn)


def _refusal(action: ParsedAction, turn: Turn, adapter: object | None) -> Ruling | None:
    """The engine's own refusal of ``action``, before any game judges it, or None."""
    if action.withheld:  # past the limits on one post (bot.parser.limits)
        return not_taken(
            action.action, action.args, action.text, turn, action.withheld, rule="1896"
        )
    if action.conditional:
        return not_taken(
            action.action,
            action.args,
            action.text,
            turn,
            "it is stated conditionally, and conditional actions are not taken",
            rule="1896",
        )
    if turn.player is None and action.action not in OPEN_TO_ANYONE:
        return rejected(
            action.action,
            action.args,
            action.text,
            turn,
            f"{turn.author} is not a player's address; to join, post "
            '"I request to become a player with the name YOURNAME"',
            rule="14",
        )
    if adapter is None:
        return not_taken(
            action.action,
            action.args,
            action.text,
            turn,
            "this referee does not handle that kind of action yet",
        )
    if turn.private and action.action not in getattr(adapter, "private_actions", frozenset()):
        return rejected(
            action.action,
            action.args,
            action.text,
            turn,
            "this was sent to the bot privately, and only Concealable votes and requests "
            "for information may be; post it to the list for it to count",
            rule="1896",
        )
    return None


def _record_headers(message: Message, context: PostContext) -> None:
    claimed = ""
    message.subject = context.subject_or(message.subject)
    if context.decoded is not None:
        settings = context.settings
        claimed = _claimed_sender(
            context.decoded,
            settings.list_addresses,
            settings.list_addresses | settings.bot_addresses,
        )
    # A refused post has no author: keep the From it claimed, for the administrator.
    message.sender = (context.author or claimed)[:320]


def _claimed_sender(
    decoded: DecodedMessage, list_addresses: frozenset[str], ours: frozenset[str]
) -> str:
    """Who a post says it is from, for the administrator's list of refusals (not trusted).

    A list that munges From puts the original sender in Reply-To or Cc; its
    archive keeps the original From.  Reading the one other mailbox there
    names the same sender for both copies, so a replay of the archive lists
    a refusal as the live bot did.
    """
    sender = decoded.from_address or ""
    if sender.lower() not in list_addresses:
        return sender
    others = {
        address.lower()
        for address in (*decoded.reply_to, *decoded.cc)
        if address.lower() not in ours
    }
    return others.pop() if len(others) == 1 else sender


def _record_rulings(
    session: Session, message: Message, outcome: PostOutcome, services: Services
) -> None:
    label = services.clock.reading(outcome.effective_at).label
    for ruling, actor in zip(outcome.rulings, outcome.actors, strict=True):
        session.add(
            ActionRecord(
                message_pk=message.id,
                position=ruling.position,
                player_id=actor,
                action=ruling.action,
                args=dict(ruling.args),
                text=ruling.text,
                ruling=ruling.outcome.value,
                summary=ruling.summary,
                reason=ruling.reason,
                rule=ruling.rule,
                draws=[dict(draw) for draw in ruling.draws],
                effects=[dict(effect) for effect in ruling.effects],
                ntime=label,
                occurred_at=outcome.effective_at,
            )
        )


def _refuse(message: Message, reason: str) -> None:
    """Refused as possibly forged: logged and listed, never answered (docs/trust.md).

    The copy gives up its Message-ID, so the list's own copy of the same
    post (a Reply-All sends the bot two) is still judged.
    """
    if post_message_id(message.message_id) == message.message_id:
        message.message_id = f"{message.message_id}{REFUSED_MARK}{message.id})"
    log.warning("post %s refused: %s", post_message_id(message.message_id), reason)
    _finish(message, "refused", reason)


def _apply_admin_record(
    session: Session, message: Message, record: AdminRecord, services: Services
) -> None:
    """An administrator's act, at its place in the stream (docs/archive.md)."""
    try:
        with session.begin_nested():
            summary = apply_record(session, services, record, message.id)
    except RecordRefused as error:
        _refuse(message, f"an admin record that is not applied: {error}")
        return
    except RecordError as error:
        _finish(message, "ignored", str(error))
        return
    if message.source == ADMIN_SOURCE:
        # Queued by the console here: the list, and so its archive, get the
        # record now that it took effect (one that failed is not mailed).
        session.add(record_outbox_row(message, services.settings.bot.list_address))
    _finish(message, "processed", f"admin record applied: {summary}")


def _claim(session: Session, message: Message) -> bool:
    """Take the post's Message-ID for this copy; False if another copy has it already."""
    bare = post_message_id(message.message_id)
    if bare == message.message_id:
        return True
    if session.scalar(select(Message.id).where(Message.message_id == bare)) is not None:
        return False
    message.message_id = bare
    session.flush()
    return True


def _finish(message: Message, status: str, reason: str) -> None:
    message.status = status
    message.status_reason = reason
    message.processed_at = datetime.now(UTC)


__all__ = ["PostOutcome", "judge_post", "process_message"]
