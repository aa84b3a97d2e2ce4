"""governance rows: proposals, Ballots, polls, CFIs and Elections a row each

Until now the proposal book and the election book were each one JSON
document in the ``game`` table (rows ``proposals`` and ``elections``)
holding every item ever, decoded and rewritten whole by every post that
touched them and read by the scheduler before every post; polls and CFIs
were ``game`` rows ``poll-<n>`` and ``cfi-<n>`` found with ``LIKE``.  Each
item becomes a row of its own table with what the hot path looks it up by
indexed: whether a proposal is current (rule 151), a Ballot or a poll is
open, an Election in progress, the poll of a CFI; an Election's ballots
are rows of their own, indexed by Election and voter.  The data moves as it
is: each item's JSON is the one the documents held, unchanged.  The
counters ``polls`` and ``cfis`` stay in ``game``.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26 02:00:00
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

# Rule 151's current proposals: not yet decided.
CURRENT_STATUSES = frozenset({"submitted", "on the Ballot", "shelved"})

game = sa.table(
    "game",
    sa.column("id", sa.Integer()),
    sa.column("name", sa.String()),
    sa.column("state", sa.JSON()),
    sa.column("version", sa.Integer()),
)
proposal = sa.table(
    "proposal",
    sa.column("serial", sa.Integer()),
    sa.column("current", sa.Boolean()),
    sa.column("state", sa.JSON()),
)
proposal_ballot = sa.table(
    "proposal_ballot",
    sa.column("nweek", sa.Integer()),
    sa.column("is_open", sa.Boolean()),
    sa.column("state", sa.JSON()),
)
poll = sa.table(
    "poll",
    sa.column("number", sa.Integer()),
    sa.column("kind", sa.String()),
    sa.column("is_open", sa.Boolean()),
    sa.column("state", sa.JSON()),
)
cfi = sa.table(
    "cfi",
    sa.column("number", sa.Integer()),
    sa.column("poll_number", sa.Integer()),
    sa.column("state", sa.JSON()),
)
election = sa.table(
    "election",
    sa.column("number", sa.Integer()),
    sa.column("in_progress", sa.Boolean()),
    sa.column("state", sa.JSON()),
)
election_ballot = sa.table(
    "election_ballot",
    sa.column("id", sa.Integer()),
    sa.column("election_number", sa.Integer()),
    sa.column("voter", sa.String()),
    sa.column("choices", sa.JSON()),
    sa.column("cast_at", bot.store.models.UtcDateTime(timezone=True)),
    sa.column("message_id", sa.String()),
)


def upgrade() -> None:
    create_tables()
    move_into_rows()


def downgrade() -> None:
    move_into_documents()
    drop_tables()


# -- the tables ----------------------------------------------------------------------


def create_tables() -> None:
    op.create_table(
        "proposal",
        sa.Column("serial", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("current", sa.Boolean(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("serial", name=op.f("pk_proposal")),
    )
    with op.batch_alter_table("proposal", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_proposal_current"), ["current"], unique=False)
    op.create_table(
        "proposal_ballot",
        sa.Column("nweek", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("is_open", sa.Boolean(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("nweek", name=op.f("pk_proposal_ballot")),
    )
    with op.batch_alter_table("proposal_ballot", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_proposal_ballot_is_open"), ["is_open"], unique=False)
    op.create_table(
        "poll",
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("is_open", sa.Boolean(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("number", name=op.f("pk_poll")),
    )
    with op.batch_alter_table("poll", schema=None) as batch_op:
        batch_op.create_index("ix_poll_kind_open", ["kind", "is_open"], unique=False)
    op.create_table(
        "cfi",
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("poll_number", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("number", name=op.f("pk_cfi")),
        sa.UniqueConstraint("poll_number", name=op.f("uq_cfi_poll_number")),
    )
    op.create_table(
        "election",
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("in_progress", sa.Boolean(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("number", name=op.f("pk_election")),
    )
    with op.batch_alter_table("election", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_election_in_progress"), ["in_progress"], unique=False)
    op.create_table(
        "election_ballot",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("election_number", sa.Integer(), nullable=False),
        sa.Column("voter", sa.String(length=200), nullable=False),
        sa.Column("choices", sa.JSON(), nullable=False),
        sa.Column("cast_at", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.Column("message_id", sa.String(length=998), nullable=False),
        sa.ForeignKeyConstraint(
            ["election_number"],
            ["election.number"],
            name=op.f("fk_election_ballot_election_number_election"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_election_ballot")),
    )
    with op.batch_alter_table("election_ballot", schema=None) as batch_op:
        batch_op.create_index(
            "ix_election_ballot_election_voter", ["election_number", "voter"], unique=False
        )


def drop_tables() -> None:
    with op.batch_alter_table("election_ballot", schema=None) as batch_op:
        batch_op.drop_index("ix_election_ballot_election_voter")
    op.drop_table("election_ballot")
    with op.batch_alter_table("election", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_election_in_progress"))
    op.drop_table("election")
    op.drop_table("cfi")
    with op.batch_alter_table("poll", schema=None) as batch_op:
        batch_op.drop_index("ix_poll_kind_open")
    op.drop_table("poll")
    with op.batch_alter_table("proposal_ballot", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_proposal_ballot_is_open"))
    op.drop_table("proposal_ballot")
    with op.batch_alter_table("proposal", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_proposal_current"))
    op.drop_table("proposal")


# -- the data ----------------------------------------------------------------------------


def move_into_rows() -> None:
    connection = op.get_bind()
    documents = {
        name: state for name, state in connection.execute(sa.select(game.c.name, game.c.state))
    }
    proposals_document = documents.get("proposals") or {}
    for item in proposals_document.get("proposals", []):
        current = item["status"] in CURRENT_STATUSES
        connection.execute(
            proposal.insert().values(serial=item["serial"], current=current, state=item)
        )
    for item in proposals_document.get("ballots", []):
        is_open = item.get("closed_at") is None
        connection.execute(
            proposal_ballot.insert().values(nweek=item["nweek"], is_open=is_open, state=item)
        )
    for item in (documents.get("elections") or {}).get("elections", []):
        head = {key: value for key, value in item.items() if key != "ballots"}
        in_progress = item["phase"] != "closed"
        connection.execute(
            election.insert().values(number=item["number"], in_progress=in_progress, state=head)
        )
        for voter, choices, at, message_id in item.get("ballots", []):
            values = {"election_number": item["number"], "voter": voter, "choices": choices}
            cast_at = datetime.fromisoformat(at)
            connection.execute(
                election_ballot.insert().values(**values, cast_at=cast_at, message_id=message_id)
            )
    for name, state in documents.items():
        if name.startswith("poll-"):
            is_open = state.get("closed_at") is None
            values = {"number": state["number"], "kind": state["kind"], "is_open": is_open}
            connection.execute(poll.insert().values(**values, state=state))
        elif name.startswith("cfi-"):
            values = {"number": state["number"], "poll_number": state["poll_number"]}
            connection.execute(cfi.insert().values(**values, state=state))
    moved = game.c.name.in_(["proposals", "elections"])
    connection.execute(
        game.delete().where(moved | game.c.name.like("poll-%") | game.c.name.like("cfi-%"))
    )


def move_into_documents() -> None:
    connection = op.get_bind()
    proposals = [
        row.state for row in connection.execute(sa.select(proposal).order_by(proposal.c.serial))
    ]
    ballots = [
        row.state
        for row in connection.execute(sa.select(proposal_ballot).order_by(proposal_ballot.c.nweek))
    ]
    if proposals or ballots:
        highest = max((item["serial"] for item in proposals), default=None)
        document = {"highest_serial": highest, "proposals": proposals, "ballots": ballots}
        insert_document(connection, "proposals", document)
    ballots_of: dict[int, list[Any]] = {}
    ordered = sa.select(election_ballot).order_by(election_ballot.c.id)
    for row in connection.execute(ordered):
        ballot = [row.voter, row.choices, row.cast_at.isoformat(), row.message_id]
        ballots_of.setdefault(row.election_number, []).append(ballot)
    elections = [
        row.state | {"ballots": ballots_of.get(row.number, [])}
        for row in connection.execute(sa.select(election).order_by(election.c.number))
    ]
    if elections:
        insert_document(connection, "elections", {"elections": elections})
    for row in connection.execute(sa.select(poll).order_by(poll.c.number)):
        insert_document(connection, f"poll-{row.number}", row.state)
    for row in connection.execute(sa.select(cfi).order_by(cfi.c.number)):
        insert_document(connection, f"cfi-{row.number}", row.state)


def insert_document(connection: Any, name: str, state: dict[str, Any]) -> None:
    connection.execute(game.insert().values(name=name, state=state, version=0))
