"""The bot's mails are compat32's bytes: ``direct_compat32`` only skips needless folding.

``bot.outbound.folding.direct_compat32`` writes a short printable-ASCII
header field as ``name: value`` without going through
``email.header.Header``; these tests compare it with the standard library's
compat32, field by field and for whole mails, including mails composed the
way the bot composes its rulings, digests and dice posts (``_mail``); and
the ``wordwrap`` filter that remembers what it wrapped with Jinja's own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from email.header import Header
from email.message import Message
from email.policy import Compat32, compat32
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from jinja2 import UndefinedError
from jinja2.filters import do_wordwrap

from bot.app import build_services
from bot.engine.services import Services
from bot.outbound.compose import _mail
from bot.outbound.folding import DirectCompat32, direct_compat32
from bot.outbound.templates import make_environment
from bot.testing.apps import game_settings

# Pieces that matter to compat32's folding: spaces and tabs (runs of them,
# leading and trailing), line breaks of every kind str.splitlines knows,
# the split characters ";" and ",", RFC 2047's "=?" and "?=", a colon after a
# word (an embedded header), non-ASCII text, and surrogates (undecodable bytes).
PIECES = st.sampled_from(
    [" ", "  ", "\t", " \t ", ";", ",", "; ", ", ", "=?", "?=", "=?utf-8?q?x?=", ":", "X-Y:"]
    + ["\n", "\r", "\r\n", "\n ", "\n\t", "\x0b", "\x0c", "\x1c", "\x1e", "\x85", "\u2028"]
    + ["é", "Ünïcödé", "日本語", "\udce9", "\x00", "\x7f"]
)
WORDS = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=12)
LONG_WORDS = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=60)
VALUES = st.lists(st.one_of(WORDS, PIECES, LONG_WORDS), max_size=30).map("".join)
NAMES = st.one_of(
    st.sampled_from(
        ["From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "References", "X-Loop"]
        + ["Auto-Submitted", "X-Nomicbot-Kind", "MIME-Version", "Content-Type", "Ümlaut", ""]
    ),
    st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=40),
)
# compat32's own limit, the limits a clone may set, and 0 / None ("do not wrap").
LINE_LENGTHS = st.sampled_from([78, 20, 998, 0, None])


def fold_outcome(fold: Callable[[str, str], object], name: str, value: str) -> object:
    """What a fold returns, or the exception it raises (compared by type and text)."""
    try:
        return fold(name, value)
    except Exception as error:  # the two policies must fail alike
        return (type(error), str(error))


def near_the_limit(name: str, limit: int = 78) -> list[str]:
    """Values whose line is just under, at and just over ``limit`` characters."""
    room = limit - len(name) - 2
    return [("word " * 20)[:length] for length in (room - 1, room, room + 1)]


@settings(max_examples=600, deadline=None)
@given(name=NAMES, value=VALUES, line_length=LINE_LENGTHS)
@example(name="Subject", value="", line_length=78)
@example(name="Subject", value=" ", line_length=78)
@example(name="Subject", value="  two  spaces  ", line_length=78)
@example(name="Subject", value="x" * 76, line_length=78)
@example(name="Subject", value="x" * 69, line_length=78)
@example(name="Subject", value="x" * 70, line_length=78)
@example(name="References", value="<a@b> " * 40, line_length=78)
def test_a_field_is_folded_as_compat32_folds_it(
    name: str, value: str, line_length: int | None
) -> None:
    ours = direct_compat32.clone(max_line_length=line_length)
    theirs = compat32.clone(max_line_length=line_length)
    assert isinstance(ours, DirectCompat32)
    assert fold_outcome(ours.fold_binary, name, value) == fold_outcome(
        theirs.fold_binary, name, value
    )
    assert fold_outcome(ours.fold, name, value) == fold_outcome(theirs.fold, name, value)


@pytest.mark.parametrize("name", ["Subject", "X-Nomicbot-Kind", "Message-ID"])
def test_values_at_the_line_limit_fold_as_compat32_folds_them(name: str) -> None:
    for value in near_the_limit(name):
        assert direct_compat32.fold_binary(name, value) == compat32.fold_binary(name, value)
    room = 78 - len(name) - 2
    assert direct_compat32.writes_directly(name, "x" * room)
    assert not direct_compat32.writes_directly(name, "x" * (room + 1))


def test_the_direct_line_is_taken_for_the_fields_a_ruling_carries() -> None:
    """The short path is the one the bot's own header fields take (else it saves nothing)."""
    fields = {
        "From": "nomicbot <nomicbot@example.test>",
        "To": "nomic@lists.example.test",
        "Subject": "Re: [Nomic] Political Go",
        "Date": "Mon, 02 Jan 2023 10:00:00 +0000",
        "Message-ID": "<ruling.0123456789abcdef0123456789abcdef@example.test>",
        "X-Nomicbot-Kind": "ruling",
        "Content-Type": 'text/plain; charset="us-ascii"',
    }
    for name, value in fields.items():
        assert direct_compat32.writes_directly(name, value), name
    # A Header object, a tab or a line break goes to compat32.
    assert not direct_compat32.writes_directly("Subject", Header("x"))
    assert not direct_compat32.writes_directly("Subject", "a\tb")
    assert not direct_compat32.writes_directly("Subject", "a\n b")


