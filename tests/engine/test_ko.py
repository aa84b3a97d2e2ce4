"""Rule 1639 E through real posts: a ko recapture is refused, across transactions.

The position the recapture would repeat was reached in an earlier post, so
it is found in the stored ko history (go_position), not in memory.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.engine.worker import process_queue
from bot.runner import store_message
from bot.testing import go_game
from bot.testing.apps import action_log, board_text, make_app

# (Checking Period, author, point): Alice builds D6 C5 D4 E5 around D5, Bob
# E6 F5 E4 around E5; Bob's D5 captures E5, and Alice's E5 would capture D5
# back, repeating the position after her first E5.
KO = (
    (0, go_game.ALICE, "D6"),
    (0, go_game.BOB, "E6"),
    (1, go_game.ALICE, "C5"),
    (1, go_game.BOB, "F5"),
    (2, go_game.ALICE, "D4"),
    (2, go_game.BOB, "E4"),
    (3, go_game.ALICE, "E5"),
    (3, go_game.BOB, "D5"),
    (4, go_game.ALICE, "E5"),
)


def test_a_ko_recapture_is_refused(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    for number, (period, author, point) in enumerate(KO, start=1):
        at = go_game.period_start(period) + timedelta(hours=10 + number % 2)
        post = go_game.ScriptedPost(author, at, f"I place a stone at {point}.", 500 + number)
        store_message(app, post.raw(), "smtp", at)
        process_queue(app.session_factory, app.services)  # one post, one transaction
    rulings = [(ruling, rule) for _id, _action, ruling, rule in action_log(app)]
    assert rulings[:8] == [("applied", "1639 C")] * 8
    assert rulings[8] == ("rejected", "1639 E")
    board = board_text(app)
    assert "5| . . a b . b . . . |5" in board  # Bob's D5 stands; E5 stays empty
    assert "[b] Bob 1 points" in board
