"""What players do in the Gardens: water, plant, pick, burn, throw, permit.

Each function takes the state and returns an ``Outcome``: the new state,
what happened (in words, under its rule) and the payments the engine's
ledger makes.  A refusal raises ``IllegalActionError`` citing its rule, or
``PossibleLaterError`` saying when the action becomes possible.  After each
action the invariants of ``timed`` are restored (rule 1909: "If at any time
no Thorn Bushes exist, one is created in the Town Square").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.games.dice import DrawSource
from bot.games.economy import (
    Conversion,
    Effect,
    Gate,
    Happening,
    Moment,
    Operation,
    Payment,
    Period,
    Permission,
    PlayerKey,
    PossibleLaterError,
    Quota,
    check_gates,
    convert,
    restore_invariants,
)
from bot.games.economy.permissions import RULE_PERMISSION
from bot.games.errors import IllegalActionError
from bot.games.garden.invariants import INVARIANTS
from bot.games.garden.plants import THORN_BUSH, TOMATO, Fruit, GardenKey
from bot.games.garden.rules import (
    BURNING_REWARD,
    FREE_THROW_NDAYS,
    FRUIT_TIMER_NDAYS,
    MAXIMUM_FOREIGN_GARDENS,
    MAXIMUM_FRUIT_HELD,
    RULE_BURNING,
    RULE_FOOD_FIGHTS,
    RULE_FREE_THROWS,
    RULE_FRUITS,
    RULE_GARDENS,
    RULE_THORNS,
    RULE_TOMATOES,
    RULE_TOWN_SQUARE,
    RULE_WATERSPOUTS,
    THORN_SCRATCH_POINTS,
)
from bot.games.garden.state import ForeignPicks, FreeThrow, GardenState
from bot.games.garden.texts import garden_name

PICK = "pick"  # the scope of a rule 636 permission to pick from a Garden
PICKED_SLOWLY = "Picked Slowly"  # the status rule 1909 leaves for the rest of the period
STAINED = "Stained With Tomato Juice"
PERMANENT_HONOR = "Permanent Honor"
CARDS_STAINED = "cards stained"  # a Happening's kind: the Cards are kept elsewhere

FOREIGN_GARDENS = Quota(
    action="pick in a new garden one doesn't own",
    limit=MAXIMUM_FOREIGN_GARDENS,
    period=Period.CHECKING_PERIOD,
    rule=RULE_FRUITS,
    doing="pick Fruits",
    limit_words="from at most three gardens you don't own in any given Checking Period",
    reason="because it takes too long to run from garden to garden",
    again_doing="pick Fruits in another garden",
)
SLOW_PICKING = Gate(
    status=PICKED_SLOWLY,
    actions=frozenset({PICK}),
    rule=RULE_THORNS,
    reason=(
        "after Picking Slowly you may not pick any Fruits from any Gardens you don't own "
        "for the rest of the Checking Period, because you spent so much time carefully "
        "getting Fruits from that one"
    ),
)


@dataclass(frozen=True)
class Outcome:
    """The state after an action or event, what happened, and what the ledger pays."""

    state: GardenState
    happenings: tuple[Happening, ...] = ()
    payments: tuple[Payment, ...] = ()


def _finished(
    state: GardenState,
    at: Moment,
    happenings: tuple[Happening, ...],
    payments: tuple[Payment, ...] = (),
) -> Outcome:
    state, restored = restore_invariants(state, at, INVARIANTS)
    return Outcome(state, (*happenings, *restored), payments)


def start(players: tuple[PlayerKey, ...], at: Moment, *, more_plants: bool = False) -> Outcome:
    """The Gardens when the game starts: one empty Garden per player (rule 1902 A), the
    Town Square (1902 C), and the Thorn Bush rule 1909 creates there when none exists
    (and, with rule 1918 kept, ``more_plants``, its Blood Fern)."""
    state = GardenState(more_plants=more_plants)
    for player in players:
        state = state.with_player(player)
    return _finished(state, at, ())


# -- watering (1902 A) ------------------------------------------------------


def water(
    state: GardenState, player: PlayerKey, garden: GardenKey, at: Moment, amount: int | None = None
) -> Outcome:
    """``player`` pays ``amount`` tildex for watering ``garden`` (None: "I water ...").

    Rule 1902 A: "players may pay tildex for watering any garden.  A statement
    to the effect of choosing to water one's Garden means that the player is
    paying tildex for watering equal to the Gardening Cost of that garden."
    Without an amount the player pays what the Gardening Cost still lacks
    this Checking Period (docs/readings.md).  Raises ``IllegalActionError``
    for the Town Square, which has no Gardening Cost, a Garden already
    watered, or an amount below 1.
    """
    state.check_player(player)
    state.check_garden(garden)
    if garden is None:  # the Town Square
        raise IllegalActionError(
            "the Town Square is owned by no player, so it has no Gardening Cost to water for",
            rule=RULE_TOWN_SQUARE,
        )
    period = at.checking_period.index
    paid, cost = state.paid_for(garden, period), state.gardening_cost(garden) or 0
    if amount is None and not state.plants_in(garden):
        raise IllegalActionError(f"{garden_name(garden)} has no Plants to water", rule=RULE_GARDENS)
    if amount is None and not cost:
        raise IllegalActionError(
            f"{garden_name(garden)} has a Gardening Cost of 0~: its Waterspouts make the "
            "total negative, and it is treated as 0",
            rule=RULE_WATERSPOUTS,
        )
    if amount is None:
        amount = cost - paid
        if amount <= 0:
            raise IllegalActionError(
                f"{garden_name(garden)} is watered for this Checking Period already: "
                f"{paid}~ paid, Gardening Cost {cost}~",
                rule=RULE_GARDENS,
            )
    if amount < 1:
        raise IllegalActionError("a payment for watering is at least 1~", rule=RULE_GARDENS)
    state = state.with_watering(garden, amount, period)
    text = (
        f"{player} paid {amount}~ for watering {garden_name(garden)} "
        f"({paid + amount}~ this Checking Period, Gardening Cost {cost}~)"
    )
    payment = Payment(player, -amount, "tildex", RULE_GARDENS, f"watering {garden_name(garden)}")
    return _finished(state, at, (Happening(RULE_GARDENS, text),), (payment,))


# -- planting (1908 B.1, 1909) and burning (1902 D) --------------------------


def plant(
    state: GardenState, player: PlayerKey, fruit_number: int, garden: GardenKey, at: Moment
) -> Outcome:
    """``player`` plants the Fruit ``fruit_number`` e holds in ``garden``.

    Rule 1908 B.1: "Players may Plant Rotten Tomatoes they hold in any
    garden, destroying the Tomato and creating a Vine in that Garden."
    Rule 1909: "any player may Plant a Thorn Seed they hold in their own
    Garden to create a Thorn Bush."  Raises ``IllegalActionError``, or
    ``PossibleLaterError`` for a Tomato not yet Rotten.
    """
    state.check_player(player)
    state.check_garden(garden)
    fruit = _held(state, player, fruit_number)
    kind = fruit.type
    if not kind.grows_into:
        raise IllegalActionError(f"no rule lets a {kind.name} be planted", rule=kind.rule)
    if kind.needs_rotten and not fruit.rotten:
        raise PossibleLaterError(
            f"only Rotten Tomatoes may be planted, and {fruit.label()} is not Rotten yet",
            rule=RULE_TOMATOES,
            again=f"{fruit.label()} may be planted",
            possible_from=fruit.created.later(FRUIT_TIMER_NDAYS),
        )
    if kind.own_garden_only and garden != player:
        raise IllegalActionError(
            f"a {kind.name} may be planted only in your own Garden", rule=kind.rule
        )
    conversion = Conversion(kind.rule, (fruit.number,), ((kind.grows_into, garden),))
    state = convert(state, conversion, (), lambda s, made: s.with_plants(made, at))
    made = f"a new {kind.grows_into}, Plant {state.next_number - 1}"
    text = f"{player} planted {fruit.label()} in {garden_name(garden)}: {made}"
    return _finished(state, at, (Happening(kind.rule, text),))


def burn(state: GardenState, player: PlayerKey, plant_number: int, at: Moment) -> Outcome:
    """Rule 1902 D: "Any player may Burn a Plant in eir garden.  Doing so destroys the
    Plant and gives the player 2 tildex."  Raises ``IllegalActionError`` for another's."""
    state.check_player(player)
    target = state.plant(plant_number)
    if target.garden != player:
        raise IllegalActionError(
            f"you may Burn only a Plant in your own garden, and {target.label()} is in "
            f"{garden_name(target.garden)}",
            rule=RULE_BURNING,
        )
    reward = Payment(player, BURNING_REWARD, "tildex", RULE_BURNING, f"burning {target.label()}")
    conversion: Conversion[object] = Conversion(RULE_BURNING, (plant_number,), (), (reward,))
    fruit = state.fruit_on(plant_number)
    state = convert(state, conversion, (), lambda s, _made: s)
    text = f"{player} burned {target.label()}{_with_fruit(fruit)} and gets {BURNING_REWARD}~"
    return _finished(state, at, (Happening(RULE_BURNING, text),), conversion.payments)


