"""A Nomic's Cards and Pooker (seed 002, rules 384-399) by mail: adapter, events, declaration.

The pure rules are ``bot.games.cards``; the deals, private notices and the
Dealer's report are ``cards_deals``, the Motion and the Showdown
``cards_pooker``, the private Trades ``cards_trades``, and the stored state
``cards_state``.  The readings are in docs/readings.md ("A Nomic's Cards and
Pooker"); the hidden-v1 scheme is in ``bot.games.cards``'s docstring.

Actions: "I move to show cards" (396, on the list), "I declare a Showdown"
(396), "I show QH QS QD 2C 2H; 7D 8D" (396, 397, in a Showdown), and the
private "I trade my 7H for Bob's QS" (395, to the bot alone).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from bot.engine import timed
from bot.engine.forfeits import Forfeited
from bot.engine.game import AdminCommand, Game, StateView, TimedEvent, rule
from bot.engine.games.base import GameAdapter
from bot.engine.games.cards_deals import (
    cards_settings,
    commit_next_key,
    deal_for_nweek,
    publish_due_reveals,
    return_to_deck,
)
from bot.engine.games.cards_pooker import (
    MOTION_KIND,
    begin_showdown,
    close_showdown,
    motion_event,
    settle_motion,
    shown_numbers,
)
from bot.engine.games.cards_state import (
    NAME,
    CardsSettings,
    CardsState,
    ShownCards,
    load_state,
    save_state,
)
from bot.engine.games.cards_trades import (
    COMMAND,
    TradeDesk,
    apply_trade_record,
    describe_trade_record,
    publish_trade_records,
)
from bot.engine.governance.polls import create_poll, vote_by_mail
from bot.engine.holdings import Cause
from bot.engine.players import all_players
from bot.engine.renames import JsonState, rename_in_json, rewrite_record
from bot.engine.rulings import Board, Ruling, Turn, applied, rejected
from bot.engine.views import View
from bot.games.cards import parse_card_name
from bot.games.cards.pooker import may_declare_showdown, pcards_of, show_cards
from bot.games.cards.pooker.showdown import SHOWDOWN_THRESHOLD
from bot.games.errors import ActionError, IllegalActionError
from bot.games.governance.polls import RealTimePoint
from bot.parser import ParsedAction
from bot.parser.areas import cards as cards_area

if TYPE_CHECKING:
    from bot.engine.services import Services

SEED = "002"
NO_END = datetime.max.replace(tzinfo=UTC)  # an interval that never ends, for ``cards_due``
RULE_SHOWDOWN = "396"


class CardsAdapter:
    prefix = NAME
    # Rule 395: each party notifies the Dealer of a Trade "privately".
    private_actions: frozenset[str] = frozenset({"cards.trade"})

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services
        self.state: CardsState | None = None

    def _loaded(self) -> CardsState:
        if self.state is None:
            self.state = load_state(self.session, cards_settings(self.services).packs)
        return self.state

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        handlers = {
            "cards.motion": self._motion,
            "cards.declare": self._declare,
            "cards.show": self._show,
            "cards.trade": self._trade,
        }
        try:
            if turn.player is None:
                raise IllegalActionError("only players play Pooker", rule="394")
            handler = handlers.get(action.action)
            if handler is None:
                raise IllegalActionError(f"no Cards action {action.action}")
            summary, cited = handler(action.args, turn, turn.player.name)
        except ActionError as error:
            return rejected(
                action.action, action.args, action.text, turn, error.message, error.rule
            )
        return applied(action.action, action.args, action.text, turn, summary, rule=cited)

    # -- the Motion and the Showdown (rule 396) -----------------------------------------------

    def _motion(self, args: Mapping[str, Any], turn: Turn, player: str) -> tuple[str, str]:
        state = self._loaded()
        if state.motion_poll is not None:
            raise IllegalActionError(
                f"a Motion to Show Cards is already pending (poll {state.motion_poll}): "
                f'vote on it ("I vote yes on poll {state.motion_poll}")',
                rule=RULE_SHOWDOWN,
            )
        _no_showdown(state)
        days = cards_settings(self.services).motion_days
        ends = turn.occurred_at + timedelta(days=days)
        voters = [str(each.id) for each in all_players(self.session)]
        stored = create_poll(
            self.session,
            kind=MOTION_KIND,
            subject="Motion to Show Cards",
            issue="Motion to Show Cards (rule 396)",
            voters=voters,
            duration=RealTimePoint(ends),
            called_at=turn.occurred_at,
        )
        assert turn.player is not None
        vote_by_mail(
            self.session,
            self.services.clock,
            stored.number,
            str(turn.player.id),
            "yes",
            at=turn.occurred_at,
        )
        self.state = replace(state, motion_poll=stored.number)
        needed = len(voters) // 2 + 1
        summary = (
            f"{player} moves to show cards: the Motion is poll {stored.number}, and {player}'s "
            f'vote is Yes.  Vote on it with "I vote yes on poll {stored.number}" (or no); it '
            f"passes once {needed} of the {len(voters)} Players vote for it, by "
            f"{ends:%Y-%m-%d %H:%M} UTC, and a Showdown begins"
        )
        return summary, RULE_SHOWDOWN

    def _declare(self, args: Mapping[str, Any], turn: Turn, player: str) -> tuple[str, str]:
        state = self._loaded()
        _no_showdown(state)
        if not may_declare_showdown(state.table, player):
            raise IllegalActionError(
                f"only a player who owns {SHOWDOWN_THRESHOLD} or more PCards may declare a "
                f"Showdown, and you own {len(pcards_of(state.table, player))}",
                rule=RULE_SHOWDOWN,
            )
        self.state = begin_showdown(self.services, state, turn.occurred_at, declarer=player)
        return (
            f"{player} declares a Showdown: show your PCards on the list until "
            f"{_closes(self.state)} (e must show at least two)",
            RULE_SHOWDOWN,
        )

    def _show(self, args: Mapping[str, Any], turn: Turn, player: str) -> tuple[str, str]:
        state = self._loaded()
        showdown = state.showdown
        if showdown is None or turn.occurred_at >= showdown.closes_at:
            raise IllegalActionError(
                "there is no Showdown in progress: a Motion to Show Cards must pass first, "
                "or a holder of ten PCards declare one",
                rule=RULE_SHOWDOWN,
            )
        if any(shown.player == player for shown in showdown.shown):
            raise IllegalActionError(
                f"{player} has shown eir cards in this Showdown already", rule=RULE_SHOWDOWN
            )
        hands = [[parse_card_name(str(name)) for name in hand] for hand in _hands(args)]
        showing = show_cards(state.table, player, hands, showdown.declarer)
        numbers = tuple(
            tuple(card.number for card in hand.cards) for hand in showing.arrangement.hands
        )
        shown = ShownCards(player, numbers, turn.message_id)
        self.state = replace(state, showdown=replace(showdown, shown=(*showdown.shown, shown)))
        summary = f"{player} shows (rules 396, 397):\n{showing.arrangement.describe()}"
        advice = showing.advice()
        if advice is not None:
            summary += f"\n{advice}\nYour own arrangement is the one scored (rule 396)."
        return summary, "397"

    # -- Trades (rule 395) ---------------------------------------------------------------------

    def _trade(self, args: Mapping[str, Any], turn: Turn, player: str) -> tuple[str, str]:
        state = self._loaded()
        desk = TradeDesk(self.session, self.services, state, cards_settings(self.services))
        summary = desk.notice(args, turn, player, locked=shown_numbers(state))
        self.state = desk.state
        return summary, "395"

    # -- rule 14 --------------------------------------------------------------------------------

    def forfeit_player(self, name: str, at: datetime) -> Forfeited:
        """Rule 14: eir Cards go back to the Deck (389), revealed as any Card returned."""
        state = self._loaded()
        numbers = [card.number for card in state.table.hand_of(name)]
        notices = tuple(n for n in state.notices if name not in (n.sender, n.partner))
        if not numbers and notices == state.notices:
            return Forfeited()
        cause = Cause(at, "14", f"{name} forfeited", "post", None)
        state, returns = return_to_deck(self.session, state, numbers, cause)
        state, reveals = publish_due_reveals(self.services, replace(state, notices=notices))
        self.state = state
        notes = [f"{name}'s {len(numbers)} Card(s) return to the Deck (rules 14, 389)"]
        return Forfeited(notes=tuple([*notes, *returns, *reveals]))

    def changed_boards(self) -> tuple[Board, ...]:
        return ()

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def save(self) -> None:
        if self.state is not None:
            save_state(self.session, self.state)


def _no_showdown(state: CardsState) -> None:
    if state.showdown is not None:
        raise IllegalActionError(
            f"Showdown {state.showdown.number} is in progress until {_closes(state)}",
            rule=RULE_SHOWDOWN,
        )


def _closes(state: CardsState) -> str:
    return "" if state.showdown is None else f"{state.showdown.closes_at:%Y-%m-%d %H:%M} UTC"


def _hands(args: Mapping[str, Any]) -> list[list[object]]:
    hands = args.get("hands")
    return [list(hand) for hand in hands] if isinstance(hands, list) else []


def cards_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    return (CardsAdapter(session, services),)


# -- timed events ----------------------------------------------------------------------------


def cards_events(session: Session, services: Services, after: datetime, until: datetime) -> None:
    """What falls due in ``(after, until]``, in the order it happened: each nweek's deals
    (rule 391), the Motion passing or failing and the Showdown's end (rule 396)."""
    settings = cards_settings(services)
    state = load_state(session, settings.packs)
    original = state
    starts = [
        (change.instant, change.begun)
        for change in services.clock.nweek_changes_between(after, until)
        if change.begun >= 1 and change.begun not in state.dealt_nweeks
    ]
    while True:
        due: list[tuple[datetime, int, Any]] = [(instant, 0, nweek) for instant, nweek in starts]
        motion = motion_event(session, services, state, until)
        if motion is not None:
            due.append((motion[0], 1, motion[1]))
        if state.showdown is not None and state.showdown.closes_at <= until:
            due.append((state.showdown.closes_at, 2, None))
        if not due:
            break
        instant, kind, value = min(due, key=lambda item: (item[0], item[1]))
        if kind == 0:
            starts.remove((instant, value))
            state = deal_for_nweek(session, services, state, value, instant)
        elif kind == 1:
            state = settle_motion(session, services, state, instant, value)
        else:
            state = close_showdown(session, services, state, instant)
    state = commit_next_key(session, services, state, services.clock.reading(until).nweek, until)
    if state != original:
        save_state(session, state)


