#!/usr/bin/env bash
# Install what the tests need (Python deps, Dovecot, PostgreSQL) and run the
# whole suite: lint, types, migrations check, then pytest.  Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh test
scripts/install-test-servers.sh
echo "== ruff"
.venv/bin/ruff check .
echo "== mypy --strict (the whole bot package)"
.venv/bin/mypy --strict bot
echo "== alembic check (models and migrations agree)"
.venv/bin/python -m bot.store.check_migrations
echo "== pytest"
# Two workers (pytest-xdist), each module whole on one of them, the long ones
# first (tests/conftest.py): many tests wait on servers, daemons and clocks,
# and the other worker uses that time.
.venv/bin/pytest -q -n 2 --dist loadgroup --no-loadscope-reorder "$@"
