"""shunted timed events: a scheduler handler that raised, kept to be run again

A timed event (an nweek's Bandwidth reset, a poll's close, a digest) whose
handler raises no longer blocks the posts behind it: the scheduler records
the handler, the interval it was run over and the traceback here, and goes
on.  ``nomicbot shunted`` lists these rows; ``nomicbot shunted requeue
--event N`` queues one to be run again by the worker.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25 12:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'shunted_event',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('handler', sa.String(length=200), nullable=False),
        sa.Column('due_after', bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.Column('due_until', bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('failures', sa.Integer(), nullable=False),
        sa.Column('error', sa.Text(), nullable=False),
        sa.Column('traceback', sa.Text(), nullable=False),
        sa.Column('shunted_at', bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.Column('requeued_at', bot.store.models.UtcDateTime(timezone=True), nullable=True),
        sa.Column('done_at', bot.store.models.UtcDateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_shunted_event')),
    )
    with op.batch_alter_table('shunted_event', schema=None) as batch_op:
        batch_op.create_index(
            'ix_shunted_event_status_due', ['status', 'due_until'], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table('shunted_event', schema=None) as batch_op:
        batch_op.drop_index('ix_shunted_event_status_due')
    op.drop_table('shunted_event')
