"""The ``draw-v1`` proof line that ``nomicbot verify-dice`` re-derives a draw from.

Every game's draws come from a ``DrawSource`` under a context id, and a
ruling or report prints one line per draw in the form the archive audit
reads (``bot.audit``), e.g.
``[verify: nweek=4 draw-v1 context=c number=0 kind=randint bounds=1..4 value=1]``
(the nweek displayed one-based, rule 3 A).  Shuffles print their options and
the order drawn, as rule 369's tie-breaks first did.
"""

from __future__ import annotations

from bot.games.dice.draws import Draw, DrawKind

PROOF_VERSION = "draw-v1"
LISTED_OPTIONS = 24  # a choice among more is published by its count, not its options


def draw_proof(nweek: int, context: str, draw: Draw) -> str:
    """The proof line of ``draw``, made under ``context`` from (zero-based) ``nweek``'s seed."""
    head = f"[verify: nweek={nweek + 1} {PROOF_VERSION} context={context} number={draw.number}"
    if draw.kind is DrawKind.SHUFFLE:
        order = ",".join(str(index) for index in draw.result)
        return f"{head} options={'|'.join(draw.options)} order={order}]"
    if draw.kind is DrawKind.CHOICE and len(draw.options) > LISTED_OPTIONS:
        # A choice among hundreds of squares: the count is all re-deriving needs.
        return f"{head} kind=choice count={len(draw.options)} index={draw.result[0]}]"
    if draw.kind is DrawKind.CHOICE:
        return f"{head} kind=choice options={'|'.join(draw.options)} index={draw.result[0]}]"
    low, high = draw.bounds or (0, 0)
    return f"{head} kind=randint bounds={low}..{high} value={draw.result[0]}]"
