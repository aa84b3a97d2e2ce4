#!/usr/bin/env bash
# Set everything up on a fresh machine and start the bot on its embedded
# defaults: SQLite under var/, SMTP ingress on 127.0.0.1:8025, replies in the
# var/outbox Maildir.  Arguments go to `nomicbot run` (e.g. --config FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
exec .venv/bin/nomicbot run "$@"
