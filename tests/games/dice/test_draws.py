"""DrawSource: seeded, recorded randomness that a replay re-derives."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games.dice import Draw, DrawKind, DrawSource, nweek_seed, replay_draw

SEED = nweek_seed(bytes(range(32)), 13)
CONTEXT = "checkpoint nweek 14/3"


def test_known_draws_are_frozen() -> None:
    source = DrawSource(SEED, CONTEXT)
    assert source.choice(["alice", "bob", "carol"], "ko tie-break") == "bob"
    assert source.randint(1, 100, "percentile") == 91
    assert source.shuffle(list("abcdefg"), "deal") == list("fdecgba")


def test_every_draw_is_recorded_in_order() -> None:
    source = DrawSource(SEED, CONTEXT)
    source.choice(["alice", "bob", "carol"], "ko tie-break")
    source.randint(1, 100, "percentile")
    source.shuffle(list("abcdefg"), "deal")
    first, second, third = source.draws
    assert first == Draw(0, "ko tie-break", DrawKind.CHOICE, ("alice", "bob", "carol"), None, (1,))
    assert second == Draw(1, "percentile", DrawKind.RANDINT, (), (1, 100), (91,))
    assert third.result == (5, 3, 4, 2, 6, 1, 0)
    assert first.describe() == "ko tie-break: chose bob from alice, bob, carol (draw 0)"
    assert second.describe() == "percentile: 91 from 1 to 100 (draw 1)"
    assert third.describe() == "deal: order f, d, e, c, g, b, a (draw 2)"


def test_draws_survive_json_and_replay() -> None:
    source = DrawSource(SEED, CONTEXT)
    source.shuffle(range(52), "deal the pack")
    source.randint(-5, 5, "drift")
    stored = json.dumps([draw.to_dict() for draw in source.draws])
    loaded = tuple(Draw.from_dict(item) for item in json.loads(stored))
    assert loaded == source.draws
    assert all(replay_draw(SEED, CONTEXT, draw) == draw for draw in loaded)


def test_replay_exposes_a_forged_result() -> None:
    source = DrawSource(SEED, CONTEXT)
    source.choice(["alice", "bob"], "tie-break")
    honest = source.draws[0]
    other_index = 1 - honest.result[0]
    forged = Draw(honest.number, honest.purpose, honest.kind, honest.options, None, (other_index,))
    assert forged != honest
    assert replay_draw(SEED, CONTEXT, forged) == honest


def test_contexts_and_seeds_give_independent_draws() -> None:
    def orders(seed: bytes, context: str) -> list[int]:
        return DrawSource(seed, context).shuffle(range(20), "order")

    base = orders(SEED, CONTEXT)
    assert orders(SEED, CONTEXT) == base
    assert orders(SEED, "checkpoint nweek 14/2") != base
    assert orders(nweek_seed(bytes(range(32)), 14), CONTEXT) != base


def test_bad_requests_are_defects() -> None:
    source = DrawSource(SEED, CONTEXT)
    with pytest.raises(ValueError, match="nothing to choose"):
        source.choice([], "empty")
    with pytest.raises(ValueError, match="empty range"):
        source.randint(3, 2, "backwards")
    with pytest.raises(ValueError, match="context id"):
        DrawSource(SEED, "two\nlines")
    with pytest.raises(ValueError, match="malformed draw"):
        Draw.from_dict({"number": 0})
    assert source.draws == ()


operations = st.lists(
    st.one_of(
        st.tuples(st.just("choice"), st.integers(1, 40)),
        st.tuples(
            st.just("randint"), st.tuples(st.integers(-(10**6), 10**6), st.integers(0, 10**9))
        ),
        st.tuples(st.just("shuffle"), st.integers(0, 40)),
    ),
    max_size=15,
)


@given(operations, st.text(min_size=1, max_size=20).filter(str.isprintable))
def test_any_sequence_of_draws_is_valid_and_replays(
    steps: list[tuple[str, object]], context: str
) -> None:
    source = DrawSource(SEED, context)
    for kind, argument in steps:
        if kind == "choice":
            assert isinstance(argument, int)
            assert source.choice(range(argument), "c") in range(argument)
        elif kind == "randint":
            assert isinstance(argument, tuple)
            low, width = argument
            assert low <= source.randint(low, low + width, "r") <= low + width
        else:
            assert isinstance(argument, int)
            assert sorted(source.shuffle(range(argument), "s")) == list(range(argument))
    assert [draw.number for draw in source.draws] == list(range(len(steps)))
    assert all(replay_draw(SEED, context, draw) == draw for draw in source.draws)