def _with_fruit(fruit: tuple[Fruit, ...]) -> str:
    """ ", with Tomato 4 on it,": the Fruit destroyed with a Plant (docs/readings.md)."""
    if not fruit:
        return ""
    return f", with {', '.join(f.label() for f in fruit)} on it,"


# -- picking (1902 B, 1909, 1908 B.3) ---------------------------------------


def fruit_to_pick(state: GardenState, garden: GardenKey, kind: str) -> int:
    """The number of the oldest ``kind`` Fruit on a Plant in ``garden`` ("I pick a Tomato
    from Bob's Garden"); raises ``IllegalActionError`` when there is none."""
    state.check_garden(garden)
    on_plants = {plant.number for plant in state.plants_in(garden)}
    for fruit in state.fruits:
        if fruit.kind == kind and fruit.plant in on_plants:
            return fruit.number
    raise IllegalActionError(f"there is no {kind} in {garden_name(garden)}", rule=RULE_FRUITS)


def pick(
    state: GardenState, player: PlayerKey, fruit_number: int, at: Moment, *, slowly: bool = False
) -> Outcome:
    """``player`` picks the Fruit ``fruit_number`` off its Plant (``slowly``: rule 1909).

    Rule 1902 B: "Any player may pick any Fruit off of any Plant [...]
    However, no player may pick a Fruit if e already holds 5 fruits [...],
    and no player may pick Fruits from more than three gardens e doesn't own
    in any given Checking Period".  Raises ``IllegalActionError`` or
    ``PossibleLaterError``.
    """
    state.check_player(player)
    fruit = state.fruit(fruit_number)
    if fruit.plant is None:
        raise IllegalActionError(f"{fruit.label()} is not on a Plant", rule=RULE_FRUITS)
    if len(state.fruit_held_by(player)) >= MAXIMUM_FRUIT_HELD:
        raise IllegalActionError(
            f"you already hold {MAXIMUM_FRUIT_HELD} fruits (because your arms are full)",
            rule=RULE_FRUITS,
        )
    garden = state.garden_of(fruit)
    happenings: list[Happening] = []
    payments: tuple[Payment, ...] = ()
    if garden == player:
        if slowly:
            raise IllegalActionError(
                "you Pick Slowly only from a garden you don't own", rule=RULE_THORNS
            )
    else:
        state, happenings, payments = _pick_abroad(state, player, garden, at, slowly=slowly)
    state = state.with_fruit(replace(fruit, plant=None, holder=player))
    happenings.insert(
        0, Happening(RULE_FRUITS, f"{player} picked {fruit.label()} in {garden_name(garden)}")
    )
    return _finished(state, at, tuple(happenings), payments)


