"""What constitutes a legal vote under each Selection Method (rule 1823 C, seed 004).

* Borda Count (C.1): "a list of all the choices, numbered one to n (where n
  is the number of choices), listed in the order of the Voter's choosing".
* Approval Voting (C.2): "a list of any number of the choices".
* IRV (C.3): "a list of all the choices, ranked in an order of the Voter's choosing".

The caller hands over the entries already split out of the post (comments
and delimiters are the parser's business) and, for choices that are players,
already resolved to the choices' names (rule 2 abbreviations are the
engine's).  An entry is matched to a choice exactly, ignoring case and
surrounding spaces.  Rule 1823: "If a Voter submits more than one vote, the
*last* one submitted is their actual vote": see ``actual_votes``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.errors import ActionSyntaxError, AmbiguousActionError, IllegalActionError
from bot.games.governance.elections.methods import Choice, SelectionMethod

VoterId = str


@dataclass(frozen=True)
class RankedVote:
    """A legal Borda or IRV vote: every choice once, first place first."""

    ranking: tuple[Choice, ...]


@dataclass(frozen=True)
class ApprovalVote:
    """A legal Approval vote: the choices it lists, each once, in the order written."""

    approved: tuple[Choice, ...]


Vote = RankedVote | ApprovalVote


@dataclass(frozen=True)
class CastVote:
    """A vote as submitted by a voter, in the order the votes reached the forum."""

    voter: VoterId
    vote: Vote


def read_vote(entries: Sequence[str], choices: Sequence[Choice], method: SelectionMethod) -> Vote:
    """The legal vote ``entries`` make under ``method``; see ``read_ranked_vote``."""
    if method is SelectionMethod.APPROVAL_VOTING:
        return read_approval_vote(entries, choices)
    return read_ranked_vote(entries, choices, method)


def read_ranked_vote(
    entries: Sequence[str], choices: Sequence[Choice], method: SelectionMethod
) -> RankedVote:
    """A Borda or IRV vote listing ``entries`` first place first.

    Raises ``ActionSyntaxError`` for an empty vote or a blank entry,
    ``IllegalActionError`` for an entry that is not a choice, a choice listed
    twice or choices left out, and ``AmbiguousActionError`` when an entry
    matches two choices that differ only in case; each cites ``method.rule``.
    """
    if not entries:
        raise ActionSyntaxError("the vote lists no choices", rule=method.rule)
    ranking = tuple(resolve_entry(entry, choices, method.rule) for entry in entries)
    check_each_once(ranking, method.rule)
    missing = [choice for choice in choices if choice not in ranking]
    if missing:
        raise IllegalActionError(
            f"a {method.value} vote must rank every choice; it leaves out {', '.join(missing)}",
            rule=method.rule,
        )
    return RankedVote(ranking)


def read_numbered_vote(
    numbered: Sequence[tuple[int, str]], choices: Sequence[Choice]
) -> RankedVote:
    """A Borda vote written with explicit places, e.g. ``[(2, "bob"), (1, "alice")]``.

    Rule 1823 C.1: the choices are "numbered one to n".  Raises
    ``IllegalActionError`` (rule "1823 C.1") unless the numbers are exactly
    1 to n, each once; then as ``read_ranked_vote``.
    """
    numbers = sorted(number for number, _ in numbered)
    if numbers != list(range(1, len(choices) + 1)):
        written = ", ".join(str(number) for number, _ in numbered)
        raise IllegalActionError(
            f"the places must be numbered 1 to {len(choices)}, each once; the vote has {written}",
            rule="1823 C.1",
        )
    in_order = [entry for _, entry in sorted(numbered)]
    return read_ranked_vote(in_order, choices, SelectionMethod.BORDA_COUNT)


def read_approval_vote(entries: Sequence[str], choices: Sequence[Choice]) -> ApprovalVote:
    """An Approval vote listing ``entries``; an empty list is legal ("any number").

    A choice listed twice is kept once: C.2 counts the votes a choice
    "appeared on", so repeating it changes nothing.  Raises as
    ``read_ranked_vote`` for blank, unknown or ambiguous entries (rule "1823 C.2").
    """
    approved = tuple(resolve_entry(entry, choices, "1823 C.2") for entry in entries)
    return ApprovalVote(tuple(dict.fromkeys(approved)))


def resolve_entry(entry: str, choices: Sequence[Choice], rule: str) -> Choice:
    """The choice ``entry`` names, ignoring case and surrounding spaces."""
    wanted = entry.strip().casefold()
    if not wanted:
        raise ActionSyntaxError("the vote has a blank entry", rule=rule)
    matches = [choice for choice in choices if choice.strip().casefold() == wanted]
    if not matches:
        raise IllegalActionError(
            f"{entry.strip()!r} is not a choice in this election (choices: {', '.join(choices)})",
            rule=rule,
        )
    if len(matches) > 1:
        raise AmbiguousActionError(
            f"{entry.strip()!r} could be any of {', '.join(matches)}", rule=rule
        )
    return matches[0]


def check_each_once(ranking: Sequence[Choice], rule: str) -> None:
    """Raises ``IllegalActionError`` when a choice is ranked twice."""
    seen: set[Choice] = set()
    for choice in ranking:
        if choice in seen:
            raise IllegalActionError(f"the vote ranks {choice} twice", rule=rule)
        seen.add(choice)


def actual_votes(cast: Sequence[CastVote]) -> tuple[Vote, ...]:
    """Each voter's last vote, in the order those last votes were cast.

    Rule 1823: "If a Voter submits more than one vote, the *last* one
    submitted is their actual vote".  Whether a voter is Eligible is checked
    when the vote is cast, by the engine.
    """
    last_by_voter: dict[VoterId, int] = {}
    for index, submitted in enumerate(cast):
        last_by_voter[submitted.voter] = index
    return tuple(cast[index].vote for index in sorted(last_by_voter.values()))
