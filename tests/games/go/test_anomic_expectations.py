"""Issue 3, acceptance 2: Fuego's ko and superko cases under rule set A.

A Nomic rule 368 a (seed 002): "Stones may not be placed so as to repeat a
previous Board configuration" is positional superko.  The rows of
``go/rules_expectations.jsonl`` that apply to it:

* every ``is_legal`` row under ``ko_rule`` ``pos_superko`` (the rule itself);
* every ``is_legal`` row under ``simple`` ko whose answer is "illegal": a
  simple-ko recapture recreates the position before the last move, so rule
  368 a forbids it too.  (A simple-ko "legal" answer does not carry over:
  positional superko is stricter, and the rows under ``superko``, which is
  Fuego's situational superko, weigh the player to move, which 368 a does not.)

The record is loaded the way GTP's ``loadsgf file N`` does: the position
before move N, every earlier configuration recorded, and (like Fuego's
loader) without judging the recorded moves.  The query is asked with nobody
as the last placer, so rule 368 c (no two stones in a row) cannot answer in
368 a's place; each refusal must cite 368 a.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sgfmill import common, sgf  # type: ignore[import-untyped]

from bot.games.errors import IllegalActionError
from bot.games.go import anomic


def applicable_rows(corpora: Path) -> list[dict[str, Any]]:
    lines = (corpora / "go" / "rules_expectations.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    legal_rows = [row for row in rows if row["command"] == "is_legal"]
    return [
        row
        for row in legal_rows
        if row["go_param_rules_in_effect"].get("ko_rule") == "pos_superko"
        or (
            row["go_param_rules_in_effect"].get("ko_rule") == "simple"
            and row["expected_regex"] == "0"
        )
    ]


def test_fuego_ko_and_positional_superko_rows(corpora: Path) -> None:
    rows = applicable_rows(corpora)
    assert len(rows) == 6  # five pos_superko rows and one simple-ko refusal
    results = []
    for row in rows:
        game = sgf.Sgf_game.from_bytes((corpora / "go" / row["sgf"]).read_bytes())
        state = loaded(game, row["load_until"])
        colour, vertex = row["args"].split()
        line, column = common.move_from_vertex(vertex, game.get_size())
        point = line * game.get_size() + column
        legal = is_legal(state, colour, point)
        results.append((row["sgf"], row["args"], legal, row["expected_regex"] == "1"))
        # Control: with only the current position remembered, the same move
        # is legal, so the refusal is the repetition and nothing else.
        forgetful = state._replace(positions=anomic.PositionLog().with_board(state.board))
        assert is_legal(forgetful, colour, point), row
    assert [(name, args, legal) for name, args, legal, _ in results] == [
        (name, args, expected) for name, args, _, expected in results
    ]


def loaded(game: sgf.Sgf_game, load_until: str | None) -> anomic.AnomicState:
    size = game.get_size()
    parameters = anomic.AnomicParameters(size=size, move_interval=0)
    black, white, _ = game.get_root().get_setup_stones()
    stones = {row * size + column: "b" for row, column in black}
    stones |= {row * size + column: "w" for row, column in white}
    state = anomic.add_players(anomic.new_game(parameters), ["b", "w"])
    state = anomic.with_stones(state, stones) if stones else state
    moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    placements = [(colour, move) for colour, move in moves if colour is not None]
    if load_until is not None:
        placements = placements[: int(load_until) - 1]
    for colour, move in placements:
        if move is None:
            continue  # a pass: rule 368 has none, the record's turn is skipped
        # Judged against an empty log, then recorded in the real one.
        unjudged = state._replace(last_placer=None, positions=anomic.PositionLog())
        point = move[0] * size + move[1]
        after = anomic.place_stone(unjudged, anomic.MoveContext(colour, 0), point).state
        log = state.positions.with_board(after.board, after.key, after.move_number)
        state = after._replace(positions=log)
    return state


def is_legal(state: anomic.AnomicState, colour: str, point: int) -> bool:
    try:
        anomic.place_stone(state._replace(last_placer=None), anomic.MoveContext(colour, 0), point)
    except IllegalActionError as error:
        assert error.rule == "368 a", error.message
        return False
    return True
