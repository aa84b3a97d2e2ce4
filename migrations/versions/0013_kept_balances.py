"""balances kept as rows, written with each ledger entry; the indexes two reads lacked

Until now a balance was the sum of its holder's ``ledger_entry`` rows, read
through an index: a sum over every entry the holder ever had, so the
Store's balance (a purchase's check, rule 1911) and the Twiddler's display
(rule 21 A.2, every holder's sums) cost more each year of the game.  The
``balance`` table keeps each sum as a row, unique per player or entity and
currency, written in the same flush as each entry (``bot.engine.ledger``).

The nweek's Bandwidth reset (rule 212) asks which players it has reset at
its instant already (a replay or a restart may run it again): an index on
``ledger_entry.occurred_at`` answers that from the instant's few entries,
where the question read every entry of the game.

A player's addresses are read by player (``Player.addresses``, a Minister's
digest recipient, an address change, the roster's entries) with no index on
``player_address.player_id``: every such read scanned the addresses of
the whole roster.  ``ix_player_address_player_id`` is that index.

The upgrade fills the table from the ledger with one grouped sum; the
downgrade drops the table and the indexes, the ledger having been the record
all along.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27 07:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

ONE_HOLDER = (
    "(player_id IS NULL AND entity IS NOT NULL) OR (player_id IS NOT NULL AND entity IS NULL)"
)

ledger_entry = sa.table(
    "ledger_entry",
    sa.column("player_id", sa.Integer()),
    sa.column("entity", sa.String()),
    sa.column("currency", sa.String()),
    sa.column("amount", sa.Integer()),
)
balance = sa.table(
    "balance",
    sa.column("player_id", sa.Integer()),
    sa.column("entity", sa.String()),
    sa.column("currency", sa.String()),
    sa.column("amount", sa.Integer()),
)


def upgrade() -> None:
    op.create_table(
        "balance",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("entity", sa.String(length=200), nullable=True),
        sa.Column("currency", sa.String(length=50), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.CheckConstraint(ONE_HOLDER, name=op.f("ck_balance_one_holder")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_balance_player_id_player")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_balance")),
    )
    with op.batch_alter_table("balance", schema=None) as batch_op:
        batch_op.create_index(
            "ix_balance_entity_currency", ["entity", "currency"], unique=True
        )
        batch_op.create_index(
            "ix_balance_player_currency", ["player_id", "currency"], unique=True
        )
    with op.batch_alter_table("ledger_entry", schema=None) as batch_op:
        batch_op.create_index("ix_ledger_entry_occurred_at", ["occurred_at"], unique=False)
    with op.batch_alter_table("player_address", schema=None) as batch_op:
        batch_op.create_index("ix_player_address_player_id", ["player_id"], unique=False)
    sums = sa.select(
        ledger_entry.c.player_id,
        ledger_entry.c.entity,
        ledger_entry.c.currency,
        sa.func.sum(ledger_entry.c.amount),
    ).group_by(ledger_entry.c.player_id, ledger_entry.c.entity, ledger_entry.c.currency)
    op.get_bind().execute(
        balance.insert().from_select(["player_id", "entity", "currency", "amount"], sums)
    )


def downgrade() -> None:
    with op.batch_alter_table("player_address", schema=None) as batch_op:
        batch_op.drop_index("ix_player_address_player_id")
    with op.batch_alter_table("ledger_entry", schema=None) as batch_op:
        batch_op.drop_index("ix_ledger_entry_occurred_at")
    with op.batch_alter_table("balance", schema=None) as batch_op:
        batch_op.drop_index("ix_balance_player_currency")
        batch_op.drop_index("ix_balance_entity_currency")
    op.drop_table("balance")
