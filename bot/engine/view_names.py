"""The names of the views ``nomicbot state VIEW`` shows, each with what it is.

Kept apart from ``bot.engine.views`` (which imports the whole engine) so the
command line can list them in ``--help`` and in the error for an unknown
view without loading anything; ``game_view`` checks that its views are
exactly these.
"""

from __future__ import annotations

VIEWS: dict[str, str] = {
    "go": "the Political Go board and, with --json, all a ruling reads",
    "field": "the Current Field Match: board, Priority List, actions",
    "players": "the roster: players, Lost Souls, On Leave (rules 14, 205)",
    "holdings": "every player's balances, the Twiddler's display (rule 21)",
    "inventory": "every holder's objects, hidden ones as their Backs (rules 13, 390)",
    "dice": "each nweek's dice commitment and revealed seed (rule 9)",
    "proposals": "every proposal, its revisions and status (rules 5, 19)",
    "ballot": "the Ballots called, with their polls (rule 23)",
    "polls": "every poll: Eligible Voters, votes, outcome (rule 15)",
    "cfis": "pending CFIs and who has not voted (rule 125)",
    "elections": "Elections in progress and decided (rules 625, 1823)",
    "ministries": "who holds each Ministry, and the Deputies (rule 625)",
    "digests": "what each Minister would receive now, or --at (rule 625 D)",
    "clock": "the Clock now, or --at, why it is Off, its stops (rules 3, 23, 205)",
}


def views_help() -> str:
    """One line per view, for ``--help`` and for an unknown view's error."""
    width = max(len(name) for name in VIEWS)
    return "\n".join(f"  {name:<{width}}  {what}" for name, what in VIEWS.items())
