"""Auditing an archive: re-derive every dice roll and draw from the revealed seeds.

Reads the bot's own posts in an mbox or Maildir (the list archive, or the
outbox Maildir): the commitment published at the start of each nweek, the
seed revealed at its end, and the ``[verify: ...]`` line of every roll and
every recorded draw (``draw-v1``, e.g. rule 369's tie-breaks) in a ruling
or a report (a Go game's end, an election's result, a Ballot's rewards).
Uses nothing but the archive, so anyone can run it.

The result a ruling shows ("rolled 3d6: 2 + 3 + 5 = 10") must also agree
with the faces on its proof line: otherwise an edited result would pass
while the untouched proof line verifies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from bot.games import dice
from bot.games.cards.proofs import audit_hidden
from bot.ingress.replay import archive_posts

PROOF = re.compile(
    r"(?:rolled (?P<shown_spec>\d+d\d+): (?P<shown>\d+(?: \+ \d+)*) = (?P<total>\d+) )?"
    r"\[verify: nweek=(?P<nweek>\d+) dice-v(?P<version>[12]) message-id=(?P<message_id>\S+) "
    r"action=(?P<index>\d+) spec=(?P<spec>\d+d\d+) faces=(?P<faces>[\d,]+)\]"
)
DRAW_PROOF = re.compile(
    r"\[verify: nweek=(?P<nweek>\d+) draw-v1 context=(?P<context>\S+) number=(?P<number>\d+) "
    r"(?:options=(?P<options>[^\]]*?) order=(?P<order>[\d,]+)"
    r"|kind=choice (?:options=(?P<choices>[^\]]*?)|count=(?P<count>\d+)) index=(?P<index>\d+)"
    r"|kind=randint bounds=(?P<low>\d+)\.\.(?P<high>\d+) value=(?P<value>\d+))\]"
)
FIELD = re.compile(r"^(?P<name>Nweek|Commitment|Seed): *(?P<value>\S+) *$", re.MULTILINE)


@dataclass(frozen=True)
class ClaimedRoll:
    nweek: int  # displayed, one-based, as printed
    message_id: str
    index: int
    spec: str
    faces: tuple[int, ...]
    ruling_id: str
    shown: str = ""  # the result as the ruling displays it, e.g. "3d6: 2 + 3 + 5 = 10"
    printed: int | None = None  # the "action=N" the proof line printed (dice-v2: index + 1)

    @property
    def label(self) -> int:
        """The number the ruling shows for this roll."""
        return self.index if self.printed is None else self.printed

    @property
    def display_problem(self) -> str:
        """Why the displayed result disagrees with the proof line, or ""."""
        faces = " + ".join(str(face) for face in self.faces)
        expected = f"{self.spec}: {faces} = {sum(self.faces)}"
        if not self.shown or self.shown == expected:
            return ""
        return f"the ruling shows {self.shown!r} but its proof line says {expected!r}"


@dataclass(frozen=True)
class ClaimedDraw:
    """A recorded draw (a shuffle, a choice or a randint), as its proof line states it.

    ``order`` is the shuffle's order, or the one index (choice) or value
    (randint); a choice printed by its count has placeholder options.
    """

    nweek: int  # displayed, one-based
    context: str
    number: int
    options: tuple[str, ...]
    order: tuple[int, ...]
    ruling_id: str
    kind: dice.DrawKind = dice.DrawKind.SHUFFLE
    bounds: tuple[int, int] | None = None


@dataclass
class AuditReport:
    lines: list[str] = field(default_factory=list)
    checked: int = 0
    wrong: int = 0
    unrevealed: int = 0
    bad_seeds: int = 0
    mails: int = 0  # the messages the archive held
    bot_mails: int = 0  # of them, the bot's own (rulings and reports)

    @property
    def ok(self) -> bool:
        """Nothing wrong, and something verified: an audit of nothing proves nothing."""
        return self.wrong == 0 and self.bad_seeds == 0 and self.checked > 0

    @property
    def summary(self) -> str:
        if self.checked == 0 and self.wrong == 0 and self.bad_seeds == 0:
            return self.nothing_checked
        verdict = "all verified" if self.ok else "PROBLEMS FOUND"
        return (
            f"{self.checked} roll(s) and draw(s) checked: {self.checked - self.wrong} correct, "
            f"{self.wrong} wrong; {self.unrevealed} not yet verifiable (seed not revealed); "
            f"{self.bad_seeds} seed(s) not matching their commitment: {verdict}"
        )

    @property
    def nothing_checked(self) -> str:
        """Why nothing was verified, in words: the archive is not what was meant, or too new."""
        if self.unrevealed:
            return (
                f"nothing verified yet: {self.unrevealed} roll(s) and draw(s) wait for the "
                "seed of their nweek, revealed when it ends"
            )
        if not self.bot_mails:
            return (
                f"nothing to check: none of the {self.mails} message(s) in the archive is the "
                "bot's (give the list archive, or the bot's outbox Maildir)"
            )
        return (
            f"nothing to check: the bot's {self.bot_mails} mail(s) in the archive "
            "print no dice roll or draw"
        )


def verify_archive(path: Path) -> AuditReport:
    commitments: dict[int, str] = {}
    seeds: dict[int, str] = {}
    rolls: list[ClaimedRoll] = []
    draws: list[ClaimedDraw] = []
    bodies: list[str] = []  # for the hidden draws' lines, in archive order
    mails = bot_mails = 0
    for post in archive_posts(path):
        mails += 1
        mail = message_from_bytes(post.raw, policy=default)
        assert isinstance(mail, EmailMessage)
        kind = str(mail.get("X-Nomicbot-Kind", "")).strip()
        if not kind:
            continue
        bot_mails += 1
        body = _body(mail)
        bodies.append(body)
        if kind == "dice-commitment":
            _remember(body, "Commitment", commitments)
        elif kind == "dice-reveal":
            _remember(body, "Seed", seeds)
        else:
            # Rulings and every report (a Go game's end, an election's result,
            # a Ballot's rewards, a scheduled Evolve) may print proof lines.
            rolls.extend(_claimed_rolls(body, str(mail.get("Message-ID", ""))))
            draws.extend(_claimed_draws(body, str(mail.get("Message-ID", ""))))
    report = _check(rolls, commitments, seeds)
    _check_draws(report, draws, commitments, seeds)
    _check_hidden(report, bodies)
    report.mails, report.bot_mails = mails, bot_mails
    return report


def _check_hidden(report: AuditReport, bodies: list[str]) -> None:
    """Hidden draws (a Card dealt privately): each revealed deal and deal key."""
    hidden = audit_hidden(bodies)
    report.checked += hidden.checked
    report.wrong += hidden.wrong
    report.unrevealed += hidden.unconfirmed
    report.lines.extend(hidden.lines)


def _claimed_draws(body: str, ruling_id: str) -> list[ClaimedDraw]:
    flat = " ".join(body.split())
    return [_claimed_draw(match, ruling_id) for match in DRAW_PROOF.finditer(flat)]


def _claimed_draw(match: re.Match[str], ruling_id: str) -> ClaimedDraw:
    head = (int(match["nweek"]), match["context"], int(match["number"]))
    if match["order"] is not None:
        order = tuple(int(index) for index in match["order"].split(","))
        return ClaimedDraw(*head, tuple(match["options"].split("|")), order, ruling_id)
    if match["index"] is not None:
        count = int(match["count"]) if match["count"] else 0
        options = tuple(match["choices"].split("|")) if match["choices"] else ("",) * count
        return ClaimedDraw(*head, options, (int(match["index"]),), ruling_id, dice.DrawKind.CHOICE)
    bounds = (int(match["low"]), int(match["high"]))
    return ClaimedDraw(*head, (), (int(match["value"]),), ruling_id, dice.DrawKind.RANDINT, bounds)


def _check_draws(
    report: AuditReport,
    draws: list[ClaimedDraw],
    commitments: dict[int, str],
    seeds: dict[int, str],
) -> None:
    """Re-derive each recorded shuffle from its nweek's revealed seed."""
    for claimed in draws:
        seed = seeds.get(claimed.nweek)
        if seed is None or claimed.nweek not in commitments:
            report.unrevealed += 1
            continue
        report.checked += 1
        recorded = dice.Draw(
            claimed.number, "", claimed.kind, claimed.options, claimed.bounds, claimed.order
        )
        derived = dice.replay_draw(dice.seed_from_hex(seed), claimed.context, recorded)
        if derived.result != claimed.order:
            report.wrong += 1
            report.lines.append(
                f"TAMPERED or wrong: draw {claimed.number} of {claimed.context} "
                f"(ruling {claimed.ruling_id}, nweek {claimed.nweek}): the seed gives order "
                f"{','.join(map(str, derived.result))}, the ruling says "
                f"{','.join(map(str, claimed.order))}"
            )


