"""gardens: the Plants, Fruit and records of rules 1902, 1908 and 1909 as rows

The Gardens' state is rows, not one document: a living Plant or Fruit is a
row of ``garden_plant`` or ``garden_fruit``, indexed by Garden, Plant and
holder; a rule 636 permission a row of ``garden_permission`` and a Free
Throw one of ``garden_free_throw``, indexed by their two players; every
other record (a player's Garden, a watering payment, the picks of a
Checking Period, a lasting effect, a quota's count) a row of
``garden_record``.  New tables only.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26 08:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "garden_plant",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=50), nullable=False),
        sa.Column("garden", sa.String(length=200), nullable=False),
        sa.Column("planted_ndays", sa.Integer(), nullable=False),
        sa.Column("planted_second", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_garden_plant")),
    )
    with op.batch_alter_table("garden_plant", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_garden_plant_garden"), ["garden"], unique=False)
        batch_op.create_index(batch_op.f("ix_garden_plant_number"), ["number"], unique=False)
    op.create_table(
        "garden_fruit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=50), nullable=False),
        sa.Column("created_ndays", sa.Integer(), nullable=False),
        sa.Column("created_second", sa.Integer(), nullable=False),
        sa.Column("plant", sa.Integer(), nullable=True),
        sa.Column("holder", sa.String(length=200), nullable=True),
        sa.Column("rotten", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_garden_fruit")),
    )
    with op.batch_alter_table("garden_fruit", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_garden_fruit_holder"), ["holder"], unique=False)
        batch_op.create_index(batch_op.f("ix_garden_fruit_number"), ["number"], unique=False)
        batch_op.create_index(batch_op.f("ix_garden_fruit_plant"), ["plant"], unique=False)
    op.create_table(
        "garden_permission",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("grantor", sa.String(length=200), nullable=False),
        sa.Column("grantee", sa.String(length=200), nullable=False),
        sa.Column("scope", sa.String(length=50), nullable=False),
        sa.Column("begins_ndays", sa.Integer(), nullable=False),
        sa.Column("begins_second", sa.Integer(), nullable=False),
        sa.Column("ends_ndays", sa.Integer(), nullable=True),
        sa.Column("ends_second", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_garden_permission")),
    )
    with op.batch_alter_table("garden_permission", schema=None) as batch_op:
        batch_op.create_index(
            "ix_garden_permission_grantor_grantee", ["grantor", "grantee"], unique=False
        )
    op.create_table(
        "garden_free_throw",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(length=200), nullable=False),
        sa.Column("picker", sa.String(length=200), nullable=False),
        sa.Column("expires_ndays", sa.Integer(), nullable=False),
        sa.Column("expires_second", sa.Integer(), nullable=False),
        sa.Column("cause", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_garden_free_throw")),
    )
    with op.batch_alter_table("garden_free_throw", schema=None) as batch_op:
        batch_op.create_index("ix_garden_free_throw_owner_picker", ["owner", "picker"], unique=False)
    op.create_table(
        "garden_record",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("player", sa.String(length=200), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_garden_record")),
    )
    with op.batch_alter_table("garden_record", schema=None) as batch_op:
        batch_op.create_index("ix_garden_record_kind_player", ["kind", "player"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("garden_record", schema=None) as batch_op:
        batch_op.drop_index("ix_garden_record_kind_player")
    op.drop_table("garden_record")
    with op.batch_alter_table("garden_free_throw", schema=None) as batch_op:
        batch_op.drop_index("ix_garden_free_throw_owner_picker")
    op.drop_table("garden_free_throw")
    with op.batch_alter_table("garden_permission", schema=None) as batch_op:
        batch_op.drop_index("ix_garden_permission_grantor_grantee")
    op.drop_table("garden_permission")
    with op.batch_alter_table("garden_fruit", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_garden_fruit_plant"))
        batch_op.drop_index(batch_op.f("ix_garden_fruit_number"))
        batch_op.drop_index(batch_op.f("ix_garden_fruit_holder"))
    op.drop_table("garden_fruit")
    with op.batch_alter_table("garden_plant", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_garden_plant_number"))
        batch_op.drop_index(batch_op.f("ix_garden_plant_garden"))
    op.drop_table("garden_plant")
