"""B-Chess (seed 000) refereed by mail: Purchase pricing in one Turn, the one-action and
owner-only limits, captured Kings, Rejoin pricing and Checkmate, with macks in the ledger.

Every post is one Turn of the Field (seed 003): its Invokable Actions are the
requests of that Turn.  Squares and pieces come from the Field the bot shows.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from bot.audit import verify_archive
from bot.engine import holdings, ledger
from bot.engine.players import find_player_by_name
from bot.games.field import FieldObject, FieldState, Square
from bot.games.field.bchess import KING, RULE_BCHESS, RULE_MOVE, RULE_PURCHASE, reach_of
from bot.games.field.bchess.board import occupants
from bot.games.field.life import team_of
from bot.outbound.transports import MaildirTransport
from bot.runner import deliver
from bot.store.models import LedgerEntry, Message
from bot.testing.apps import body_of, maildir_mails
from bot.testing.field_matches import (
    ALICE,
    BOB,
    CAROL,
    RITA,
    FieldTable,
    check_field_draws,
    field_app,
    field_rulings,
    grant_macks,
    nweek_start,
    play_bchess,
)

DAY = nweek_start(0)


def started(tmp_path: Path) -> FieldTable:
    app = field_app(tmp_path / "bot")
    grant_macks(app)
    table = FieldTable(app)
    table.post(
        RITA,
        DAY + timedelta(hours=10),
        "I select B-Chess as the Current Field Match. I initialize the field.",
    )
    return table


def macks_entries(table: FieldTable, name: str) -> list[tuple[int, str, str | None]]:
    """(amount, rule, Message-ID) of every mack entry of ``name`` caused by a post."""
    with table.app.session_factory() as session:
        player = find_player_by_name(session, name)
        rows = session.execute(
            select(LedgerEntry.amount, LedgerEntry.rule, Message.message_id)
            .join(Message, Message.id == LedgerEntry.message_pk)
            .where(LedgerEntry.player_id == player.id, LedgerEntry.currency == holdings.MACKS)
            .order_by(LedgerEntry.id)
        ).all()
    return [tuple(row) for row in rows]  # type: ignore[misc]


def macks_of(table: FieldTable, name: str) -> int:
    with table.app.session_factory() as session:
        return ledger.balance(session, find_player_by_name(session, name).id, holdings.MACKS)


def test_three_purchases_in_one_post_cost_0_10_20_and_the_count_starts_again(
    tmp_path: Path,
) -> None:
    table = started(tmp_path)
    buy = table.post(ALICE, DAY + timedelta(hours=11), "I purchase a piece. " * 3)
    again = table.post(ALICE, DAY + timedelta(hours=12), "I purchase a piece.")
    # Carol holds no macks: her first Purchase of a Turn is free, the second costs 10.
    table.post(CAROL, DAY + timedelta(hours=13), "I purchase a piece. I purchase a piece.")
    rulings = field_rulings(table.app)[2:]
    assert [ruling for _, _, ruling, _, _ in rulings] == ["applied"] * 5 + ["rejected"]
    assert ["paid 0 macks" in why for _, _, _, _, why in rulings[:4]] == [True, False, False, True]
    assert "paid 10 macks" in rulings[1][4] and "paid 20 macks" in rulings[2][4]
    assert rulings[5][3] == RULE_PURCHASE and "Carol has 0" in rulings[5][4]
    assert macks_entries(table, "Alice") == [
        (-10, RULE_PURCHASE, buy.message_id),
        (-20, RULE_PURCHASE, buy.message_id),
    ]
    assert macks_of(table, "Alice") == 70 and macks_entries(table, "Carol") == []
    assert again.message_id not in {entry[2] for entry in macks_entries(table, "Alice")}
    # Each piece was Distributed next to its owner's King in the Turn it was bought.
    state = table.state()
    pieces = [item for item in state.objects if item.kind != KING]
    assert len(pieces) == 5 and all(item.is_placed for item in pieces)


def movable(state: FieldState, piece: FieldObject) -> list[Square]:
    """Free squares ``piece`` can reach this Turn, by the rules' own reach."""
    standing = occupants(state)
    return sorted(
        square
        for square in reach_of(state.current_match, piece, standing)
        if square not in standing
    )


