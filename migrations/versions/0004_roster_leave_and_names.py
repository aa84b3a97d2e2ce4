"""the roster: On Leave, the nweek a player last left, former names

Rule 205 (seed 004): every player is On Leave or Off Leave; existing players
are Off Leave.  Rule 212: a player who re-enters in the nweek e left in gets
0BW, so ``left_nweek`` keeps the zero-based nweek of the last departure
(unknown, NULL, for earlier departures).  Rule 151: ``former_names`` keeps
the names a player gave up, so the archive's old names still resolve.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-21 20:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('on_leave', sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(sa.Column('left_nweek', sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column('former_names', sa.JSON(), nullable=False, server_default='[]')
        )


def downgrade() -> None:
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('former_names')
        batch_op.drop_column('left_nweek')
        batch_op.drop_column('on_leave')