def _body(mail: EmailMessage) -> str:
    part = mail.get_body(preferencelist=("plain",))
    return str(part.get_content()) if part is not None else ""


def _remember(body: str, name: str, into: dict[int, str]) -> None:
    fields = {match["name"]: match["value"] for match in FIELD.finditer(body)}
    if "Nweek" in fields and name in fields and fields["Nweek"].isdigit():
        into[int(fields["Nweek"])] = fields[name]


def _claimed_rolls(body: str, ruling_id: str) -> list[ClaimedRoll]:
    flat = " ".join(body.split())  # a proof line may have been folded
    return [
        ClaimedRoll(
            int(match["nweek"]),
            match["message_id"],
            # dice-v2 prints the ruling's item number, one more than the index.
            int(match["index"]) - (1 if match["version"] == "2" else 0),
            match["spec"],
            tuple(int(face) for face in match["faces"].split(",")),
            ruling_id,
            _shown(match),
            int(match["index"]),
        )
        for match in PROOF.finditer(flat)
    ]


def _shown(match: re.Match[str]) -> str:
    if match["shown"] is None:
        return ""
    return f"{match['shown_spec']}: {match['shown']} = {match['total']}"


def _check(
    rolls: list[ClaimedRoll], commitments: dict[int, str], seeds: dict[int, str]
) -> AuditReport:
    report = AuditReport()
    for nweek in sorted(seeds):
        if nweek in commitments and not _seed_matches(seeds[nweek], commitments[nweek]):
            report.bad_seeds += 1
            report.lines.append(f"nweek {nweek}: revealed seed does NOT match its commitment")
    for claimed in rolls:
        problem = claimed.display_problem or _seed_problem(claimed, commitments, seeds)
        if problem is None:
            report.unrevealed += 1
            continue
        report.checked += 1
        if problem:
            report.wrong += 1
            report.lines.append(
                f"TAMPERED or wrong: roll {claimed.label} of <{claimed.message_id}> "
                f"(ruling {claimed.ruling_id}, nweek {claimed.nweek}): {problem}"
            )
    return report


def _seed_problem(
    claimed: ClaimedRoll, commitments: dict[int, str], seeds: dict[int, str]
) -> str | None:
    """What re-deriving the roll found wrong: "" when right, None before the reveal."""
    if claimed.nweek not in seeds or claimed.nweek not in commitments:
        return None
    result = dice.verify_roll(
        seeds[claimed.nweek],
        commitments[claimed.nweek],
        claimed.message_id,
        claimed.index,
        claimed.spec,
        claimed.faces,
    )
    return "" if result.ok else result.explanation


def _seed_matches(seed_hex: str, commitment_hex: str) -> bool:
    try:
        return dice.commitment(dice.seed_from_hex(seed_hex)) == commitment_hex.lower()
    except ValueError:
        return False
