"""player names looked up by index; when each open poll Concludes, in columns

Rule 2: names are unique whatever their case.  Registering and renaming
(rules 14, 151) compared the requested name with every player's, folded in
Python; ``player.name_folded`` keeps the folded name under a unique index,
so the comparison is one look-up.  Rule 151's former names move from the
JSON list ``player.former_names`` to rows of ``player_former_name``,
indexed by the folded name, so an old name in the archive is one look-up
too.

Rule 15: the scheduler asked before every post when the first open poll of
a kind Concludes, decoding each open poll with its Eligible Voters and
votes.  ``poll`` keeps what that needs in columns written with the poll:
when it was called, its deadline (in ndays, resolved through The Clock,
rule 3 A; or an instant) and the instant its flags concluded it early
(rule 15 B).  Existing rows are filled from their JSON.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26 08:00:00
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

import bot.store.models
from bot.games.governance.polls.conclusion import early_conclusion
from bot.games.governance.polls.durations import deadline_of
from bot.games.governance.polls.serialize import instant_from_text, poll_from_dict

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

player = sa.table(
    "player",
    sa.column("id", sa.Integer()),
    sa.column("name", sa.String()),
    sa.column("name_folded", sa.String()),
    sa.column("former_names", sa.JSON()),
)
former_name = sa.table(
    "player_former_name",
    sa.column("player_id", sa.Integer()),
    sa.column("name", sa.String()),
    sa.column("name_folded", sa.String()),
    sa.column("until", bot.store.models.UtcDateTime()),
)
poll = sa.table(
    "poll",
    sa.column("number", sa.Integer()),
    sa.column("state", sa.JSON()),
    sa.column("called_at", bot.store.models.UtcDateTime()),
    sa.column("deadline_ndays", sa.Integer()),
    sa.column("fixed_deadline", bot.store.models.UtcDateTime()),
    sa.column("early_conclusion", bot.store.models.UtcDateTime()),
)


def upgrade() -> None:
    op.create_table(
        "player_former_name",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("name_folded", sa.String(length=200), nullable=False),
        sa.Column("until", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_player_former_name_player_id_player")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_former_name")),
    )
    with op.batch_alter_table("player_former_name", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_player_former_name_name_folded"), ["name_folded"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_player_former_name_player_id"), ["player_id"], unique=False
        )
    # Native ALTERs, not a copy of the table: SQLite cannot drop ``player``
    # while the rows of other tables refer to it.  The column stays nullable
    # in the schema for that reason; every player row has one (``Player``).
    with op.batch_alter_table("player", schema=None, recreate="never") as batch_op:
        batch_op.add_column(sa.Column("name_folded", sa.String(length=200), nullable=True))
    move_names_up()
    with op.batch_alter_table("player", schema=None, recreate="never") as batch_op:
        batch_op.create_index(batch_op.f("ix_player_name_folded"), ["name_folded"], unique=True)
        batch_op.drop_column("former_names")
    with op.batch_alter_table("poll", schema=None) as batch_op:
        batch_op.add_column(sa.Column("called_at", bot.store.models.UtcDateTime(timezone=True)))
        batch_op.add_column(sa.Column("deadline_ndays", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("fixed_deadline", bot.store.models.UtcDateTime(timezone=True))
        )
        batch_op.add_column(
            sa.Column("early_conclusion", bot.store.models.UtcDateTime(timezone=True))
        )
    fill_poll_schedules()


def downgrade() -> None:
    with op.batch_alter_table("poll", schema=None) as batch_op:
        batch_op.drop_column("early_conclusion")
        batch_op.drop_column("fixed_deadline")
        batch_op.drop_column("deadline_ndays")
        batch_op.drop_column("called_at")
    with op.batch_alter_table("player", schema=None, recreate="never") as batch_op:
        batch_op.add_column(
            sa.Column("former_names", sa.JSON(), nullable=False, server_default="[]")
        )
    move_names_down()
    with op.batch_alter_table("player", schema=None, recreate="never") as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_name_folded"))
        batch_op.drop_column("name_folded")
    with op.batch_alter_table("player_former_name", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_former_name_player_id"))
        batch_op.drop_index(batch_op.f("ix_player_former_name_name_folded"))
    op.drop_table("player_former_name")


def move_names_up() -> None:
    """Each player's folded name, and each former name a row, oldest first."""
    connection = op.get_bind()
    rows = connection.execute(sa.select(player.c.id, player.c.name, player.c.former_names))
    formers: list[dict[str, Any]] = []
    for player_id, name, former_names in rows.all():
        connection.execute(
            player.update()
            .where(player.c.id == player_id)
            .values(name_folded=bot.store.models.folded_name(name))
        )
        formers.extend(
            {
                "player_id": player_id,
                "name": str(former["name"]),
                "name_folded": bot.store.models.folded_name(str(former["name"])),
                "until": instant_from_text(str(former["until"])),
            }
            for former in former_names or []
        )
    if formers:
        connection.execute(former_name.insert(), formers)


def move_names_down() -> None:
    connection = op.get_bind()
    held: dict[int, list[dict[str, str]]] = {}
    query = sa.select(former_name.c.player_id, former_name.c.name, former_name.c.until)
    for player_id, name, until in connection.execute(query.order_by(sa.text("id"))):
        held.setdefault(player_id, []).append({"name": name, "until": until.isoformat()})
    for player_id, former_names in held.items():
        connection.execute(
            player.update().where(player.c.id == player_id).values(former_names=former_names)
        )


def fill_poll_schedules() -> None:
    """The columns of when each open poll Concludes, from its JSON (as ``save_poll`` writes)."""
    connection = op.get_bind()
    for number, state in connection.execute(sa.select(poll.c.number, poll.c.state)).all():
        stored = poll_from_dict(dict(state["poll"]))
        ndays = state.get("deadline_ndays")
        fixed = deadline_of(stored.duration, stored.called_at) if ndays is None else None
        connection.execute(
            poll.update()
            .where(poll.c.number == number)
            .values(
                called_at=stored.called_at,
                deadline_ndays=ndays,
                fixed_deadline=fixed,
                early_conclusion=early_conclusion(stored),
            )
        )
