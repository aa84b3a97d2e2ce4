"""Pooker (seed 002, rules 394-399) by mail: the Motion to Show Cards and the Showdown.

Rule 396's Motion to Show Cards is "a Secondary Approvable Motion which
passes by being voted for by a majority of Players".  The seed defines no
Motions, so the bot calls one of its polls (rule 15's machinery,
``bot.engine.governance.polls``, kind ``cards-motion``) and players vote on
it as on any poll ("I vote yes on poll 3"); its mover votes for it.  It
passes at the instant of the vote that makes the Yes votes more than half
of all Players (``motion_pass_instant``), so a replay finds the same
instant; it fails when its time (``[cards] motion_days``) ends first.

A Showdown (a passed Motion, or a declaration by a holder of ten or more
PCards) lasts ``[cards] showdown_days``: each player may post which PCards
e shows, arranged into Poker Hands (``cards.show``).  When it ends the
highest total wins that many Points from the Bank, divided on a tie, and the
shown PCards return to the Deck, their deals revealed (``close_showdown``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from bot.engine.games.cards_deals import cards_settings, publish_due_reveals, return_to_deck
from bot.engine.games.cards_state import CardsState, Showdown
from bot.engine.governance.polls import StoredPoll, load_poll, save_poll
from bot.engine.holdings import POINTS, Cause, gain
from bot.engine.players import all_players, find_player_by_name
from bot.engine.scheduler import open_nweek
from bot.games import dice
from bot.games.cards import Card
from bot.games.cards.pooker import (
    Showing,
    best_arrangement,
    motion_passes,
    render_showdown,
    score_arrangement,
    settle_showdown,
)
from bot.games.governance.polls import Choice
from bot.games.governance.polls.durations import deadline_of
from bot.outbound.compose import compose_report
from bot.store.models import DiceSeed

if TYPE_CHECKING:
    from bot.engine.services import Services

MOTION_KIND = "cards-motion"
RULE_SHOWDOWN = "396"


# -- the Motion ------------------------------------------------------------------------------


def motion_pass_instant(stored: StoredPoll, players: int) -> datetime | None:
    """The instant of the vote that first made the Yes votes a majority of all Players."""
    current: dict[str, Choice] = {}
    for cast in sorted(stored.poll.votes, key=lambda each: each.cast_at):
        current[cast.voter] = cast.vote.choice
        yes = sum(1 for choice in current.values() if choice is Choice.YES)
        if motion_passes(yes, players):
            return cast.cast_at
    return None


def motion_deadline(stored: StoredPoll) -> datetime | None:
    return deadline_of(stored.poll.duration, stored.poll.called_at)


def motion_event(
    session: Session, services: Services, state: CardsState, until: datetime
) -> tuple[datetime, bool] | None:
    """When the pending Motion passes (True) or fails (False), if by ``until``."""
    if state.motion_poll is None:
        return None
    stored = load_poll(session, services.clock, state.motion_poll)
    if stored is None or stored.closed_at is not None:
        return None
    passed = motion_pass_instant(stored, len(all_players(session)))
    deadline = motion_deadline(stored)
    if passed is not None and (deadline is None or passed <= deadline) and passed <= until:
        return passed, True
    if deadline is not None and deadline <= until and (passed is None or passed > deadline):
        return deadline, False
    return None


def settle_motion(
    session: Session, services: Services, state: CardsState, at: datetime, passed: bool
) -> CardsState:
    """Close the Motion's poll at ``at``; a Showdown begins if it passed (rule 396)."""
    assert state.motion_poll is not None
    stored = load_poll(session, services.clock, state.motion_poll)
    assert stored is not None
    save_poll(session, replace(stored, closed_at=at))
    number = state.motion_poll
    state = replace(state, motion_poll=None)
    # A Showdown declared while the Motion was pending (rule 396: "at any time")
    # is the Showdown the Motion asks for: one Showdown at a time.
    already = state.showdown is not None
    if passed and not already:
        state = begin_showdown(services, state, at, declarer=None)
    session.add(
        compose_report(
            services,
            "cards-motion",
            f"{number}",
            f"[cards] The Motion to Show Cards (poll {number}) "
            f"{'passed: a Showdown' if passed else 'failed'}",
            "cards/motion.txt.j2",
            {
                "poll": number,
                "passed": passed,
                "already": already,
                "closes": _closes_text(state.showdown) if passed else "",
            },
            at,
        )
    )
    return state