def _pick_abroad(
    state: GardenState, player: PlayerKey, garden: GardenKey, at: Moment, *, slowly: bool
) -> tuple[GardenState, list[Happening], tuple[Payment, ...]]:
    """The rules of picking in a Garden ``player`` doesn't own: checks first, then records."""
    period = at.checking_period.index
    record = state.picks_of(player, period)
    check_gates(
        (SLOW_PICKING,),
        state.effects,
        player,
        PICK,
        at,
        again=f"{player} may pick in gardens e doesn't own again",
    )
    if garden not in record.gardens:
        state.quotas.check(player, FOREIGN_GARDENS, at, name=player)
    thorns = state.count_of(THORN_BUSH.name, garden)
    if slowly:
        _check_slow_picking(record, thorns, garden, at)
    state, happenings = _recorded_pick(state, record, garden, at, slowly=slowly)
    payments: tuple[Payment, ...] = ()
    if thorns and not slowly:
        # 1909: "loses 8 points per Thorn Bush in the Garden instead" of Picking Slowly.
        points = THORN_SCRATCH_POINTS * thorns
        payments = (Payment(player, -points, "points", RULE_THORNS, "badly scratched up"),)
        happenings.append(
            Happening(
                RULE_THORNS,
                f"{player} lost {points} points, badly scratched up by "
                f"{thorns} Thorn {'Bush' if thorns == 1 else 'Bushes'}",
            )
        )
    return _with_free_throw(state, player, garden, at, happenings), happenings, payments


