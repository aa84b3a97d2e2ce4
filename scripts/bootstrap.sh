#!/usr/bin/env bash
# Create .venv and install nomicbot into it (with the test extras when asked).
# Re-installs only when pyproject.toml changed, so repeated runs take a second.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "bootstrap: creating .venv with $($python --version)"
  "$python" -m venv .venv
fi
stamp=".venv/.nomicbot-installed${extras:+-$extras}"
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "bootstrap: installing nomicbot${extras:+ [$extras]} into .venv"
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet --editable ".${extras:+[$extras]}"
  echo "$want" > "$stamp"
fi
