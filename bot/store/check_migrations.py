"""``python -m bot.store.check_migrations``: fail if the models and migrations disagree.

Runs every migration on a scratch SQLite database, then ``alembic check``
(autogenerate must find nothing to do), then every downgrade.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from alembic import command
from alembic.util.exc import CommandError

from bot.store.database import alembic_config


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'check.sqlite3'}"
        config = alembic_config(url)
        command.upgrade(config, "head")
        try:
            command.check(config)
        except CommandError as error:
            print(f"models and migrations disagree: {error}", file=sys.stderr)
            return 1
        command.downgrade(config, "base")
        command.upgrade(config, "head")
    print("migrations: upgrade, check, downgrade and upgrade again all fine")
    return 0


if __name__ == "__main__":
    sys.exit(main())
