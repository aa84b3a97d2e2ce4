"""Private votes in the public archive: a commitment now, the reveal at the close.

Rule 15 B: on a Concealable poll "votes may be sent to the Chairman
privately; when the Duration Concludes, the Chairman must post publicly the
private votes".  A private vote reaches the bot's own mailbox, not the
list, so the list archive alone would not rebuild the game.  The bot
therefore puts two signed records (``bot.engine.admin_records``) into the
list archive:

* ``private.commit``, when it accepts a private post's votes: per vote,
  the poll (public: the running tally already counts the private votes) and
  the commitment ``sha256(canonical JSON of {"action": ..., "nonce": ...})``,
  where the action names the voter, the vote and its instant, and the nonce
  is a secret drawn for it.  It names neither voter nor vote.
* ``private.reveal``, when the poll closes, before its results are
  computed and mailed: per commitment, the action and the nonce.

Live, the private post is judged as before and the commitment is written
in the same transaction, recorded as applied, so the list's copy coming
back changes nothing.  A replay of the list archive stores every post
before judging any, so when it meets a commitment the reveal is already
stored: it checks the reveal's signature and the hash, and casts the vote
at the commitment's instant, with the same effect as live.  A commitment
whose reveal is not in the archive (the archive ends before the close) is
kept *sealed*: counted as a private vote withheld, its content unknown.
docs/archive.md tells the whole design; ``bot.private_audit`` checks an
archive's commitments against their reveals without a database.

The nonces are stored here, in one ``game`` row per poll
(``private-poll-<number>``), and revealed only at the close.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from bot.engine.admin_records import (
    KIND,
    AdminRecord,
    RecordError,
    RecordRefused,
    applied_row,
    compose_record_mail,
    describe,
    read_record,
    record_outbox_row,
)
from bot.engine.rulings import Outcome, PlayerRef, Ruling, Turn
from bot.ingress.ingest import COPY_MARK, ingest
from bot.store.models import GameRecord, Message, Player
from bot.trust.bot_key import BotKey, load_bot_key

if TYPE_CHECKING:
    from bot.engine.services import Services

COMMIT = "private.commit"
REVEAL = "private.reveal"
SOURCE = "private-record"  # Message.source of a record the engine made for a private vote
ROW_PREFIX = "private-poll-"
# The private actions that change the game, and so are committed to (rule 15 B);
# the other private actions (a digest, a statement of holdings) only ask.
COMMITTED_ACTIONS = frozenset({"polls.vote"})
COMMIT_PREAMBLE = (
    "A vote sent privately to the Chairman (rule 15 B), committed to for the public archive; "
    "the vote itself is revealed when the poll concludes"
)
REVEAL_PREAMBLE = (
    "The private votes of a poll that has concluded (rule 15 B), revealed for the public "
    "archive; each matches the commitment published when it was cast"
)


# -- commitments ------------------------------------------------------------------------


def canonical_json(document: Mapping[str, Any]) -> bytes:
    """The one byte string a document hashes to: sorted keys, no spaces, UTF-8."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def commitment_of(action: Mapping[str, Any], nonce: str) -> str:
    """sha256 (hex) of the canonical JSON of ``{"action": action, "nonce": nonce}``."""
    return hashlib.sha256(canonical_json({"action": dict(action), "nonce": nonce})).hexdigest()


def _derived_id(*parts: str) -> str:
    # Record ids derived from the private post, so that a replay of the same
    # posts (the bot's mailbox with the list) writes the same mails.
    return hashlib.sha256(" ".join(parts).encode()).hexdigest()[:32]


def reveal_message_id(reveal_id: str, bot_domain: str) -> str:
    """The Message-ID of the mail that carries reveal record ``reveal_id``."""
    return f"{KIND}.{reveal_id}@{bot_domain.lower()}"


@dataclass(frozen=True)
class Sealed:
    """One private vote of a poll: its commitment and, once known, its content."""

    commitment: str
    record: str  # the commitment record's id
    action: Mapping[str, Any] | None  # None: sealed, its reveal not seen yet
    nonce: str | None
    published: bool = False  # revealed to the list (the poll has concluded)

    def to_state(self) -> dict[str, Any]:
        return {
            "commitment": self.commitment,
            "record": self.record,
            "action": None if self.action is None else dict(self.action),
            "nonce": self.nonce,
            "published": self.published,
        }


