"""A change of name (rule 151, seed 004) reaching every stored state that names the player.

Political Go (both rule sets), the Field and the governance books keep
players by name in their JSON rows, because their pure rules packages speak
of players by name (``PlayerId = str``): the name is what a board's legend,
an alliance and a ruling print.  Rule 151 changes the name, not the player,
so on a successful rename the roster adapter calls ``rename_in_games``,
which rewrites those rows through each package's pure ``renamed``:

* ``game`` row "go": a rule set B (``bot.games.go``) or rule set A
  (``bot.games.go.anomic``) state, told apart by its stored format;
* ``go_position``: rule set B keeps the alliances of every earlier position
  for its ko check (rule 1639 E); rule set A's rows hold none;
* ``game`` row "field": the Field's state (its "turns" and "matches" are the
  record of what was published and keep the names they were published with);
* ``game`` rows "elections", "ministries" (seeded from the configuration
  when there is no row yet) and "proposals".

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

from bot.engine.games.field import GAME_NAME as FIELD_ROW
from bot.engine.games.go import GAME_NAME as GO_ROW
from bot.engine.games.go import rename_in_positions
from bot.engine.governance import election_state, ministries, proposal_book
from bot.games import field, go
from bot.games.go import anomic
from bot.games.go.anomic.serialize import FORMAT as ANOMIC_FORMAT
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
    rewrites: dict[str, Rewrite] = {
        GO_ROW: renamed_go,
        FIELD_ROW: renamed_field,
        election_state.RECORD_NAME: renamed_elections,
        proposal_book.RECORD_NAME: renamed_proposals,
    }
    changed = [
        name for name, rewrite in rewrites.items() if _rewrite(session, name, rewrite, old, new)
    ]
    if _rename_ministries(session, services, old, new):
        changed.append(ministries.RECORD_NAME)
    if _rename_positions(session, old, new):
        changed.append(POSITIONS)
    return tuple(changed)


def rename_in_adapters(adapters: Iterable[object], old: str, new: str) -> None:
    """Tell each adapter of the post that can hold a loaded state about the rename."""
    for adapter in adapters:
        if isinstance(adapter, RenamesPlayers):
            adapter.rename_player(old, new)


def renamed_go(data: JsonState, old: str, new: str) -> JsonState | None:
    """A stored Political Go state of either rule set, with ``old`` called ``new``."""
    if data.get("format") == ANOMIC_FORMAT:
        state = anomic.state_from_json(data)
        changed = anomic.renamed(state, old, new)
        return None if changed == state else anomic.state_to_json(changed)
    loaded = go.state_from_json(data)
    renamed = go.renamed(loaded, old, new)
    if renamed == loaded:
        return None
    # The engine keeps rule set B's ko history in ``go_position``, not here.
    return go.state_to_json(renamed, include_history="history" in data)


def renamed_field(data: JsonState, old: str, new: str) -> JsonState | None:
    """The stored Field with ``old`` called ``new`` in its state (not in its published log)."""
    state = field.state_from_json(data["state"])
    changed = field.renamed(state, old, new)
    return None if changed == state else data | {"state": field.state_to_json(changed)}


def renamed_elections(data: JsonState, old: str, new: str) -> JsonState | None:
    book = election_state.book_from_json(data)
    changed = election_state.renamed_book(book, old, new)
    return None if changed == book else election_state.book_to_json(changed)


def renamed_proposals(data: JsonState, old: str, new: str) -> JsonState | None:
    book = proposal_book.book_from_state(data)
    changed = proposal_book.renamed_book(book, old, new)
    return None if changed == book else proposal_book.book_to_state(changed)


def _rewrite(session: Session, name: str, rewrite: Rewrite, old: str, new: str) -> bool:
    record = session.scalar(select(GameRecord).where(GameRecord.name == name))
    if record is None or not record.state:
        return False
    rewritten = rewrite(record.state, old, new)
    if rewritten is None:
        return False
    record.state = rewritten
    record.version += 1
    return True


def _rename_ministries(session: Session, services: Services, old: str, new: str) -> bool:
    # Same first nweek as ``ElectionDesk``: a list seeded from the
    # configuration is written now, or the configured old name would return.
    first_nweek = services.clock.config.epoch_reading.nweek
    record, loaded = ministries.load_ministries(session, services.settings.ministries, first_nweek)
    changed = ministries.renamed_ministries(loaded, old, new)
    if changed == loaded:
        return False
    ministries.save_ministries(session, record, changed)
    return True


def _rename_positions(session: Session, old: str, new: str) -> int:
    """Rule 1639 E compares alliances "in either state": earlier positions' follow the name."""
    return rename_in_positions(session, old, new)
