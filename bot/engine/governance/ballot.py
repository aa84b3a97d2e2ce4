"""The Ballot (rule 23 of seed 004): called at each Voting Period's start, closed at its end.

Rule 23: "At the beginning of a Voting Period, a Concealable Democratic Poll
with a Duration lasting 'til the end of the Voting Period is called on every
proposal issued since the beginning of the previous Voting Period".  Read
here as every proposal not yet on a Ballot (those submitted after the last
Ballot was called) plus the Shelved ones, which "automatically" appear on
the next nweek's ballot.  The Eligible Voters are the players at the call
(rule 15's default, fixed when the poll is called), On Leave or not; the
Democratic veto's "active players (as defined at the start of voting)" are
those of them Off Leave at the call (``players.active_players``, rule 205).

At the close, "the effects of the proposals on a Ballot are considered to
happen in simultaneous sequential order": each poll in increasing serial
order is Passed, Failed or Shelved, and its proponent is rewarded (3d6
points and 1 Temporary Honor) or penalised (1d6 points) by rule 19, with
dice derived from the nweek seed so ``nomicbot verify-dice`` re-derives
them.  The bot does not change the ruleset: passed proposals are reported
for the GM to recognise.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from bot.engine import holdings, timed
from bot.engine.games.dice import proof_line
from bot.engine.governance import polls as poll_store
from bot.engine.governance.proposal_book import (
    Ballot,
    Proposal,
    ProposalBook,
    Status,
    load_current_book,
    open_ballots,
    save_book,
)
from bot.engine.players import active_players, all_players
from bot.engine.private_records import reveal_private_votes
from bot.games import dice
from bot.games.governance.polls import Flag, Outcome, PollResult, conclusion_instant
from bot.outbound.compose import compose_report
from bot.store.models import DiceSeed

if TYPE_CHECKING:
    from bot.engine.services import Services

BALLOT_KIND = "ballot"
NDAYS_PER_NWEEK = 10
# Rule 19: "a passage bonus of 3d6 points and 1 Temporary Honor, and a
# failure penalty of 1d6 points".
PASSAGE_BONUS = dice.DiceSpec(3, 6)
FAILURE_PENALTY = dice.DiceSpec(1, 6)


@dataclass(frozen=True)
class Decision:
    """What one Ballot poll decided, with the dice and holdings it moved."""

    proposal: Proposal
    poll: poll_store.StoredPoll
    result: PollResult
    status: Status
    roll: dice.Roll | None
    proof: str
    points: int  # gained (positive) or lost (negative)
    # False when the proponent is a Lost Soul (rule 14): nothing is paid either way.
    proponent_is_player: bool = True


def run_ballot(session: Session, services: Services, after: datetime, until: datetime) -> None:
    """Timed handler: in time order, close the Ballots that ended and call the ones begun.

    A Ballot's deadline is the Checkpoint ending its Voting Period, and every
    Checkpoint falls at 00:00 UTC (rule 3 A), so an interval without a
    midnight has nothing to do.
    """
    if after.astimezone(UTC).date() == until.astimezone(UTC).date():
        return
    for checkpoint in services.clock.checkpoints_between(after, until):
        close_due_ballots(session, services, checkpoint.instant)
        if checkpoint.beginning.is_voting_period:
            call_ballot(session, services, checkpoint.beginning.nweek, checkpoint.instant)
    close_due_ballots(session, services, until)


def ballot_due(session: Session, services: Services, after: datetime) -> datetime | None:
    """When ``run_ballot`` next has something to do (``bot.engine.timed``).

    At the next Checkpoint (a Ballot is called or closed there, rule 23),
    or earlier when a Ballot's poll Concludes before it (rule 15 B).
    """
    concludes = poll_store.earliest_conclusion(session, services.clock, BALLOT_KIND)
    return timed.earliest(timed.next_checkpoint(session, services, after), concludes)


def close_due_ballots(session: Session, services: Services, until: datetime) -> None:
    """Close every open Ballot whose polls have Concluded by ``until``, oldest first."""
    due = poll_store.due_polls(session, services.clock, until, BALLOT_KIND)
    if not due:
        return  # nothing Concluded: no Ballot to close, and no Ballot read
    numbers = {stored.number: stored for stored in due}
    for ballot in open_ballots(session):
        concluded = [numbers[n] for n in ballot.polls.values() if n in numbers]
        if concluded:
            instant = conclusion_instant(concluded[0].poll) or until
            close_ballot(session, services, ballot.nweek, instant)


def call_ballot(session: Session, services: Services, nweek: int, at: datetime) -> None:
    """Rule 23: call nweek ``nweek``'s Ballot at ``at`` and mail it to the list (once)."""
    record, book = load_current_book(session, nweek)
    if nweek in book.ballots or not book.awaiting_ballot():
        return  # called once; with no proposal there is no poll to call, nor a Ballot to post
    # Rule 15: "all Players are Eligible Voters"; rule 15 B's veto counts the
    # active players (Off Leave, rule 205) "as defined at the start of voting".
    voters = [str(player.id) for player in all_players(session)]
    active = [str(player.id) for player in active_players(session)]
    deadline_ndays = (nweek + 1) * NDAYS_PER_NWEEK  # the Voting Period ends with the nweek
    reading = f"the end of the Voting Period of nweek {nweek + 1}"
    polls: dict[int, int] = {}
    for proposal in book.awaiting_ballot():
        stored = poll_store.create_poll(
            session,
            kind=BALLOT_KIND,
            subject=f"proposal {proposal.id_string}",
            issue=f"Proposal {proposal.id_string}, {proposal.title}",
            voters=voters,
            duration=poll_store.ntime_deadline(services.clock, deadline_ndays, reading),
            called_at=at,
            flags=(Flag.CONCEALABLE, Flag.DEMOCRATIC),
            active_players=active,
            extra_choices=(poll_store.SHELVE,),
            deadline_ndays=deadline_ndays,
        )
        polls[proposal.serial] = stored.number
        on_ballot = replace(proposal, status=Status.ON_BALLOT, ballots=(*proposal.ballots, nweek))
        book = book.with_proposal(on_ballot)
    book = book.with_ballot(Ballot(nweek, at, polls))
    save_book(session, record, book)
    session.add(_ballot_mail(services, book, nweek, at, reading))


