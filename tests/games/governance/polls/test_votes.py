"""Reading vote words: rule 15's obvious variants, and rule 125's Refused and True/False."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games.governance.polls import CFI_OPTIONS, STANDARD_OPTIONS, Choice, read_vote

YES, NO, ABSTAIN, REFUSED = Choice.YES, Choice.NO, Choice.ABSTAIN, Choice.REFUSED

# (text as a player writes it, what a standard poll reads, what a CFI poll reads)
VARIANTS = [
    ("Yes", YES, YES),
    ("YES", YES, YES),
    ("yes.", YES, YES),
    ("  yes!  ", YES, YES),
    ("sure", YES, YES),
    ("Aye", YES, YES),
    ("yea", YES, YES),
    ("yep", YES, YES),
    ("FOR", YES, YES),
    ("in favour", YES, YES),
    ("In  Favor", YES, YES),
    ("+1", YES, YES),
    ("I vote yes", YES, YES),
    ("Vote: Yes", YES, YES),
    ("my vote is NO", NO, NO),
    ("No", NO, NO),
    ("nay", NO, NO),
    ("Nope", NO, NO),
    ("AGAINST", NO, NO),
    ("oppose", NO, NO),
    ("-1", NO, NO),
    ("Abstain", ABSTAIN, ABSTAIN),
    ("PRESENT", ABSTAIN, ABSTAIN),
    ("abstention", ABSTAIN, ABSTAIN),
    ("True", ABSTAIN, YES),
    ("FALSE", ABSTAIN, NO),
    ("Refused", ABSTAIN, REFUSED),
    ("refuse", ABSTAIN, REFUSED),
    ("reject", NO, ABSTAIN),
    ("not sure", ABSTAIN, ABSTAIN),
    ("yes no", ABSTAIN, ABSTAIN),
    ("maybe", ABSTAIN, ABSTAIN),
    ("", ABSTAIN, ABSTAIN),
    ("pass", ABSTAIN, ABSTAIN),
]


@pytest.mark.parametrize(("text", "standard", "cfi"), VARIANTS)
def test_variants_table(text: str, standard: Choice, cfi: Choice) -> None:
    assert read_vote(text, STANDARD_OPTIONS).choice is standard
    assert read_vote(text, CFI_OPTIONS).choice is cfi


def test_an_obvious_vote_keeps_its_text_and_says_how_it_was_read() -> None:
    vote = read_vote("Nay!", STANDARD_OPTIONS)
    assert (vote.text, vote.obvious, vote.reason) == ("Nay!", True, "read as No")


def test_an_unclear_vote_is_an_abstain_with_the_reason() -> None:
    vote = read_vote("perhaps", STANDARD_OPTIONS)
    assert (vote.choice, vote.obvious) == (ABSTAIN, False)
    assert vote.reason == (
        "'perhaps' is not an obvious variant of Yes, No or Abstain; read as Abstain (rule 15)"
    )


def test_the_reason_names_the_cfi_options() -> None:
    assert "Yes, No, Abstain or Refused" in read_vote("perhaps", CFI_OPTIONS).reason


def test_refused_on_an_ordinary_poll_is_not_an_option() -> None:
    vote = read_vote("Refused", STANDARD_OPTIONS)
    assert not vote.obvious
    assert vote.reason.startswith("Refused is not an option on this poll")


def test_true_on_an_ordinary_poll_cites_rule_125() -> None:
    vote = read_vote("true", STANDARD_OPTIONS)
    assert "only on a CFI (rule 125)" in vote.reason


def test_reject_on_a_cfi_is_ambiguous_between_no_and_refused() -> None:
    vote = read_vote("Reject", CFI_OPTIONS)
    assert "could mean No or Refused" in vote.reason


def test_an_explicit_abstain_is_obvious() -> None:
    assert read_vote("abstain").obvious


@given(st.text(max_size=30))
def test_any_text_reads_as_an_offered_choice(text: str) -> None:
    for options in (STANDARD_OPTIONS, CFI_OPTIONS):
        vote = read_vote(text, options)
        assert vote.choice in options.choices
        assert vote.obvious or vote.choice is ABSTAIN