@dataclass(frozen=True)
class PollSeals:
    """The private votes of one poll, and the reveal record that will publish them."""

    poll: int
    reveal: str  # the reveal record's id, fixed by the poll's first commitment
    entries: tuple[Sealed, ...] = ()

    @property
    def sealed(self) -> int:
        return sum(1 for entry in self.entries if entry.action is None)


def load_seals(session: Session, poll: int) -> PollSeals | None:
    row = session.scalar(select(GameRecord).where(GameRecord.name == f"{ROW_PREFIX}{poll}"))
    if row is None:
        return None
    state = row.state
    entries = tuple(
        Sealed(
            str(entry["commitment"]),
            str(entry["record"]),
            entry["action"],
            entry["nonce"],
            bool(entry["published"]),
        )
        for entry in state["entries"]
    )
    return PollSeals(int(state["poll"]), str(state["reveal"]), entries)


def save_seals(session: Session, seals: PollSeals) -> None:
    from bot.engine.governance.polls import write_record

    state = {
        "poll": seals.poll,
        "reveal": seals.reveal,
        "entries": [entry.to_state() for entry in seals.entries],
    }
    write_record(session, f"{ROW_PREFIX}{seals.poll}", state)


def sealed_count(session: Session, poll: int) -> int:
    """Private votes committed to on ``poll`` whose content this database has not seen."""
    seals = load_seals(session, poll)
    return 0 if seals is None else seals.sealed


# -- live: committing to a private post's votes -----------------------------------------


def commit_private_votes(
    session: Session,
    services: Services,
    message: Message,
    judged: Sequence[tuple[Ruling, int | None]],
    effective_at: datetime,
) -> None:
    """Publish a commitment to the votes a private post cast (rule 15 B), if it cast any.

    ``judged`` pairs each ruling with the id of the player it was taken as.
    In the post's own transaction: the nonces are stored with the votes, and
    the commitment record is stored as applied and queued to the list.
    """
    votes = [
        (ruling, actor)
        for ruling, actor in judged
        if ruling.action in COMMITTED_ACTIONS and ruling.outcome is Outcome.APPLIED
    ]
    if not votes:
        return
    record_id = _derived_id(COMMIT, message.message_id)
    published = []
    for ruling, actor in votes:
        poll = _poll_of(ruling)
        action = {
            "action": ruling.action,
            "args": dict(ruling.args),
            "text": ruling.text,
            "voter": _player_name(session, actor),
            "poll": poll,
            "position": ruling.position,
            "at": effective_at.isoformat(),
        }
        nonce = secrets.token_hex(16)
        commitment = commitment_of(action, nonce)
        seals = load_seals(session, poll) or PollSeals(
            poll, _derived_id(REVEAL, record_id, str(poll))
        )
        entry = Sealed(commitment, record_id, action, nonce)
        save_seals(session, replace(seals, entries=(*seals.entries, entry)))
        published.append(
            {
                "poll": poll,
                "subject": _poll_subject(session, services, poll),
                "commitment": commitment,
                "reveal": seals.reveal,
            }
        )
    arguments = {"votes": published, "received_at": message.received_at.isoformat()}
    record = AdminRecord(record_id, COMMIT, arguments, effective_at)
    summary = f"{len(published)} private vote(s) committed"
    publish_record(session, services, record, COMMIT_PREAMBLE, message.received_at, summary)


def _player_name(session: Session, player_id: int | None) -> str:
    player = None if player_id is None else session.get(Player, player_id)
    if player is None:  # the engine lets only players vote
        raise RuntimeError(f"a private vote was cast as {player_id}, who is no player")
    return player.name


def _poll_of(ruling: Ruling) -> int:
    for effect in ruling.effects:
        if effect.get("game") == "polls":
            return int(effect["poll"])
    raise RuntimeError(f"the vote {ruling.text!r} does not say which poll it was cast on")


def _poll_subject(session: Session, services: Services, poll: int) -> str:
    from bot.engine.governance.polls import load_poll

    stored = load_poll(session, services.clock, poll)
    return "" if stored is None else stored.subject


