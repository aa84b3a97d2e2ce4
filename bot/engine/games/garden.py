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
"I permit Bob to pick from my Garden this nweek" (or, opening a line, "Bob
may pick from my Garden this nweek") and "I withdraw my permission for Bob to
pick from my Garden" (rule 636).  Gardens are named
by their owners' names; a rename (rule 151) rewrites the rows, a forfeit
(rule 14) takes the Garden away.

With them, the Drinks and the Store (one ``Economy`` over the Gardens,
``bot.games.garden_economy``, stored by ``garden_economy``): "I ferment my
Tomato", "I drink my Tomato Drink" (rule 1913: Blacked Out refused, a
nonsober attempt's 1d10 drawn with its proof line), "I mix (or make) a Bloody Harry",
"I drink my Bloody Harry" (1914), "I mix a Waterspout Concoction", "I pour my
Waterspout Concoction on Bob's Thorn Bush" (1915), "I buy 2 Smoke Bombs from
the Store" (1911: every Inventory type, the price to the Store), "I use my
Fluffy Bunny on Bob's Vine", "I use my Hungry Bunny on Bob's Garden", "I use
a Ninja Bunny to steal Bob's Lemon" (1911, 1921) and "I give my Thorn Seed
to Bob" (rule 13: the one gift of grammar/give.lark, handed here because the
Gardens' area names the noun; a Garden or a Plant is refused by its declared
type, 1902 A).  Picking, watering and planting are rule 1913's attempts.

More Plants (rule 1918), when ``[garden] more_plants = true`` (otherwise its
sentences are refused, saying the rule is not in play in this game): "I plant
a Blood Spore in the Town Square" (1918 A, as any Fruit), "I import a Lemon
Tree into my Garden" (1918 B, 60~), "I mix a Thorn Seed, a Lemon Drink and a
Blood Spore Drink together" (1918 D), "I plant a Huge Seed in my Garden" (1918
C); Lemons and Blood Spores are picked and fermented as any Fruit, and the
Sasquash Pod's Hatching is a timer ``garden_events`` runs when it is due.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.orm import Session

from bot.engine import holdings, ledger, objects
from bot.engine.forfeits import Forfeited
from bot.engine.game import Game, StateView, TimedEvent
from bot.engine.games.base import GameAdapter
from bot.engine.games.garden_clock import moment_of, refusal_of
from bot.engine.games.garden_economy import StoredEconomy
from bot.engine.games.garden_events import (
    GARDENING,
    NAME,
    GardenSettings,
    checkpoint_due,
    economy_display,
    garden_sections,
    garden_view,
    rename_in_gardens,
    renamed_state,
    run_checkpoints,
    store_of,
    store_view,
    synced,
    turn_draws,
)
from bot.engine.players import find_player_by_name
from bot.engine.rulings import Board, Ruling, Turn, applied, rejected
from bot.games import dice, drinks, store
from bot.games import garden as rules
from bot.games.economy import Happening, Moment, Payment
from bot.games.errors import ActionError, IllegalActionError
from bot.games.garden.buying import buy
from bot.games.garden.plants import (
    BLOOD_FERN,
    BLOOD_SPORE,
    GARDEN_OBJECT,
    LEMON,
    LEMON_TREE,
    PLANT_OBJECT,
    GardenKey,
)
from bot.games.garden.rules import (
    RULE_BURNING,
    RULE_FOOD_FIGHTS,
    RULE_FREE_THROWS,
    RULE_FRUITS,
    RULE_GARDENS,
    RULE_MORE_PLANTS,
)
from bot.games.garden_economy import Economy, EconomyOutcome, give_object, mix_huge_seed
from bot.games.store.inventory import BLOOD_SPORE_DRINK, HUGE_SEED, LEMON_DRINK
from bot.games.store.rules import STORE_HOLDER
from bot.parser import ParsedAction
from bot.parser.areas import garden as garden_area

if TYPE_CHECKING:
    from bot.engine.services import Services

