"""Our answers for the 72 transcribed upstream expectations (email/expectations.json).

How each upstream assertion maps onto ``visible_text`` / ``html_to_text`` is
documented in ``expectations.py``; entries answered differently on purpose
are strict xfails with their reason (``KNOWN_DIFFERENCES``).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bot.mail.decode import decode_message
from bot.mail.visible import visible_text

# Entries whose whole input is the author's reply: nothing may be removed.
WHOLE_INPUT_IS_THE_REPLY = (
    "talon-signature:talon/tests/fixtures/signature/emails/stripped/camel_case_body",
    "github/email_reply_parser:email_reply_parser_github/test/emails/email_1_5.txt",
    "github/email_reply_parser:"
    "email_reply_parser_github/test/emails/email_sent_from_my_not_signature.txt",
    "github/email_reply_parser:"
    "email_reply_parser_github/test/emails/email_sig_delimiter_in_middle_of_line.txt",
    "zapier/email-reply-parser:email_reply_parser_zapier/test/emails/email_1_5.txt",
    "zapier/email-reply-parser:"
    "email_reply_parser_zapier/test/emails/email_sig_delimiter_in_middle_of_line.txt",
)


def test_expectation(
    expectation: dict[str, Any], corpora: Path, expectation_checks: ModuleType
) -> None:
    problems = expectation_checks.check(expectation, corpora)
    assert problems == [], "\n".join(problems)


def test_every_entry_is_collected(corpora: Path, expectation_checks: ModuleType) -> None:
    entries = expectation_checks.load_expectations(corpora)
    identifiers = {expectation_checks.case_id(entry) for entry in entries}
    assert len(entries) == 72
    assert len(identifiers) == len(entries), "two entries would share a test id"
    assert set(expectation_checks.KNOWN_DIFFERENCES) <= identifiers


def test_mailman3_post_is_exactly_the_vote(corpora: Path) -> None:
    decoded = decode_message((corpora / "email" / "mailman3_list_post.eml").read_bytes())
    assert visible_text(decoded.body_text) == "I vote FOR 1234 and AGAINST 1235"
    assert visible_text(decoded.body_text, sender=decoded.from_address or "") == (
        "I vote FOR 1234 and AGAINST 1235"
    )


def test_the_checks_have_teeth(
    corpora: Path, expectation_checks: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With a visible_text that strips nothing, only entries whose whole input
    # is the reply may pass.
    monkeypatch.setattr(expectation_checks, "visible_text", lambda body, sender="": body.strip())
    entries = expectation_checks.load_expectations(corpora)
    passing = [
        expectation_checks.case_id(entry)
        for entry in entries
        if not expectation_checks.check(entry, corpora)
    ]
    assert sorted(passing) == sorted(WHOLE_INPUT_IS_THE_REPLY)
