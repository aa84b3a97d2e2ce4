"""rule changes: Clock switches and rule settings from an instant on

A setting that is part of the rules (the Clock On or Off, rule 3 A; a Go
board size or price; Bandwidth amounts) changes by an admin record in the
list archive, from the instant it names; the configuration file holds only
the starting values.  One row per change, read by setting and instant.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 19:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rule_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("setting", sa.String(length=100), nullable=False),
        sa.Column("value", sa.JSON(), nullable=False),
        sa.Column("effective_at", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.Column("record_id", sa.String(length=32), nullable=False),
        sa.Column("recorded_at", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rule_change")),
    )
    with op.batch_alter_table("rule_change", schema=None) as batch_op:
        batch_op.create_index(
            "ix_rule_change_setting_effective", ["setting", "effective_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("rule_change", schema=None) as batch_op:
        batch_op.drop_index("ix_rule_change_setting_effective")
    op.drop_table("rule_change")
