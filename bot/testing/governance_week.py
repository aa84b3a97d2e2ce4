"""One scripted nweek of B Nomic governance as posts (seed 004), for the end-to-end test.

The nweek is the game's first (nweek 1 as displayed, 2026-01-01 to
2026-01-11): Alice is the Chairman (Ministry of Change, rule 625 D.10), Bob
the Attorney Generalist (Ministry of Justice, 625 D.3), Carol Kurt Godel
(the Meta-Ministry, 625 D.2), and the Ministry of Twiddles is Open.  Dave
and Erin register on nday 1; as new players they hold the only Bandwidth of
nweek 1 (rule 212: 4BW, the reset to 10 comes with nweek 2), so they submit
the two proposals (2BW each, rule 19).  Carol calls the Election for the
Ministry of Twiddles at once (Borda Count, rules 625 B, 1823); two CFIs run
(rule 125), one short-circuited after its Defendant's Argument, one closing
at its 4th midnight; the Ballot is called at the Voting Period (nday 8,
rule 23) and voted on with variants, a changed vote, a Shelve and one vote
mailed privately to the bot; the Chairman's results come at the Ballot's
close, the start of nweek 2.

Every post has a fixed instant and Message-ID, so the same bytes reach the
bot by IMAP, by a scratch run or by an mbox replay.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bot.app import App, build_app
from bot.config import MinistryEntry, PlayerEntry, ProposalSettings, Settings
from bot.engine.views import game_view
from bot.posts import compose_post, mbox_from_line
from bot.testing.apps import game_settings, write_mbox
from bot.testing.go_game import BOT_ADDRESS, EPOCH, LIST_ADDRESS, RECEIVING_SERVER

SUBJECT = "[Nomic] Governance"
FIRST_SERIAL = 100  # rule 5: the first proposal's serial number, and the first CFI's
CONFIGURED = ("Alice", "Bob", "Carol")
NEWCOMERS = ("Dave", "Erin")
CHAIRMAN, ATTORNEY_GENERALIST, GODEL, TWIDDLER_ELECTED = "Alice", "Bob", "Carol", "Erin"
OPEN_MINISTRY = "Ministry of Twiddles"
MINISTRIES = (
    MinistryEntry("Ministry of Change", CHAIRMAN),
    MinistryEntry("Ministry of Justice", ATTORNEY_GENERALIST),
    MinistryEntry("Meta-Ministry", GODEL),
    MinistryEntry(OPEN_MINISTRY),
)
# The private vote's word: an obvious variant of No (rule 15) that no public
# post uses, so finding it in a public mail can only mean a leak.
SECRET_WORD = "nope"
# The Ballot's close: the end of the Voting Period, the start of nweek 2 (rule 23).
BALLOT_CLOSES = EPOCH + timedelta(days=10)
# The scheduler's last instant: past the close, the Checkpoint digests and the
# reveal of nweek 1's dice seed, all at 2026-01-11 00:00 UTC.
END = BALLOT_CLOSES + timedelta(hours=1)
# The nweek's state as ``nomicbot state --json`` shows it.
STATE_VIEWS = (
    "players",
    "holdings",
    "proposals",
    "ballot",
    "polls",
    "cfis",
    "elections",
    "ministries",
)


def address(name: str) -> str:
    return f"{name.lower()}@example.test"


def at(nday: int, hour: int, minute: int = 0) -> datetime:
    """The instant ``hour:minute`` UTC on (one-based) ``nday`` of nweek 1: ndays are days."""
    return EPOCH + timedelta(days=nday - 1, hours=hour, minutes=minute)


@dataclass(frozen=True)
class WeekPost:
    """One post of the nweek: to the list, or (``private``) to the bot's address alone."""

    number: int
    author: str
    at: datetime
    body: str
    private: bool = False

    @property
    def message_id(self) -> str:
        return f"gov-{self.number:03d}@example.test"

    @property
    def address(self) -> str:
        return address(self.author)

    def raw(self) -> bytes:
        # A private post carries no List-Id and is addressed to the bot only;
        # it arrives as the bot's receiving server delivers mail from an
        # authenticated sender (docs/trust.md).
        to = BOT_ADDRESS if self.private else LIST_ADDRESS
        return compose_post(
            self.author,
            self.address,
            SUBJECT,
            self.body,
            self.message_id,
            self.at,
            to=to,
            vouched_by=RECEIVING_SERVER if self.private else "",
        )


CAKE = (
    "I submit the following proposal:\n\n__More Cake__\n\n"
    "{{\nEvery player receives one cake at the start of each nweek.\n}}\n"
)
TEA = "I propose a rule: {{ __Tea Time__ The Chairman serves tea at every Checkpoint. }}"
TEA_REVISED = (
    "I revise proposal 101 to read {{ __Tea Time__\n"
    "The Chairman serves tea {{ and biscuits }} at every Checkpoint.\n}}"
)
CFI_WALLS = (
    "I submit a CFI: {{ __Cake is not a Currency__\n"
    "Defendant: Dave\n"
    "Argument: Dave paid for his proposal in cake.\n"
    "Resolution:\n"
    "- Dave's payment is undone\n"
    "- Dave loses 1 point\n"
    "}}"
)
CFI_ROTATION = (
    "I submit a CFI: {{ __Godel Rotates Daily__\n"
    "Argument: Kurt Godel must rotate the Ministries every nday.\n"
    "Resolution:\n"
    "- Ministry Rotation happens every nday\n"
    "}}"
)
TWIDDLES = "Minister of Twiddles"

