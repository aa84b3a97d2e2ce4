"""objects and transfers: game objects that are not currencies, and their log

A Card, a Chip, a Handy Pack (later Seeds, Fruits, Potions) is one row of
``game_object``: its type, its holder (a player by id, or an entity such as
the Deck), its location and attributes, updated when it moves and indexed
by holder, so a statement reads only the holder's rows.  ``object_event``
is the append-only log beside the ledger: each creation, transfer, move,
change and destruction with its post (or admin record) and rule.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 22:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_object",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("object_type", sa.String(length=50), nullable=False),
        sa.Column("holder_kind", sa.String(length=30), nullable=False),
        sa.Column("holder", sa.String(length=200), nullable=False),
        sa.Column("location", sa.String(length=200), nullable=False),
        sa.Column("attributes", sa.JSON(), nullable=False),
        sa.Column("created_at", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.Column("destroyed_at", bot.store.models.UtcDateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_object")),
    )
    with op.batch_alter_table("game_object", schema=None) as batch_op:
        batch_op.create_index(
            "ix_game_object_holder_type", ["holder_kind", "holder", "object_type"], unique=False
        )
        batch_op.create_index("ix_game_object_type", ["object_type"], unique=False)
    op.create_table(
        "object_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("object_id", sa.Integer(), nullable=False),
        sa.Column("change", sa.String(length=20), nullable=False),
        sa.Column("from_kind", sa.String(length=30), nullable=False),
        sa.Column("from_holder", sa.String(length=200), nullable=False),
        sa.Column("to_kind", sa.String(length=30), nullable=False),
        sa.Column("to_holder", sa.String(length=200), nullable=False),
        sa.Column("location", sa.String(length=200), nullable=False),
        sa.Column("attributes", sa.JSON(), nullable=False),
        sa.Column("message_pk", sa.Integer(), nullable=True),
        sa.Column("source", sa.String(length=20), nullable=False),
        sa.Column("rule", sa.String(length=50), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("occurred_at", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["message_pk"], ["message.id"], name=op.f("fk_object_event_message_pk_message")
        ),
        sa.ForeignKeyConstraint(
            ["object_id"], ["game_object.id"], name=op.f("fk_object_event_object_id_game_object")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_object_event")),
    )
    with op.batch_alter_table("object_event", schema=None) as batch_op:
        batch_op.create_index("ix_object_event_object", ["object_id", "id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("object_event", schema=None) as batch_op:
        batch_op.drop_index("ix_object_event_object")
    op.drop_table("object_event")
    with op.batch_alter_table("game_object", schema=None) as batch_op:
        batch_op.drop_index("ix_game_object_type")
        batch_op.drop_index("ix_game_object_holder_type")
    op.drop_table("game_object")
