"""CFIs by mail (rule 125, seed 004): submission, defence, votes, rulings and rewards."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select

from bot.engine import holdings
from bot.store.models import Player

CFI = (
    "I submit a CFI: {{ __Rooms are not Tiles__\n"
    "Defendant: Bob\n"
    "Argument: Bob moved through a wall.\n"
    "Resolution:\n"
    "- Bob's move is undone\n"
    "- Bob loses 1 point\n"
    "}}"
)
NOON = datetime(2026, 1, 5, 12, tzinfo=UTC)


def test_a_cfi_with_a_defence_closes_early_when_every_eligible_voter_has_voted(
    new_game: Any,
) -> None:
    game = new_game()
    game.post("Alice", CFI, NOON)
    game.post("Bob", "As Defendant in CFI 100 I argue {{ Walls are doors. }}", NOON + timedelta(1))
    game.post("Carol", "I vote TRUE on CFI 100", NOON + timedelta(hours=25))
    game.post("Dave", "I vote sure on CFI 100", NOON + timedelta(hours=26))
    assert game.sent_of("cfi-ruling") == []
    game.post("Erin", "I vote Refused on CFJ 100", NOON + timedelta(hours=27))
    outcomes = [ruling[1] for ruling in game.rulings()]
    assert outcomes == ["applied"] * 5
    assert "ruled In Favor of the Plaintiff" in game.rulings()[-1][2]
    (ruling,) = game.sent_of("cfi-ruling")
    assert ruling.public and ruling.date == "Tue, 06 Jan 2026 15:00:00 +0000"
    assert "RULED IN FAVOR OF THE PLAINTIFF" in ruling.body
    assert "Yes 2, No 0, Refused 1, Abstain 0" in ruling.body
    assert 'Carol: Yes ("TRUE")' in ruling.body and "Erin: Refused" in ruling.body
    assert "1. Bob's move is undone" in ruling.body and "Walls are doors." in ruling.body
    assert "Short-Circuited" in ruling.body


def test_rewards_go_to_every_voter_who_did_not_abstain(new_game: Any) -> None:
    game = new_game()
    before = {name: game.balance(name, "tildex") for name in ("Carol", "Dave", "Erin")}
    game.post("Alice", CFI, NOON)
    game.post("Carol", "I vote FALSE on CFI 100", NOON + timedelta(hours=1))
    game.post("Dave", "I vote PRESENT on CFI 100", NOON + timedelta(hours=2))
    game.post("Erin", "I vote nay on CFI 100", NOON + timedelta(hours=3))
    assert "Against the Plaintiff" in game.sent_of("cfi-ruling")[0].subject
    gained = {name: game.balance(name, "tildex") - before[name] for name in before}
    assert gained == {"Carol": 5, "Dave": 0, "Erin": 5}
    wisdom = "renown:Wisdom:temporary"
    assert [game.balance(name, wisdom) for name in before] == [1, 0, 1]
    assert "Dave" not in game.sent_of("cfi-ruling")[0].body.split("receives")[1]


def test_rewards_past_the_basins_cap_are_cut_and_the_ruling_says_so(new_game: Any) -> None:
    """Rule 125's 5 tildex have no source: the Basin creates them, no more than 10000~ in
    an nweek (rule 21 A.2).  With 7~ left, Carol's reward is whole and Erin's is 2~."""
    game = new_game()
    nweek = game.app.services.clock.reading(NOON).nweek
    with game.app.session_factory.begin() as session:
        alice = session.scalars(select(Player.id).where(Player.name == "Alice")).one()
        earlier = {"at": NOON, "rule": "21 A.2", "note": "earlier grants"}
        holdings.create_tildex(session, alice, 10000 - 7, nweek=nweek, **earlier)
    before = {name: game.balance(name, "tildex") for name in ("Carol", "Erin")}
    game.post("Alice", CFI, NOON)
    game.post("Carol", "I vote FALSE on CFI 100", NOON + timedelta(hours=1))
    game.post("Dave", "I vote PRESENT on CFI 100", NOON + timedelta(hours=2))
    game.post("Erin", "I vote nay on CFI 100", NOON + timedelta(hours=3))
    gained = {name: game.balance(name, "tildex") - before[name] for name in before}
    assert gained == {"Carol": 5, "Erin": 2}
    (ruling,) = game.sent_of("cfi-ruling")
    assert (
        "(rule 125): Carol, Erin.\nErin receives 2~ (rule 21 A.2: the Basin may create no more"
        " than 10000~ each nweek and had 2~ left of nweek 1's, so 3~ of the 5~ were not"
        " created).\n"
    ) in ruling.body
    assert "Carol receives" not in ruling.body.split("Temporary Wisdom (rule 125)")[1]


def test_a_tie_of_yes_against_no_and_refused_is_ruled_refused(new_game: Any) -> None:
    game = new_game()
    game.post("Alice", CFI, NOON)
    game.post("Carol", "I vote yes on CFI 100", NOON + timedelta(hours=1))
    game.post("Dave", "I vote no on CFI 100", NOON + timedelta(hours=2))
    game.post("Erin", "I vote abstain on CFI 100", NOON + timedelta(hours=3))
    (ruling,) = game.sent_of("cfi-ruling")
    assert ruling.subject == "[cfi] CFI 100 ruled Refused"
    assert "the Resolution does not take effect" in ruling.body


def test_the_poll_closes_at_the_fourth_midnight_to_the_second(new_game: Any) -> None:
    game = new_game()
    game.post("Alice", CFI, NOON)  # Monday 5 January: the 4th midnight starts 9 January
    deadline = datetime(2026, 1, 9, tzinfo=UTC)
    game.post("Carol", "I vote TRUE on CFI 100", deadline - timedelta(seconds=1))
    game.post("Dave", "I vote FALSE on CFI 100", deadline + timedelta(seconds=1))
    assert [ruling[1] for ruling in game.rulings()] == ["applied", "applied", "rejected"]
    assert "Concluded at 2026-01-09T00:00:00+00:00" in game.rulings()[-1][2]
    (ruling,) = game.sent_of("cfi-ruling")
    assert ruling.date == "Fri, 09 Jan 2026 00:00:00 +0000"
    assert "(its deadline)" in ruling.body and "Carol: Yes" in ruling.body


def test_a_vote_at_the_deadline_itself_is_too_late(new_game: Any) -> None:
    game = new_game()
    game.post("Alice", CFI, NOON)
    game.post("Carol", "I vote TRUE on CFI 100", datetime(2026, 1, 9, tzinfo=UTC))
    assert game.rulings()[-1][1] == "rejected"
    assert "Yes 0, No 0, Refused 0" in game.sent_of("cfi-ruling")[0].body


def test_deadlines_across_a_month_end_and_a_year_end(new_game: Any) -> None:
    game = new_game(epoch=datetime(2026, 12, 20, tzinfo=UTC))
    game.post("Alice", CFI, datetime(2026, 12, 28, 23, 59, 59, tzinfo=UTC))
    game.post("Alice", CFI.replace("Rooms", "Halls"), datetime(2026, 12, 29, tzinfo=UTC))
    view = game.view("cfis").data
    assert [item["deadline"] for item in view] == [
        "2027-01-01T00:00:00+00:00",
        "2027-01-02T00:00:00+00:00",
    ]
    game.advance(datetime(2027, 1, 1, tzinfo=UTC))
    assert [mail.date for mail in game.sent_of("cfi-ruling")] == ["Fri, 01 Jan 2027 00:00:00 +0000"]
    game.advance(datetime(2027, 1, 2, tzinfo=UTC))
    assert len(game.sent_of("cfi-ruling")) == 2


def test_a_month_end_deadline(new_game: Any) -> None:
    game = new_game()
    game.post("Alice", CFI, datetime(2026, 1, 28, 8, tzinfo=UTC))
    assert game.view("cfis").data[0]["deadline"] == "2026-02-01T00:00:00+00:00"


def test_a_clock_off_period_does_not_move_a_cfi_deadline(new_game: Any) -> None:
    # Rule 125's deadline is in real time (4th Midnight UTC), not ntime, so a
    # Clock stop (rule 3 A) does not move it, unlike the Ballot's.
    game = new_game(switches=("2026-01-06T00:00:00+00:00 off", "2026-01-20T00:00:00+00:00 on"))
    game.post("Alice", CFI, NOON)
    game.advance(datetime(2026, 1, 8, 23, 59, 59, tzinfo=UTC))
    assert game.sent_of("cfi-ruling") == []
    game.advance(datetime(2026, 1, 9, tzinfo=UTC))
    (ruling,) = game.sent_of("cfi-ruling")
    assert ruling.date == "Fri, 09 Jan 2026 00:00:00 +0000"


def test_refusals(new_game: Any) -> None:
    game = new_game()
    game.post("Alice", CFI, NOON)
    game.post("Bob", "I vote TRUE on CFI 100", NOON + timedelta(hours=1))  # the Defendant
    game.post("Alice", "I vote TRUE on CFI 100", NOON + timedelta(hours=2))  # the Plaintiff
    game.post("Carol", "As Defendant in CFI 100 I argue {{ No. }}", NOON + timedelta(hours=3))
    game.post("Carol", "I vote TRUE on CFI 7", NOON + timedelta(hours=4))
    game.post("Carol", "I vote TRUE on CFI 100", NOON + timedelta(hours=5))
    game.post("Carol", "I vote FALSE on CFI 100", NOON + timedelta(hours=6))  # Strict
    reasons = [ruling[2] for ruling in game.rulings()[1:]]
    outcomes = [ruling[1] for ruling in game.rulings()[1:]]
    assert outcomes == ["rejected", "rejected", "rejected", "rejected", "applied", "rejected"]
    assert "you are not an Eligible Voter" in reasons[0] and "not an Eligible" in reasons[1]
    assert "only the Defendant may argue on CFI 100" in reasons[2]
    assert "there is no CFI 7" in reasons[3]
    assert "Strict" in reasons[5]


def test_an_argument_after_the_close_is_refused(new_game: Any) -> None:
    game = new_game()
    game.post("Alice", CFI, NOON)
    game.advance(datetime(2026, 1, 9, tzinfo=UTC))
    game.post(
        "Bob", "As Defendant in CFI 100 I argue {{ Late. }}", datetime(2026, 1, 9, 1, tzinfo=UTC)
    )
    assert game.rulings()[-1][1] == "rejected"
    assert "has closed" in game.rulings()[-1][2]


def test_a_cfi_needs_a_resolution_and_a_known_defendant(new_game: Any) -> None:
    game = new_game()
    game.post("Alice", "I submit a CFI: {{ __Nothing__ Argument: something }}", NOON)
    game.post("Alice", "I submit a CFI against Zed: {{ __T__ A. Resolution: R }}", NOON)
    reasons = [ruling[2] for ruling in game.rulings()]
    assert "a CFI needs a Resolution" in reasons[0]
    assert 'there is no player called "Zed"' in reasons[1]
    assert game.view("cfis").text == "no pending CFIs"


def test_a_non_player_cannot_submit_a_cfi(new_game: Any) -> None:
    game = new_game()
    game.post("Alice", "I forfeit", NOON)
    game.post("Alice", CFI, NOON + timedelta(hours=1))
    assert game.rulings()[-1][1] == "rejected"
    assert "not a player" in game.rulings()[-1][2]


def test_on_leave_players_are_not_eligible(new_game: Any) -> None:
    game = new_game()
    game.post("Erin", "I go On Leave", NOON - timedelta(hours=1))
    game.post("Alice", CFI, NOON)
    (item,) = game.view("cfis").data
    assert item["not_voted"] == ["Carol", "Dave"]


def test_the_attorney_generalists_display(new_game: Any) -> None:
    game = new_game()
    game.post("Alice", CFI, NOON)
    game.post("Carol", "I vote TRUE on CFI 100", NOON + timedelta(hours=1))
    view = game.view("cfis")
    (item,) = view.data
    assert item["votes"] == [{"voter": "Carol", "vote": "Yes"}]
    assert item["not_voted"] == ["Dave", "Erin"]
    assert item["defendant"] == "Bob" and item["deadline"] == "2026-01-09T00:00:00+00:00"
    assert view.text == (
        "CFI 100 Rooms are not Tiles by Alice, until 2026-01-09T00:00:00+00:00: "
        "Carol Yes; not voted: Dave, Erin"
    )
