"""Pooker, A Nomic rules 394-399 (seed 002): PCards, Trades, Poker Hands and the Showdown."""

from bot.games.cards.pooker.arrangement import (
    ScoredArrangement,
    ScoredHand,
    best_arrangement,
    check_arrangement,
    score_arrangement,
)
from bot.games.cards.pooker.holding import POOKER_PACKS, is_pcard, pcards_of, resolve_pcards
from bot.games.cards.pooker.scoring import HandClass, classify, score
from bot.games.cards.pooker.showdown import (
    ShowdownResult,
    Showing,
    divide_prize,
    may_declare_showdown,
    motion_passes,
    render_showdown,
    settle_showdown,
    show_cards,
)
from bot.games.cards.pooker.trades import TRADE_FEE, Trade, TradeNotice, match_notices

__all__ = [
    "POOKER_PACKS",
    "TRADE_FEE",
    "HandClass",
    "ScoredArrangement",
    "ScoredHand",
    "ShowdownResult",
    "Showing",
    "Trade",
    "TradeNotice",
    "best_arrangement",
    "check_arrangement",
    "classify",
    "divide_prize",
    "is_pcard",
    "match_notices",
    "may_declare_showdown",
    "motion_passes",
    "pcards_of",
    "render_showdown",
    "resolve_pcards",
    "score",
    "score_arrangement",
    "settle_showdown",
    "show_cards",
]