def cards_due(session: Session, services: Services, after: datetime) -> datetime | None:
    """When ``cards_events`` next has something to do (``bot.engine.timed``).

    Now, while the key of the nweek after the current one is not committed
    (the handler publishes it over any interval); else the first of the next
    nweek start (rule 391's deal, and the next commitment), the pending
    Motion passing or failing, and the Showdown's end (rule 396).
    """
    state = load_state(session, cards_settings(services).packs)
    if services.clock.reading(after).nweek + 1 not in state.committed_keys:
        return after
    # The Motion's event whenever it falls: the handler's own test with no end to the interval.
    motion = motion_event(session, services, state, NO_END)
    showdown_end = state.showdown.closes_at if state.showdown is not None else None
    return timed.earliest(
        timed.next_nweek_start(session, services, after),
        motion[0] if motion is not None else None,
        showdown_end,
    )


# -- renames (rule 151) ----------------------------------------------------------------------


def rename_in_cards(session: Session, services: Services, old: str, new: str) -> tuple[str, ...]:
    """Rule 151: the Hands, deals, showings and notices that name ``old`` name ``new``."""
    return (NAME,) if rewrite_record(session, NAME, renamed_state, old, new) else ()


def renamed_state(data: JsonState, old: str, new: str) -> JsonState | None:
    """The stored state with every name ``old`` written ``new`` (None when none is)."""
    return rename_in_json(data, old, new)


