"""The ``draw-v1`` proof line that ``nomicbot verify-dice`` re-derives a draw from.

Every draw of these rules comes from a ``DrawSource`` (``bot.games.dice``)
under a context id; a report prints one line per draw, in the form the
archive audit reads (``bot.audit``), e.g.
``[verify: nweek=4 draw-v1 context=c number=0 kind=randint bounds=1..4 value=1]``
(the nweek is displayed one-based, rule 3 A).
"""

from __future__ import annotations

from bot.games.dice import Draw, DrawKind

PROOF_VERSION = "draw-v1"


def draw_proof(nweek: int, context: str, draw: Draw) -> str:
    """The proof line of ``draw``, made under ``context`` from (zero-based) ``nweek``'s seed."""
    head = f"[verify: nweek={nweek + 1} {PROOF_VERSION} context={context} number={draw.number}"
    if draw.kind is DrawKind.SHUFFLE:
        order = ",".join(str(index) for index in draw.result)
        return f"{head} options={'|'.join(draw.options)} order={order}]"
    if draw.kind is DrawKind.CHOICE:
        return f"{head} kind=choice options={'|'.join(draw.options)} index={draw.result[0]}]"
    low, high = draw.bounds or (0, 0)
    return f"{head} kind=randint bounds={low}..{high} value={draw.result[0]}]"


def draw_proofs(nweek: int, source_context: str, draws: tuple[Draw, ...]) -> tuple[str, ...]:
    """A line per draw, with its description before its proof."""
    return tuple(f"{draw.describe()} {draw_proof(nweek, source_context, draw)}" for draw in draws)
