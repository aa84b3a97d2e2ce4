"""Blood Alcohol Content, Blacked Out, and the 1d10 a nonsober attempt rolls (rule 1913).

Rule 1913: "A Player is said to be Blacked Out if eir BAC equals or exceeds
10.  A Blacked Out Player may not perform any of the following actions:
Drinking, Fermenting, Picking fruits, Watering plants, Planting fruits,
Creating, moving, or otherwise using an Avatar in the Arena.  When a
nonsober player attempts any of the above actions, e must roll 1d10; if the
roll is lower than eir BAC, then the attempt fails and the player may not
perform that action for the rest of the checking period."

So three things stand between a player and one of those actions, in this
order: Blacked Out (refused, no roll), a bar left by an earlier failed roll
(refused until the next Checking Period, no roll: a gate of
``bot.games.economy``), then, for an attempt the rules otherwise allow, the
1d10 from the ``DrawSource``.  A roll of BAC or more passes, so BAC 1 never
fails (docs/readings.md).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.games.dice import DrawSource
from bot.games.drinks.rules import BLACKOUT_BAC, CHECK_FACES, RULE_ALCOHOL
from bot.games.drinks.state import DrinksState, Outcome
from bot.games.economy import (
    Effect,
    Gate,
    Happening,
    Moment,
    Operation,
    PlayerKey,
    PossibleLaterError,
    check_gates,
)
from bot.games.ntime.readings import CheckingPeriod

# The actions rule 1913 lists, in its words.
DRINKING = "Drinking"
FERMENTING = "Fermenting"
PICKING = "Picking fruits"
WATERING = "Watering plants"
PLANTING = "Planting fruits"
USING_AN_AVATAR = "Creating, moving, or otherwise using an Avatar in the Arena"
CHECKED_ACTIONS = (DRINKING, FERMENTING, PICKING, WATERING, PLANTING, USING_AN_AVATAR)


def is_sober(state: DrinksState, player: PlayerKey) -> bool:
    """Rule 1913: "A Player with BAC 0 may be referred to as Sober"."""
    return state.bac_of(player) == 0


def is_blacked_out(state: DrinksState, player: PlayerKey) -> bool:
    return state.bac_of(player) >= BLACKOUT_BAC


def barred_status(action: str) -> str:
    """The status a failed roll leaves: the lasting effect its Gate reads."""
    return f"failed the BAC check for {action}"


def _gate(action: str) -> Gate:
    return Gate(
        status=barred_status(action),
        actions=frozenset({action}),
        rule=RULE_ALCOHOL,
        reason=(
            f"your attempt at {action} failed its 1d10 this Checking Period, so you may not "
            "perform that action for the rest of the checking period"
        ),
    )


def sober_again(state: DrinksState, player: PlayerKey, at: Moment) -> Moment:
    """When a Blacked Out player's BAC falls below 10, one less at each Checking Period's end
    (if e drinks nothing more, which e may not while Blacked Out)."""
    ends_needed = state.bac_of(player) - BLACKOUT_BAC + 1
    return Moment.period_start(CheckingPeriod(at.checking_period.index + ends_needed))


def check_allowed(state: DrinksState, player: PlayerKey, action: str, at: Moment) -> None:
    """Raises ``PossibleLaterError`` if ``player`` is Blacked Out or barred from ``action``."""
    if action not in CHECKED_ACTIONS:
        raise ValueError(f"rule 1913 does not check {action!r}")  # a defect, not a ruling
    if is_blacked_out(state, player):
        raise _blacked_out(state, player, action, at)
    check_gates(
        (_gate(action),),
        state.garden.effects,
        player,
        action,
        at,
        again=f"{player} may perform {action} again",
    )


def _blacked_out(
    state: DrinksState, player: PlayerKey, action: str, at: Moment
) -> PossibleLaterError:
    possible_from = sober_again(state, player, at)
    refusal = PossibleLaterError(
        f"you are Blacked Out (BAC {state.bac_of(player)}, 10 or more), and a Blacked Out "
        f"Player may not perform {action}",
        rule=RULE_ALCOHOL,
        again=f"{player} may perform {action} again",
        possible_from=possible_from,
    )
    if possible_from != at.next_period_start():
        # Not the next Checking Period: name the Checkpoint, as The Clock shows it.
        refusal.message = f"{refusal.reason}; {refusal.again} from {possible_from.display()}"
        refusal.args = (refusal.message,)
    return refusal


def roll_for(
    state: DrinksState, player: PlayerKey, action: str, at: Moment, draws: DrawSource
) -> tuple[DrinksState, tuple[Happening, ...], bool]:
    """The 1d10 of a nonsober ``player`` attempting ``action``: the state (with the bar if
    it failed), what happened, and whether the attempt goes ahead.  A Sober one rolls none."""
    bac = state.bac_of(player)
    if bac == 0:
        return state, (), True
    roll = draws.randint(
        1, CHECK_FACES, f"rule 1913: {player} (BAC {bac}) attempts {action}, 1d{CHECK_FACES}"
    )
    if roll >= bac:
        text = f"{player} (BAC {bac}) rolled 1d10 for {action}: {roll}, not lower than eir BAC"
        return state, (Happening(RULE_ALCOHOL, text),), True
    bar = Effect(
        player,
        barred_status(action),
        Operation.SET,
        1,
        at,
        at.next_period_start(),
        RULE_ALCOHOL,
        f"rolled {roll} with BAC {bac}",
    )
    text = (
        f"{player} (BAC {bac}) rolled 1d10 for {action}: {roll}, lower than eir BAC: the "
        f"attempt fails, and e may not perform {action} for the rest of the Checking Period"
    )
    return state.with_effect(bar), (Happening(RULE_ALCOHOL, text),), False


def attempt(
    state: DrinksState,
    player: PlayerKey,
    action: str,
    at: Moment,
    draws: DrawSource,
    perform: Callable[[DrinksState], Outcome],
) -> Outcome:
    """``perform`` (one of rule 1913's actions) as ``player``'s attempt.

    Refused (``PossibleLaterError``) when Blacked Out or barred; then
    ``perform`` runs, so an attempt the rules forbid anyway raises its own
    error and rolls nothing; then a nonsober player rolls, and a failed roll
    undoes the action and leaves only the bar (``Outcome.performed`` False).
    """
    check_allowed(state, player, action, at)
    done = perform(state)
    checked, rolled, passed = roll_for(state, player, action, at, draws)
    if not passed:
        return Outcome(checked, rolled, performed=False)
    return Outcome(done.state, (*rolled, *done.happenings), done.payments)
