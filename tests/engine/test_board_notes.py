"""A post that draws its own board: the reply says when it disagrees.

Rule 1639 H (seed 004) fixes the board's format; a player may paste the
board e expects after eir move.  The move described takes precedence, and
the reply points out every difference.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.config import GoSettings
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import replay_archive
from bot.testing.apps import body_of, go_state, maildir_mails, make_app, write_mbox
from bot.testing.go_game import ALICE, EPOCH

B_BOARD = """I place a stone at E5.  The board is now:

   A B C D E F G H I
 .-------------------.
9| . . . . . . . . . |9
8| . . . . . . . . . |8
7| . . . . . . . . . |7
6| . . . . . . . . . |6
5| . . . {mark} . . . . . |5
4| . . . . . . . . . |4
3| . . . . . . . . . |3
2| . . . . . . . . . |2
1| . . . . . . . . . |1
 '-------------------'
   A B C D E F G H I
"""

A_BOARD = """I place a stone at c3

   a b c d e
5  . . . . .  5
4  . . . . .  4
3  . . {mark} . .  3
2  . . . . .  2
1  . . . . .  1
   a b c d e
"""


def reply_to(tmp_path: Path, body: str, **sections: object) -> str:
    date = EPOCH + timedelta(hours=10)
    raw = compose_post(*ALICE, "[Nomic] Go", body, "drawn@example.test", date)
    write_mbox(tmp_path / "post.mbox", [(raw, mbox_from_line(ALICE[1], date))])
    app = make_app(tmp_path / "bot", **sections)
    replay_archive(app, tmp_path / "post.mbox", MaildirTransport(tmp_path / "out"), until=date)
    (reply,) = [m for m in maildir_mails(tmp_path / "out") if m["X-Nomicbot-Kind"] == "ruling"]
    assert go_state(app)["stones"] in ({"E5": "Alice"}, {"c3": "Alice"})
    return " ".join(body_of(reply).split())  # the note is word-wrapped


def test_a_matching_board_gets_no_note(tmp_path: Path) -> None:
    body = reply_to(tmp_path, B_BOARD.replace("{mark} . . . . .", ". a . . . ."))
    assert "NOTES" not in body


def test_a_board_that_disagrees_is_pointed_out_and_the_move_stands(tmp_path: Path) -> None:
    # Alice's mark is "a": A is a column letter on 9x9 (rule 1639 H).
    body = reply_to(tmp_path, B_BOARD.replace("{mark}", "a"))
    assert "NOTES" in body
    assert "D5 shows a, is ." in body
    assert "E5 shows ., is a" in body
    assert "The moves described take precedence" in body
    assert "(rule 1639 H)" in body


def test_rule_set_a_reads_its_own_board_format(tmp_path: Path) -> None:
    body = reply_to(tmp_path, A_BOARD.replace("{mark}", "B"), go=GoSettings(rules="A", size=5))
    assert "c3 shows B, is A" in body
    assert "(rule 366)" in body