def _ballot_mail(
    services: Services, book: ProposalBook, nweek: int, at: datetime, reading: str
) -> Any:
    ballot = book.ballots[nweek]
    items = [_proposal_item(book.proposals[serial]) for serial in sorted(ballot.polls)]
    return compose_report(
        services,
        "ballot",
        str(nweek),
        f"[ballot] The Ballot of nweek {nweek + 1}",
        "governance/ballot.txt.j2",
        {
            "nweek": nweek + 1,
            "proposals": items,
            "deadline": reading,
            "called": services.clock.reading(at).label,
        },
        at,
    )


def _proposal_item(proposal: Proposal) -> dict[str, Any]:
    return {
        "id": proposal.id_string,
        "serial": proposal.serial,
        "title": proposal.title,
        "proponent": proposal.proponent,
        "text": proposal.current.text,
        "returning": proposal.ever_shelved,
        "creates_rule": proposal.creates_rule,
    }


def close_ballot(session: Session, services: Services, nweek: int, at: datetime) -> None:
    """Decide every poll of nweek ``nweek``'s Ballot in serial order, pay, and mail the results."""
    record, book = load_current_book(session, nweek)
    ballot = book.ballots[nweek]
    # Rule 15 B: the private votes are posted publicly when the polls conclude,
    # before their results (docs/archive.md).
    reveal_private_votes(session, services, [ballot.polls[s] for s in sorted(ballot.polls)], at)
    decisions = []
    for serial in sorted(ballot.polls):  # rule 23: simultaneous sequential order
        stored = poll_store.load_poll(session, services.clock, ballot.polls[serial])
        assert stored is not None, "a Ballot's polls are stored with it"
        decision = _decide(session, services, book.proposals[serial], stored, at, nweek)
        book = book.with_proposal(_after_decision(decision))
        decisions.append(decision)
    book = book.with_ballot(replace(ballot, closed_at=at))
    save_book(session, record, book)
    session.add(_results_mail(session, services, nweek, decisions, at))


def _decide(
    session: Session,
    services: Services,
    proposal: Proposal,
    stored: poll_store.StoredPoll,
    at: datetime,
    nweek: int,
) -> Decision:
    closed, result = poll_store.close_poll(session, stored, at)
    if poll_store.shelved_by_votes(closed, result):
        return Decision(proposal, closed, result, Status.SHELVED, None, "", 0)
    passed = result.outcome is Outcome.PASSED
    spec = PASSAGE_BONUS if passed else FAILURE_PENALTY
    roll, proof = _roll(session, services, nweek, proposal.serial, spec, at)
    status = Status.PASSED if passed else Status.FAILED
    # Rule 19 rewards "its proponent, if one exists"; a Lost Soul holds nothing
    # (rule 14), so the proposal of one who forfeited is decided and pays nobody.
    # The dice are rolled all the same, so every later roll stays where it was.
    if proposal.proponent_id not in {player.id for player in all_players(session)}:
        return Decision(proposal, closed, result, status, roll, proof, 0, False)
    points = _pay(session, proposal, passed, roll.total, result.concluded_at)
    return Decision(proposal, closed, result, status, roll, proof, points)


