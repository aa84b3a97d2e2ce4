"""Transformer and triggers for grammar/cards.lark: A Nomic's Cards and Pooker (seed 002).

The Motion to Show Cards and a Showdown declared (rule 396), the Poker
Hands a player shows (396, 397), and a Trade notice (395).  Cards are kept
as written, each read by ``bot.games.cards.parse_card_name`` in the engine,
so that a mistyped Card gets that function's answer, citing rule 384.
"""

from __future__ import annotations

from lark import Token

from bot.parser.area import ActionReading, Area
from bot.parser.areas.common import CommonTransformer


class CardsTransformer(CommonTransformer):
    """Builds ``cards.motion``, ``cards.declare``, ``cards.show`` and ``cards.trade``."""

    def action(self, children: list[ActionReading]) -> ActionReading:
        return children[0]

    def motion(self, children: list[object]) -> ActionReading:
        return ActionReading("cards.motion", {})

    def declare(self, children: list[object]) -> ActionReading:
        return ActionReading("cards.declare", {})

    def back(self, children: list[Token]) -> str:
        return f"({children[0]})"

    def card(self, children: list[Token | str]) -> str:
        return " ".join(str(child) for child in children)

    def long_card(self, children: list[Token | str]) -> str:
        # "Queen of Hearts": the keyword "of" is not among the children.
        words = [str(child) for child in children]
        suit = next(
            index
            for index, child in enumerate(children)
            if isinstance(child, Token) and child.type.endswith("SUIT_WORD")
        )
        return " ".join([*words[:suit], "of", *words[suit:]])

    def hand(self, children: list[str]) -> list[str]:
        return list(children)

    def card_list(self, children: list[str]) -> list[str]:
        return list(children)

    def show(self, children: list[list[str]]) -> ActionReading:
        return ActionReading("cards.show", {"hands": [list(hand) for hand in children]})

    def trade(self, children: list[list[str] | Token]) -> ActionReading:
        gives, owner, receives = children
        partner = str(owner)[:-2]  # "Bob's" and "Bob’s" alike
        return ActionReading(
            "cards.trade", {"gives": list(gives), "partner": partner, "receives": list(receives)}
        )


AREA = Area(
    namespace="cards",
    transformer=CardsTransformer,
    triggers=(r"move", r"make", r"propose", r"declare", r"show", r"trade"),
    terminals={
        "SHORT_CARD": "a Card such as QH or 10S",
        "RANK_WORD": "a Rank (Ace, 2 .. 10, Jack, Queen, King)",
        "SUIT_WORD": "a Suit (Hearts, Diamonds, Clubs, Spades)",
        "BACK": "a Back (Red, Blue, Fish, Corporate)",
        "OWNER": "the other player's name with 's (Bob's)",
    },
    problems={},
)
