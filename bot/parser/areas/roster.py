"""Transformer and triggers for grammar/roster.lark: the roster and holdings.

Rule 14 (seed 004): joining and forfeiting; rule 151: name changes; rule
205: On Leave and Off Leave; rules 21 and 212: a player's statement of eir
holdings; rule 1896 and docs/trust.md: a player's request, on the list, for a
secret for private mail.
"""

from __future__ import annotations

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import CommonTransformer


class RosterTransformer(CommonTransformer):
    """Builds the roster's actions; names are resolved by the engine."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def new_name(self, children: list[str]) -> str:
        return children[0]

    def register(self, children: list[str]) -> ActionReading:
        # Without a name the request is incomplete; bot.parser.post looks for the
        # name elsewhere in the post ("My name is Alice.") before giving up.
        return ActionReading("roster.register", {"name": children[0]} if children else {})

    def forfeit(self, children: list[object]) -> ActionReading:
        return ActionReading("roster.forfeit", {})

    def rename(self, children: list[str]) -> ActionReading:
        return ActionReading("roster.rename", {"name": children[0]})

    def go_on_leave(self, children: list[object]) -> ActionReading:
        return ActionReading("roster.leave", {})

    def go_off_leave(self, children: list[object]) -> ActionReading:
        return ActionReading("roster.return", {})

    def statement(self, children: list[object]) -> ActionReading:
        return ActionReading("roster.holdings", {})

    def secret(self, children: list[object]) -> ActionReading:
        return ActionReading("roster.secret", {})


REQUEST = r"(?:request|wish|want|ask|apply|would\s+like|['’]d\s+like)\s+to\s+"
BECOME = (
    r"(?:become\s+an?\s+(?:new\s+)?player|be\s+an?\s+(?:new\s+)?player|join|register|sign\s+up)"
)
LEAVE = r"(?:on|off)\s+leave"
AM = r"(?:am|['’]m)"
MY_HOLDINGS = r"my\s+(?:holdings|statement|balances?)"
# "My holdings please" is a request; "My holdings are thin" is prose, so the
# bare form triggers only when "please" or the end of the sentence follows.
MY_HOLDINGS_ALONE = MY_HOLDINGS + r"(?=[\s,]*(?:please\b|[.!]|$))"
# "private mail" must come with "secret", before or after it, as in the grammar.
PRIVATE_MAIL = r"private(?:\s+|\s*-\s*)(?:mails?|e-?mail)"
A_NEW = r"(?:(?:a|my)\s+)?(?:new\s+)?"
A_SECRET = (
    rf"{A_NEW}(?:{PRIVATE_MAIL}\s+secret"
    rf"|secret\s+(?:for|to\s+use\s+in)\s+(?:my\s+)?{PRIVATE_MAIL})"
)

AREA = Area(
    namespace="roster",
    transformer=RosterTransformer,
    triggers=(
        "forfeit",
        REQUEST + BECOME,
        r"become\s+an?\s+(?:new\s+)?player",
        r"join\s+(?:the\s+game|the\s+nomic|b\s+nomic|the\s+b\s+nomic|us|as)",
        r"register\s+(?:me|as)",
        r"sign\s+up",
        # Rule 151
        r"change\s+my\s+name",
        r"rename\s+myself",
        # Rule 205
        rf"go\s+{LEAVE}",
        rf"{AM}\s+(?:going\s+|now\s+)?{LEAVE}",
        rf"declare\s+myself\s+(?:to\s+be\s+)?{LEAVE}",
        r"take\s+(?:a\s+)?leave",
        rf"(?:return|come\s+back|{AM}\s+back)\s+from\s+(?:my\s+|a\s+)?leave",
        r"end\s+my\s+leave",
        # Rules 21 A.2 and 212: a player's statement
        MY_HOLDINGS_ALONE,
        rf"what\s+(?:are|is)\s+{MY_HOLDINGS}",
        rf"(?:send|show|give|mail)\s+(?:me\s+)?{MY_HOLDINGS}",
        # Rule 1896, docs/trust.md: a secret for private mail
        rf"(?:request|ask\s+for|(?:send|mail|e-?mail|give)\s+me)\s+{A_SECRET}",
    ),
    problems={},
)
