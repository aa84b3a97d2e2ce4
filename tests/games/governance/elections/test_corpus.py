"""Rule 1823 C's Selection Methods against pref_voting's expectations (acceptance 1).

Corpus: ``voting/`` in the shared corpora (read in place; see its
PROVENANCE.md): winner sets transcribed from pref_voting's tests, and the
minimal profiles on which pref_voting's methods do not return exactly the
Condorcet winner.

What is compared with what:

* pref_voting's ``borda`` returns every candidate with the greatest Borda
  score: rule 1823 C.1's Choice Pool after its approval-rating step (the
  ``winner_set``).  Rule 1823 then breaks that tie by first places, second
  places, ..., then a random draw.
* pref_voting's ``instant_runoff`` eliminates every candidate with the fewest
  first places at once and returns the survivors when all would go: exactly
  rule 1823 C.3, whose survivors the Moderator then picks from.
* pref_voting's ``approval`` returns the candidates on the most ballots:
  rule 1823 C.2's tied leaders, from whom the Moderator picks.

Where pref_voting returns a tie that rule 1823 settles, the rule 1823 result
is worked by hand below and the test checks it is in pref_voting's set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from bot.games.governance.elections import (
    ApprovalVote,
    IrvResult,
    RankedVote,
    SelectedBy,
    Selection,
    moderator_picks,
    place_counts,
    positional_scores,
    tally_approval,
    tally_borda,
    tally_irv,
)
from bot.games.governance.elections.borda import approval_ratings
from bot.games.governance.elections.positional import borda_weight

Profile = dict[str, Any]
RANKED_METHODS = ("borda", "instant_runoff")
IRV_WITH_ORDER_TIE_BREAK = "instant_runoff_tb (tie-break by candidate order)"
MINIMAL_METHODS = (
    "Borda",
    "resolute_Borda",
    "Instant_Runoff",
    "resolute_Instant_Runoff",
    "Bracket_Voting",
)


@dataclass(frozen=True)
class Rule1823Result:
    """A hand-worked rule 1823 result: the selected choice (None: the Moderator's
    pick is awaited), how, and the pick a scripted source makes for a draw."""

    selected: str | None
    selected_by: SelectedBy
    draw_pick: str | None = None


# (pref_voting method, case) -> the rule 1823 result, for every case where
# pref_voting's winner set has more than one choice.
DOCUMENTED_TIES = {
    # Votes 0>1>2, 1>2>0, 2>0>1.  x=3, n=3: each choice has ranks 1+2+3=6, so
    # every rating is 9-6=3; each has one first, one second and one third
    # place.  Nothing is ever removed: C.1 draws at random among 0, 1, 2 (the
    # scripted source answers 1).
    ("borda", "condorcet_cycle"): Rule1823Result("1", SelectedBy.RANDOM_DRAW, draw_pick="1"),
    # Same votes: each choice ranks highest on one vote; eliminating all three
    # would remove every choice, so C.3 leaves 0, 1, 2 to the Moderator.
    ("instant_runoff", "condorcet_cycle"): Rule1823Result(None, SelectedBy.PENDING_MODERATOR),
}


def case_profile(expectations: dict[str, Any], key: str) -> tuple[Profile, list[int] | None]:
    """The profile a case key names, and its ``curr_cands`` restriction if any."""
    name, _, restriction = key.partition("|curr_cands=")
    candidates = [int(part) for part in restriction.strip("[]").split(",")] if restriction else None
    return expectations["profiles"][name], candidates


def ranked_votes(
    profile: Profile, candidates: list[int] | None = None
) -> tuple[list[RankedVote], tuple[str, ...]]:
    """One vote per voter, restricted to ``candidates``; the choices in candidate order."""
    everyone = sorted({candidate for ranking in profile["rankings"] for candidate in ranking})
    kept = everyone if candidates is None else sorted(candidates)
    votes: list[RankedVote] = []
    for ranking, count in zip(profile["rankings"], profile["counts"], strict=True):
        vote = RankedVote(tuple(str(candidate) for candidate in ranking if candidate in kept))
        votes.extend([vote] * count)
    return votes, tuple(str(candidate) for candidate in kept)


def names(winners: list[int]) -> tuple[str, ...]:
    return tuple(str(winner) for winner in sorted(winners))


def rule_1823_selection(
    method: str, votes: list[RankedVote], choices: tuple[str, ...], source: Any
) -> Selection:
    if method == "borda":
        return tally_borda(votes, choices, source).selection
    return tally_irv(votes, choices).selection


def test_borda_and_irv_winner_sets_match_pref_voting(
    expectations: dict[str, Any], scripted: Callable[..., Any]
) -> None:
    checked, ties = 0, 0
    for method in RANKED_METHODS:
        for key, expected in expectations["expected_winners"][method].items():
            documented = DOCUMENTED_TIES.get((method, key))
            picks = [documented.draw_pick] if documented and documented.draw_pick else []
            source = scripted(*picks)
            votes, choices = ranked_votes(*case_profile(expectations, key))
            selection = rule_1823_selection(method, votes, choices, source)
            assert selection.winner_set == names(expected), (method, key)
            checked += 1
            if len(expected) > 1:
                ties += 1
                assert documented is not None, f"work out rule 1823's result for {method} {key}"
                assert selection.selected == documented.selected, (method, key)
                assert selection.selected_by is documented.selected_by, (method, key)
                assert selection.selected in (*selection.winner_set, None)
            else:
                assert selection.selected == selection.winner_set[0]
    assert (checked, ties) == (10, 2)


def test_the_moderator_may_pick_what_pref_voting_s_order_tie_break_picks(
    expectations: dict[str, Any],
) -> None:
    table = expectations["expected_winners"][IRV_WITH_ORDER_TIE_BREAK]
    for key, expected in table.items():
        votes, choices = ranked_votes(*case_profile(expectations, key))
        result = tally_irv(votes, choices)
        (winner,) = names(expected)
        assert winner in result.selection.winner_set
        if result.selection.needs_moderator:
            # condorcet_cycle: pref_voting eliminates the tied by candidate
            # order and gets 1; rule 1823 C.3 eliminates no one and leaves 0,
            # 1, 2 to the Moderator, who may pick 1.
            assert key == "condorcet_cycle"
            assert moderator_picks(result, winner).selection.selected == winner
        else:
            assert result.selection.selected == winner
    assert sorted(table) == ["condorcet_cycle", "linear_profile_0"]


def approval_cases(
    expectations: dict[str, Any],
) -> list[tuple[str, list[ApprovalVote], tuple[str, ...], tuple[str, ...]]]:
    """(case, votes, choices, expected) for every approval expectation."""
    cases = []
    for name, profile in expectations["grade_profiles"].items():
        for key, expected in profile.items():
            if not key.startswith("expected_approval"):
                continue
            _, _, restriction = key.partition("|curr_cands=")
            listed = profile.get("candidates") or sorted(int(c) for c in profile["ballots"][0])
            kept = [int(c) for c in restriction.strip("[]").split(",")] if restriction else listed
            choices = tuple(str(candidate) for candidate in sorted(kept))
            votes = [
                ApprovalVote(tuple(c for c, grade in ballot.items() if grade == 1 and c in choices))
                for ballot in profile["ballots"]
            ]
            cases.append((f"{name} {key}", votes, choices, names(expected)))
    return cases


def test_approval_winner_sets_match_pref_voting(expectations: dict[str, Any]) -> None:
    ties = []
    cases = approval_cases(expectations)
    for case, votes, choices, expected in cases:
        result = tally_approval(votes, choices)
        assert result.selection.winner_set == expected, case
        if len(expected) > 1:
            ties.append(case)
            # Rule 1823 C.2: the Moderator picks one of the tied choices.
            assert result.selection.needs_moderator
            picked = moderator_picks(result, expected[-1])
            assert picked.selection.selected in expected
    # approval_profile: 0 and 1 appear on 2 ballots each, 2 on 1.
    # approval_all_abstain: two empty ballots, 0 and 1 on none each.
    assert ties == ["approval_profile expected_approval", "approval_all_abstain expected_approval"]
    assert len(cases) == 4


def minimal_failure(expectations: dict[str, Any], method: str) -> tuple[Profile, str]:
    (entry,) = [
        entry for entry in expectations["minimal_condorcet_failures"] if entry["method"] == method
    ]
    return entry["profile"], str(entry["condorcet_winner_computed"])


def condorcet_winner(votes: list[RankedVote], choices: tuple[str, ...]) -> str | None:
    """The choice ranked above each other one on more than half the votes, if any."""
    for choice in choices:
        beats = [
            2 * sum(vote.ranking.index(choice) < vote.ranking.index(other) for vote in votes)
            > len(votes)
            for other in choices
            if other != choice
        ]
        if all(beats):
            return choice
    return None


def test_rule_1823_methods_on_pref_voting_s_minimal_condorcet_failures(
    expectations: dict[str, Any], scripted: Callable[..., Any]
) -> None:
    results = {}
    for method in MINIMAL_METHODS[:4]:
        profile, winner = minimal_failure(expectations, method)
        votes, choices = ranked_votes(profile)
        assert condorcet_winner(votes, choices) == winner
        tally = "borda" if method.endswith("Borda") else "instant_runoff"
        selection = rule_1823_selection(tally, votes, choices, scripted())
        # The corpus property, for rule 1823's winner set: not exactly {Condorcet winner}.
        assert selection.winner_set != (winner,), method
        results[method] = (selection.winner_set, selection.selected, selection.selected_by)
    assert results == {
        # 1>2>0 twice, 2>0>1 once.  x=3: 1 rates 9-(1+1+3)=4, 2 rates
        # 9-(2+2+1)=4, 0 rates 9-(3+3+2)=1.  First places: 1 has 2, 2 has 1,
        # so rule 1823 C.1 selects 1, which is the Condorcet winner.
        "Borda": (("1", "2"), "1", SelectedBy.PLACE_TIE_BREAK),
        # 1>2>0 three times, 2>0>1 twice.  x=5: 2 rates 15-8=7, 1 rates 15-9=6, 0 rates 2.
        "resolute_Borda": (("2",), "2", SelectedBy.SOLE_LEADER),
        # 0>2>1, 1>2>0, 2>1>0: one first place each, so no one can be
        # eliminated and the Moderator picks among all three.
        "Instant_Runoff": (("0", "1", "2"), None, SelectedBy.PENDING_MODERATOR),
        # 1>0>2 twice, 2>0>1 twice, 0>2>1 once: 0 has fewest (1) and goes, its
        # vote passes to 2, who beats 1 by 3 to 2.
        "resolute_Instant_Runoff": (("2",), "2", SelectedBy.SOLE_LEADER),
    }


def test_irv_eliminates_the_condorcet_winner_with_no_first_place(
    expectations: dict[str, Any],
) -> None:
    profile, winner = minimal_failure(expectations, "Bracket_Voting")
    votes, choices = ranked_votes(profile)
    result: IrvResult = tally_irv(votes, choices)
    # 2>1>4>3>0, 3>1>4>2>0, 4>1>3>2>0: 0 and 1 rank highest on no vote and
    # go together in round 1, though 1 is everyone's second and the Condorcet
    # winner; 2, 3 and 4 then tie with one each and go to the Moderator.
    assert winner == "1"
    assert result.rounds[0].eliminated == ("0", "1")
    assert result.selection.winner_set == ("2", "3", "4")
    assert result.selection.needs_moderator


def test_every_corpus_profile_rates_the_same_two_ways(expectations: dict[str, Any]) -> None:
    profiles = list(expectations["profiles"].values()) + [
        entry["profile"] for entry in expectations["minimal_condorcet_failures"]
    ]
    for profile in profiles:
        votes, choices = ranked_votes(profile)
        # Rule 1823 C.1's x*n - m against the sum of n - place, both exact.
        scores = positional_scores(votes, choices, borda_weight)
        assert approval_ratings(votes, choices) == scores
        assert all(sum(row) == len(votes) for row in place_counts(votes, choices).values())
    assert len(profiles) == 38


def read_soc(path: Path) -> list[RankedVote]:
    """A PrefLib .soc file: ``count: a, b, c`` lines after ``#`` header lines."""
    votes: list[RankedVote] = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            count, _, ranking = line.partition(":")
            votes.extend(
                [RankedVote(tuple(part.strip() for part in ranking.split(",")))] * int(count)
            )
    return votes