def whole_mail(fields: list[tuple[str, str]], body: str, policy: object) -> Message:
    mail = Message(policy=policy)  # type: ignore[arg-type]
    for name, value in fields:
        mail[name] = value
    mail.set_payload(body, "us-ascii" if body.isascii() else "utf-8")
    return mail


def written(fields: list[tuple[str, str]], body: str, policy: Compat32) -> object:
    """The mail's bytes, or the exception building or writing it raises (compared by
    type and text: a field compat32 cannot write fails alike with both policies)."""

    def write(_name: str, _value: str) -> bytes:
        mail = Message(policy=policy)
        for name, value in fields:
            mail[name] = value
        mail.set_payload(body, "us-ascii" if body.isascii() else "utf-8")
        return mail.as_bytes()

    return fold_outcome(write, "", "")


@settings(max_examples=150, deadline=None)
@given(fields=st.lists(st.tuples(NAMES, VALUES), max_size=12), body=st.text(max_size=300))
def test_a_whole_mail_is_written_as_compat32_writes_it(
    fields: list[tuple[str, str]], body: str
) -> None:
    assert written(fields, body, direct_compat32) == written(fields, body, compat32)


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Services:
    return build_services(game_settings(Path(tmp_path_factory.mktemp("reply-bytes"))))


SUBJECTS = st.one_of(
    VALUES,
    st.sampled_from(["[Nomic] Political Go", "Re: [Nomic] Go", "Dice commitment for nweek 7"]),
    st.text(max_size=120),
)
ADDRESSES = st.sampled_from(
    ["nomic@lists.example.test", "alice@example.test", "bob.with.a.long.name@example.test"]
)
BODIES = st.one_of(
    st.text(max_size=400),
    st.sampled_from(["Applied:\n  1. place a stone at E5\n", "x" * 1200 + "\n", "día\n" * 30]),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    subject=SUBJECTS,
    recipients=st.lists(ADDRESSES, min_size=1, max_size=6),
    body=BODIES,
    bot_name=st.sampled_from(["nomicbot", "The Referee", "Arbitre à l'œil", "R" * 90]),
    kind=st.sampled_from(["ruling", "digest", "dice-commitment", "dice-reveal"]),
    references=st.lists(st.sampled_from(["a@example.test", "b.c@x.test"]), max_size=11),
)
def test_the_bots_mails_are_compat32s_bytes(
    services: Services,
    subject: str,
    recipients: list[str],
    body: str,
    bot_name: str,
    kind: str,
    references: list[str],
) -> None:
    """``_mail`` as compose_ruling_reply, compose_report and the digests call it."""
    subject = subject.encode("utf-8", "replace").decode("utf-8")  # as a decoded Subject is
    body = body.encode("utf-8", "replace").decode("utf-8")
    named = replace(
        services,
        settings=replace(services.settings, bot=replace(services.settings.bot, name=bot_name)),
    )
    at = datetime(2023, 1, 2, 10, 0, tzinfo=UTC)
    mail = _mail(named, subject, recipients, body, kind, f"{kind}.0123@example.test", at)
    if references:
        mail["In-Reply-To"] = f"<{references[-1]}>"
        mail["References"] = " ".join(f"<{item}>" for item in references)
    assert mail.policy is direct_compat32
    # A subject with a line break fails alike (compat32 refuses an embedded
    # header); compose_ruling_reply's subjects are on one line already.
    ours = fold_outcome(lambda _name, _value: mail.as_bytes(), "", "")
    assert ours == fold_outcome(lambda _name, _value: mail.as_bytes(policy=compat32), "", "")


WRAPPED_TEXTS = st.lists(
    st.one_of(
        WORDS, LONG_WORDS, st.sampled_from([" ", "  ", "\n", "\n\n", "-", "well-known", "\t"])
    ),
    max_size=40,
).map("".join)

# One environment for every example, so that what it remembers from one
# example is there for the next (the same text at another width, say).
WRAPPING = make_environment()


@settings(max_examples=200, deadline=None)
@given(
    text=WRAPPED_TEXTS,
    width=st.sampled_from([10, 70, 72, 79]),
    break_long_words=st.booleans(),
    break_on_hyphens=st.booleans(),
)
def test_the_remembering_wordwrap_wraps_as_jinja_does(
    text: str, width: int, break_long_words: bool, break_on_hyphens: bool
) -> None:
    template = WRAPPING.from_string(
        "{{ text | wordwrap(width, break_long_words=long, break_on_hyphens=hyphens) }}"
    )
    variables = {
        "text": text,
        "width": width,
        "long": break_long_words,
        "hyphens": break_on_hyphens,
    }
    expected = do_wordwrap(WRAPPING, text, width, break_long_words, None, break_on_hyphens)
    assert template.render(variables) == expected
    assert template.render(variables) == expected  # the second time, from what it remembers


def test_wordwrap_of_an_undefined_value_still_fails() -> None:
    template = make_environment().from_string("{{ missing | wordwrap(72) }}")
    with pytest.raises(UndefinedError):
        template.render()