T = TypeVar("T")
RULE_ARENA = "1912"
# What rule 1918 alone creates: named in a game that does not keep it, a post is told so.
MORE_PLANTS_KINDS = frozenset(
    kind.name for kind in (BLOOD_FERN, BLOOD_SPORE, LEMON_TREE, LEMON, HUGE_SEED, LEMON_DRINK)
) | {BLOOD_SPORE_DRINK.name}
Judged = tuple[EconomyOutcome, tuple[dice.Draw, ...], str]  # outcome, draws, their context
# Rule 13's gifts name these too ("I give my Garden to Bob", "I give my Vine to Bob"):
# declared so that the one gift of grammar/give.lark finds their rule and refuses it
# (1902 A: "Gardens may not be given away"; "Plants must always be in gardens").
GARDEN_TYPE = objects.declare(GARDEN_OBJECT)
PLANT_TYPE = objects.declare(
    replace(
        PLANT_OBJECT,
        nouns=(
            r"vines?|thorn\s+bush(?:es)?|lemon\s+trees?|blood\s+ferns?|waterspouts?",
            r"sasquash\s+pods?",
        ),
    )
)


@dataclass(frozen=True)
class _Context:
    """What one action is judged with: the state, who acts, when, and the words."""

    state: Economy
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
        self.stored = StoredEconomy()
        self.state: Economy | None = None
        self.changed = False
        self.last_moment: Moment | None = None
        self.started: tuple[str, ...] = ()  # the game's start, when a post starts it

    def _loaded(self, at: Moment) -> Economy:
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
            "garden.ferment": self._ferment,
            "garden.drink": self._drink,
            "garden.mix": self._mix,
            "garden.pour": self._pour,
            "garden.use": self._use,
            "garden.give": self._give,
            "garden.import": self._import,
            "garden.plant_huge_seed": self._plant_huge_seed,
            "garden.use_on_jet": self._use_on_jet,
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
            cuts = self._pay(outcome.payments, turn)
        except ActionError as error:
            reason = refusal_of(self.services, error, turn.occurred_at)
            return rejected(action.action, action.args, action.text, turn, reason, error.rule)
        outcome = replace(outcome, happenings=(*outcome.happenings, *cuts))
        self.state, self.changed, self.last_moment = outcome.state, True, at
        return self._applied(action, turn, outcome, draws, draw_context)

    def _applied(
        self,
        action: ParsedAction,
        turn: Turn,
        outcome: EconomyOutcome,
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

    def _pay(self, payments: tuple[Payment, ...], turn: Turn) -> tuple[Happening, ...]:
        """The ledger's part: tildex spent (refused when short), points lost, tildex gained.

        Every sum spent is checked before any is recorded, so an action that costs more
        than the player holds ("I buy three Thorn Seeds" with 300~) pays nothing.  What
        the Basin's cap kept from a player is returned, for the ruling to say."""
        self._check_affordable(payments)
        message = holdings.message_pk_of(self.session, turn.message_id)
        cuts: list[Happening] = []
        for payment in payments:
            cause: dict[str, Any] = {
                "at": turn.occurred_at,
                "rule": payment.rule,
                "note": payment.reason,
                "message_pk": message,
            }
            if payment.holder == STORE_HOLDER:
                # Rule 1911: the price is given "to the Store", a holder of tildex
                # on the Twiddler's display like any other (21 A.2).
                holdings.gain_for_entity(
                    self.session, STORE_HOLDER, payment.currency, payment.amount, **cause
                )
                continue
            player_id = find_player_by_name(self.session, payment.holder).id
            if payment.amount > 0 and payment.currency == holdings.TILDEX:
                cuts.extend(self._created(payment, player_id, turn.nweek, cause))
            elif payment.amount > 0:
                holdings.gain(self.session, player_id, payment.currency, payment.amount, **cause)
            elif payment.currency == holdings.POINTS:
                holdings.lose(self.session, player_id, payment.currency, -payment.amount, **cause)
            else:
                holdings.spend(self.session, player_id, payment.currency, -payment.amount, **cause)
        return tuple(cuts)

    def _created(
        self, payment: Payment, player_id: int, nweek: int, cause: dict[str, Any]
    ) -> tuple[Happening, ...]:
        """Tildex a player receives from no holder (Burning's 2~, rule 1902 D) are the
        Basin's, within its 10000~ of the nweek (rule 21 A.2)."""
        made = holdings.create_tildex(self.session, player_id, payment.amount, nweek=nweek, **cause)
        if not made.withheld:
            return ()
        text = (
            f"{payment.holder} receives {holdings.format_amount(holdings.TILDEX, made.created)}:"
            f" {made.shortfall()}"
        )
        return (Happening("21 A.2", text),)

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
        """Rule 1911: "I buy two Thorn Seeds", "I buy 2 Smoke Bombs from the Store"."""
        count = context.args.get("count", 1)
        quantity = count if isinstance(count, int) and count > 0 else 1
        kind = str(context.args.get("kind") or rules.THORN_SEED.name)
        if kind == rules.THORN_SEED.name:
            return self._buy_thorn_seeds(context, quantity)
        economy = context.state
        done = store.buy(
            economy.store, economy.garden, context.player, kind, context.at, quantity=quantity
        )
        return (
            EconomyOutcome(economy.with_store_outcome(done), done.happenings, done.payments),
            (),
            "",
        )

    def _buy_thorn_seeds(self, context: _Context, quantity: int) -> Judged:
        """Rule 1911, once per Thorn Seed ("I buy two Thorn Seeds"): a Fruit in the Gardens,
        its price given to the Store."""
        price = self.services.settings.section(NAME, GardenSettings).thorn_seed_price
        garden = context.state.garden
        happenings: list[Happening] = []
        payments: list[Payment] = []
        for _ in range(quantity):
            bought = buy(garden, context.player, rules.THORN_SEED.name, price, context.at)
            garden = bought.state
            happenings.extend(bought.happenings)
            payments.extend(bought.payments)
            payments.append(Payment(STORE_HOLDER, price, holdings.TILDEX, "1911", "a Thorn Seed"))
        state = context.state.with_garden(garden)
        return EconomyOutcome(state, tuple(happenings), tuple(payments)), (), ""

    def _plant(self, context: _Context) -> Judged:
        _check_kept(context, str(context.args.get("kind") or ""))
        _check_allowed(context, drinks.PLANTING)
        number = _held_number(context, rotten_first=True)
        garden = self._garden(context.args.get("garden"), context.player)
        source = self._attempt_draws(context)
        outcome = drinks.plant(
            context.state.drinks, context.player, number, garden, context.at, source
        )
        return _drunk(context, outcome), source.draws, source.context_id

    def _water(self, context: _Context) -> Judged:
        garden = self._garden(context.args.get("garden"), context.player)
        amount = context.args.get("amount")  # "I pay 3~ for watering ...": as stated
        paid = amount if isinstance(amount, int) else None
        source = self._attempt_draws(context)
        outcome = drinks.water(
            context.state.drinks, context.player, garden, context.at, source, paid
        )
        return _drunk(context, outcome), source.draws, source.context_id

    def _pick(self, context: _Context) -> Judged:
        _check_kept(context, str(context.args.get("kind") or ""))
        _check_allowed(context, drinks.PICKING)
        garden = self._garden(context.args.get("garden"), context.player)
        number = _number(context.args)
        if number is None:
            kind = str(context.args.get("kind") or "")
            number = _fruit_in(context.state.garden, garden, kind)
        slowly = bool(context.args.get("slowly"))
        source = self._attempt_draws(context)
        outcome = drinks.pick(
            context.state.drinks, context.player, number, context.at, source, slowly=slowly
        )
        return _drunk(context, outcome), source.draws, source.context_id

    def _burn(self, context: _Context) -> Judged:
        number = _number(context.args)
        if number is None:
            garden = self._garden(context.args.get("garden"), context.player)
            number = _plant_in(context.state.garden, garden, str(context.args.get("kind", "")))
        outcome = rules.burn(context.state.garden, context.player, number, context.at)
        return _gardened(context, outcome), (), ""

    def _throw(self, context: _Context) -> Judged:
        return self._thrown(context, free_throw=False)

    def _claim(self, context: _Context) -> Judged:
        return self._thrown(context, free_throw=True)

    def _thrown(self, context: _Context, *, free_throw: bool) -> Judged:
        """Rule 1908 B.2's throw, or B.3's Free Throw: the die is drawn for this action."""
        target = find_player_by_name(self.session, str(context.args.get("target", ""))).name
        garden = context.state.garden
        if free_throw and not _entitled(garden, context.player, target, context.at):
            # The claim is judged before the Tomato: without the right there is no claim.
            raise IllegalActionError(
                f"you are not entitled to a Free Throw against {target}", rule=RULE_FREE_THROWS
            )
        rule = RULE_FREE_THROWS if free_throw else RULE_FOOD_FIGHTS
        number = _held_number(context, rotten_first=False, kind=rules.TOMATO.name, rule=rule)
        source = turn_draws(self.session, self.services, context.turn)
        outcome = rules.throw(
            garden, context.player, number, target, context.at, source, free_throw=free_throw
        )
        return _gardened(context, outcome), source.draws, source.context_id

    def _permit(self, context: _Context) -> Judged:
        grantee = find_player_by_name(self.session, str(context.args.get("grantee", ""))).name
        until = _until(context.at, str(context.args.get("lasting") or ""))
        garden = context.state.garden
        outcome = rules.permit_picking(garden, context.player, grantee, context.at, until)
        return _gardened(context, outcome), (), ""

    def _withdraw(self, context: _Context) -> Judged:
        grantee = find_player_by_name(self.session, str(context.args.get("grantee", ""))).name
        outcome = rules.withdraw_picking(context.state.garden, context.player, grantee, context.at)
        return _gardened(context, outcome), (), ""

    # -- the Drinks (rules 1913, 1914, 1915) ----------------------------------------------

    def _ferment(self, context: _Context) -> Judged:
        """Rule 1913: the Fruit named, else the oldest of the kind e holds, else the oldest
        of the kind on a Plant in eir own Garden."""
        _check_kept(context, str(context.args.get("kind") or ""))
        _check_allowed(context, drinks.FERMENTING)
        number = _number(context.args)
        if number is None:
            number = _fruit_to_ferment(context)
        source = self._attempt_draws(context)
        outcome = drinks.ferment(context.state.drinks, context.player, number, context.at, source)
        return _drunk(context, outcome), source.draws, source.context_id

    def _drink(self, context: _Context) -> Judged:
        """Rule 1913's Drinking (a Drink, with its 1d10 when not Sober) or 1914 B (a Potion)."""
        kind = drinks.drink_kind(str(context.args.get("kind") or ""))
        _check_kept(context, kind)
        if kind not in drinks.RECIPES:  # a Potion is drunk under 1914 B, not 1913
            _check_allowed(context, drinks.DRINKING)
        number = _number(context.args)
        if number is None:
            number = _item_held(context, str(context.args.get("kind") or ""))
        source = self._attempt_draws(context)
        outcome = drinks.drink(context.state.drinks, context.player, number, context.at, source)
        return _drunk(context, outcome), source.draws, source.context_id

    def _mix(self, context: _Context) -> Judged:
        """Rule 1914 A's Recipe followed ("I mix a Bloody Harry"), or 1915's Concoction.

        The Arena is not refereed (rule 1912), so a player who mixes a Concoction is taken
        at eir word that eir Avatar is adjacent to a Cube Filled with Water (docs/readings.md).
        """
        kind = " ".join(word.capitalize() for word in str(context.args.get("kind", "")).split())
        if kind == HUGE_SEED.name:
            _check_kept(context, kind)
            return mix_huge_seed(context.state, context.player, context.at), (), ""
        state, player = context.state.drinks, context.player
        if kind == drinks.CONCOCTION:
            drink_number, tomato_number = drinks.concoction_ingredients(state, player)
            outcome = drinks.mix(
                state, player, drink_number, tomato_number, context.at, avatar_beside_water=True
            )
        else:
            ingredients = drinks.ingredients_for(state, player, kind)
            outcome = drinks.follow_recipe(state, player, kind, ingredients, context.at)
        return _drunk(context, outcome), (), ""

    def _pour(self, context: _Context) -> Judged:
        """Rule 1915: the Concoction poured on a Plant, in any Garden."""
        number = _number(context.args)
        if number is None:
            number = _item_held(context, drinks.CONCOCTION)
        plant = self._plant_named(context, context.args.get("plant"))
        outcome = drinks.pour(context.state.drinks, context.player, number, plant, context.at)
        return _drunk(context, outcome), (), ""

    # -- More Plants (rule 1918) ----------------------------------------------------------

    def _import(self, context: _Context) -> Judged:
        """Rule 1918 B: "I import a Lemon Tree into my Garden", 60~ paid "further south"."""
        _check_kept(context, LEMON_TREE.name)
        garden = self._garden(context.args.get("garden"), context.player)
        outcome = rules.import_lemon_tree(context.state.garden, context.player, garden, context.at)
        return _gardened(context, outcome), (), ""

    def _plant_huge_seed(self, context: _Context) -> Judged:
        """Rule 1918 C: eir oldest Huge Seed planted in any Garden, a Young Sasquash Pod."""
        _check_kept(context, HUGE_SEED.name)
        garden = self._garden(context.args.get("garden"), context.player)
        economy = context.state
        done = store.plant_huge_seed(
            economy.store, economy.garden, context.player, garden, context.at
        )
        return EconomyOutcome(economy.with_store_outcome(done), done.happenings), (), ""

    def _use_on_jet(self, context: _Context) -> Judged:
        """Rule 1918 B's Lemon Drinks on a Jet of Water: the Arena's, which is not kept."""
        _check_kept(context, LEMON_DRINK.name)
        raise IllegalActionError(
            "a Jet of Water is the Arena's (rule 1912, rule 1918 B), which is not refereed",
            rule=RULE_ARENA,
        )

    # -- the Store's objects (rules 1911, 1921, 13) ----------------------------------------

    def _use(self, context: _Context) -> Judged:
        """Rule 1921's "I use my ...": the Bunnies of rule 1911 on a Plant, a Garden, a Fruit."""
        on, written = str(context.args.get("on", "")), context.args.get("target")
        target: store.UseTarget = None
        if on == "plant":
            target = store.OnPlant(self._plant_named(context, written))
        elif on == "garden":
            target = store.OnGarden(self._garden(written, context.player))
        elif on == "fruit":
            target = store.OnFruit(self._fruit_named(context, written))
        source = turn_draws(self.session, self.services, context.turn)
        economy = context.state
        kind = str(context.args.get("kind", ""))
        done = store.use(
            economy.store, economy.garden, context.player, kind, target, context.at, source
        )
        outcome = EconomyOutcome(economy.with_store_outcome(done), done.happenings)
        return outcome, source.draws, source.context_id

    def _give(self, context: _Context) -> Judged:
        recipient = find_player_by_name(self.session, str(context.args.get("recipient", ""))).name
        kind = str(context.args.get("kind", ""))
        kind = " ".join(word.capitalize() for word in kind.split())
        outcome = give_object(context.state, context.player, kind, _number(context.args), recipient)
        return outcome, (), ""

    def _attempt_draws(self, context: _Context) -> dice.DrawSource:
        """The post's draws for a rule 1913 attempt: a Sober player rolls nothing, so only a
        nonsober one's attempt opens the nweek's draws (and its 1d10 is recorded)."""
        if drinks.is_sober(context.state.drinks, context.player):
            return _NoDraws()
        return turn_draws(self.session, self.services, context.turn)

    def _plant_named(self, context: _Context, written: object) -> int:
        """The Plant "Bob's Thorn Bush", "my Vine" or "Plant 7" names: its number."""
        target = written if isinstance(written, Mapping) else {}
        number = target.get("number")
        if isinstance(number, int):
            return number
        garden = self._garden(target, context.player)
        return _plant_in(context.state.garden, garden, str(target.get("kind", "")))

    def _fruit_named(self, context: _Context, written: object) -> int:
        """The Fruit "Bob's Lemon" names: one Bob holds, else one on a Plant of his Garden."""
        target = written if isinstance(written, Mapping) else {}
        number = target.get("number")
        if isinstance(number, int):
            return number
        owner = find_player_by_name(self.session, str(target.get("owner", ""))).name
        kind = str(target.get("kind", ""))
        garden = context.state.garden
        for fruit in garden.fruit_held_by(owner):
            if fruit.kind == kind:
                return fruit.number
        return _fruit_in(garden, owner, kind)

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
        self.stored.load(self.session, store_of(self.services))

    def forfeit_player(self, name: str, at: datetime) -> Forfeited:
        """Rule 14: a player who forfeits has no Garden; its Plants and eir Fruit go with it."""
        moment = moment_of(self.services, at)
        state = self._loaded(moment)
        if name not in state.garden.players:
            return Forfeited()
        self.state, self.changed = state.without_player(name), True
        return Forfeited(notes=(f"{name}'s Garden, its Plants and eir Fruit are gone (rule 14)",))

    # -- the reply -------------------------------------------------------------------------

    def changed_boards(self) -> tuple[Board, ...]:
        if not self.changed or self.state is None or self.last_moment is None:
            return ()
        return (Board("Gardens", economy_display(self.state, self.last_moment)),)

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


class _NoDraws(dice.DrawSource):
    """The draws of an attempt that rolls nothing (a Sober player's, rule 1913)."""

    def __init__(self) -> None:
        pass

    @property
    def draws(self) -> tuple[dice.Draw, ...]:
        return ()

    @property
    def context_id(self) -> str:
        return ""

    def randint(self, low: int, high: int, purpose: str) -> int:
        raise AssertionError(f"a Sober player's attempt drew for {purpose}")  # a defect

    def choice(self, options: Sequence[T], purpose: str) -> T:
        raise AssertionError(f"a Sober player's attempt drew for {purpose}")  # a defect


def _check_kept(context: _Context, kind: str) -> None:
    """Raises ``IllegalActionError`` citing rule 1918 when ``kind`` (a Plant, Fruit, Drink
    or object of rule 1918) is named in a game that does not keep it (``more_plants``)."""
    if context.state.garden.more_plants or kind not in MORE_PLANTS_KINDS:
        return
    raise IllegalActionError(
        f"rule 1918 (More Plants) is not in play in this game, so there is no {kind} here",
        rule=RULE_MORE_PLANTS,
    )


def _check_allowed(context: _Context, action: str) -> None:
    """Rule 1913's gate before the objects are looked for: a Blacked Out player, or one
    barred by a failed roll, is refused whatever e names (``PossibleLaterError``)."""
    drinks.check_allowed(context.state.drinks, context.player, action, context.at)


def _gardened(context: _Context, outcome: rules.Outcome) -> EconomyOutcome:
    """A Gardens' outcome as the Economy's."""
    return EconomyOutcome(
        context.state.with_garden(outcome.state), outcome.happenings, outcome.payments
    )


def _drunk(context: _Context, outcome: drinks.Outcome) -> EconomyOutcome:
    """A Drinks' outcome (the Gardens inside it) as the Economy's."""
    state = replace(context.state, drinks=outcome.state)
    return EconomyOutcome(state, outcome.happenings, outcome.payments)


def _fruit_to_ferment(context: _Context) -> int:
    """The oldest Fruit of the kind the player holds, else on a Plant in eir own Garden."""
    kind = str(context.args.get("kind") or "")
    garden = context.state.garden
    rotten = bool(context.args.get("rotten"))
    for fruit in garden.fruit_held_by(context.player):
        if fruit.kind == kind and (fruit.rotten or not rotten):
            return fruit.number
    try:
        return _fruit_in(garden, context.player, kind)
    except IllegalActionError:
        raise IllegalActionError(
            f"you have no {kind or 'Fruit'}, and there is none in your Garden", rule="1913"
        ) from None


def _item_held(context: _Context, kind: str) -> int:
    """The oldest Drink, Potion or Concoction of ``kind`` the player holds."""
    wanted = drinks.drink_kind(" ".join(word.capitalize() for word in kind.split()))
    for item in context.state.drinks.held_by(context.player):
        if drinks.drink_kind(item.kind) == wanted:
            return item.number
    raise IllegalActionError(f"you hold no {wanted}", rule="1913")


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
    garden = context.state.garden
    held = [fruit for fruit in garden.fruit_held_by(context.player) if fruit.kind == kind]
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
    # their objects are refereed here, and More Plants (1918) when the game keeps it (a
    # ruling says it is not kept otherwise); Arena Tools stay the Arena's (rule 1912).
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
        "more_plants",
    ),
    settings_type=GardenSettings,
    renames=(rename_in_gardens,),
    views=(
        StateView(NAME, "every Garden, its Plants and Fruit (rule 625 D.4)", garden_view),
        StateView("store", "the Store's Inventory, prices and tildex (rule 1911)", store_view),
    ),
    timed_events=(TimedEvent(run_checkpoints, GARDENING, next_due=checkpoint_due),),
    digest_sections=(garden_sections,),
    templates=NAME,
)

__all__ = ["GARDENS", "GardenAdapter", "garden_adapters"]