def dowdall_weight(place: int, size: int) -> Fraction:
    """Dowdall (not a rule 1823 method): 1/place."""
    return Fraction(1, place)


def test_the_dowdall_tie_is_exact_where_float_would_break_it(
    voting_corpus: Path, expectations: dict[str, Any], scripted: Callable[..., Any]
) -> None:
    votes = read_soc(voting_corpus / "pref_voting_minimal_condorcet" / "minimal_Dowdall.soc")
    choices = ("0", "1", "2")
    exact = positional_scores(votes, choices, dowdall_weight)
    # 2: 1+1+1/2+1/3+1/2 = 10/3;  1: 1/2+1/2+1/3+1+1 = 10/3;  0: 1/3+1/3+1+1/2+1/3 = 5/2.
    assert exact == {"0": Fraction(5, 2), "1": Fraction(10, 3), "2": Fraction(10, 3)}
    floating = dict.fromkeys(choices, 0.0)
    for vote in votes:
        for index, choice in enumerate(vote.ranking):
            floating[choice] += 1 / (index + 1)
    assert floating["2"] > floating["1"]  # 3.3333333333333335 > 3.333333333333333
    # The corpus says Dowdall does NOT return exactly {Condorcet winner 2}: the
    # exact winners {1, 2} agree; the float winner {2} would contradict it.
    _, winner = minimal_failure(expectations, "Dowdall")
    assert winner == "2"
    assert [choice for choice, score in exact.items() if score == max(exact.values())] == ["1", "2"]
    # Rule 1823 C.1 on the same votes ties too, all the way: 1 and 2 both rate
    # 15-9=6 and have 2 first, 2 second and 1 third places, so it draws.
    borda = tally_borda(votes, choices, scripted("2"))
    assert borda.selection.winner_set == ("1", "2")
    assert borda.selection.selected_by is SelectedBy.RANDOM_DRAW
    assert borda.selection.draw is not None
    assert borda.selection.draw.options == ("1", "2")


