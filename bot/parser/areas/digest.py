"""Transformer and triggers for grammar/digest.lark: a Minister asks for eir digest.

Whether the author is a Minister or a Deputy (rules 625 and 1272 of seed
004) is the engine's business (``bot.engine.governance.digests``); the
grammar only reads the request.
"""

from __future__ import annotations

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import CommonTransformer


class DigestTransformer(CommonTransformer):
    """Builds the one action of the area: ``digest.request``."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def request(self, children: list[object]) -> ActionReading:
        return ActionReading("digest.request", {})


THE = r"(?:(?:my|the|a)\s+)?"
# "Digest please" is a request; "Digest of the week: ..." is prose, so the
# bare form triggers only when "please" or the end of the sentence follows.
DIGEST_ALONE = THE + r"digest(?=[\s,]*(?:please\b|[.!]|$))"

AREA = Area(
    namespace="digest",
    transformer=DigestTransformer,
    triggers=(
        DIGEST_ALONE,
        rf"(?:send|mail|e-?mail|give|show)\s+(?:me\s+)?{THE}digest",
        rf"request\s+{THE}digest",
    ),
    problems={},
)