def signing_key(services: Services) -> BotKey:
    """The bot's DKIM key (made once in the data directory when none is configured)."""
    settings = services.settings
    return load_bot_key(
        settings.bot.dkim_key_file,
        settings.bot.dkim_selector,
        settings.bot_domain,
        settings.data_path,
    )


def publish_record(
    session: Session,
    services: Services,
    record: AdminRecord,
    preamble: str,
    received_at: datetime,
    summary: str,
    source: str = SOURCE,
) -> None:
    """Sign ``record``, store it as applied here, and queue it to the list.

    Any game's signed record of something sent privately (rule 15 B's votes
    here; a contest's answers, a sealed Trade notice) reaches the list
    archive this way; ``source`` is the stored mail's ``Message.source``."""
    settings = services.settings
    _, raw = compose_record_mail(
        record,
        signing_key(services),
        settings.bot.address,
        settings.bot.name,
        settings.bot.list_address,
        preamble,
        services,
    )
    result = ingest(session, raw, source, received_at)
    stored = session.get(Message, result.message_pk)
    if not result.stored or stored is None:
        # The archive brought this record already (a replay fed both the bot's
        # mailbox and the list's archive, docs/archive.md): it is not mailed twice.
        return
    stored.status, stored.status_reason = "processed", f"admin record applied: {summary}"
    stored.subject, stored.sender = f"[admin] {describe(record, services)}", settings.bot.address
    stored.processed_at = datetime.now(UTC)
    session.add(applied_row(record, stored.id, summary))
    session.add(record_outbox_row(stored, settings.bot.list_address))


# -- the close: revealing ---------------------------------------------------------------


def reveal_private_votes(
    session: Session, services: Services, polls: Sequence[int], at: datetime
) -> None:
    """At the close of ``polls`` (their numbers), publish their private votes.

    Rule 15 B: "when the Duration Concludes, the Chairman must post publicly
    the private votes".  Called before the results are computed and mailed.
    In a replay the reveal is in the archive already: nothing is mailed.
    """
    domain = services.settings.bot_domain
    for poll in polls:
        seals = load_seals(session, poll)
        if seals is None or all(entry.published for entry in seals.entries):
            continue
        seals = _unsealed(session, services, seals)
        entries = tuple(replace(entry, published=True) for entry in seals.entries)
        save_seals(session, replace(seals, entries=entries))
        known = [entry for entry in entries if entry.action is not None]
        if not known or stored_record(session, reveal_message_id(seals.reveal, domain)):
            continue
        votes = [
            {
                "commitment": entry.commitment,
                "action": dict(entry.action or {}),
                "nonce": entry.nonce,
            }
            for entry in known
        ]
        arguments = {
            "poll": poll,
            "subject": _poll_subject(session, services, poll),
            "votes": votes,
        }
        record = AdminRecord(seals.reveal, REVEAL, arguments, at)
        summary = f"{len(votes)} private vote(s) on poll {poll} revealed"
        publish_record(session, services, record, REVEAL_PREAMBLE, at, summary)


def _unsealed(session: Session, services: Services, seals: PollSeals) -> PollSeals:
    """``seals`` with each sealed vote cast from the reveal stored since, if any.

    A database that replayed an archive ending before the close, and now
    replays the rest of it, has the reveal stored (a replay stores every
    post before judging any) but met the commitments without it.  Their
    votes are cast here, before the close counts, each in its place in time
    among the votes: the same result as a replay of the whole archive.  A
    reveal that does not verify or match leaves them sealed (and is refused
    when its turn comes).
    """
    entries = []
    for entry in seals.entries:
        if entry.action is None:
            try:
                revealed = _revealed(session, services, seals.poll, entry.commitment, seals.reveal)
                if revealed is not None:
                    _insert_vote(session, services, revealed[0])
                    entry = replace(entry, action=revealed[0], nonce=revealed[1])
            except (ValueError, KeyError, TypeError):  # RecordError, ActionError among them
                pass  # stays sealed: the records say why when their turn comes
        entries.append(entry)
    return replace(seals, entries=tuple(entries))