def begin_showdown(
    services: Services, state: CardsState, at: datetime, declarer: str | None
) -> CardsState:
    days = cards_settings(services).showdown_days
    showdown = Showdown(state.showdowns + 1, at, at + timedelta(days=days), declarer)
    return replace(state, showdown=showdown, showdowns=showdown.number)


def _closes_text(showdown: Showdown | None) -> str:
    return "" if showdown is None else showdown.closes_at.strftime("%Y-%m-%d %H:%M UTC")


# -- the Showdown's end ----------------------------------------------------------------------


def showings_of(state: CardsState, showdown: Showdown) -> list[Showing]:
    """Each player's shown Hands scored, with the best arrangement when it scores more."""
    pack_count = state.table.pack_count
    showings = []
    for shown in showdown.shown:
        hands = [[Card.from_number(number, pack_count) for number in hand] for hand in shown.hands]
        held = [card for hand in hands for card in hand]
        if any(state.table.holder_of(card.number) != shown.player for card in held):
            continue  # e no longer holds them (a forfeit): nothing of eirs is scored
        arrangement = score_arrangement(hands)
        best = best_arrangement(held)
        better = best if best is not None and best.total > arrangement.total else None
        showings.append(Showing(shown.player, arrangement, better))
    return showings


def close_showdown(
    session: Session, services: Services, state: CardsState, at: datetime
) -> CardsState:
    """Rule 396 at the Showdown's end: the prize from the Bank, the shown PCards to the Deck."""
    showdown = state.showdown
    assert showdown is not None
    showings = showings_of(state, showdown)
    source = _tie_source(session, services, showdown, at)
    _, result = settle_showdown(state.table, showings, source)
    for share in result.shares:
        if share.points > 0:
            player = find_player_by_name(session, share.player)
            gain(
                session,
                player.id,
                POINTS,
                share.points,
                at=at,
                rule=RULE_SHOWDOWN,
                note=f"the prize of Showdown {showdown.number}",
                source="scheduler",
            )
    cause = Cause(at, RULE_SHOWDOWN, f"shown in Showdown {showdown.number}", "scheduler", None)
    state, returns = return_to_deck(session, state, result.returned, cause)
    state, reveals = publish_due_reveals(services, state)
    state = replace(state, showdown=None)
    nweek = services.clock.reading(at).nweek
    draws = [dice.draw_proof(nweek, source.context_id, draw) for draw in source.draws]
    session.add(
        compose_report(
            services,
            "cards-showdown",
            f"{showdown.number}",
            f"[cards] Showdown {showdown.number}: the result",
            "cards/showdown.txt.j2",
            {
                "result": render_showdown(showings, result).rstrip("\n"),
                "advice": [
                    f"{showing.player}: {showing.advice()}"
                    for showing in showings
                    if showing.better
                ],
                "returns": returns,
                "reveals": reveals,
                "draws": draws,
            },
            at,
        )
    )
    return state


def _tie_source(
    session: Session, services: Services, showdown: Showdown, at: datetime
) -> dice.DrawSource:
    """The recorded draw a tie that does not divide evenly uses (rule 9's nweek seed)."""
    nweek = services.clock.reading(at).nweek
    if session.get(DiceSeed, nweek) is None:
        open_nweek(session, services, nweek, at)
    context = f"cards-showdown-{showdown.number}@{services.settings.bot_domain}"
    return dice.DrawSource(dice.nweek_seed(services.master_secret, nweek), context)


def shown_numbers(state: CardsState) -> Sequence[int]:
    """The Cards shown in the Showdown in progress (they stay put until it ends)."""
    if state.showdown is None:
        return ()
    return [n for shown in state.showdown.shown for hand in shown.hands for n in hand]