# (author, nday, hour, minute, body, private): in time order, as the list delivers them.
SCRIPT: tuple[tuple[str, int, int, int, str, bool], ...] = (
    ("Dave", 1, 9, 0, "I request to become a player with the name Dave.", False),
    ("Erin", 1, 9, 30, "I wish to become a player; my name is Erin.", False),
    ("Carol", 1, 10, 0, "I call an election for the Ministry of Twiddles.", False),
    ("Alice", 1, 12, 0, f"I nominate Erin for {TWIDDLES}.", False),
    ("Erin", 1, 13, 0, f"I accept my nomination for {TWIDDLES}.", False),
    ("Dave", 2, 9, 0, f"I nominate myself for {TWIDDLES}.", False),
    ("Dave", 2, 10, 0, CAKE, False),
    ("Erin", 2, 11, 0, TEA, False),
    ("Alice", 2, 12, 0, CFI_WALLS, False),
    ("Bob", 2, 13, 0, f"I nominate Carol for {TWIDDLES}.", False),
    ("Carol", 2, 14, 0, f"I reject my nomination for {TWIDDLES}.", False),
    ("Dave", 2, 18, 0, "As Defendant in CFI 100 I argue {{ Cake was legal tender then. }}", False),
    ("Bob", 3, 9, 0, "I vote TRUE on CFI 100", False),
    ("Carol", 3, 10, 0, "I vote sure on CFI 100", False),
    ("Erin", 3, 11, 0, "I vote Refused on CFJ 100", False),  # the last Eligible Voter
    ("Bob", 3, 12, 0, CFI_ROTATION, False),
    ("Alice", 4, 9, 0, f"I nominate myself for the {OPEN_MINISTRY}.", False),
    ("Alice", 4, 10, 0, "I vote FALSE on CFI 101", False),
    ("Carol", 4, 11, 0, "I vote nay on CFI 101", False),
    ("Dave", 4, 12, 0, "I vote yes on CFI 101", False),
    ("Bob", 5, 9, 0, "Digest please.", False),
    ("Erin", 5, 10, 0, TEA_REVISED, False),
    ("Dave", 5, 11, 0, "I vote FALSE on CFI 101", False),  # refused: the poll is Strict
    ("Alice", 6, 12, 0, f"I vote Alice, Erin, Dave for {TWIDDLES}.", False),
    ("Bob", 6, 13, 0, f"I vote Erin > Alice > Dave for {TWIDDLES}.", False),
    ("Carol", 7, 9, 0, f"I vote Dave, Alice, Erin for {TWIDDLES}.", False),
    ("Dave", 7, 10, 0, f"I vote Dave, Alice, Erin for {TWIDDLES}.", False),
    ("Erin", 7, 11, 0, f"I vote Erin, Dave, Alice for {TWIDDLES}.", False),
    ("Alice", 8, 9, 0, "I vote FOR 100 and AGAINST 101.", False),
    ("Bob", 8, 10, 0, "I vote sure on 100 and 101.", False),
    ("Carol", 8, 11, 0, "I vote nay on 100 and PRESENT on 101.", False),
    ("Dave", 8, 12, 0, "I vote yes on 100 and to shelve 101.", False),
    ("Erin", 8, 13, 0, f"I vote {SECRET_WORD} on 100 and shelve on 101.", True),
    ("Carol", 8, 15, 0, f"I vote Erin, Dave, Alice for {TWIDDLES}.", False),
    ("Carol", 9, 9, 0, "I vote FOR 100.", False),  # the last vote counts (rule 15)
    ("Alice", 9, 12, 0, "Please send me my digest.", True),
    ("Carol", 9, 13, 0, "digest please", False),
    # nday 10: a statement before the Election's close (10:00) and a digest
    # request from the Minister it seats, after it.
    ("Dave", 10, 9, 0, "My holdings please.", False),
    ("Erin", 10, 11, 0, "Send me my digest.", False),
)


def week_posts() -> tuple[WeekPost, ...]:
    return tuple(
        WeekPost(number, author, at(nday, hour, minute), body, private)
        for number, (author, nday, hour, minute, body, private) in enumerate(SCRIPT, start=1)
    )


def week_settings(folder: Path, **sections: Any) -> Settings:
    """The three configured players and the four Ministries, with sections replaced as given."""
    values: dict[str, Any] = {
        "players": tuple(PlayerEntry(name, (address(name),)) for name in CONFIGURED),
        "ministries": MINISTRIES,
        "proposals": ProposalSettings(first_serial=FIRST_SERIAL),
    }
    return game_settings(folder, **(values | sections))


def week_app(folder: Path, **sections: Any) -> App:
    return build_app(week_settings(folder, **sections))


def write_week_mbox(path: Path, posts: tuple[WeekPost, ...]) -> Path:
    """The archive of the nweek: the list's posts and the private mail, in time order."""
    write_mbox(path, [(post.raw(), mbox_from_line(post.address, post.at)) for post in posts])
    return path


def week_state(app: App) -> dict[str, Any]:
    """Each of ``STATE_VIEWS`` as ``nomicbot state <view> --json`` prints it, parsed back."""
    with app.session_factory() as session:
        return {
            name: json.loads(json.dumps(game_view(session, app.services, name).data))
            for name in STATE_VIEWS
        }
