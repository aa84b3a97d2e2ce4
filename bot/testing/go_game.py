"""A scripted two-player Political Go game as real posts, for end-to-end tests.

Alice and Bob play 22 moves over 11 Checking Periods (rule 1639 C allows one
Move per player per Checking Period), with a capture in the corner, a dice
roll, and four actions the referee must reject: a second Move in one
Checking Period, a placement on an occupied point, a placement off the
board, and a placement where the stone would be immediately captured.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.posts import compose_post

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)  # nweek 1, nday 1
ALICE = ("Alice", "alice@example.test")
BOB = ("Bob", "bob@example.test")
LIST_ADDRESS = "nomic@lists.example.test"
BOT_ADDRESS = "referee@example.test"
# The bot's own receiving server, as its [trust] authserv_ids name it: its
# topmost Authentication-Results authenticate a private mail's sender
# (docs/trust.md), so the tests' private posts carry one from it.
RECEIVING_SERVER = "mx.example.test"
# The first nday of each of the three Checking Periods of an nweek (rule 3 A).
PERIOD_FIRST_NDAY = (0, 3, 7)


@dataclass(frozen=True)
class ScriptedPost:
    author: tuple[str, str]
    at: datetime
    body: str
    number: int

    @property
    def message_id(self) -> str:
        return f"go-{self.number:03d}@example.test"

    def raw(self) -> bytes:
        return compose_post(
            self.author[0],
            self.author[1],
            "[Nomic] Political Go",
            self.body,
            self.message_id,
            self.at,
            to=LIST_ADDRESS,
        )


def arrivals(posts: Iterable[ScriptedPost]) -> list[tuple[bytes, datetime]]:
    """(raw bytes, arrival time) of each post, for delivery to a mailbox."""
    return [(post.raw(), post.at) for post in posts]


def period_start(period: int) -> datetime:
    nweek, position = divmod(period, 3)
    return EPOCH + timedelta(days=10 * nweek + PERIOD_FIRST_NDAY[position])


# (Checking Period, hours into it, author, body)
MOVES: tuple[tuple[int, int, tuple[str, str], str], ...] = (
    (0, 10, ALICE, "I place a stone at E5. I roll 3d6."),
    (0, 12, BOB, "I play A1."),
    (0, 14, BOB, "I place a stone at C2."),  # rejected: second Move this Checking Period
    (1, 10, ALICE, "Hello all!\n\nI place a stone at A2.\n\n-- \nAlice"),
    (1, 12, BOB, "I put a stone on d5"),
    (2, 10, ALICE, "I place a stone at B1."),  # captures Bob's A1
    (2, 12, BOB, "I place a stone at A1."),  # rejected: immediately captured
    (2, 13, BOB, "I place a stone at D4."),
    (3, 10, ALICE, "I place a stone at E4."),
    (3, 12, BOB, "I place a stone at E4."),  # rejected: occupied
    (3, 13, BOB, "I place a stone at D6."),
    (4, 10, ALICE, "I place a stone at E6."),
    (4, 12, BOB, "> I place a stone at E6.\n\nI place a stone at C4."),
    (5, 10, ALICE, "I place a stone at D3."),
    (5, 12, BOB, "I place a stone at J9."),  # rejected: off the 9x9 board
    (5, 13, BOB, "I place a stone at C6."),
    (6, 10, ALICE, "I place a stone at D7."),
    (6, 12, BOB, "I place a stone at B5."),
    (7, 10, ALICE, "I place a stone at C3."),
    (7, 12, BOB, "I pass."),
    (8, 10, ALICE, "I place a stone at C7."),
    (8, 12, BOB, "I place a stone at H2."),
    (9, 10, ALICE, "I place a stone at H8."),
    (9, 12, BOB, "I place a stone at G2."),
    (10, 10, ALICE, "I pass."),
    (10, 12, BOB, "I place a stone at G3 [[to protect H2]]."),
)

SCRIPT: tuple[ScriptedPost, ...] = tuple(
    ScriptedPost(author, period_start(period) + timedelta(hours=hours), body, number)
    for number, (period, hours, author, body) in enumerate(MOVES, start=1)
)

# The board after the game, by hand from the moves above (1639 H layout):
# Alice's stones and Bob's stones, as the points each holds.
FINAL_ALICE = frozenset({"E5", "A2", "B1", "E4", "E6", "D3", "D7", "C3", "C7", "H8"})
FINAL_BOB = frozenset({"D5", "D4", "D6", "C4", "C6", "B5", "H2", "G2", "G3"})
FINAL_SCORES = {"Alice": 1, "Bob": -1}  # Bob's A1 was captured by Alice (1639 D)

# After the last post, long enough for every nweek of the game to end.
GAME_END = SCRIPT[-1].at + timedelta(days=12)

# Rule 1639 H, drawn by hand from the moves of bot/testing/go_game.py:
# Alice's mark is "a" (A is a column letter), Bob's "b"; Alice captured
# Bob's A1 with B1, so she has 1 Go Point and Bob -1.
EXPECTED_BOARD = """\
   A B C D E F G H I
 .-------------------.
9| . . . . . . . . . |9
8| . . . . . . . a . |8
7| . . a a . . . . . |7
6| . . b b a . . . . |6
5| . b . b a . . . . |5
4| . . b b a . . . . |4
3| . . a a . . b . . |3
2| a . . . . . b b . |2
1| . a . . . . . . . |1
 '-------------------'
   A B C D E F G H I
[a] Alice 1 points Allies: none
[b] Bob -1 points Allies: none
"""

APPLIED_PLACE = ("go.place", "applied", "1639 C")
# (post number, action, ruling, rule) for every action of the script, in order.
EXPECTED_RULINGS = [
    (1, *APPLIED_PLACE),
    (1, "dice.roll", "applied", "9"),
    (2, *APPLIED_PLACE),
    (3, "go.place", "rejected", "1639 C"),
    (4, *APPLIED_PLACE),
    (5, *APPLIED_PLACE),
    (6, *APPLIED_PLACE),
    (7, "go.place", "rejected", "1639 D"),
    (8, *APPLIED_PLACE),
    (9, *APPLIED_PLACE),
    (10, "go.place", "rejected", "1639 C"),
    (11, *APPLIED_PLACE),
    (12, *APPLIED_PLACE),
    (13, *APPLIED_PLACE),
    (14, *APPLIED_PLACE),
    (15, "go.place", "rejected", "1639 A"),
    (16, *APPLIED_PLACE),
    (17, *APPLIED_PLACE),
    (18, *APPLIED_PLACE),
    (19, *APPLIED_PLACE),
    (20, "go.pass", "applied", "1639 C"),
    (21, *APPLIED_PLACE),
    (22, *APPLIED_PLACE),
    (23, *APPLIED_PLACE),
    (24, *APPLIED_PLACE),
    (25, "go.pass", "applied", "1639 C"),
    (26, *APPLIED_PLACE),
]


def expected_log() -> list[tuple[str, str, str, str]]:
    return [
        (SCRIPT[number - 1].message_id, action, ruling, rule)
        for number, action, ruling, rule in EXPECTED_RULINGS
    ]
