"""economy: the Drinks' and the Store's objects and records (rules 1911, 1913-1915)

An object that is neither a Plant nor a Fruit (a Drink, a Potion, a
Waterspout Concoction, a Bunny, an Arena Tool) is a row of
``economy_object``, indexed by number and holder; a smaller record (a
player's BAC, a Rainbow walk, a Bunny's target, a free Water Jet given,
the Store's tildex) a row of ``economy_record``.  New tables only.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "economy_object",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=50), nullable=False),
        sa.Column("category", sa.String(length=20), nullable=False),
        sa.Column("holder", sa.String(length=200), nullable=False),
        sa.Column("created_ndays", sa.Integer(), nullable=False),
        sa.Column("created_second", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_economy_object")),
    )
    with op.batch_alter_table("economy_object", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_economy_object_holder"), ["holder"], unique=False)
        batch_op.create_index(batch_op.f("ix_economy_object_number"), ["number"], unique=False)
    op.create_table(
        "economy_record",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("player", sa.String(length=200), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_economy_record")),
    )
    with op.batch_alter_table("economy_record", schema=None) as batch_op:
        batch_op.create_index("ix_economy_record_kind_player", ["kind", "player"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("economy_record", schema=None) as batch_op:
        batch_op.drop_index("ix_economy_record_kind_player")
    op.drop_table("economy_record")
    with op.batch_alter_table("economy_object", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_economy_object_number"))
        batch_op.drop_index(batch_op.f("ix_economy_object_holder"))
    op.drop_table("economy_object")
