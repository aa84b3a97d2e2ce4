"""Corpus-driven parametrisation for the mail tests.

Case names (suite and file) must be known when tests are collected, before
any fixture runs, so the corpora folder is located here by the same rule as
the ``corpora`` fixture of ``tests/conftest.py``.  When it is absent, a single
placeholder case is generated whose ``corpora`` fixture skips with that
fixture's plain message, so nothing is silently dropped.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
MAIL_TESTS = Path(__file__).resolve().parent


def _corpora_root() -> Path:
    # Same rule as tests/conftest.py::corpora_root (needed at collection time).
    return Path(os.environ.get("NOMICBOT_CORPORA", REPO_ROOT.parent / "shared" / "corpora"))


def load_helper(name: str) -> ModuleType:
    """Import a helper module of this folder by path (tests use importlib mode)."""
    spec = importlib.util.spec_from_file_location(f"mail_tests_{name}", MAIL_TESTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXPECTATIONS = load_helper("expectations")


@pytest.fixture(scope="session")
def expectation_checks() -> ModuleType:
    return EXPECTATIONS


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    root = _corpora_root()
    present = (root / "email").is_dir()
    if "expectation" in metafunc.fixturenames:
        entries = EXPECTATIONS.load_expectations(root) if present else []
        metafunc.parametrize(
            "expectation",
            [_expectation_case(entry) for entry in entries]
            or [pytest.param(None, id="corpora-absent")],
        )
    if "corpus_file" in metafunc.fixturenames:
        files = EXPECTATIONS.corpus_message_files(root) if present else []
        cases = [pytest.param(path, id=str(path.relative_to(root / "email"))) for path in files]
        metafunc.parametrize("corpus_file", cases or [pytest.param(None, id="corpora-absent")])


def _expectation_case(entry: dict[str, object]) -> object:
    identifier = EXPECTATIONS.case_id(entry)
    reason = EXPECTATIONS.KNOWN_DIFFERENCES.get(identifier)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(entry, id=identifier, marks=marks)
