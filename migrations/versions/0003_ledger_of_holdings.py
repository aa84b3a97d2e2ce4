"""ledger of holdings, and the effects of each logged action

The ledger holds one append-only entry per change to a player's points:
Political Go under A Nomic's rules (seed 002) buys and sells Stones for
points (rules 374, 377); every later currency joins the same table.

``action_log.effects`` records what an action changed (for Go, each point
placed or captured), so "which post changed q16" is a query, not a replay.
Existing rows get an empty list.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21 17:18:01.011385
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import bot.store.models


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('action_log', schema=None) as batch_op:
        batch_op.add_column(sa.Column('effects', sa.JSON(), nullable=False, server_default='[]'))
    op.create_table('ledger_entry',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('currency', sa.String(length=50), nullable=False),
    sa.Column('amount', sa.Integer(), nullable=False),
    sa.Column('message_pk', sa.Integer(), nullable=True),
    sa.Column('source', sa.String(length=20), nullable=False),
    sa.Column('rule', sa.String(length=50), nullable=False),
    sa.Column('note', sa.Text(), nullable=False),
    sa.Column('occurred_at', bot.store.models.UtcDateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['message_pk'], ['message.id'], name=op.f('fk_ledger_entry_message_pk_message')),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_ledger_entry_player_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ledger_entry'))
    )
    with op.batch_alter_table('ledger_entry', schema=None) as batch_op:
        batch_op.create_index('ix_ledger_entry_player_currency', ['player_id', 'currency'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('ledger_entry', schema=None) as batch_op:
        batch_op.drop_index('ix_ledger_entry_player_currency')

    op.drop_table('ledger_entry')
    with op.batch_alter_table('action_log', schema=None) as batch_op:
        batch_op.drop_column('effects')
