"""go position history: the ko history leaves the game's JSON state

A game stored before this keeps its history in its JSON until its next
Move, when the engine writes the positions here and the JSON without them.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op



revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('go_position',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=50), nullable=False),
    sa.Column('move_number', sa.Integer(), nullable=False),
    sa.Column('occupancy', sa.String(length=200), nullable=False),
    sa.Column('board', sa.Text(), nullable=False),
    sa.Column('alliances', sa.JSON(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_go_position'))
    )
    with op.batch_alter_table('go_position', schema=None) as batch_op:
        batch_op.create_index('ix_go_position_game_occupancy', ['game', 'occupancy'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('go_position', schema=None) as batch_op:
        batch_op.drop_index('ix_go_position_game_occupancy')

    op.drop_table('go_position')
