"""The Dealer's report: A Nomic rule 390 (seed 002), and the private deal notice (387).

Rule 390: "Each nweek, the Dealer make a report of who recieved Cards in that
nweek, and what the Back of each Card was.  No other information about the
Cards should be given by the Dealer."

Readings:

* "Received Cards" means dealt from the Deck.  Rule 390 was written with
  rules 384-391, when dealing was the only way to receive a Card; Pooker's
  Trades (394, 395, a month later) are arranged privately, and a traded
  Card's Back was reported when it was dealt.
* Each entry carries the deal's commitment (``bot.games.cards.hidden``).  A
  SHA-256 over 256 secret bits tells nothing about the Card, so it is no
  "other information"; it is what lets anyone check the Card once shown.
* Recipients are listed alphabetically and each one's Cards in the order
  dealt; the order of deals is public anyway (rule 391 fixes it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.cards.cards import Card, PlayerName
from bot.games.cards.hidden import DealCommitment, HiddenDeal


@dataclass(frozen=True)
class ReportEntry:
    """One Card dealt, as rule 390 lets it be published: who received it and its Back."""

    recipient: PlayerName
    commitment: DealCommitment

    @property
    def back(self) -> str:
        return self.commitment.back


def report_entries(
    deals: Sequence[tuple[PlayerName, HiddenDeal]],
) -> tuple[ReportEntry, ...]:
    """The entries of one nweek's report from (recipient, deal) in the order dealt."""
    entries = [ReportEntry(recipient, deal.commitment) for recipient, deal in deals]
    return tuple(
        sorted(entries, key=lambda entry: (entry.recipient.casefold(), entry.commitment.deal))
    )


def render_report(nweek_display: int, entries: Sequence[ReportEntry]) -> str:
    """The report's text; ``nweek_display`` is one-based, as the Clock shows it."""
    lines = [f"Dealer's report for nweek {nweek_display} (rule 390)", ""]
    if not entries:
        lines.append("Nobody received Cards this nweek.")
    for recipient in _recipients(entries):
        mine = [entry for entry in entries if entry.recipient == recipient]
        lines.append(f"{recipient} received {_cards(len(mine))}:")
        lines.extend(f"  {entry.back} back   {entry.commitment.proof}" for entry in mine)
    lines += [
        "",
        "No other information about the Cards is given (rule 390).  Each commitment",
        "lets anyone check the Card once it is shown or returns to the Deck.",
    ]
    return "\n".join(lines) + "\n"


def render_deal_notice(recipient: PlayerName, card: Card, deal: DealCommitment) -> str:
    """The private notice of rule 387: the recipient is told what the Card is."""
    return (
        f"{recipient}, you were dealt the {card.name}, deal {deal.deal} "
        "(rule 387).  It is in your Hand; nobody else is told which Card it is."
    )


def _recipients(entries: Sequence[ReportEntry]) -> list[PlayerName]:
    seen: dict[PlayerName, None] = {}
    for entry in entries:
        seen.setdefault(entry.recipient)
    return list(seen)


def _cards(count: int) -> str:
    return "1 Card" if count == 1 else f"{count} Cards"
