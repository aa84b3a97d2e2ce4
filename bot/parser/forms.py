"""Progressive and contracted forms of an action: "I'm placing", "I am voting".

Rule 4 E (seed 004) makes game actions valid "regardless of capitalization,
punctuation, or exact wording", and players write the present progressive
as often as the plain performative: "I'm placing a stone at G3", "I am
hereby voting FOR 12".  Both state the action now, so the referee reads them
as "I place ..." and "I hereby vote ...".

The rewrite keeps every offset: "I'm placing" becomes "I  place   " (the
dropped letters turn into spaces, which the grammar ignores), so columns in
error messages and the sentence quoted in a ruling still refer to what the
player wrote.  Only verbs that start an action are rewritten, and "going"
only in "going on/off leave": "I'm going to roll" states an intent, and
rule 1896 takes no intent.  Negations ("I'm not placing") and other tenses
("I was placing", "I'll be placing") are not matched at all.
"""

from __future__ import annotations

import re

from bot.parser.clauses import ADVERBS

# Base forms of the verbs that begin an action of some area, including the
# catch-all of unrefereed subgames (bot.parser.unrefereed).
VERBS = (
    "abstain",
    "accept",
    "add",
    "agree",
    "ally",
    "amend",
    "answer",
    "apply",
    "appoint",
    "approve",
    "argue",
    "ask",
    "attempt",
    "break",
    "brew",
    "burn",
    "buy",
    "call",
    "capture",
    "cast",
    "challenge",
    "change",
    "choose",
    "claim",
    "come",
    "conduct",
    "consent",
    "create",
    "declare",
    "decline",
    "deposit",
    "designate",
    "discard",
    "dissolve",
    "do",
    "draw",
    "drink",
    "end",
    "enter",
    "evolve",
    "exercise",
    "ferment",
    "file",
    "fire",
    "follow",
    "forfeit",
    "forget",
    "form",
    "found",
    "give",
    "hide",
    "hold",
    "import",
    "increase",
    "initialise",
    "initialize",
    "insert",
    "issue",
    "join",
    "learn",
    "make",
    "mix",
    "move",
    "nominate",
    "object",
    "offer",
    "oust",
    "pass",
    "pay",
    "perform",
    "pick",
    "place",
    "plant",
    "play",
    "post",
    "pour",
    "propose",
    "purchase",
    "put",
    "quit",
    "raise",
    "rank",
    "rate",
    "recognise",
    "recognize",
    "rectify",
    "register",
    "reject",
    "rejoin",
    "remove",
    "rename",
    "request",
    "rescind",
    "research",
    "resign",
    "retract",
    "return",
    "revise",
    "revoke",
    "roll",
    "select",
    "sell",
    "send",
    "set",
    "show",
    "smite",
    "spend",
    "start",
    "submit",
    "take",
    "throw",
    "trade",
    "transfer",
    "tweak",
    "use",
    "vote",
    "water",
    "withdraw",
)
# Verbs whose final consonant doubles before "-ing".
DOUBLED = frozenset({"put", "submit", "transfer", "set", "quit", "admit"})


def gerund_of(verb: str) -> str:
    """The "-ing" form of ``verb``: "place" → "placing", "put" → "putting"."""
    if verb in DOUBLED:
        return verb + verb[-1] + "ing"
    if verb.endswith("e") and not verb.endswith(("ee", "ye")):
        return verb[:-1] + "ing"
    return verb + "ing"


BASE_OF_GERUND = {gerund_of(verb): verb for verb in VERBS}
PROGRESSIVE = re.compile(
    rf"(?<![\w'’-])(?P<subject>i)(?P<be>['’]m|\s+am)\s+(?P<adverbs>{ADVERBS})"
    r"(?P<gerund>[a-z]+ing|going(?=\s+(?:on|off)\s+leave\b))(?![\w'’-])",
    re.IGNORECASE,
)


# "Please, roll 3d6": the comma after a courtesy joins nothing.
COURTESY_COMMA = re.compile(r"(?<![\w'’-])(?P<word>please|kindly|pls|plz)[ \t]*,(?=\s)", re.I)


def plain_forms(text: str) -> str:
    """``text`` with "I'm placing" read as "I place", offsets unchanged (see above)."""
    text = COURTESY_COMMA.sub(lambda match: match.group()[:-1] + " ", text)
    return PROGRESSIVE.sub(_plain, text)


def _plain(match: re.Match[str]) -> str:
    gerund = match.group("gerund")
    base = "go" if gerund.lower() == "going" else BASE_OF_GERUND.get(gerund.lower())
    if base is None:
        return match.group()  # "I'm thinking": not the verb of an action
    # Keep the player's capitals for the quoted sentence's sake: only spaces change.
    verb = gerund[: len(base)] if gerund[: len(base)].lower() == base else base
    be = " " * len(match.group("be"))
    between = match.group()[match.end("be") - match.start() : match.start("gerund") - match.start()]
    return match.group("subject") + be + between + verb + " " * (len(gerund) - len(base))