def _insert_vote(session: Session, services: Services, action: Mapping[str, Any]) -> None:
    """Add a revealed vote to its poll at its own instant, before any later vote."""
    from bot.engine.governance.polls import load_poll, read_poll_vote, save_poll
    from bot.engine.players import find_player_by_name
    from bot.games.governance.polls import CastVote
    from bot.games.governance.polls.voting import check_voter

    stored = load_poll(session, services.clock, int(action["poll"]))
    if stored is None:
        return
    voter = str(find_player_by_name(session, str(action["voter"])).id)
    moment = datetime.fromisoformat(str(action["at"]))
    check_voter(stored.poll, voter, moment)
    vote = read_poll_vote(stored, str(action["args"]["vote"]))
    cast = CastVote(voter=voter, vote=vote, cast_at=moment, private=True)
    votes = sorted((*stored.poll.votes, cast), key=lambda each: each.cast_at)  # stable
    save_poll(session, replace(stored, poll=replace(stored.poll, votes=tuple(votes))))


def stored_record(session: Session, message_id: str) -> Message | None:
    """The stored mail (the first copy) with ``message_id``: a record the archive brought."""
    query = select(Message).where(
        or_(Message.message_id == message_id, Message.message_id.startswith(message_id + COPY_MARK))
    )
    return session.scalars(query.order_by(Message.id).limit(1)).first()


# -- replay: applying the records from the archive --------------------------------------


def apply_commit(session: Session, services: Services, record: AdminRecord) -> str:
    """A ``private.commit`` met in the archive: cast its votes from their reveal.

    Raises ``RecordRefused`` when the reveal does not verify or does not
    match the commitment, ``RecordError`` when a revealed vote cannot be cast.
    """
    votes = _listed(record.arguments, "votes")
    cast = sealed = 0
    for vote in votes:
        poll, commitment, reveal = int(vote["poll"]), str(vote["commitment"]), str(vote["reveal"])
        revealed = _revealed(session, services, poll, commitment, reveal)
        seals = load_seals(session, poll) or PollSeals(poll, reveal)
        if revealed is None:
            entry = Sealed(commitment, record.record_id, None, None)
            sealed += 1
        else:
            action, nonce = revealed
            _cast(session, services, action, record.issued_at)
            entry = Sealed(commitment, record.record_id, action, nonce)
            cast += 1
        save_seals(session, replace(seals, entries=(*seals.entries, entry)))
    if sealed:
        return (
            f"{cast} private vote(s) cast from their reveal, {sealed} sealed: "
            "the archive has no reveal of them yet (rule 15 B: published at the close)"
        )
    return f"{cast} private vote(s) committed"


def _listed(arguments: Mapping[str, Any], name: str) -> list[Mapping[str, Any]]:
    items = arguments.get(name)
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise RecordError(f"the record's {name} are not a list")
    return items


def stored_reveal(
    session: Session, services: Services, reveal: str, what: str
) -> AdminRecord | None:
    """The signed record ``reveal`` as the archive brought it; None if it has not yet.

    Raises ``RecordRefused`` when the stored mail is not the referee's
    signed record (``what`` names it in the refusal).
    """
    stored = stored_record(session, reveal_message_id(reveal, services.settings.bot_domain))
    if stored is None:
        return None
    settings = services.pipeline_settings
    try:
        return read_record(stored.raw, settings.bot_domain, settings.trust.lookup())
    except RecordError as error:
        raise RecordRefused(f"{what} is not the referee's: {error}") from None


def _revealed(
    session: Session, services: Services, poll: int, commitment: str, reveal: str
) -> tuple[Mapping[str, Any], str] | None:
    """(action, nonce) of ``commitment`` from the stored reveal; None if there is none yet.

    Raises ``RecordRefused`` for a reveal that does not verify or match.
    """
    document = stored_reveal(session, services, reveal, f"the reveal of poll {poll}")
    if document is None:
        return None
    if document.command != REVEAL or int(document.arguments.get("poll", -1)) != poll:
        raise RecordRefused(f"record {reveal} is not the reveal of poll {poll}")
    for item in _listed(document.arguments, "votes"):
        if item.get("commitment") == commitment:
            return _checked(item, commitment, poll)
    raise RecordRefused(f"the reveal of poll {poll} does not reveal commitment {commitment}")


