"""Rule 636's permissions as records: who let whom do what, until when.

Rule 636 (seed 004): "Unless otherwise explicitly permitted by the rules, no
player may modify the state of any object in possession of another player,
without the other player's explicit permission in a public forum."  Some
rules read the permission even where they allow the act: picking from
another player's Garden "without that player's permission" gives the owner a
Free Throw (rule 1908 B.3).  A ``Permission`` is one such statement: its
grantor, grantee, scope (an action kind, "pick"), and how long it lasts.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.economy.moments import Moment
from bot.games.economy.quotas import PlayerKey
from bot.games.errors import IllegalActionError

RULE_PERMISSION = "636"


@dataclass(frozen=True)
class Permission:
    """``grantor`` lets ``grantee`` do ``scope`` from ``begins`` until ``ends`` (None: for good)."""

    grantor: PlayerKey
    grantee: PlayerKey
    scope: str
    begins: Moment
    ends: Moment | None = None

    def in_force(self, at: Moment) -> bool:
        return self.begins <= at and (self.ends is None or at < self.ends)


@dataclass(frozen=True)
class Permissions:
    """Every permission given, in the order given."""

    items: tuple[Permission, ...] = ()

    def granted(self, permission: Permission) -> Permissions:
        """Raises ``IllegalActionError`` for a permission to oneself (nothing to permit)."""
        if permission.grantor == permission.grantee:
            raise IllegalActionError("you need no permission of your own", rule=RULE_PERMISSION)
        return Permissions((*self.items, permission))

    def withdrawn(
        self, grantor: PlayerKey, grantee: PlayerKey, scope: str, at: Moment
    ) -> Permissions:
        """Every permission of ``grantor`` to ``grantee`` for ``scope`` ends at ``at``."""
        kept = []
        for permission in self.items:
            same = (permission.grantor, permission.grantee, permission.scope) == (
                grantor,
                grantee,
                scope,
            )
            if same and permission.in_force(at):
                ends = at if permission.begins < at else None
                if ends is None:
                    continue  # withdrawn the instant it began: as if never given
                permission = Permission(grantor, grantee, scope, permission.begins, ends)
            kept.append(permission)
        return Permissions(tuple(kept))

    def allows(self, grantor: PlayerKey, grantee: PlayerKey, scope: str, at: Moment) -> bool:
        return any(
            (p.grantor, p.grantee, p.scope) == (grantor, grantee, scope) and p.in_force(at)
            for p in self.items
        )

    def without_expired(self, at: Moment) -> Permissions:
        return Permissions(tuple(p for p in self.items if p.ends is None or at < p.ends))