# -- the view --------------------------------------------------------------------------------


def cards_view(session: Session, services: Services, at: datetime | None = None) -> View:
    """What the archive shows of the Cards: the Deck's size, each Hand's size, the deals
    made and revealed, the Motion and the Showdown.  No Card in a Hand is named."""
    state = load_state(session, cards_settings(services).packs)
    data = public_data(state)
    data["dealer"] = cards_settings(services).dealer
    lines = [
        f"Deck: {data['deck']} Cards (rule 389); Dealer: {data['dealer'] or 'the referee'}",
        *(f"  {player}: {count} Card(s)" for player, count in data["hands"].items()),
        f"Deals: {data['deals']}, of which {data['revealed']} revealed; trades: {data['trades']}",
    ]
    if state.motion_poll is not None:
        lines.append(f"Motion to Show Cards pending: poll {state.motion_poll}")
    if state.showdown is not None:
        shown = ", ".join(item.player for item in state.showdown.shown) or "nobody yet"
        lines.append(f"Showdown {state.showdown.number} until {_closes(state)}; shown: {shown}")
    return View("\n".join(lines) + "\n", data)


def public_data(state: CardsState) -> dict[str, Any]:
    sizes = state.table.hand_sizes()
    return {
        "deck": state.table.deck_size(),
        "dealer": "",
        "hands": {player: sizes[player] for player in sorted(sizes)},
        "deals": len(state.deals),
        "revealed": sum(1 for record in state.deals if record.revealed),
        "trades": state.trades,
        "motion_poll": state.motion_poll,
        "showdown": None if state.showdown is None else state.showdown.number,
        "showdowns": state.showdowns,
    }


CARDS = Game(
    name=NAME,
    title="A Nomic's Cards and Pooker (seed 002)",
    adapters=cards_adapters,
    areas=(cards_area.AREA,),
    refereed_subgames=("pooker",),
    settings_type=CardsSettings,
    renames=(rename_in_cards,),
    views=(StateView(NAME, "the Deck, the Hands' sizes and the Showdown (public)", cards_view),),
    # Rule 391 fixes the deals at the start of each nweek; the Motion and the
    # Showdown of rule 396 come in the order they fall due, in the same event.
    timed_events=(TimedEvent(cards_events, rule(391, seed=SEED), next_due=cards_due),),
    admin_commands={COMMAND: AdminCommand(apply_trade_record, describe_trade_record)},
    private_actions=CardsAdapter.private_actions,
    after_private_post=publish_trade_records,
    templates=NAME,
)