def _after_decision(decision: Decision) -> Proposal:
    shelved = decision.status is Status.SHELVED
    return replace(
        decision.proposal,
        status=decision.status,
        ever_shelved=decision.proposal.ever_shelved or shelved,
    )


def _roll(
    session: Session, services: Services, nweek: int, serial: int, spec: dice.DiceSpec, at: datetime
) -> tuple[dice.Roll, str]:
    """Rule 9 dice for a reward: the seed of the nweek the Ballot closes in, one roll per serial.

    The "post" the roll belongs to is the Ballot (``ballot-N@domain``) and
    its action index is the proposal's serial number, so the proof line
    names everything ``nomicbot verify-dice`` needs.
    """
    seed_nweek = services.clock.reading(at).nweek
    if session.get(DiceSeed, seed_nweek) is None:
        from bot.engine.scheduler import open_nweek

        open_nweek(session, services, seed_nweek, at)
    seed = dice.nweek_seed(services.master_secret, seed_nweek)
    ballot_id = f"ballot-{nweek + 1}@{services.settings.bot_domain}"
    roll = dice.roll(seed, ballot_id, serial, spec)
    return roll, proof_line(seed_nweek, roll)


def _pay(session: Session, proposal: Proposal, passed: bool, amount: int, at: datetime) -> int:
    """Rule 19's passage bonus or failure penalty through the holdings ledger."""
    note = f"proposal {proposal.id_string} {'passed' if passed else 'failed'}"
    player = proposal.proponent_id
    if not passed:
        lost = holdings.lose(
            session,
            player,
            holdings.POINTS,
            amount,
            at=at,
            rule="19",
            note=note,
            source="scheduler",
        )
        return -lost
    holdings.gain(
        session, player, holdings.POINTS, amount, at=at, rule="19", note=note, source="scheduler"
    )
    honor = holdings.renown("Honor", permanent=False)
    holdings.gain(session, player, honor, 1, at=at, rule="19, 1899", note=note, source="scheduler")
    return amount


def _results_mail(
    session: Session, services: Services, nweek: int, decisions: list[Decision], at: datetime
) -> Any:
    voters = {cast.voter for d in decisions for cast in d.poll.poll.votes}
    named = poll_store.names(session, voters)
    items = [_decision_item(decision, named) for decision in decisions]
    return compose_report(
        services,
        "ballot-results",
        str(nweek),
        f"[ballot] Results of the Ballot of nweek {nweek + 1}",
        "governance/results.txt.j2",
        {"nweek": nweek + 1, "decisions": items, "closed": services.clock.reading(at).label},
        at,
    )


def _decision_item(decision: Decision, named: dict[str, str]) -> dict[str, Any]:
    stored, result = decision.poll, decision.result
    shelves = sum(1 for cast in result.votes if stored.is_shelve(cast))
    return {
        "id": decision.proposal.id_string,
        "title": decision.proposal.title,
        "proponent": decision.proposal.proponent,
        "status": decision.status.value,
        "tally": {
            "yes": result.tally.yes,
            "no": result.tally.no - shelves,
            "shelve": shelves,
            "abstain": result.tally.abstain,
        },
        "vetoed": result.vetoed,
        "votes": [
            {
                "voter": named.get(cast.voter, cast.voter),
                "vote": poll_store.vote_label(stored, cast),
                "text": cast.vote.text,
                "private": cast.private,
            }
            for cast in result.votes
        ],
        "reward": _reward_text(decision),
        "dice": _dice_text(decision),
    }


def _reward_text(decision: Decision) -> str:
    proponent = decision.proposal.proponent
    if decision.status is Status.SHELVED:
        return "no reward or penalty: a Shelved proposal neither passes nor fails (rule 23)"
    if not decision.proponent_is_player:
        return (
            f"no reward or penalty: {proponent} has forfeited, and a Lost Soul holds "
            "nothing (rules 19, 14)"
        )
    if decision.status is Status.PASSED:
        return f"{proponent} gains {decision.points} points and 1 Temporary Honor (rule 19)"
    return f"{proponent} loses {-decision.points} points (rule 19; never below zero, rule 21)"


def _dice_text(decision: Decision) -> str:
    """The roll and its proof line, adjacent, as ``nomicbot verify-dice`` reads them."""
    if decision.roll is None:
        return ""
    return f"rolled {decision.roll.display()} {decision.proof}"