def test_one_invokable_action_per_piece_per_turn_and_only_by_its_owner(tmp_path: Path) -> None:
    table = started(tmp_path)
    table.post(ALICE, DAY + timedelta(hours=11), "I purchase a piece.")
    state = table.state()
    piece = next(item for item in state.objects if item.owner == "Alice" and item.kind != KING)
    name = state.geometry.format_square
    assert piece.square is not None
    first, second = movable(state, piece)[:2]
    kind = piece.kind.lower()
    table.post(
        ALICE,
        DAY + timedelta(hours=12),
        f"I move my {kind} at {name(piece.square)} to {name(first)}. "
        f"I move my {kind} at {name(piece.square)} to {name(second)}.",
    )
    done, refused = field_rulings(table.app)[-2:]
    assert done[2] == "applied" and f"-> {name(first)}" in done[4]
    assert refused[2:4] == ("rejected", RULE_BCHESS)
    assert "Only one invokable action per Field Object" in refused[4]
    table.post(
        BOB,
        DAY + timedelta(hours=13),
        f"I move the {kind} at {name(first)} to {name(piece.square)}.",
    )
    owner_only = field_rulings(table.app)[-1]
    assert owner_only[2:4] == ("rejected", RULE_MOVE)
    assert f"no piece of yours is on {name(first)}: it holds Alice's {piece.kind}" in owner_only[4]
    moved = next(item for item in table.state().objects if item.object_id == piece.object_id)
    assert moved.square == first


def test_a_match_to_checkmate_with_captured_kings_rejoins_and_verifiable_draws(
    tmp_path: Path,
) -> None:
    app = field_app(tmp_path / "bot")
    grant_macks(app)
    table = FieldTable(app)
    script = play_bchess(table, first_nweek=0)
    assert script.winner == "Alice"
    assert script.captures["Bob"] == 3 and script.rejoins_tried["Bob"] == 3
    rejoins = [(ruling, why) for _, text, ruling, _, why in field_rulings(app) if "rejoin" in text]
    bob = macks_entries(table, "Bob")
    # The Rejoin table: 100 macks after one capture, 500 after two; 1000 is more than Bob holds.
    assert [amount for amount, _, _ in bob] == [-100, -500]
    assert macks_of(table, "Bob") == 400
    assert "Rejoin after 3 captures costs 1000 macks and Bob has 400" in rejoins[-1][1]
    assert "Rejoin after 1 captures costs 100 macks and Carol has 0" in rejoins[0][1]
    last = table.turns()[-1]["record"]
    assert last["ending"]["winners"] == ["Alice"]
    table.advance(nweek_start(script.last_nweek + 1) + timedelta(hours=1))
    deliver(app, MaildirTransport(tmp_path / "out"))
    mails = maildir_mails(tmp_path / "out")
    win = next(m for m in mails if "Win by Field Match" in body_of(m))
    assert "Trophy of B-Chess: An ornamental chess piece" in body_of(win)
    assert "a = Alice: 1 King, captured 0 times" in body_of(win)  # the last position
    assert verify_archive(tmp_path / "out").ok
    draws = check_field_draws(mails)
    assert draws.wrong == () and draws.unrevealed == 0 and draws.checked > 10


def test_active_players_get_kings_and_every_player_a_life_team(tmp_path: Path) -> None:
    # Seed 000, B-Chess Initialize: "a King is created in the possession of
    # each Active Player"; rule 205: a player On Leave is not active.  Life's
    # Initialize: "each Player's Team is set to a random non-null value".
    states = {}
    for match in ("B-Chess", "Life"):
        table = FieldTable(field_app(tmp_path / match))
        table.post(CAROL, DAY + timedelta(hours=9), "I go On Leave.")
        table.post(RITA, DAY + timedelta(hours=10), f"I select {match} as the Current Field Match.")
        table.post(RITA, DAY + timedelta(hours=11), "I initialize the field.")
        states[match] = table.state()
        table.app.dispose()
    owners = {piece.owner for piece in states["B-Chess"].objects if piece.kind == KING}
    assert owners == {"Rita", "Alice", "Bob"}
    everyone = ("Rita", "Alice", "Bob", "Carol")
    assert all(team_of(states["Life"], player) is not None for player in everyone)
