"""Actions of the seeds' subgames that this referee does not judge yet.

A player who writes "I water my Garden" (rule 1902, seed 004) has taken a
game action the rules define; silence would read as "nothing happened", and
reading it with another game's grammar would be worse ("I play a card" is no
Go placement, "I pick a Tomato" no Moderator's pick, "I join the game of
Knucklebones" no registration).  So every such sentence is recognised here,
before any grammar reads it, and answered "not refereed by the bot: rule N",
for a person to referee.

Each subgame lists its actions in the seeds' own words, as regular
expressions matched (case-insensitively) at the verb, after "I", "please"
and the adverbs of ``bot.parser.clauses``.  ``verbs`` are the words an
action can start with (a clause starting otherwise is not tried); a sentence
only becomes a candidate when a whole pattern matches after "I", at the
start of a line, or after another action.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from bot.parser.clauses import ADVERBS, COURTESY

# Determiners and possessives before an object: "my", "Bob's", "a", "two", "3".
OWNER = (
    r"(?:(?:my|the|a|an|one|two|three|four|five|some|this|that|eir|his|her|their|all|\d+"
    r"|[^\W\d_][\w-]*['’]s)\s+)"
)
FRUIT = (
    r"(?:rotten\s+)?(?:tomato(?:es)?|fruits?|thorn\s+seeds?|blood\s+spores?|lemons?"
    r"|water\s+pods?|huge\s+seeds?)"
)
PLANT = (
    r"(?:plants?|vines?|thorn\s+bush(?:es)?|lemon\s+trees?|blood\s+ferns?|sasquash(?:\s+pods?)?)"
)
GARDEN = r"(?:(?:my|the|a|[^\W\d_][\w-]*['’]s)\s+garden|the\s+town\s+square)"
STORE_ITEM = (
    r"(?:(?:fluffy|hungry|ninja)\s+bunn(?:y|ies)|smoke\s+bombs?|shieldkits?|water\s+jets?"
    r"|air\s+jets?|flame\s*throwers?|rocks?)"
)
# The objects of seed 004's Gardens, Drinks and Store a player may give (rule 13).
GARDEN_OBJECT = (
    r"(?:(?:rotten\s+)?(?:tomato|thorn\s+seed|lemon|blood\s+spore|water\s+pod)(?:\s+drink)?"
    r"|thorn\s+drink|bloody\s+harry|rainbow\s+potion|waterspout\s+concoction"
    r"|(?:fluffy|hungry|ninja)\s+bunny|smoke\s+bomb|shieldkit|water\s+jet|air\s+jet"
    r"|flame\s*thrower|rock|huge\s+seed|sasquash(?!\s+pod))"
)
CUBE = r"\(\s*\d\s*,\s*\d\s*,\s*\d\s*\)"
STAT = r"av(?:power|speed|strength|skill)"
TECHNOLOGY = r"(?:masonry|mining|theft|diplomacy|extra\s+bandwidth|printing\s+tildex|drawing)"
COLOR = r"(?:red|orange|yellow|green|blue|indigo|violet|apple\s+white)"


@dataclass(frozen=True)
class Subgame:
    """A subgame of the seeds and the actions by which players take part in it."""

    key: str  # the action is "unrefereed.<key>"
    name: str
    rule: str  # where the seed defines the actions, e.g. "1902"
    seed: str  # "004" (B Nomic), "002" (A Nomic), "001" (Infinite Nomic)
    verbs: tuple[str, ...]
    patterns: tuple[str, ...]


SUBGAMES: tuple[Subgame, ...] = (
    # Seed 001 first: its actions use words other games use too ("join", "play").
    Subgame(
        "knucklebones",
        "Knucklebones",
        "Knucklebones",
        "001",
        (
            "join",
            "play",
            "intend",
            "want",
            "wish",
            "start",
            "put",
            "insert",
            "place",
            "use",
            "challenge",
        ),
        (
            (
                rf"(?:intend|want|wish)\s+to\s+(?:join|play|start)\s+{OWNER}?"
                r"(?:games?\s+of\s+)?knucklebones"
            ),
            rf"(?:join|start|play)\s+{OWNER}?(?:games?\s+of\s+)?knucklebones",
            (
                r"(?:put|insert|place)\s+(?:it|the\s+die|my\s+die|the\s+dice|my\s+dice|(?:a\s+"
                r"|the\s+)?[1-6])\s+(?:in|into)\s+column\s+[1-3]"
            ),
            r"use\s+(?:my|the|a)\s+[\w\s]{0,30}?dice?\s+item",
            r"challenge\s+\S+\s+to\s+(?:a\s+game\s+of\s+)?knucklebones",
        ),
    ),
    Subgame(
        "thorns",
        "Thorns",
        "1909",
        "004",
        ("pick", "plant"),
        (r"pick\s+(?:\w+\s+){0,4}?slowly", rf"plant\s+{OWNER}?thorn\s+seeds?"),
    ),
    Subgame(
        "more_plants",
        "More Plants",
        "1918",
        "004",
        ("plant", "import", "use", "mix"),
        (
            rf"plant\s+{OWNER}?(?:blood\s+spores?|huge\s+seeds?)",
            r"import\s+(?:a|an|one|\d+)\s+lemon\s+trees?",
            rf"use\s+{OWNER}?lemon(?:\s+drinks?)?s?\s+on",
            rf"mix\s+{OWNER}?huge\s+seeds?",
        ),
    ),
    Subgame(
        "tomatoes",
        "Tomatoes on Vines",
        "1908",
        "004",
        ("plant", "throw", "claim", "discard"),
        (
            rf"plant\s+{OWNER}?(?:rotten\s+)?tomato(?:es)?",
            rf"throw\s+{OWNER}?(?:rotten\s+)?tomato(?:es)?\s+at",
            r"claim\s+(?:a|my|the)\s+free\s+throw",
            rf"discard\s+{OWNER}?stained\s+cards?",
        ),
    ),
    Subgame(
        "gardens",
        "Gardening 101",
        "1902",
        "004",
        ("water", "pick", "burn"),
        (
            rf"water\s+{GARDEN}",
            r"water\s+(?:my|the|eir|\w+['’]s)\s+(?:\w+\s+)?garden",
            rf"pick\s+{OWNER}?{FRUIT}",
            rf"pick\s+(?:\w+\s+){{0,3}}?from\s+{GARDEN}",
            rf"burn\s+{OWNER}?(?:\w+\s+)?{PLANT}",
        ),
    ),
    Subgame(
        "store",
        "At a retailer near You",
        "1911",
        "004",
        ("buy", "purchase", "use", "send"),
        (
            rf"(?:buy|purchase)\s+{OWNER}?{STORE_ITEM}",
            # Thorn Seeds are the next entry's, so that the Gardens can take them alone.
            r"(?:buy|purchase)\s+(?!(?:\w+\s+)?thorn\s+seeds?\b)(?:\w+\s+){1,4}?from\s+the\s+store",
            rf"use\s+{OWNER}?(?:fluffy|hungry|ninja)\s+bunn(?:y|ies)",
            rf"send\s+{OWNER}?(?:fluffy|hungry|ninja)\s+bunn(?:y|ies)",
        ),
    ),
    # The Store's Thorn Seeds ("These are defined by r1909"), answered as the Store's
    # actions are; a game that referees the Gardens takes them apart from the rest.
    Subgame(
        "thorn_seeds",
        "At a retailer near You",
        "1911",
        "004",
        ("buy", "purchase"),
        (rf"(?:buy|purchase)\s+{OWNER}?thorn\s+seeds?",),
    ),
    Subgame(
        "arena",
        "Arena",
        "1912",
        "004",
        ("create", "move", "fire", "use", "increase", "take"),
        (
            rf"create\s+{OWNER}?(?:new\s+)?avatar",
            rf"move\s+{OWNER}?avatar",
            rf"fire\s+{OWNER}?(?:water\s+jet|air\s+jet|flame\s*thrower|jet)",
            rf"fire\s+(?:at|on)\s+(?:{CUBE}|{OWNER}?avatar|cube)",
            rf"use\s+{OWNER}?(?:smoke\s+bombs?|shieldkits?|rocks?|arena\s+tools?)",
            rf"increase\s+(?:my\s+)?{STAT}",
            r"take\s+(?:an?|my)\s+(?:arena\s+)?turn\s+in\s+the\s+arena",
        ),
    ),
    Subgame(
        "alcohol",
        "Alcohol",
        "1913",
        "004",
        ("ferment", "drink"),
        (
            rf"ferment\s+{OWNER}?(?:\w+\s+)?{FRUIT}",
            r"ferment\s+(?:my|a|the|\w+['’]s)\s+\w+",
            rf"drink\s+{OWNER}?(?:[\w-]+\s+){{0,3}}?drinks?",
        ),
    ),
    Subgame(
        "potions",
        "Potions",
        "1914",
        "004",
        ("follow", "drink", "create", "brew", "make"),
        (
            r"follow\s+the\s+(?:[\w-]+\s+){1,3}?recipe",
            rf"drink\s+{OWNER}?(?:[\w-]+\s+){{0,3}}?potions?",
            rf"(?:create|brew|make)\s+{OWNER}?(?:[\w-]+\s+){{0,3}}?potions?",
        ),
    ),
    Subgame(
        "waterspouts",
        "Waterspouts",
        "1915",
        "004",
        ("mix", "pour", "use"),
        (
            rf"mix\s+{OWNER}?(?:waterspout\s+)?concoctions?",
            rf"pour\s+{OWNER}?(?:waterspout\s+)?concoctions?",
            rf"use\s+{OWNER}?water\s+pods?",
        ),
    ),
    Subgame(
        "five_week_plan",
        "The Five-Week Plan",
        "1916",
        "004",
        ("use", "spend"),
        (rf"(?:use|spend)\s+{OWNER}?advancement\s+tokens?",),
    ),
    Subgame(
        "pots_of_gold",
        "Pots of Gold",
        "1917",
        "004",
        ("take", "put", "withdraw", "deposit", "add", "remove"),
        (
            r"(?:take|withdraw|remove)\s+\d+\s*(?:~|tildex)\s+(?:out\s+of|from)\s+(?:my|the)\s+pot",
            r"(?:put|deposit|add)\s+\d+\s*(?:~|tildex)\s+(?:in|into|to)\s+(?:my|the)\s+pot",
            (
                r"(?:take|withdraw|remove|put|deposit|add)\s+(?:\w+\s+){0,4}?(?:in|into|to|out\s+of"
                r"|from)\s+(?:my|the|a)\s+pot\s+of\s+gold"
            ),
        ),
    ),
    Subgame(
        "spells",
        "Spells",
        "1919",
        "004",
        ("spend", "learn", "cast", "forget", "give"),
        (
            r"spend\s+\d+\s+research\s+points\s+to\s+learn",
            # 1919 A: "When a player gives a spell at level N to another player".
            (
                r"give\s+(?:my\s+|the\s+|a\s+)?(?:spell\s+)?(?:blight|reincarnation"
                r"|slight\s+of\s+hand|chromomancy|alcomancy|spell)(?:\s+spell)?(?:\s+at\s+level\s+\d+)?"
                r"\s+to"
            ),
            (
                r"learn\s+(?:the\s+)?(?:spell\s+)?(?:blight|reincarnation|slight\s+of\s+hand"
                r"|chromomancy|alcomancy)"
            ),
            (
                r"cast\s+(?!(?:my|a|the|our)\s+(?:votes?|ballots?)\b)(?:the\s+spell\s+)?[\w-]+"
                r"(?:\s+\w+){0,3}?\s+(?:at|on)\b"
            ),
            r"cast\s+(?:blight|reincarnation|slight\s+of\s+hand|chromomancy|alcomancy)",
            (
                r"forget\s+(?:the\s+)?(?:spell\s+)?(?:blight|reincarnation|slight\s+of\s+hand"
                r"|chromomancy|alcomancy)"
            ),
        ),
    ),
    Subgame(
        "king_for_a_day",
        "King For a Day",
        "1920",
        "004",
        ("make", "claim", "use", "exercise"),
        (
            r"make\s+(?:a|my)\s+claim\s+to\s+the\s+throne",
            r"claim\s+the\s+throne",
            r"(?:use|exercise)\s+(?:my\s+)?royal\s+authority",
        ),
    ),
    Subgame(
        "traps",
        "Traps",
        "1922",
        "004",
        ("spend", "use", "move"),
        (
            rf"(?:spend|use)\s+{OWNER}?trap\s+tokens?",
            rf"move\s+the\s+trap\s+(?:at|in|from)\s+{CUBE}",
        ),
    ),
    Subgame(
        "rainbow",
        "There is a rainbow",
        "1903",
        "004",
        ("discard",),
        (
            rf"discard\s+(?:my\s+)?{COLOR}\s*(?:,|and)",
            rf"discard\s+{OWNER}?colou?r\s+cards?",
        ),
    ),
    Subgame(
        "cards",
        "Card Manipulation",
        "1728",
        "004",
        ("play", "draw", "discard"),
        (
            rf"play\s+{OWNER}?(?:[\w-]+\s+){{0,2}}?cards?\b",
            (
                r"draw\s+(?:an\s+additional|another|a|an\s+extra|one|\d+|two|three|four)\s+"
                r"(?:new\s+)?cards?"
            ),
            rf"discard\s+{OWNER}?(?:[\w-]+\s+){{0,2}}?cards?\b",
        ),
    ),
    Subgame(
        "research",
        "Research Points",
        "1855",
        "004",
        ("conduct", "do", "perform"),
        (r"(?:conduct|do|perform)\s+(?:some\s+)?(?:general|applied)\s+research",),
    ),
    Subgame(
        "technology",
        "Technology",
        "1854",
        "004",
        ("spend", "give", "attempt", "use", "research"),
        (
            rf"spend\s+\d+\s+research\s+points\s+(?:on|in|towards?)\s+{TECHNOLOGY}",
            rf"give\s+(?:my\s+)?{TECHNOLOGY}\s+to",
            rf"(?:attempt|use)\s+(?:my\s+)?{TECHNOLOGY}\b",
            rf"research\s+{TECHNOLOGY}",
        ),
    ),
    Subgame(
        "board_game",
        "The Board Game",
        "1900",
        "004",
        ("move", "make", "choose", "play"),
        (
            r"move\s+(?:\w+\s+){1,4}?(?:on|in)\s+the\s+board\s+game",
            r"make\s+(?:a|my|one)\s+(?:board\s+game\s+)?move\s+(?:on|in)\s+the\s+board(?:\s+game)?",
            r"make\s+(?:a|my|one)\s+board\s+game\s+move",
            r"choose\s+(?:\w+\s+){0,2}?(?:as\s+)?(?:my\s+)?owner\s+character",
            r"play\s+(?:on\s+)?the\s+board\s+game",
        ),
    ),
    Subgame(
        "societies",
        "Societies",
        "578",
        "004",
        ("create", "found", "form", "apply", "oust", "quit", "leave", "join", "transfer"),
        (
            r"(?:create|found|form)\s+(?:a|the|my)\s+(?:new\s+)?society",
            (
                r"apply\s+(?:for\s+membership\s+)?(?:to|in)\s+(?:the\s+)?(?:society"
                r"|[\w\s]{1,40}?\bsociety)"
            ),
            r"apply\s+for\s+membership\s+(?:to|in|of)\s+\S+",
            r"oust\s+\S+(?:\s+\S+){0,3}?\s+from",
            r"(?:quit|leave)\s+(?:the\s+|my\s+)?(?:society|[\w\s]{1,40}?\bsociety)",
            r"join\s+the\s+(?:[\w-]+\s+){0,3}?society",
            # 578 VI: "Any player may transfer a point of Bandwidth from emself to any
            # society"; a gift of BW to a player is rule 13's (grammar/give.lark).
            (
                r"transfer\s+(?:\d+|a|one)\s*(?:bw|points?\s+of\s+bandwidth|bandwidth)\s+"
                r"(?:from\s+myself\s+)?to\s+(?:the\s+[^\W\d_][\w'’-]*|(?:my\s+|a\s+)?(?:[\w-]+\s+){0,4}?society)"
            ),
        ),
    ),
    Subgame(
        "garbage_collection",
        "Garbage Collection",
        "206",
        "004",
        ("pay", "put", "smite", "hide", "am"),
        (
            r"pay\s+\d+\s+points?\s+to\s+put\s+\S+(?:\s+\S+){0,3}?\s+in(?:to)?\s+the\s+vat",
            r"put\s+\S+(?:\s+\S+){0,3}?\s+in(?:to)?\s+the\s+vat",
            r"smite\s+\S+",
            r"(?:hide|am\s+hiding|am\s+now\s+hiding)\s+under\s+a\s+rock",
        ),
    ),
    Subgame(
        "duties",
        "Duties",
        "1583",
        "004",
        ("perform", "do"),
        (r"(?:perform|do)\s+(?:the|my)\s+(?:election|duty|backup)\s+duty",),
    ),
    Subgame(
        "literary_forms",
        "Literary Forms",
        "437",
        "004",
        ("rate", "submit", "claim", "request"),
        (
            r"rate\s+(?:proposal\s+|prop\s+|#)?(?:\d+|it)\s+(?:a\s+|as\s+)?\d+",
            (
                r"submit\s+(?:a|an|the\s+following|this)\s+(?:haiku|limerick|cinquain|song|void"
                r"|prose)\b"
            ),
            r"(?:claim|request)\s+the\s+void\s+(?:form\s+)?bonus",
        ),
    ),
    Subgame(
        "quotes",
        "Quotes",
        "396",
        "004",
        ("submit", "add", "propose"),
        (
            (
                r"(?:submit|propose)\s+(?:a|an|the\s+following|this)\s+quot(?:e|ation)\s*(?:prop"
                r"|proposal)?"
            ),
            r"add\s+(?:a|this)\s+quot(?:e|ation)\s+to",
        ),
    ),
    Subgame(
        "unauthored_props",
        "Proposals (Anonymous and Unauthored)",
        "19",
        "004",
        ("submit", "make", "propose", "call"),
        (
            (
                r"(?:submit|make|propose)\s+(?:a|an|the\s+following|this)\s+(?:anonymous"
                r"|unauthored)\s+(?:prop|proposal)"
            ),
            (
                r"(?:submit|make|propose|call)\s+(?:for\s+)?(?:a|an)\s+"
                r"(?:vote\s+of\s+)?no[nt]?[- ]?confidence"
            ),
        ),
    ),
    Subgame(
        "statute_of_limitations",
        "Statute of Limitations",
        "129",
        "004",
        ("object",),
        (
            (
                r"object\s+to\s+(?:the|that|this|eir|his|her|\w+['’]s)\s+(?:statement|seal"
                r"|announcement|rectification)"
            ),
        ),
    ),
    Subgame(
        "emergency",
        "Emergency Management",
        "0",
        "004",
        ("recognise", "recognize", "declare", "submit", "end"),
        (
            r"(?:recognise|recognize|declare)\s+(?:an|the|a\s+state\s+of)\s+emergency",
            r"submit\s+(?:a|the\s+following|this)\s+refresh\s+proposal",
            r"end\s+the\s+emergency",
        ),
    ),
    Subgame(
        "rectification",
        "Powers of Executive Tidiness",
        "257",
        "004",
        ("rectify", "post", "make", "issue"),
        (
            r"rectify\s+\S+",
            r"(?:post|make|issue)\s+(?:a|the\s+following|this)\s+rectification",
        ),
    ),
    Subgame(
        "challenges",
        "Challenge/response games",
        "336",
        "002",
        ("post", "issue", "answer", "submit", "send"),
        (
            r"(?:post|issue)\s+(?:a|the\s+following|this)\s+(?:new\s+)?challenge",
            r"answer\s+(?:the|this|today['’]s)\s+challenge",
            r"(?:submit|send)\s+(?:my|an|this)\s+answer\s+to\s+the\s+challenge",
        ),
    ),
    Subgame(
        "similarity_game",
        "The Similarity Game",
        "337",
        "002",
        ("answer", "post", "submit"),
        (
            r"answer\s+(?:the|this\s+week['’]s)\s+similarity\s+game",
            (
                r"(?:post|submit)\s+(?:the|this\s+week['’]s|my)\s+(?:similarity\s+)?(?:items"
                r"|answer)\s+(?:for|to)\s+the\s+similarity\s+game"
            ),
            r"(?:post|submit)\s+(?:three|\d+|my)\s+items\s+for\s+the\s+similarity\s+game",
        ),
    ),
    Subgame(
        "contests",
        "Contests",
        "338",
        "002",
        ("consent", "agree", "enter"),
        (
            r"(?:consent|agree)\s+to\s+(?:be|become)\s+a\s+contestant",
            r"enter\s+the\s+(?:[\w-]+\s+){0,3}?contest\b",
        ),
    ),
    Subgame(
        "poetry_contest",
        "Poetry Contest",
        "339",
        "002",
        ("submit", "set", "send"),
        (
            r"(?:submit|send)\s+(?:my|a|this|the\s+following)\s+poem",
            r"set\s+the\s+(?:topic|theme)\s+(?:of|for)\s+the\s+poetry\s+contest",
            r"set\s+the\s+poetry\s+contest['’]s\s+topic",
        ),
    ),
    Subgame(
        "mediocrity",
        "Mediocrity",
        "343",
        "002",
        ("start", "join", "submit", "send", "choose"),
        (
            r"start\s+(?:a|the)\s+(?:new\s+)?game\s+of\s+mediocrity",
            r"join\s+(?:a|the)\s+game\s+of\s+mediocrity",
            (
                r"(?:submit|send|choose)\s+(?:\d+|the\s+number\s+\d+)\s+(?:as\s+my\s+quantity"
                r"|for\s+(?:the\s+)?(?:mediocrity|sub-game))"
            ),
        ),
    ),
    Subgame(
        "pooker",
        "Pooker",
        "395-396",
        "002",
        ("trade", "make", "declare", "show"),
        (
            r"trade\s+(?:my\s+)?\S+(?:\s+\S+){0,4}?\s+for\s+",
            r"make\s+a\s+motion\s+to\s+show\s+cards",
            r"declare\s+a\s+showdown",
            r"show\s+(?:my\s+)?(?:p?cards|hands?)\b",
        ),
    ),
    # Rule 13 gifts of the Gardens', Drinks' and Store's objects while their game is off.
    # Every other gift (of tildex, points, a Handy Pack, a Card) is read by the roster's
    # game (grammar/give.lark, bot.engine.transfers); with the Gardens on, grammar/give.lark
    # reads these too and hands them to the Gardens (``Area.gifts``).
    Subgame(
        "garden_objects",
        "Abstract Objects",
        "13",
        "004",
        ("give", "transfer"),
        (rf"(?:give|transfer)\s+(?:my|a|an|one)\s+{GARDEN_OBJECT}\s+(?:\d+\s+)?to\s+\S+",),
    ),
)


@dataclass(frozen=True)
class UnrefereedReading:
    """A recognised action of a subgame the bot does not referee."""

    subgame: Subgame

    @property
    def action(self) -> str:
        return f"unrefereed.{self.subgame.key}"

    @property
    def args(self) -> dict[str, object]:
        return {"subgame": self.subgame.name, "rule": self.subgame.rule, "seed": self.subgame.seed}


FIRST_WORD = re.compile(r"[^\W\d_]+")
LEAD = re.compile(rf"(?:(?:i|{COURTESY})\s+)?{ADVERBS}", re.IGNORECASE)


def _unrefereed(refereed: frozenset[str]) -> tuple[Subgame, ...]:
    """The subgames left to this catch-all once the enabled games took ``refereed``."""
    return tuple(subgame for subgame in SUBGAMES if subgame.key not in refereed)


@functools.cache
def _any_action(refereed: frozenset[str] = frozenset()) -> re.Pattern[str]:
    """One pattern for every action, each in a group ``s<subgame>``, in table order.

    Alternatives are tried in order at the same place, so the first subgame
    listed whose action matches wins, as if each were tried in turn.
    """
    alternatives = (
        # The action ends at a word's end: "pick a fruit", not "pick a fruitcake".
        rf"(?P<s{index}_{number}>(?:{pattern})(?:(?<=\W)|(?![\w'’])))"
        for index, subgame in enumerate(_unrefereed(refereed))
        for number, pattern in enumerate(subgame.patterns)
    )
    return re.compile("|".join(alternatives), re.IGNORECASE)


def read_unrefereed(
    clause: str, refereed: frozenset[str] = frozenset()
) -> UnrefereedReading | None:
    """The unrefereed subgame whose action ``clause`` states, or None.

    ``refereed`` names the subgames (``Subgame.key``) that an enabled game
    referees (``bot.engine.game.Game.refereed_subgames``): their sentences
    are left to that game's grammar.
    """
    lead = LEAD.match(clause)
    start = lead.end() if lead else 0
    verb = FIRST_WORD.match(clause, start)
    if verb is None or verb.group().lower() not in _verbs(refereed):
        return None  # most clauses: no subgame's action starts with this word
    match = _any_action(refereed).match(clause, start)
    if match is None or match.lastgroup is None:
        return None
    index = int(match.lastgroup[1:].split("_", 1)[0])
    return UnrefereedReading(_unrefereed(refereed)[index])


@functools.cache
def triggers(refereed: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """Every action pattern, as prefilter triggers (whole actions, not single verbs)."""
    return tuple(pattern for subgame in _unrefereed(refereed) for pattern in subgame.patterns)


@functools.cache
def _verbs(refereed: frozenset[str] = frozenset()) -> frozenset[str]:
    """The words the subgames' actions start with."""
    return frozenset(verb for subgame in _unrefereed(refereed) for verb in subgame.verbs)
