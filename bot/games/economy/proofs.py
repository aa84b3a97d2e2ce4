"""The ``draw-v1`` proof line that ``nomicbot verify-dice`` re-derives a draw from.

Every draw of these rules comes from a ``DrawSource`` (``bot.games.dice``)
under a context id; a report prints one line per draw, in the form the
archive audit reads (``bot.audit``), e.g.
``[verify: nweek=4 draw-v1 context=c number=0 kind=randint bounds=1..4 value=1]``
(the nweek is displayed one-based, rule 3 A).
"""

from __future__ import annotations

from bot.games.dice import Draw, draw_proof

__all__ = ["draw_proof", "draw_proofs"]


def draw_proofs(nweek: int, source_context: str, draws: tuple[Draw, ...]) -> tuple[str, ...]:
    """A line per draw, with its description before its proof."""
    return tuple(f"{draw.describe()} {draw_proof(nweek, source_context, draw)}" for draw in draws)
