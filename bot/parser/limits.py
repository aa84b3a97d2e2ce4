"""The referee's limits on one post: how many actions it takes, and how often.

Rule 1896 (seed 004): "E may list multiple actions that e wishes to take
[...]. E may also state that e performs an action multiple times, in which
case e performs the action that many times (if legal, of course)
sequentially."  The rule sets no number, and "I roll 1d6 100000 times." is
a 300-byte post; so the referee takes at most ``MAX_REPEATS`` repeats of one
action and ``MAX_ACTIONS`` actions (repeats counted) from one post, and
answers the rest as not taken, saying why.  A player who wants more posts
again: the limits bound what one post may cost, not what a player may do.
The reading is "Limits on one post" in docs/readings.md.

The limits are applied to the counts the parser read, before anything is
expanded: a post asking for a billion repeats costs what one asking for
twenty does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from bot.parser.results import ParsedAction

MAX_REPEATS = 20  # times one action of a post is done
MAX_ACTIONS = 50  # actions one post takes, each repeat counted
# Numbers longer than this are not converted (Python refuses past 4,300
# digits, and converting costs time quadratic in the length); they count as
# ``HUGE``, which is far beyond any limit.
MAX_NUMBER_DIGITS = 18
HUGE: int = 10**MAX_NUMBER_DIGITS
READING = 'this referee\'s reading "Limits on one post"'
# Why the rest of a post was not read (``ParseResult.unread``), for the ruling.
UNREAD_REASON = (
    f"One post is read up to its {MAX_ACTIONS}th action or clause not understood; "
    f"nothing after that is taken ({READING}) (rule 1896)."
)


def whole_number(digits: str) -> int:
    """The value of a run of decimal digits; ``HUGE`` for more than 18 of them."""
    if len(digits) > MAX_NUMBER_DIGITS:
        return HUGE
    return int(digits)


def planned(actions: Sequence[ParsedAction]) -> Iterator[ParsedAction]:
    """The post's actions in the order taken, each repeat its own item.

    An item the limits leave untaken comes once, with ``withheld`` saying
    why, in the place the first untaken repeat would have had: the engine
    answers it as not taken (rule 1896).  Yields at most ``MAX_ACTIONS``
    items to take plus one withheld item per action of ``actions``.
    """
    budget = MAX_ACTIONS
    for action in actions:
        wanted = 1 if action.conditional else max(1, action.repeat)
        taken = min(wanted, MAX_REPEATS, budget)
        for _ in range(taken):
            yield action
        budget -= taken
        if taken < wanted:
            yield replace(action, withheld=_why_withheld(taken, wanted))


def _why_withheld(taken: int, wanted: int) -> str:
    if taken == 0:
        return (
            f"it comes after the first {MAX_ACTIONS} actions of the post, repeats counted, "
            f"and one post takes no more ({READING})"
        )
    rest = f"repeats {taken + 1:,} to {wanted:,}" if wanted < HUGE else f"repeats {taken + 1:,} on"
    if taken == MAX_REPEATS:
        return f"{rest}, as one action is done at most {MAX_REPEATS} times in one post ({READING})"
    return f"{rest}, as one post takes at most {MAX_ACTIONS} actions, repeats counted ({READING})"


__all__ = ["HUGE", "MAX_ACTIONS", "MAX_REPEATS", "UNREAD_REASON", "planned", "whole_number"]
