"""The dice roller (rule 9 of seed 004), with verifiable rolls.

Each roll is derived from the nweek's secret seed, the post's Message-ID and
the action's place in the post; the reply prints a proof line that
``nomicbot verify-dice`` checks once the seed is revealed.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine.game import Game, StateView
from bot.engine.games.base import GameAdapter
from bot.engine.rulings import Board, Ruling, Turn, applied, rejected
from bot.engine.scheduler import open_nweek
from bot.engine.views import View
from bot.games import dice
from bot.games.errors import ActionError
from bot.parser import ParsedAction
from bot.parser.areas import dice as dice_area
from bot.store.models import DiceSeed

if TYPE_CHECKING:
    from bot.engine.services import Services


def proof_line(nweek: int, roll: dice.Roll, *, as_item: bool = False) -> str:
    """The machine-readable line verify-dice reads back (nweek displayed one-based);
    ``as_item``: a player's roll, which names the ruling's item number (dice-v2)."""
    return f"[verify: nweek={nweek + 1} {roll.item_proof if as_item else roll.proof}]"


class DiceAdapter:
    prefix = "dice"
    private_actions: frozenset[str] = frozenset()

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        try:
            return self._roll(action, turn)
        except ActionError as error:
            return rejected(
                action.action, action.args, action.text, turn, error.message, error.rule
            )

    def _roll(self, action: ParsedAction, turn: Turn) -> Ruling:
        spec = dice.DiceSpec(int(str(action.args["count"])), int(str(action.args["sides"])))
        seed = self._seed_for(turn)
        # The derivation counts the post's actions from 0 (dice v1); the proof
        # line prints the item number the roll is ruled under (dice-v2).
        result = dice.roll(seed, turn.message_id, turn.position - 1, spec)
        summary = f"rolled {result.display()}  {proof_line(turn.nweek, result, as_item=True)}"
        draw = {
            "kind": "dice",
            "nweek": turn.nweek,
            "message_id": result.message_id,
            "action_index": result.action_index,
            "spec": str(spec),
            "faces": list(result.faces),
        }
        return applied(
            action.action, action.args, action.text, turn, summary, rule="9", draws=(draw,)
        )

    def _seed_for(self, turn: Turn) -> bytes:
        row = self.session.get(DiceSeed, turn.nweek)
        if row is None:
            open_nweek(self.session, self.services, turn.nweek, turn.occurred_at)
        elif row.revealed_seed is not None:
            # A roll from a published seed could be predicted: not random (rule 9).
            raise ActionError(
                f"this post reached the forum after the dice seed of nweek {turn.nweek + 1} "
                "was revealed, so a roll from it would not be random",
                rule="9",
            )
        return dice.nweek_seed(self.services.master_secret, turn.nweek)

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def changed_boards(self) -> tuple[Board, ...]:
        return ()

    def save(self) -> None:
        """Rolls keep no state beyond the action log."""


def dice_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    return (DiceAdapter(session, services),)


def dice_view(session: Session, services: Services, at: datetime | None = None) -> View:
    """Each nweek's commitment and, once the nweek ended, its seed (rule 9)."""
    rows = session.scalars(select(DiceSeed).order_by(DiceSeed.nweek)).all()
    data = [
        {"nweek": row.nweek + 1, "commitment": row.commitment, "seed": row.revealed_seed}
        for row in rows
    ]
    lines = [
        f"nweek {item['nweek']}: commitment {item['commitment']}; "
        f"seed {item['seed'] or '(not revealed yet)'}"
        for item in data
    ]
    return View("\n".join(lines) or "no dice commitments yet", data)


# The seeds' commitments and reveals are the scheduler's own (every game's
# draws use them); this game is the rolls players ask for.
DICE = Game(
    name="dice",
    title="The dice roller (rule 9)",
    adapters=dice_adapters,
    areas=(dice_area.AREA,),
    views=(
        StateView("dice", "each nweek's dice commitment and revealed seed (rule 9)", dice_view),
    ),
    private_actions=DiceAdapter.private_actions,
    templates="dice",
)
