"""Who holds which Ministry, and eir Deputies (rules 625 and 1272, seed 004).

Seeded from ``settings.ministries`` the first time it is read, then changed
by election results and by Ministers' posts about Deputies.  Kept as JSON in
the ``game`` row named ``ministries`` (no table of its own).

A Ministry is named by its name in the configuration, with or without
"the" and "Ministry of" / "Minister of" ("Minister of Justice", "Justice"),
or by its Minister's title in rule 625 D ("the Attorney Generalist").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.config import MinistryEntry
from bot.games.errors import AmbiguousActionError, IllegalActionError
from bot.games.lost_souls import lost_soul_label
from bot.store.models import GameRecord

RECORD_NAME = "ministries"
META_MINISTRY = "meta-ministry"
# Rule 625 D: "its Minister may be referred to as ..." (title -> the Ministry's key).
TITLES = {
    "kurt godel": META_MINISTRY,
    "godel": META_MINISTRY,
    "attorney generalist": "justice",
    "chauncey": "forking paths",
    "twiddler": "twiddles",
    "gm": "rules",
    "weaver": "webministry",
    "adept": "arcana",
    "chairman": "change",
    "dealer": "cards",
    "gamekeeper": "board",
    "ref": "arena",
}
PREFIXES = ("the ", "ministry of ", "minister of ", "ministry for ", "minister for ", "the ")


@dataclass(frozen=True)
class Ministry:
    """One Ministry (rule 625 A): "a Ministry that is not held by any player is said to be Open".

    ``open_since`` is when it last became Open (None while held, or when it
    has been Open since before the bot kept the list); ``last_holder`` who
    held it then; ``rotated_nweek`` the zero-based nweek of its last Ministry
    Rotation (rule 625 B).
    """

    name: str
    holder: str | None = None
    deputies: tuple[str, ...] = ()
    open_since: datetime | None = None
    last_holder: str | None = None
    rotated_nweek: int | None = None

    @property
    def is_open(self) -> bool:
        return self.holder is None

    @property
    def key(self) -> str:
        return ministry_key(self.name)


@dataclass(frozen=True)
class Ministries:
    items: tuple[Ministry, ...]
    created_nweek: int  # when the bot began keeping the list (see ``needs_rotation``)

    def named(self, text: str) -> Ministry:
        """The Ministry ``text`` names.

        Raises ``IllegalActionError`` (rule 625 D) when none does and
        ``AmbiguousActionError`` when several do.
        """
        wanted = TITLES.get(ministry_key(text), ministry_key(text))
        exact = [item for item in self.items if item.key == wanted]
        partial = [item for item in self.items if item.key.startswith(wanted)]
        found = exact or partial
        if not found:
            known = ", ".join(item.name for item in self.items) or "none are configured"
            raise IllegalActionError(
                f'there is no Ministry "{text}" (Ministries: {known})', rule="625 D"
            )
        if len(found) > 1:
            names = ", ".join(item.name for item in found)
            raise AmbiguousActionError(f'"{text}" could mean any of: {names}', rule="625 D")
        return found[0]

    def with_ministry(self, ministry: Ministry) -> Ministries:
        items = tuple(ministry if item.name == ministry.name else item for item in self.items)
        return replace(self, items=items)

    def held_by(self, player: str) -> tuple[Ministry, ...]:
        return tuple(item for item in self.items if item.holder == player)


def ministry_key(text: str) -> str:
    """``"the Minister of the Roster"`` -> ``"roster"``: how names are compared."""
    key = " ".join(text.replace("’", "'").split()).casefold()
    for prefix in PREFIXES:
        key = key.removeprefix(prefix)
    return key.removeprefix("the ")


def seeded(entries: Sequence[MinistryEntry], nweek: int) -> Ministries:
    """The configured Ministries; a holder named there holds it from the start."""
    items = tuple(
        Ministry(entry.ministry, entry.holder or None, tuple(entry.deputies), None, entry.holder)
        for entry in entries
    )
    return Ministries(items, nweek)


def elected(ministry: Ministry, winner: str) -> Ministry:
    """The Ministry once ``winner`` is selected by its Election.

    Rule 1272: Deputies act for "the Ministers who designate them", so a
    new Minister starts without Deputies (the same Minister keeps eirs).
    """
    deputies = ministry.deputies if winner == ministry.holder else ()
    return replace(ministry, holder=winner, deputies=deputies, open_since=None, last_holder=winner)


# -- storage ----------------------------------------------------------------


def load_ministries(
    session: Session, entries: Sequence[MinistryEntry], nweek: int
) -> tuple[GameRecord | None, Ministries]:
    record = session.scalar(select(GameRecord).where(GameRecord.name == RECORD_NAME))
    if record is None or not record.state:
        return record, seeded(entries, nweek)
    return record, ministries_from_json(record.state)


def save_ministries(
    session: Session, record: GameRecord | None, ministries: Ministries
) -> GameRecord:
    if record is None:
        record = GameRecord(name=RECORD_NAME, state={}, version=0)
        session.add(record)
    record.state = ministries_to_json(ministries)
    record.version += 1
    return record


def ministries_to_json(ministries: Ministries) -> dict[str, Any]:
    return {
        "created_nweek": ministries.created_nweek,
        "ministries": [
            {
                "name": item.name,
                "holder": item.holder,
                "deputies": list(item.deputies),
                "open_since": item.open_since.isoformat() if item.open_since else None,
                "last_holder": item.last_holder,
                "rotated_nweek": item.rotated_nweek,
            }
            for item in ministries.items
        ],
    }


def ministries_from_json(data: dict[str, Any]) -> Ministries:
    items = tuple(
        Ministry(
            name=str(item["name"]),
            holder=item["holder"],
            deputies=tuple(item["deputies"]),
            open_since=datetime.fromisoformat(item["open_since"]) if item["open_since"] else None,
            last_holder=item["last_holder"],
            rotated_nweek=item["rotated_nweek"],
        )
        for item in data["ministries"]
    )
    return Ministries(items, int(data["created_nweek"]))


def renamed_ministries(ministries: Ministries, old: str, new: str) -> Ministries:
    """``ministries`` with the player ``old`` called ``new`` (rule 151: the same player).

    E keeps the Ministries e holds, eir Deputyhoods, and rule 625 B's
    "held within the last five ndays" (``last_holder``).
    """

    def swap(name: str | None) -> str | None:
        return new if name == old else name

    items = tuple(
        replace(
            item,
            holder=swap(item.holder),
            deputies=tuple(new if deputy == old else deputy for deputy in item.deputies),
            last_holder=swap(item.last_holder),
        )
        for item in ministries.items
    )
    return replace(ministries, items=items)


def forfeited_ministries(
    ministries: Ministries, name: str, at: datetime
) -> tuple[Ministries, tuple[str, ...]]:
    """``ministries`` after ``name`` forfeited (rule 14), and what changed, in words.

    Rule 625 A: a Ministry "may be held by a single player", so each one e
    held is Open from ``at``; rule 625 B's five ndays run from then, and its
    last holder is kept as a Lost Soul's (``lost_soul_label``), so nobody,
    e on rejoining included, counts as "emself".  Its Deputies lose their
    Deputyhood with it: rule 1272 empowers them only for "the Ministers who
    designate them".  Rule 1272's Deputies are players, so e is no longer a
    Deputy anywhere.
    """
    notes: list[str] = []
    items: list[Ministry] = []
    for item in ministries.items:
        if item.holder == name:
            if item.deputies:
                deputies = ", ".join(item.deputies)
                one = len(item.deputies) == 1
                status = "is no longer a Deputy" if one else "are no longer Deputies"
                notes.append(
                    f"{item.name} is Open (rule 625 A) and {deputies} {status} for it (rule 1272)"
                )
            else:
                notes.append(f"{item.name} is Open (rule 625 A)")
            item = replace(
                item, holder=None, deputies=(), open_since=at, last_holder=lost_soul_label(name)
            )
        elif name in item.deputies:
            notes.append(f"e is no longer a Deputy for {item.name} (rule 1272)")
            item = replace(item, deputies=tuple(d for d in item.deputies if d != name))
        items.append(item)
    return replace(ministries, items=tuple(items)), tuple(notes)


# -- Deputies (rule 1272) -------------------------------------------------------


def designate_deputy(ministry: Ministry, minister: str, deputy: str) -> Ministry:
    """Rule 1272: "A Minister may designate any player as eir Deputy".

    Raises ``IllegalActionError`` when ``minister`` does not hold the Ministry
    or ``deputy`` is already one of its Deputies.
    """
    check_minister(ministry, minister)
    if deputy in ministry.deputies:
        raise IllegalActionError(f"{deputy} is already a Deputy for {ministry.name}", rule="1272")
    return replace(ministry, deputies=(*ministry.deputies, deputy))


def revoke_deputy(ministry: Ministry, minister: str, deputy: str) -> Ministry:
    """Rule 1272: "A Minister may revoke a Player's Deputyhood at any time for any reason"."""
    check_minister(ministry, minister)
    return without_deputy(ministry, deputy)


def without_deputy(ministry: Ministry, deputy: str) -> Ministry:
    """Raises ``IllegalActionError`` when ``deputy`` is not a Deputy for ``ministry``."""
    if deputy not in ministry.deputies:
        raise IllegalActionError(f"{deputy} is not a Deputy for {ministry.name}", rule="1272")
    return replace(ministry, deputies=tuple(d for d in ministry.deputies if d != deputy))


def check_minister(ministry: Ministry, player: str) -> None:
    if ministry.holder != player:
        holder = ministry.holder or "nobody (it is Open)"
        raise IllegalActionError(
            f"only the Minister may do that; {ministry.name} is held by {holder}", rule="1272"
        )


# -- the view -------------------------------------------------------------------


def describe_ministry(ministry: Ministry) -> str:
    holder = ministry.holder or "Open"
    deputies = f"; Deputies: {', '.join(ministry.deputies)}" if ministry.deputies else ""
    rotated = (
        f"; last rotated in nweek {ministry.rotated_nweek + 1}"
        if ministry.rotated_nweek is not None
        else ""
    )
    return f"{ministry.name}: {holder}{deputies}{rotated}"


def ministries_view(
    session: Session, entries: Sequence[MinistryEntry], nweek: int
) -> tuple[str, dict[str, Any]]:
    """``nomicbot state ministries``: Kurt Godel's list (rule 625 D.2)."""
    _record, ministries = load_ministries(session, entries, nweek)
    text = "\n".join(describe_ministry(item) for item in ministries.items)
    return text or "no Ministries are configured", ministries_to_json(ministries)
