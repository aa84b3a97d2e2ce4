"""Golden files: text a test compares with one kept in the repository.

``NOMICBOT_UPDATE_GOLDEN=1`` rewrites them from the run instead (then read
the diff before committing it).
"""

from __future__ import annotations

import os
from pathlib import Path

UPDATE_VARIABLE = "NOMICBOT_UPDATE_GOLDEN"


def check_golden(path: Path, text: str) -> None:
    """Assert ``text`` equals the golden file ``path``; rewrite it when asked to."""
    if os.environ.get(UPDATE_VARIABLE):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{path} differs ({UPDATE_VARIABLE}=1)"
