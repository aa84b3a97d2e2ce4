"""The catch-all for actions of subgames the bot does not referee yet.

``bot.parser.unrefereed`` recognises them in the seeds' words ("I water my
Garden", rule 1902); this adapter answers each "not refereed by the bot"
with the rule that defines it, so that the player knows a person must judge
it, and the post is never answered with silence.  Nothing changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from bot.engine.game import Game
from bot.engine.games.base import GameAdapter
from bot.engine.rulings import Board, Ruling, Turn, not_taken
from bot.parser import ParsedAction

if TYPE_CHECKING:
    from bot.engine.services import Services

SEEDS = {"004": "B Nomic", "002": "A Nomic", "001": "Infinite Nomic"}


def not_refereed_reason(args: dict[str, object]) -> str:
    """The reason given for an action of a subgame the bot does not referee."""
    rule = str(args.get("rule", ""))
    seed = str(args.get("seed", ""))
    where = f"rule {rule}" if rule[:1].isdigit() else f"the rule {rule}"
    return (
        f"not refereed by the bot: {where} ({args.get('subgame', '')}, "
        f"{SEEDS.get(seed, 'seed ' + seed)}); a person must referee it"
    )


class UnrefereedAdapter:
    prefix = "unrefereed"
    private_actions: frozenset[str] = frozenset()

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        reason = not_refereed_reason(dict(action.args))
        return not_taken(
            action.action, action.args, action.text, turn, reason, rule=str(action.args["rule"])
        )

    def changed_boards(self) -> tuple[Board, ...]:
        return ()

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def save(self) -> None:
        return None


def unrefereed_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    return (UnrefereedAdapter(),)


# Its clauses are recognised before the grammar (``bot.parser.unrefereed``),
# so it adds no grammar area.
UNREFEREED = Game(
    name="unrefereed",
    title="The seeds' subgames not refereed yet",
    adapters=unrefereed_adapters,
)