def _check_slow_picking(record: ForeignPicks, thorns: int, garden: GardenKey, at: Moment) -> None:
    if not thorns:
        raise IllegalActionError(
            f"you may Pick Slowly only in a garden that contains a Thorn Bush, and "
            f"{garden_name(garden)} has none",
            rule=RULE_THORNS,
        )
    if record.gardens:
        raise PossibleLaterError(
            "you may Pick Slowly only if you haven't picked any Fruits from Gardens you don't "
            "own during this Checking Period",
            rule=RULE_THORNS,
            again=f"{record.player} may Pick Slowly",
            possible_from=at.next_period_start(),
        )


def _recorded_pick(
    state: GardenState, record: ForeignPicks, garden: GardenKey, at: Moment, *, slowly: bool
) -> tuple[GardenState, list[Happening]]:
    happenings: list[Happening] = []
    if garden not in record.gardens:
        quotas = state.quotas.recorded(record.player, FOREIGN_GARDENS, at)
        state = replace(state, quotas=quotas)
        record = replace(record, gardens=(*record.gardens, garden))
    if slowly:
        record = replace(record, slowly=True)
        bar = Effect(
            record.player,
            PICKED_SLOWLY,
            Operation.SET,
            1,
            at,
            at.next_period_start(),
            RULE_THORNS,
            "Picked Slowly",
        )
        state = replace(state, effects=state.effects.added(bar))
        happenings.append(
            Happening(RULE_THORNS, f"{record.player} Picked Slowly in {garden_name(garden)}")
        )
    return state.with_picks(record), happenings


def _with_free_throw(
    state: GardenState,
    player: PlayerKey,
    garden: GardenKey,
    at: Moment,
    happenings: list[Happening],
) -> GardenState:
    """Rule 1908 B.3: picking in another player's Garden without eir permission."""
    if garden is None or state.permissions.allows(garden, player, PICK, at):
        return state
    expires = at.later(FREE_THROW_NDAYS)
    right = FreeThrow(
        garden, player, expires, f"{player} picked in {garden_name(garden)} at {at.display()}"
    )
    happenings.append(
        Happening(
            RULE_FREE_THROWS,
            f"{garden} gets one Free Throw against {player}, until {expires.display()}",
        )
    )
    return replace(state, free_throws=(*state.free_throws, right))


def permit_picking(
    state: GardenState, owner: PlayerKey, picker: PlayerKey, at: Moment, until: Moment | None = None
) -> Outcome:
    """Rule 636: ``owner``'s explicit permission for ``picker`` to pick in eir Garden."""
    state.check_player(owner)
    state.check_player(picker)
    permissions = state.permissions.granted(Permission(owner, picker, PICK, at, until))
    lasting = f" until {until.display()}" if until is not None else ""
    text = f"{owner} permits {picker} to pick from {garden_name(owner)}{lasting}"
    return _finished(replace(state, permissions=permissions), at, (Happening("636", text),))


def withdraw_picking(
    state: GardenState, owner: PlayerKey, picker: PlayerKey, at: Moment
) -> Outcome:
    """Rule 636: ``owner`` withdraws the permission e gave ``picker`` to pick in eir Garden;
    picking from ``at`` on is without it (1908 B.3's Free Throw).  Raises
    ``IllegalActionError`` when no such permission is in force."""
    state.check_player(owner)
    state.check_player(picker)
    if not state.permissions.allows(owner, picker, PICK, at):
        raise IllegalActionError(
            f"{picker} has no permission of yours to pick from {garden_name(owner)}",
            rule=RULE_PERMISSION,
        )
    permissions = state.permissions.withdrawn(owner, picker, PICK, at)
    text = f"{owner} withdraws {picker}'s permission to pick from {garden_name(owner)}"
    happening = Happening(RULE_PERMISSION, text)
    return _finished(replace(state, permissions=permissions), at, (happening,))


# -- throwing (1908 B.2, B.3) -----------------------------------------------


