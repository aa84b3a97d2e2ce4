"""The From header names one author, or the post is refused (docs/trust.md, *The author*).

Addresses are split by a strict parser before any encoded word is decoded,
so an encoded word can never become an address or a separator; several
From headers or mailboxes, a control character in the display name, or a
display name that reads as another address are refused, not guessed at.
Read through ``bot.mail.decode.decode_message`` as the pipeline reads them,
and through the ``none``-mode pipeline, whose author stage refuses them.
"""

from __future__ import annotations

import pytest

from bot.mail.decode import decode_message
from bot.mail.headers import Mailbox, mailbox_problem, parse_mailboxes
from bot.pipeline import PipelineSettings, run_pipeline

ALICE = "alice@a.example"
SETTINGS = PipelineSettings(
    bot_addresses=frozenset({"referee@bot.example"}),
    list_addresses=frozenset({"nomic@lists.example.org"}),
    required_list_id="nomic.lists.example.org",
)


def post(*from_values: str) -> bytes:
    lines = [
        *(f"From: {value}" for value in from_values),
        "To: nomic@lists.example.org",
        "Subject: Dice",
        "Message-ID: <dice-1@a.example>",
        "List-Id: <nomic.lists.example.org>",
        "",
        "I roll 1d6.",
        "",
    ]
    return "\r\n".join(lines).encode()


# -- what may name an author -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "address", "name"),
    [
        ("Alice <alice@a.example>", ALICE, "Alice"),
        ("alice@a.example", ALICE, ""),
        ("alice@a.example (Alice)", ALICE, "Alice"),
        ("Alice <ALICE@A.Example>", ALICE, "Alice"),
        ('"alice@a.example" <alice@a.example>', ALICE, "alice@a.example"),  # the same address
        ('"Alice (alice@a.example.)" <alice@a.example>', ALICE, "Alice (alice@a.example.)"),
        ("=?utf-8?q?Al=C3=AFce?= <alice@a.example>", ALICE, "Alïce"),
    ],
)
def test_one_plain_mailbox_names_the_author(value: str, address: str, name: str) -> None:
    decoded = decode_message(post(value))
    assert decoded.from_problem is None
    assert (decoded.from_address, decoded.from_name) == (address, name)
    context = run_pipeline(post(value), SETTINGS)
    assert not context.refused and context.author == address


# -- what may not ----------------------------------------------------------------------------


def refused(value: str | tuple[str, ...], words: str) -> None:
    values = (value,) if isinstance(value, str) else value
    decoded = decode_message(post(*values))
    assert decoded.from_problem is not None and words in decoded.from_problem, decoded.from_problem
    context = run_pipeline(post(*values), SETTINGS)
    assert context.refused and context.author is None
    assert context.stop_reason == decoded.from_problem


@pytest.mark.parametrize(
    "value",
    [
        "=?utf-8?q?alice@a.example=0D=0A?= <mallory@evil.example>",
        "=?utf-8?b?YWxpY2VAYS5leGFtcGxlDQo=?= <mallory@evil.example>",
        "=?utf-8?q?alice=40a=2Eexample=0D=0A?= <mallory@evil.example>",
    ],
    ids=["q-crlf", "b-crlf", "q-encoded-at-crlf"],
)
def test_an_encoded_line_break_never_yields_the_address_it_shows(value: str) -> None:
    decoded = decode_message(post(value))
    assert decoded.from_address != ALICE
    assert decoded.from_problem is not None
    mailboxes, _defects = parse_mailboxes("from", value)
    assert ALICE not in {mailbox.address for mailbox in mailboxes}
    context = run_pipeline(post(value), SETTINGS)
    assert context.refused and context.author is None


def test_the_strict_parser_s_rejection_is_not_repaired() -> None:
    refused(
        "=?utf-8?q?alice@a.example=0D=0A?= <mallory@evil.example>",
        "the From header is malformed (a strict parser rejects it); its author is not guessed",
    )


@pytest.mark.parametrize("character", ["=00", "=1B", "=7F"])
def test_a_control_character_in_the_name_is_refused(character: str) -> None:
    refused(
        f"=?utf-8?q?Alice{character}?= <alice@a.example>",
        "hides a line break or control character",
    )


