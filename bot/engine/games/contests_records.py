"""Private answers in the public archive: a commitment on receipt, the reveal at the end.

Rule 336 (seed 002): answers "must be submitted privately".  As rule 15 B's
private votes are (``bot.engine.private_records``, whose signing and
publishing this reuses), each answer the bot accepts is committed to in a
signed record mailed to the list (``contests.commit``: the contest, the
challenge, the answerer, the arrival, the fee and sha256 of the answer
with a secret nonce), and each challenge's answers are revealed, with
their nonces, when its period ends (``contests.reveal``).  A replay of the
list archive opens each commitment from the reveal and takes the answer
and its fee as the private post did (docs/archive.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from bot.engine.admin_records import AdminRecord, RecordError, RecordRefused
from bot.engine.games.contests_store import (
    ANSWER,
    NAME,
    carry_out,
    definitions,
    load_state,
    save_state,
)
from bot.engine.private_records import (
    commitment_of,
    publish_record,
    reveal_message_id,
    stored_record,
    stored_reveal,
)
from bot.engine.rulings import Outcome, Ruling
from bot.games.contests.challenges import (
    reveal_answer,
    submit_answer,
)
from bot.games.contests.rules import (
    Contest,
    ContestDefinition,
)
from bot.games.contests.state import (
    Challenge,
    PlayerId,
)
from bot.games.errors import ActionError
from bot.store.models import Message

if TYPE_CHECKING:
    from bot.engine.services import Services

COMMIT = "contests.commit"
REVEAL = "contests.reveal"
COMMIT_PREAMBLE = (
    "An answer sent privately for the Contestmaster (rule 336), committed to for the public "
    "archive; the answer itself is revealed when the period of the challenge ends"
)
REVEAL_PREAMBLE = (
    "The answers to a challenge whose period has ended (rule 336), revealed for the public "
    "archive; each matches the commitment published when it was received"
)


# -- commitments ------------------------------------------------------------------------------


def _derived_id(*parts: str) -> str:
    # Derived from what the archive shows, so that live and a replay agree.
    return hashlib.sha256(" ".join(parts).encode()).hexdigest()[:32]


def reveal_id(challenge: Challenge) -> str:
    """The id of the reveal record of ``challenge``, fixed when it is posted."""
    return _derived_id(
        REVEAL, challenge.contest.value, str(challenge.number), challenge.posted_at.isoformat()
    )


def answer_document(
    contest: Contest, number: int, player: PlayerId, content: str, at: datetime
) -> dict[str, Any]:
    """What a commitment hides: the answer, its author, its challenge and its instant."""
    return {
        "action": ANSWER,
        "contest": contest.value,
        "challenge": number,
        "player": player,
        "answer": content,
        "received_at": at.isoformat(),
    }


# -- after a private post: the commitment to the list ----------------------------------------


def commit_private_answers(
    session: Session,
    services: Services,
    message: Message,
    judged: Sequence[tuple[Ruling, int | None]],
    effective_at: datetime,
) -> None:
    """Publish a commitment to each answer a private post submitted (rule 336)."""
    state = load_state(session, services)
    for ruling, _actor in judged:
        if ruling.action != ANSWER or ruling.outcome is not Outcome.APPLIED:
            continue
        effect = next(e for e in ruling.effects if e.get("game") == NAME)
        contest = Contest(str(effect["contest"]))
        challenge = state.of(contest).challenge(int(effect["challenge"]))
        answer = next(a for a in challenge.answers if a.commitment == effect["commitment"])
        arguments = {
            "contest": contest.value,
            "game_name": definitions(services)[contest].game_name,
            "challenge": challenge.number,
            "player": answer.player,
            "received_at": answer.received_at.isoformat(),
            "fee": answer.fee,
            "commitment": answer.commitment,
            "reveal": reveal_id(challenge),
        }
        record_id = _derived_id(COMMIT, message.message_id, str(ruling.position))
        record = AdminRecord(record_id, COMMIT, arguments, effective_at)
        summary = f"{answer.player}'s answer committed"
        publish_record(session, services, record, COMMIT_PREAMBLE, message.received_at, summary)


def describe_commit(arguments: Mapping[str, Any]) -> str:
    # Rule 336: public before the period ends: who answered, when, and the hash alone.
    return (
        f"{arguments['player']}'s answer to {arguments['game_name']} challenge "
        f"{arguments['challenge']}, received {arguments['received_at']}, "
        f"commitment {arguments['commitment']}"
    )


def describe_reveal(arguments: Mapping[str, Any]) -> str:
    return f"the answers to {arguments['game_name']} challenge {arguments['challenge']}, revealed"


# -- replay: the records met in the archive --------------------------------------------------


def apply_commit(session: Session, services: Services, record: AdminRecord) -> str:
    """A commitment met in the archive: the answer as the private post submitted it.

    Its content comes from the reveal when the archive has it (checked
    against the commitment); otherwise the answer stays sealed, its fee
    taken all the same.  Raises ``RecordRefused`` for a reveal that does
    not verify or match, ``RecordError`` when the answer cannot be taken.
    """
    arguments = record.arguments
    definition = definitions(services)[Contest(str(arguments["contest"]))]
    commitment = str(arguments["commitment"])
    opened = _opened(session, services, str(arguments["reveal"]), commitment)
    content, nonce = (None, None) if opened is None else (str(opened[0]["answer"]), opened[1])
    received_at = datetime.fromisoformat(str(arguments["received_at"]))
    state = load_state(session, services)
    try:
        state, challenge, fee = submit_answer(
            state, definition, str(arguments["player"]), content, received_at, commitment, nonce
        )
    except ActionError as error:
        raise RecordError(f"the committed answer is not taken here: {error.message}") from None
    carry_out(session, (fee,), received_at, "private-record", None)
    save_state(session, services, state)
    sealed = " (sealed: the archive has no reveal of it yet)" if content is None else ""
    return f"{arguments['player']}'s answer to challenge {challenge.number} taken{sealed}"


def _opened(
    session: Session, services: Services, reveal: str, commitment: str
) -> tuple[Mapping[str, Any], str] | None:
    """(answer document, nonce) of ``commitment`` from the stored reveal; None if none yet."""
    document = stored_reveal(session, services, reveal, f"the reveal {reveal}")
    if document is None:
        return None
    if document.command != REVEAL:
        raise RecordRefused(f"record {reveal} is not a reveal of answers")
    for item in _items(document.arguments):
        if item.get("commitment") == commitment:
            return _checked(item, commitment)
    raise RecordRefused(f"the reveal {reveal} does not reveal commitment {commitment}")


def _items(arguments: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    items = arguments.get("answers")
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise RecordError("the record's answers are not a list")
    return items


def _checked(item: Mapping[str, Any], commitment: str) -> tuple[Mapping[str, Any], str]:
    document, nonce = item.get("answer"), item.get("nonce")
    if not isinstance(document, dict) or not isinstance(nonce, str):
        raise RecordRefused(f"the reveal of commitment {commitment} lacks its answer or nonce")
    if commitment_of(document, nonce) != commitment:
        raise RecordRefused(
            f"the answer revealed for commitment {commitment} does not match it: sha256 of "
            f"the revealed answer and nonce is {commitment_of(document, nonce)}"
        )
    return document, nonce


def apply_reveal(session: Session, services: Services, record: AdminRecord) -> str:
    """A reveal met in the archive: every answer it lists was committed to; sealed ones open."""
    arguments = record.arguments
    contest = Contest(str(arguments["contest"]))
    number = int(arguments["challenge"])
    state = load_state(session, services)
    challenge = state.of(contest).challenge(number)
    known = {answer.commitment: answer for answer in challenge.answers}
    for item in _items(arguments):
        commitment = str(item.get("commitment"))
        if commitment not in known:
            raise RecordRefused(f"the reveal lists {commitment}, never committed to")
        document, nonce = _checked(item, commitment)
        if known[commitment].content is None:
            state = reveal_answer(
                state, contest, number, known[commitment].player, str(document["answer"]), nonce
            )
    save_state(session, services, state)
    return f"the answers to challenge {number} revealed"


def publish_reveal(
    session: Session, services: Services, definition: ContestDefinition, challenge: Challenge
) -> None:
    if not challenge.answers:
        return
    identifier = reveal_id(challenge)
    if stored_record(session, reveal_message_id(identifier, services.settings.bot_domain)):
        return  # a replay: the archive has the reveal already
    answers = [
        {
            "commitment": answer.commitment,
            "answer": answer_document(
                challenge.contest,
                challenge.number,
                answer.committed_as or answer.player,
                answer.content or "",
                answer.received_at,
            ),
            "nonce": answer.nonce,
        }
        for answer in challenge.answers
    ]
    arguments = {
        "contest": challenge.contest.value,
        "game_name": definition.game_name,
        "challenge": challenge.number,
        "answers": answers,
    }
    record = AdminRecord(identifier, REVEAL, arguments, challenge.deadline)
    summary = f"{len(answers)} answer(s) to challenge {challenge.number} revealed"
    publish_record(session, services, record, REVEAL_PREAMBLE, challenge.deadline, summary)
