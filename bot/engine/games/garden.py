"""B Nomic's Gardens, Tomatoes and Thorns (seed 004, rules 1902, 1908, 1909) by mail.

The pure rules are ``bot.games.garden`` (on ``bot.games.economy``); this
module is the adapter and the declaration.  The state is rows
(``garden_state``), the Clock time conversions ``garden_clock``, and the
timed settlements, the view and the digest section ``garden_events``.
Readings are in docs/readings.md ("Gardens, Tomatoes and Thorns").

Actions, in the seeds' words: "I buy a Thorn Seed" (1911, 130~ to the
Store), "I plant my Thorn Seed in my Garden" (1909), "I plant my Rotten
Tomato in Bob's Garden" (1908 B.1), "I water my Garden" or another's and
"I pay 3~ for watering Bob's Garden" (1902 A: any player may pay for
watering any garden), "I pick a Tomato from Bob's Garden" (1902 B), "I pick
slowly from Bob's Garden" (1909), "I burn my Vine" (1902 D), "I throw a
Tomato at Bob" (1908 B.2), "I claim a Free Throw against Bob" (1908 B.3),
"I permit Bob to pick from my Garden this nweek" and "I withdraw my
permission for Bob to pick from my Garden" (rule 636).  Gardens are named
by their owners' names; a rename (rule 151) rewrites the rows, a forfeit
(rule 14) takes the Garden away.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from bot.engine import holdings, ledger
from bot.engine.forfeits import Forfeited
from bot.engine.game import Game, StateView, TimedEvent
from bot.engine.games.base import GameAdapter
from bot.engine.games.garden_clock import moment_of, refusal_of
from bot.engine.games.garden_events import (
    GARDENING,
    NAME,
    GardenSettings,
    checkpoint_due,
    garden_sections,
    garden_view,
    rename_in_gardens,
    renamed_state,
    run_checkpoints,
    synced,
    turn_draws,
)
from bot.engine.games.garden_state import StoredGardens
from bot.engine.players import find_player_by_name
from bot.engine.rulings import Board, Ruling, Turn, applied, rejected
from bot.games import dice
from bot.games import garden as rules
from bot.games.economy import Moment, Payment
from bot.games.errors import ActionError, IllegalActionError
from bot.games.garden.buying import buy
from bot.games.garden.plants import GardenKey
from bot.games.garden.rules import (
    RULE_BURNING,
    RULE_FOOD_FIGHTS,
    RULE_FREE_THROWS,
    RULE_FRUITS,
    RULE_GARDENS,
)
from bot.parser import ParsedAction
from bot.parser.areas import garden as garden_area

if TYPE_CHECKING:
    from bot.engine.services import Services

Judged = tuple[rules.Outcome, tuple[dice.Draw, ...], str]  # outcome, draws, their context


@dataclass(frozen=True)
class _Context:
    """What one action is judged with: the state, who acts, when, and the words."""

    state: rules.GardenState
    player: str
    at: Moment
    args: Mapping[str, Any]
    turn: Turn


class GardenAdapter:
    prefix = NAME
    private_actions: frozenset[str] = frozenset()

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services
        self.stored = StoredGardens()
        self.state: rules.GardenState | None = None
        self.changed = False
        self.last_moment: Moment | None = None
        self.started: tuple[str, ...] = ()  # the game's start, when a post starts it

    def _loaded(self, at: Moment) -> rules.GardenState:
        if self.state is None:
            self.state, started = synced(self.session, self.services, self.stored, at)
            self.started = tuple(f"{h.text} (rule {h.rule})" for h in started)
        return self.state

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        handlers: dict[str, Callable[[_Context], Judged]] = {
            "garden.buy": self._buy,
            "garden.plant": self._plant,
            "garden.water": self._water,
            "garden.pick": self._pick,
            "garden.burn": self._burn,
            "garden.throw": self._throw,
            "garden.claim": self._claim,
            "garden.permit": self._permit,
            "garden.withdraw": self._withdraw,
        }
        at = moment_of(self.services, turn.occurred_at)
        try:
            if turn.player is None:
                raise IllegalActionError("only players have Gardens", rule=RULE_GARDENS)
            handler = handlers.get(action.action)
            if handler is None:
                raise IllegalActionError(f"no Gardens action {action.action}")
            context = _Context(self._loaded(at), turn.player.name, at, action.args, turn)
            outcome, draws, draw_context = handler(context)
            self._pay(outcome.payments, turn)
        except ActionError as error:
            reason = refusal_of(self.services, error, turn.occurred_at)
            return rejected(action.action, action.args, action.text, turn, reason, error.rule)
        self.state, self.changed, self.last_moment = outcome.state, True, at
        return self._applied(action, turn, outcome, draws, draw_context)

    def _applied(
        self,
        action: ParsedAction,
        turn: Turn,
        outcome: rules.Outcome,
        draws: tuple[dice.Draw, ...],
        context: str,
    ) -> Ruling:
        # The reply cites the ruling's rule once; other happenings cite their own.
        rule = outcome.happenings[0].rule if outcome.happenings else ""
        texts = [
            h.text if h.rule == rule else f"{h.text} (rule {h.rule})" for h in outcome.happenings
        ]
        proofs = [dice.draw_proof(turn.nweek, context, draw) for draw in draws]
        records = tuple(
            {"kind": "draw", "nweek": turn.nweek, "context": context} | draw.to_dict()
            for draw in draws
        )
        summary = "; ".join(texts) + "".join(f" {proof}" for proof in proofs)
        return applied(action.action, action.args, action.text, turn, summary, rule, records)

    def _pay(self, payments: tuple[Payment, ...], turn: Turn) -> None:
        """The ledger's part: tildex spent (refused when short), points lost, tildex gained.

        Every sum spent is checked before any is recorded, so an action that costs more
        than the player holds ("I buy three Thorn Seeds" with 300~) pays nothing."""
        self._check_affordable(payments)
        message = holdings.message_pk_of(self.session, turn.message_id)
        for payment in payments:
            player_id = find_player_by_name(self.session, payment.holder).id
            cause: dict[str, Any] = {
                "at": turn.occurred_at,
                "rule": payment.rule,
                "note": payment.reason,
                "message_pk": message,
            }
            if payment.amount > 0:
                holdings.gain(self.session, player_id, payment.currency, payment.amount, **cause)
            elif payment.currency == holdings.POINTS:
                holdings.lose(self.session, player_id, payment.currency, -payment.amount, **cause)
            else:
                holdings.spend(self.session, player_id, payment.currency, -payment.amount, **cause)

    def _check_affordable(self, payments: tuple[Payment, ...]) -> None:
        """Raises ``IllegalActionError`` (citing the first payment's rule) when a holder's
        spending in ``payments`` exceeds eir balance; points are lost, never refused."""
        spent: dict[tuple[str, str], int] = {}
        for payment in payments:
            if payment.amount < 0 and payment.currency != holdings.POINTS:
                key = (payment.holder, payment.currency)
                spent[key] = spent.get(key, 0) - payment.amount
        for (holder, currency), amount in spent.items():
            player_id = find_player_by_name(self.session, holder).id
            held = ledger.balance(self.session, player_id, currency)
            if held < amount:
                rule = next(p.rule for p in payments if p.holder == holder)
                costs, holds = (holdings.format_amount(currency, n) for n in (amount, held))
                raise IllegalActionError(f"that costs {costs}, and you hold {holds}", rule=rule)

    # -- the actions -----------------------------------------------------------------------

    def _buy(self, context: _Context) -> Judged:
        """Rule 1911, once per Thorn Seed ("I buy two Thorn Seeds")."""
        price = self.services.settings.section(NAME, GardenSettings).thorn_seed_price
        count = context.args.get("count", 1)
        outcome = rules.Outcome(context.state)
        for _ in range(count if isinstance(count, int) and count > 0 else 1):
            bought = buy(outcome.state, context.player, rules.THORN_SEED.name, price, context.at)
            outcome = rules.Outcome(
                bought.state,
                (*outcome.happenings, *bought.happenings),
                (*outcome.payments, *bought.payments),
            )
        return outcome, (), ""

    def _plant(self, context: _Context) -> Judged:
        number = _held_number(context, rotten_first=True)
        garden = self._garden(context.args.get("garden"), context.player)
        return rules.plant(context.state, context.player, number, garden, context.at), (), ""

    def _water(self, context: _Context) -> Judged:
        garden = self._garden(context.args.get("garden"), context.player)
        amount = context.args.get("amount")  # "I pay 3~ for watering ...": as stated
        paid = amount if isinstance(amount, int) else None
        return rules.water(context.state, context.player, garden, context.at, paid), (), ""

    def _pick(self, context: _Context) -> Judged:
        garden = self._garden(context.args.get("garden"), context.player)
        number = _number(context.args)
        if number is None:
            number = _fruit_in(context.state, garden, str(context.args.get("kind") or ""))
        slowly = bool(context.args.get("slowly"))
        outcome = rules.pick(context.state, context.player, number, context.at, slowly=slowly)
        return outcome, (), ""

    def _burn(self, context: _Context) -> Judged:
        number = _number(context.args)
        if number is None:
            garden = self._garden(context.args.get("garden"), context.player)
            number = _plant_in(context.state, garden, str(context.args.get("kind", "")))
        return rules.burn(context.state, context.player, number, context.at), (), ""

    def _throw(self, context: _Context) -> Judged:
        return self._thrown(context, free_throw=False)

    def _claim(self, context: _Context) -> Judged:
        return self._thrown(context, free_throw=True)

    def _thrown(self, context: _Context, *, free_throw: bool) -> Judged:
        """Rule 1908 B.2's throw, or B.3's Free Throw: the die is drawn for this action."""
        target = find_player_by_name(self.session, str(context.args.get("target", ""))).name
        if free_throw and not _entitled(context.state, context.player, target, context.at):
            # The claim is judged before the Tomato: without the right there is no claim.
            raise IllegalActionError(
                f"you are not entitled to a Free Throw against {target}", rule=RULE_FREE_THROWS
            )
        rule = RULE_FREE_THROWS if free_throw else RULE_FOOD_FIGHTS
        number = _held_number(context, rotten_first=False, kind=rules.TOMATO.name, rule=rule)
        source = turn_draws(self.session, self.services, context.turn)
        outcome = rules.throw(
            context.state, context.player, number, target, context.at, source, free_throw=free_throw
        )
        return outcome, source.draws, source.context_id

    def _permit(self, context: _Context) -> Judged:
        grantee = find_player_by_name(self.session, str(context.args.get("grantee", ""))).name
        until = _until(context.at, str(context.args.get("lasting") or ""))
        outcome = rules.permit_picking(context.state, context.player, grantee, context.at, until)
        return outcome, (), ""

    def _withdraw(self, context: _Context) -> Judged:
        grantee = find_player_by_name(self.session, str(context.args.get("grantee", ""))).name
        outcome = rules.withdraw_picking(context.state, context.player, grantee, context.at)
        return outcome, (), ""

    def _garden(self, written: object, player: str) -> GardenKey:
        """The Garden the args name: the player's own, another's, or the Town Square."""
        garden = written if isinstance(written, Mapping) else {"own": True}
        if garden.get("own"):
            return player
        owner = str(garden.get("owner", ""))
        if owner == garden_area.TOWN_SQUARE:
            return rules.TOWN_SQUARE
        return find_player_by_name(self.session, owner).name

    # -- rules 151 and 14 ------------------------------------------------------------------

    def rename_player(self, old: str, new: str) -> None:
        """Rule 151, in the post that renamed: the loaded state names ``new``, and the rows
        to change are those the rename left (``rename_in_gardens`` rewrote them)."""
        if self.state is None:
            return
        self.state = renamed_state(self.state, old, new) or self.state
        self.stored.load(self.session)

    def forfeit_player(self, name: str, at: datetime) -> Forfeited:
        """Rule 14: a player who forfeits has no Garden; its Plants and eir Fruit go with it."""
        moment = moment_of(self.services, at)
        state = self._loaded(moment)
        if name not in state.players:
            return Forfeited()
        self.state, self.changed = state.without_player(name), True
        return Forfeited(notes=(f"{name}'s Garden, its Plants and eir Fruit are gone (rule 14)",))

    # -- the reply -------------------------------------------------------------------------

    def changed_boards(self) -> tuple[Board, ...]:
        if not self.changed or self.state is None or self.last_moment is None:
            return ()
        return (Board("Gardens", rules.render_gardens(self.state, self.last_moment)),)

    def notes(self, visible_text: str) -> tuple[str, ...]:
        if not self.started:
            return ()
        return (f"The Gardens begin (rule 1902 A): {'; '.join(self.started)}",)

    def save(self) -> None:
        if self.state is not None:
            self.stored.save(self.session, self.state)


def _number(args: Mapping[str, Any]) -> int | None:
    number = args.get("number")
    return int(number) if isinstance(number, int) else None


def _entitled(state: rules.GardenState, player: str, target: str, at: Moment) -> bool:
    """Whether ``player`` holds a Free Throw against ``target`` not yet lost (1908 B.3)."""
    return any(
        (right.owner, right.picker) == (player, target) and at < right.expires
        for right in state.free_throws
    )


def _held_number(context: _Context, *, rotten_first: bool, kind: str = "", rule: str = "") -> int:
    """The Fruit the player means: the number written, or the oldest e holds of the kind
    (a Rotten Tomato first when planting, rule 1908 B.1); the refusal cites ``rule`` or
    the Fruit's own."""
    number = _number(context.args)
    if number is not None:
        return number
    kind = kind or str(context.args.get("kind") or "")
    held = [fruit for fruit in context.state.fruit_held_by(context.player) if fruit.kind == kind]
    if not held:
        fruit_type = rules.FRUIT_TYPES.get(kind)
        rule = rule or (fruit_type.rule if fruit_type is not None else RULE_FRUITS)
        raise IllegalActionError(f"you hold no {kind or 'Fruit'}", rule=rule)
    if rotten_first and context.args.get("rotten"):
        held.sort(key=lambda fruit: not fruit.rotten)
    return held[0].number


def _fruit_in(state: rules.GardenState, garden: GardenKey, kind: str) -> int:
    """The oldest Fruit of ``kind`` (any kind when not written) on a Plant of ``garden``."""
    if kind:
        return rules.fruit_to_pick(state, garden, kind)
    state.check_garden(garden)
    plants = {plant.number for plant in state.plants_in(garden)}
    for fruit in state.fruits:
        if fruit.plant in plants:
            return fruit.number
    raise IllegalActionError(f"there is no Fruit in {_garden_words(garden)}", rule=RULE_FRUITS)


def _plant_in(state: rules.GardenState, garden: GardenKey, kind: str) -> int:
    """The oldest Plant of ``kind`` ("Plant": any) in ``garden``, for "I burn my Vine"."""
    state.check_garden(garden)
    for plant in state.plants_in(garden):
        if kind in ("", "Plant", plant.kind):
            return plant.number
    raise IllegalActionError(
        f"there is no {kind or 'Plant'} in {_garden_words(garden)}", rule=RULE_BURNING
    )


def _garden_words(garden: GardenKey) -> str:
    return "the Town Square" if garden is None else f"{garden}'s Garden"


def _until(at: Moment, lasting: str) -> Moment | None:
    """When a permission "this nweek" (or nday, or Checking Period) ends; None: for good."""
    if lasting == "nweek":
        return at.next_nweek_start()
    if lasting == "checking period":
        return at.next_period_start()
    if lasting == "nday":
        return Moment(at.ndays + 1)
    return None


def garden_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    return (GardenAdapter(session, services),)


GARDENS = Game(
    name=NAME,
    title="Gardens, Tomatoes and Thorns (seed 004)",
    adapters=garden_adapters,
    areas=(garden_area.AREA,),
    # The Store's buying and Bunnies, the Drinks, Potions and Concoctions, and gifts of
    # their objects are refereed here; Arena Tools stay the Arena's (rule 1912), and
    # More Plants (1918) stays unrefereed.
    refereed_subgames=(
        "gardens",
        "tomatoes",
        "thorns",
        "thorn_seeds",
        "store",
        "alcohol",
        "potions",
        "waterspouts",
        "garden_objects",
    ),
    settings_type=GardenSettings,
    renames=(rename_in_gardens,),
    views=(StateView(NAME, "every Garden, its Plants and Fruit (rule 625 D.4)", garden_view),),
    timed_events=(TimedEvent(run_checkpoints, GARDENING, next_due=checkpoint_due),),
    digest_sections=(garden_sections,),
    templates=NAME,
)

__all__ = ["GARDENS", "GardenAdapter", "garden_adapters"]
