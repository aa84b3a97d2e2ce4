"""initial schema

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clock_mark",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("handled_until", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clock_mark")),
    )
    op.create_table(
        "dice_seed",
        sa.Column("nweek", sa.Integer(), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("revealed_seed", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("nweek", name=op.f("pk_dice_seed")),
    )
    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=50), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game")),
        sa.UniqueConstraint("name", name=op.f("uq_game_name")),
    )
    op.create_table(
        "imap_cursor",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(length=500), nullable=False),
        sa.Column("uidvalidity", sa.Integer(), nullable=False),
        sa.Column("last_uid", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_imap_cursor")),
        sa.UniqueConstraint("account", name="uq_imap_cursor_account"),
    )
    op.create_table(
        "message",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(length=998), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.String(length=20), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("status_reason", sa.Text(), nullable=False),
        sa.Column("sender", sa.String(length=320), nullable=False),
        sa.Column("subject", sa.Text(), nullable=False),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_message")),
        sa.UniqueConstraint("message_id", name=op.f("uq_message_message_id")),
    )
    with op.batch_alter_table("message", schema=None) as batch_op:
        batch_op.create_index(
            "ix_message_status_arrival", ["status", "received_at", "id"], unique=False
        )

    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("origin", sa.String(length=20), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
        sa.UniqueConstraint("name", name=op.f("uq_player_name")),
    )
    op.create_table(
        "action_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_pk", sa.Integer(), nullable=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=100), nullable=False),
        sa.Column("args", sa.JSON(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("ruling", sa.String(length=20), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("rule", sa.String(length=50), nullable=False),
        sa.Column("draws", sa.JSON(), nullable=False),
        sa.Column("ntime", sa.String(length=60), nullable=False),
        sa.Column("occurred_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["message_pk"], ["message.id"], name=op.f("fk_action_log_message_pk_message")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_action_log_player_id_player")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_action_log")),
    )
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(length=998), nullable=False),
        sa.Column("in_reply_to_pk", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("recipients", sa.JSON(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["in_reply_to_pk"], ["message.id"], name=op.f("fk_outbox_in_reply_to_pk_message")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
        sa.UniqueConstraint("message_id", name=op.f("uq_outbox_message_id")),
    )
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.create_index("ix_outbox_status_due", ["status", "next_attempt_at"], unique=False)

    op.create_table(
        "player_address",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=320), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_player_address_player_id_player")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_address")),
        sa.UniqueConstraint("address", name=op.f("uq_player_address_address")),
    )
    op.create_table(
        "shunt",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_pk", sa.Integer(), nullable=False),
        sa.Column("traceback", sa.Text(), nullable=False),
        sa.Column("shunted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("requeued_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["message_pk"], ["message.id"], name=op.f("fk_shunt_message_pk_message")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_shunt")),
    )


def downgrade() -> None:
    op.drop_table("shunt")
    op.drop_table("player_address")
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_outbox_status_due")

    op.drop_table("outbox")
    op.drop_table("action_log")
    op.drop_table("player")
    with op.batch_alter_table("message", schema=None) as batch_op:
        batch_op.drop_index("ix_message_status_arrival")

    op.drop_table("message")
    op.drop_table("imap_cursor")
    op.drop_table("game")
    op.drop_table("dice_seed")
    op.drop_table("clock_mark")