class FirstOption:
    """For counting only: answers every draw with the first option offered."""

    def choice(self, options: Sequence[str], purpose: str) -> str:
        return options[0]


def every_rule_1823_case(expectations: dict[str, Any]) -> list[tuple[str, Selection]]:
    """Each corpus case this file checks, tallied by its rule 1823 method."""
    cases = []
    for method in (*RANKED_METHODS, IRV_WITH_ORDER_TIE_BREAK):
        tally = "borda" if method == "borda" else "instant_runoff"
        for key in expectations["expected_winners"][method]:
            votes, choices = ranked_votes(*case_profile(expectations, key))
            selection = rule_1823_selection(tally, votes, choices, FirstOption())
            cases.append((f"{method} {key}", selection))
    for case, approvals, choices, _ in approval_cases(expectations):
        cases.append((case, tally_approval(approvals, choices).selection))
    for method in MINIMAL_METHODS:
        votes, choices = ranked_votes(minimal_failure(expectations, method)[0])
        tally = "borda" if method.endswith("Borda") else "instant_runoff"
        cases.append((method, rule_1823_selection(tally, votes, choices, FirstOption())))
    return cases


def test_report_the_counts(expectations: dict[str, Any]) -> None:
    cases = every_rule_1823_case(expectations)
    tied = Counter(
        selection.selected_by.name for _, selection in cases if len(selection.winner_set) > 1
    )
    print(
        f"\nvoting corpus: {len(cases)} method cases checked; rule 1823 broke or left to the "
        f"Moderator a tie in {sum(tied.values())}: {dict(sorted(tied.items()))}"
    )
    assert len(cases) == 21
    # Plurality and anti-plurality are pref_voting methods rule 1823 does not define.
    compared = {*RANKED_METHODS, IRV_WITH_ORDER_TIE_BREAK}
    assert set(expectations["expected_winners"]) - compared == {"plurality", "anti_plurality"}
    assert tied == {"RANDOM_DRAW": 1, "PLACE_TIE_BREAK": 1, "PENDING_MODERATOR": 6}