def test_two_from_headers_are_refused() -> None:
    refused(
        ("Alice <alice@a.example>", "Mallory <mallory@evil.example>"),
        "the post has 2 From headers; its author is ambiguous",
    )


def test_two_identical_from_headers_are_refused_too() -> None:
    refused(("Alice <alice@a.example>", "Alice <alice@a.example>"), "2 From headers")


@pytest.mark.parametrize(
    "value",
    [
        "Alice <alice@a.example>, Mallory <mallory@evil.example>",
        "alice@a.example, mallory@evil.example",
        "Friends: alice@a.example, mallory@evil.example;",
    ],
    ids=["list", "bare", "group"],
)
def test_two_mailboxes_in_one_from_are_refused(value: str) -> None:
    refused(
        value,
        "the From header names several mailboxes (alice@a.example, mallory@evil.example)",
    )


@pytest.mark.parametrize(
    "value",
    [
        '"alice@a.example" <mallory@evil.example>',
        "=?utf-8?q?alice@a.example?= <mallory@evil.example>",
        "=?utf-8?q?alice=40a=2Eexample?= <mallory@evil.example>",
        '"Alice (alice@a.example)" <mallory@evil.example>',
        '"Alice\\"<alice@a.example>" <mallory@evil.example>',
    ],
    ids=["quoted", "encoded", "encoded-at", "in-parentheses", "escaped-quote"],
)
def test_a_display_name_showing_another_address_is_refused(value: str) -> None:
    refused(value, "but the mail is from mallory@evil.example; a name may not look like another")
    problem = decode_message(post(value)).from_problem
    assert problem is not None and problem.startswith("the From name shows the address ")
    assert ALICE in problem


@pytest.mark.parametrize(
    "value",
    ["alice@a.example <mallory@evil.example>", "<alice@a.example> <mallory@evil.example>"],
    ids=["unquoted-address-as-name", "two-angle-addresses"],
)
def test_a_from_the_strict_parser_finds_invalid_is_refused(value: str) -> None:
    # BUG (bot/mail/headers.py parse_mailboxes): policy.default's parser
    # reads these with an InvalidHeaderDefect ("invalid address in
    # address-list"), keeps the FIRST address and silently drops the angle
    # address, which mail readers and DMARC verifiers take for the sender
    # (mallory@evil.example, or Mallory's own mailbox at a shared provider).
    # The defect is ignored, so the author becomes alice@a.example with no
    # problem reported, where docs/trust.md says a From the strict parser
    # rejects is refused, not repaired.
    decoded = decode_message(post(value))
    assert decoded.from_problem is not None, f"taken as {decoded.from_address}"


def test_no_usable_address_is_refused() -> None:
    refused("undisclosed-recipients:;", "no usable From address")


def test_a_missing_from_is_refused() -> None:
    refused((), "no usable From address")


# -- mailbox_problem on its own --------------------------------------------------------------


def test_mailbox_problem_accepts_one_clean_mailbox() -> None:
    assert mailbox_problem((Mailbox("Alice", ALICE),), 1) is None


def test_mailbox_problem_counts_headers_before_mailboxes() -> None:
    problem = mailbox_problem((Mailbox("Alice", ALICE),), 3)
    assert problem == "the post has 3 From headers; its author is ambiguous"


@pytest.mark.parametrize("name", ["Alice\r\nBcc: x", "Alice\nX", "Alice\tSmith", "A\x00"])
def test_mailbox_problem_refuses_control_characters(name: str) -> None:
    problem = mailbox_problem((Mailbox(name, ALICE),), 1)
    assert problem is not None and "control character" in problem


def test_mailbox_problem_refuses_a_control_character_in_the_address() -> None:
    problem = mailbox_problem((Mailbox("Alice", "alice@a.example\r\n"),), 1)
    assert problem is not None and "control character" in problem


def test_mailbox_problem_allows_a_name_showing_the_address_itself() -> None:
    assert mailbox_problem((Mailbox("Alice (ALICE@a.example)", ALICE),), 1) is None
