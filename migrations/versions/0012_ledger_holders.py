"""ledger entries of holders that are not players; the tildex the Basin created, by nweek

Rule 21 A.2: "All Players should be able to easily find out the amount of
Tildex any game entity possesses by consulting an available public
display".  A ledger entry now belongs to a player (``player_id``) or to an
entity that is no player (``entity``, its name: "the Store" of rule 1911),
exactly one of the two (a CHECK), with an index on ``(entity, currency)``
beside the players' one, so an entity's balance is an indexed sum too.

Rule 21 A.2: the Basin may "under no circumstances [...] create more than
10000 Tildex each nweek".  ``basin_nweek`` marks the entries of tildex the
Basin created with the nweek it created them in (indexed), so what it has
created in an nweek is an indexed sum.  Existing entries are left unmarked:
the Basin's count begins with this revision (the nweek in progress counts
only what it creates from now on).

The player's entries stay as they are.  The Store's tildex, until now one
``economy_record`` row of kind "till" (revision 0011), become one ledger
entry of the Store's, and the downgrade turns the Store's entries back into
that row.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26 10:30:00
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

STORE = "the Store"  # rule 1911's holder, as bot.games.store.rules.STORE_HOLDER names it
TILL = "till"  # the economy_record kind revision 0011 kept the Store's tildex in
ONE_HOLDER = (
    "(player_id IS NULL AND entity IS NOT NULL) OR (player_id IS NOT NULL AND entity IS NULL)"
)

ledger_entry = sa.table(
    "ledger_entry",
    sa.column("player_id", sa.Integer()),
    sa.column("entity", sa.String()),
    sa.column("currency", sa.String()),
    sa.column("amount", sa.Integer()),
    sa.column("source", sa.String()),
    sa.column("rule", sa.String()),
    sa.column("note", sa.Text()),
    sa.column("occurred_at", bot.store.models.UtcDateTime()),
)
economy_record = sa.table(
    "economy_record",
    sa.column("kind", sa.String()),
    sa.column("player", sa.String()),
    sa.column("data", sa.JSON()),
)


def upgrade() -> None:
    with op.batch_alter_table("ledger_entry", schema=None) as batch_op:
        batch_op.add_column(sa.Column("entity", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("basin_nweek", sa.Integer(), nullable=True))
        batch_op.alter_column("player_id", existing_type=sa.Integer(), nullable=True)
        batch_op.create_index("ix_ledger_entry_entity_currency", ["entity", "currency"])
        batch_op.create_index("ix_ledger_entry_basin_nweek", ["basin_nweek"])
        batch_op.create_check_constraint(op.f("ck_ledger_entry_one_holder"), ONE_HOLDER)
    _move_till_to_ledger()


def downgrade() -> None:
    _move_ledger_to_till()
    with op.batch_alter_table("ledger_entry", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_ledger_entry_one_holder"), type_="check")
        batch_op.drop_index("ix_ledger_entry_basin_nweek")
        batch_op.drop_index("ix_ledger_entry_entity_currency")
        batch_op.alter_column("player_id", existing_type=sa.Integer(), nullable=False)
        batch_op.drop_column("basin_nweek")
        batch_op.drop_column("entity")


def _move_till_to_ledger() -> None:
    # The till row kept no history, so the Store's balance becomes one entry
    # dated at the upgrade; a replay of the archive makes one per purchase.
    connection = op.get_bind()
    rows = connection.execute(sa.select(economy_record.c.data).where(economy_record.c.kind == TILL))
    held = sum(int(data) for (data,) in rows)
    if held:
        connection.execute(
            ledger_entry.insert().values(
                entity=STORE,
                currency="tildex",
                amount=held,
                source="admin",
                rule="1911",
                note="the tildex the Store held before the ledger kept them",
                occurred_at=datetime.now(UTC),
            )
        )
    connection.execute(economy_record.delete().where(economy_record.c.kind == TILL))


def _move_ledger_to_till() -> None:
    connection = op.get_bind()
    held = connection.scalar(
        sa.select(sa.func.coalesce(sa.func.sum(ledger_entry.c.amount), 0)).where(
            ledger_entry.c.entity == STORE, ledger_entry.c.currency == "tildex"
        )
    )
    if held:
        connection.execute(economy_record.insert().values(kind=TILL, player="", data=int(held)))
    # Revision 0011's ledger names players only: every other holder's entries go.
    connection.execute(ledger_entry.delete().where(ledger_entry.c.player_id.is_(None)))
