"""A change of name (rule 151, seed 004) reaching every stored state that names the player.

Political Go (both rule sets), the Field and the governance books keep
players by name in their JSON rows, because their pure rules packages speak
of players by name (``PlayerId = str``): the name is what a board's legend,
an alliance and a ruling print.  Rule 151 changes the name, not the player,
so on a successful rename the roster adapter calls ``rename_in_games``,
which runs every enabled game's rename hooks (``Game.renames``); each
rewrites its rows through its package's pure ``renamed``, with
``rewrite_record`` here:

* Political Go: the ``game`` row "go" of either rule set, and rule set B's
  ``go_position`` rows (the alliances of earlier positions, rule 1639 E);
* the Field: its state (its "turns" and "matches" are the record of what
  was published and keep the names they were published with);
* the governance: the rows "elections", "ministries" (seeded from the
  configuration when there is no row yet) and "proposals".

The ledger, polls and Calls For Inquiry keep player ids and need nothing.
Switching the game states to ids instead would touch every move, render and
test of three rules packages; rewriting on the rare rename is a few lines.

An adapter that already loaded its state earlier in the same post holds a
copy the rewrite cannot reach (and would save over it); so right after the
rename the engine's per-action hook (``roster.after_action``) calls
``rename_in_adapters``, which tells every adapter offering ``rename_player``
(``RenamesPlayers``), and the post's later actions and saves use the new name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.store.models import GameRecord

if TYPE_CHECKING:
    from bot.engine.services import Services

JsonState = dict[str, Any]
# A stored state with one name changed, or None when it does not hold that name.
Rewrite = Callable[[JsonState, str, str], JsonState | None]
POSITIONS = "go_position"  # how ``rename_in_games`` reports rewritten ko positions


@runtime_checkable
class RenamesPlayers(Protocol):
    """An adapter whose loaded state names players, and can catch up with a rename."""

    def rename_player(self, old: str, new: str) -> None:
        """Call ``old`` ``new`` in whatever state this adapter has loaded."""
        ...


def rename_in_games(session: Session, services: Services, old: str, new: str) -> tuple[str, ...]:
    """Rewrite every stored state that names ``old`` to name ``new``; the rows rewritten.

    Returns the names of the ``game`` rows changed, and ``POSITIONS`` when
    rows of ``go_position`` were.  Raises ``ValueError`` when a game already
    has a record for ``new`` (rule 2 makes names unique: a defect).
    """
    return tuple(
        row
        for game in services.games
        for hook in game.renames
        for row in hook(session, services, old, new)
    )


def rename_in_adapters(adapters: Iterable[object], old: str, new: str) -> None:
    """Tell each adapter of the post that can hold a loaded state about the rename."""
    for adapter in adapters:
        if isinstance(adapter, RenamesPlayers):
            adapter.rename_player(old, new)


def rename_in_json(
    data: JsonState, old: str, new: str, kept: frozenset[str] = frozenset()
) -> JsonState | None:
    """``data`` with every string equal to ``old`` written ``new``; None when none is.

    For a game whose stored state names players as plain JSON strings (its
    pure package's ``PlayerId = str``).  The values under a key in ``kept``
    keep their words: what a player wrote, or what a commitment hashed.
    """
    changed = _renamed(data, old, new, kept)
    return None if changed == data else dict(changed)


def _renamed(value: Any, old: str, new: str, kept: frozenset[str]) -> Any:
    if value == old:
        return new
    if isinstance(value, dict):
        return {
            key: item if key in kept else _renamed(item, old, new, kept)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_renamed(item, old, new, kept) for item in value]
    return value


def rewrite_record(session: Session, name: str, rewrite: Rewrite, old: str, new: str) -> bool:
    """Rewrite the ``game`` row ``name`` with ``rewrite``; whether it changed."""
    record = session.scalar(select(GameRecord).where(GameRecord.name == name))
    if record is None or not record.state:
        return False
    rewritten = rewrite(record.state, old, new)
    if rewritten is None:
        return False
    record.state = rewritten
    record.version += 1
    return True