def throw(
    state: GardenState,
    player: PlayerKey,
    tomato_number: int,
    target: PlayerKey,
    at: Moment,
    draws: DrawSource,
    *,
    free_throw: bool = False,
) -> Outcome:
    """``player`` throws the Tomato ``tomato_number`` e holds at ``target``.

    Rule 1908 B.2: "1d4 is rolled; on a 1, the target player is Hit [...]
    Regardless of whether it hits, a Tomato is destroyed when thrown."
    B.3: claiming a Free Throw e is entitled to, "the 1d20 is rolled for the
    throw instead of 1d4, and the Tomato hits on anything but a 20".  The
    die comes from ``draws``.  Raises ``IllegalActionError`` (a claim
    without the right is refused, not thrown as an ordinary throw).
    """
    state.check_player(player)
    state.check_player(target)
    tomato = _held(state, player, tomato_number)
    if tomato.kind != TOMATO.name:
        raise IllegalActionError(
            f"only a Tomato can be thrown, not a {tomato.kind}", rule=RULE_FOOD_FIGHTS
        )
    if target == player:
        raise IllegalActionError("a Tomato is thrown at another player", rule=RULE_FOOD_FIGHTS)
    right = _free_throw_of(state, player, target, at) if free_throw else None
    faces = 20 if free_throw else 4
    roll = draws.randint(
        1, faces, f"rule 1908 B.2: {player} throws {tomato.label()} at {target}, 1d{faces}"
    )
    hit = roll != 20 if free_throw else roll == 1
    state = state.without_objects((tomato.number,))
    if right is not None:
        state = replace(state, free_throws=tuple(t for t in state.free_throws if t is not right))
    kind = "a Free Throw" if free_throw else "a throw"
    happenings = [
        Happening(
            RULE_FREE_THROWS if free_throw else RULE_FOOD_FIGHTS,
            f"{player} threw {tomato.label()} at {target} ({kind}, 1d{faces}: {roll}): "
            f"{'Hit' if hit else 'missed'}; the Tomato is destroyed",
        )
    ]
    if hit:
        state, stained = _stained(state, target, player, at)
        happenings.extend(stained)
    return _finished(state, at, tuple(happenings))


def _free_throw_of(
    state: GardenState, player: PlayerKey, target: PlayerKey, at: Moment
) -> FreeThrow:
    """The entitlement of ``player`` against ``target`` that expires first."""
    rights = sorted(
        (
            t
            for t in state.free_throws
            if (t.owner, t.picker) == (player, target) and at < t.expires
        ),
        key=lambda t: t.expires,
    )
    if not rights:
        raise IllegalActionError(
            f"you are not entitled to a Free Throw against {target}", rule=RULE_FREE_THROWS
        )
    return rights[0]


def _stained(
    state: GardenState, target: PlayerKey, thrower: PlayerKey, at: Moment
) -> tuple[GardenState, list[Happening]]:
    """Rule 1908 B.2: the target "becomes Stained with Tomato juice.  All eir cards also
    become Stained Red"; Stained is a status, so a second Hit changes nothing more."""
    cards = Happening(
        RULE_FOOD_FIGHTS,
        f"all of {target}'s cards become Stained Red with Tomato Juice",
        CARDS_STAINED,
    )
    if state.effects.holds(target, STAINED, at):
        return state, [cards]
    cause = f"hit by {thrower}'s Tomato at {at.display()}"
    effects = state.effects.added(
        Effect(target, STAINED, Operation.SET, 1, at, None, RULE_FOOD_FIGHTS, cause)
    )
    # "treated for all ruleset purposes as though they had one less Permanent Honor"
    effects = effects.added(
        Effect(target, PERMANENT_HONOR, Operation.ADD, -1, at, None, RULE_FOOD_FIGHTS, cause)
    )
    stained = Happening(RULE_FOOD_FIGHTS, f"{target} is Hit and becomes Stained With Tomato Juice")
    return replace(state, effects=effects), [stained, cards]


def permanent_honor(state: GardenState, player: PlayerKey, base: int, at: Moment) -> int:
    """``player``'s Permanent Honor for every ruleset purpose, Stains counted (1908 B.2)."""
    return state.effects.value_of(player, PERMANENT_HONOR, at, base)


def _held(state: GardenState, player: PlayerKey, number: int) -> Fruit:
    fruit = state.fruit(number)
    if fruit.holder != player:
        raise IllegalActionError(f"you do not hold {fruit.label()}", rule=fruit.type.rule)
    return fruit