def _checked(item: Mapping[str, Any], commitment: str, poll: int) -> tuple[Mapping[str, Any], str]:
    action, nonce = item.get("action"), item.get("nonce")
    if not isinstance(action, dict) or not isinstance(nonce, str):
        raise RecordRefused(f"the reveal of commitment {commitment} lacks its action or nonce")
    if commitment_of(action, nonce) != commitment:
        raise RecordRefused(
            f"the vote revealed for commitment {commitment} does not match it: "
            f"sha256 of the revealed action and nonce is {commitment_of(action, nonce)}"
        )
    if action.get("poll") != poll:
        raise RecordRefused(f"commitment {commitment} was published for poll {poll}")
    return action, nonce


def private_turn(services: Services, player: PlayerRef, document: Mapping[str, Any]) -> Turn:
    """The turn of a private post, rebuilt from its record's ``at`` and ``position``.

    ``message_id`` is the document's when it kept one: a private post's own
    Message-ID is known to the bot alone, so records that must not reveal it
    leave it out.
    """
    moment = datetime.fromisoformat(str(document["at"]))
    clock = services.clock.reading(moment)
    return Turn(
        message_id=str(document.get("message_id", "")),
        occurred_at=moment,
        ntime_label=clock.label,
        nweek=clock.nweek,
        checking_period=clock.checking_period,
        position=int(document["position"]),
        author="",
        player=player,
        private=True,
    )


def _cast(session: Session, services: Services, action: Mapping[str, Any], at: datetime) -> None:
    """Cast a revealed vote as the private post cast it, at the commitment's instant."""
    from bot.engine.governance.proposals import VotesAdapter
    from bot.engine.players import find_player_by_name
    from bot.parser import ParsedAction

    if action.get("action") not in COMMITTED_ACTIONS:
        raise RecordError(f"a private {action.get('action')} cannot be cast (rule 1896)")
    player = find_player_by_name(session, str(action["voter"]))
    turn = private_turn(services, player, action)
    parsed = ParsedAction(str(action["action"]), dict(action["args"]), str(action["text"]))
    ruling = VotesAdapter(session, services).apply(parsed, turn)
    if ruling.outcome is not Outcome.APPLIED:
        raise RecordError(f"the revealed vote {parsed.text!r} is not cast here: {ruling.reason}")


def apply_reveal(session: Session, services: Services, record: AdminRecord) -> str:
    """A ``private.reveal`` met in the archive: every vote it lists was committed to.

    The votes were cast when their commitments were met, or at the close
    (``_unsealed``).  One still sealed here (the archive a replay met the
    close in ended before the reveal) is filled in for the record, too late
    to count in this database's close: replay the whole archive into a
    fresh database.  Raises ``RecordRefused`` for a vote that matches no
    commitment.
    """
    poll = int(record.arguments["poll"])
    seals = load_seals(session, poll) or PollSeals(poll, record.record_id)
    known = {entry.commitment: entry for entry in seals.entries}
    filled = []
    for item in _listed(record.arguments, "votes"):
        commitment = str(item.get("commitment"))
        if commitment not in known:
            raise RecordRefused(f"the reveal of poll {poll} lists {commitment}, never committed")
        action, nonce = _checked(item, commitment, poll)
        filled.append(replace(known[commitment], action=action, nonce=nonce, published=True))
    by_commitment = {entry.commitment: entry for entry in filled}
    entries = tuple(by_commitment.get(entry.commitment, entry) for entry in seals.entries)
    save_seals(session, replace(seals, entries=entries))
    return f"{len(filled)} private vote(s) on poll {poll} revealed"


# -- replay: where a commitment belongs in the queue ------------------------------------


def queued_at(record: AdminRecord) -> datetime:
    """Where ``record`` stood among the posts live: a commitment at its private post's
    instant (so that a vote sent a second before the close still counts, in order
    with the voter's other votes), any other record at its own instant."""
    if record.command == COMMIT:
        try:
            moment = datetime.fromisoformat(str(record.arguments["received_at"]))
        except (KeyError, ValueError):
            return record.issued_at
        if moment.tzinfo is not None:
            return moment
    return record.issued_at
