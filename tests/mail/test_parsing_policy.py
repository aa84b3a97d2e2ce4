"""The remembering header factory parses as policy.default does, within bounds."""

from __future__ import annotations

from email import policy

import pytest

from bot.mail.parsing_policy import (
    MAX_REMEMBERED,
    MAX_REMEMBERED_CHARS,
    RememberingHeaderRegistry,
)

HEADERS = [
    ("Content-Type", 'text/plain; charset="utf-8"; format=flowed'),
    ("content-type", 'multipart/alternative;\r\n boundary="==b=="'),
    ("Content-Type", "text/plain; name*=utf-8''%E2%82%AC.txt"),
    ("Content-Type", "not a type"),
    ("From", "Ann Example <ann@example.org>, =?utf-8?q?B=C3=A9a?= <bea@example.org>"),
    ("To", "undisclosed-recipients:;"),
    ("Content-Disposition", "attachment; filename=x.eml"),
    ("Subject", "=?utf-8?b?w6k=?= \udce9 raw 8-bit"),
]


@pytest.mark.parametrize(("name", "value"), HEADERS)
def test_same_header_as_policy_default(name: str, value: str) -> None:
    registry = RememberingHeaderRegistry()
    expected = policy.default.header_factory(name, value)
    made = registry(name, value)
    assert type(made).__mro__[1:] == type(expected).__mro__[1:]
    assert (str(made), made.name) == (str(expected), expected.name)
    # Defects compare by identity: their kinds and words are what must agree.
    assert [repr(d) for d in made.defects] == [repr(d) for d in expected.defects]
    for attribute in ("params", "addresses", "content_type", "content_disposition"):
        if hasattr(expected, attribute):
            assert getattr(made, attribute) == getattr(expected, attribute)
    assert registry(name, value) is made  # remembered


def test_memory_is_bounded() -> None:
    registry = RememberingHeaderRegistry()
    for number in range(MAX_REMEMBERED + 10):
        registry("Subject", f"subject {number}")
    assert len(registry.made) <= MAX_REMEMBERED
    long_value = "x" * (MAX_REMEMBERED_CHARS + 1)
    first = registry("Subject", long_value)
    assert registry("Subject", long_value) is not first
    assert str(registry("Subject", long_value)) == long_value
