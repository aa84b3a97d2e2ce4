"""The multipart split (bot.mail.mime_split) makes the stdlib parser's parts, or steps aside.

Each post is checked three ways: the split's message tree against the
stdlib parser's over the same body (headers, envelope line, defects,
default type, preamble, epilogue and payloads, part by part), the whole
``with_body`` against ``decode_message``, and the same with the split
turned off, so the stdlib path that remains for what the split does not
follow is held to the whole decode as well.  Which posts the split takes
is asserted too: the well-formed shapes must not quietly fall back.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from email.message import Message
from email.parser import Parser

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.mail import decode as decode_module
from bot.mail.decode import SPLITTING_FIELDS, decode_headers, decode_message, with_body
from bot.mail.mime_split import MAX_SPLIT_DEPTH, split_multipart
from bot.mail.parsing_policy import DEFAULT_REMEMBERING

ARCHIVE_POSTS = 120

HEAD = (
    "From: Alice <alice@example.org>\nTo: nomic@example.org\nSubject: Go\n"
    "Message-ID: <one@example.org>\nDate: Thu, 26 Nov 2026 12:00:00 +0000\nMIME-Version: 1.0\n"
)


def post(content_type: str, body: str, newline: str = "\n") -> bytes:
    """A post of ``content_type`` whose body is ``body``; every line end made ``newline``."""
    text = f"{HEAD}Content-Type: {content_type}\n\n{body}"
    return text.replace("\n", newline).encode("ascii")


def shape(message: Message) -> tuple[object, ...]:
    """Everything the parser sets on a message tree, to compare two trees."""
    payload = message.get_payload()
    return (
        type(message).__name__,
        list(message.raw_items()),
        [(type(defect).__name__, str(defect)) for defect in message.defects],
        message.get_unixfrom(),
        message.get_default_type(),
        message.preamble,
        message.epilogue,
        [shape(part) for part in payload] if isinstance(payload, list) else payload,
    )


def splits(raw: bytes) -> tuple[Message | None, Message]:
    """The split's tree of the post's body (None: it stepped aside) and the stdlib parser's."""
    head = decode_headers(raw).head
    assert head is not None
    fields = [
        (name, str(value)) for name, value in head.raw_items() if name.lower() in SPLITTING_FIELDS
    ]
    payload = head.get_payload()
    assert isinstance(payload, str)
    block = "".join(f"{name}: {value}\n" for name, value in fields)
    stdlib = Parser(policy=DEFAULT_REMEMBERING).parsestr(f"{block}\n{payload}")
    return split_multipart(fields, payload), stdlib


def assert_split_as_stdlib(raw: bytes) -> bool:
    """The split gives the stdlib's parts and the whole decode; returns whether it took the post."""
    split, stdlib = splits(raw)
    if split is not None:
        assert shape(split) == shape(stdlib)
    assert with_body(raw, decode_headers(raw)) == decode_message(raw)
    return split is not None


@pytest.fixture
def without_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """``with_body`` with the split always stepping aside: the stdlib path alone."""
    monkeypatch.setattr(decode_module, "split_multipart", lambda fields, payload: None)


MIXED = 'multipart/mixed; boundary="out"'
ALTERNATIVE = 'multipart/alternative; boundary="b"'
PLAIN_PART = "Content-Type: text/plain; charset=utf-8\n\nI place a stone at E5.\n"
HTML_PART = "Content-Type: text/html; charset=utf-8\n\n<p>I place a stone at <b>E5</b>.</p>\n"
FOOTER = "Content-Type: text/plain\nContent-Disposition: inline\n\n____\nNomic mailing list\n"
INNER = (
    'Content-Type: multipart/alternative; boundary="in"\n\n'
    f"--in\n{PLAIN_PART}--in\n{HTML_PART}--in--\n"
)

# Well-formed bodies: the split takes them.
TAKEN = {
    "alternative": (ALTERNATIVE, f"--b\n{PLAIN_PART}--b\n{HTML_PART}--b--\n"),
    "alternative in mixed, list footer": (MIXED, f"--out\n{INNER}\n--out\n{FOOTER}--out--\n"),
    "three levels": (
        MIXED,
        '--out\nContent-Type: multipart/related; boundary="rel"\n\n--rel\n'
        f"{INNER}--rel\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\n"
        f"iVBORw0KGgo=\n--rel--\n--out\n{FOOTER}--out--\n",
    ),
    "preamble and epilogue": (
        ALTERNATIVE,
        f"This is a multi-part message in MIME format.\n\n--b\n{PLAIN_PART}--b--\n\nepilogue\n",
    ),
    "inner epilogue": (MIXED, f"--out\n{INNER}inner epilogue\n\n--out--\n"),
    "inner epilogue of one line end": (MIXED, f"--out\n{INNER}\n\n--out--\n"),
    "inner close right before the outer": (MIXED, f"--out\n{INNER}--out--\n"),
    "inner close at the end": (MIXED, f"--out\n{INNER}--out--"),
    "close line without a line end": (ALTERNATIVE, f"--b\n{PLAIN_PART}--b--"),
    "boundary-like lines in text": (
        ALTERNATIVE,
        "--b\n\n--b and more\n--bX\n--b-\n-- b\n---b\n--\n--b--x\n --b\n--b\n\nE5\n--b--\n",
    ),
    "signature separator": (ALTERNATIVE, "--b\n\nI place a stone at E5.\n-- \nAlice\n--b--\n"),
    "outer boundary lines in the inner part's text": (
        MIXED,
        '--out\nContent-Type: multipart/alternative; boundary="out2"\n\n--out2\n\n--outX\n'
        "--out2--\n--out--\n",
    ),
    "trailing white space after boundary lines": (
        ALTERNATIVE,
        f"--b \t\n{PLAIN_PART}--b\t\n{HTML_PART}--b--  \n",
    ),
    "repeated separators": (ALTERNATIVE, f"--b\n--b\n--b \n{PLAIN_PART}--b--\n"),
    "empty parts": (ALTERNATIVE, "--b\n\n--b\n\n\n--b\n\n--b--\n"),
    "part of headers only": (ALTERNATIVE, "--b\nContent-Type: text/plain\n--b--\n"),
    "part without headers": (ALTERNATIVE, "--b\nI place a stone at E5.\n--b--\n"),
    "header block lacking the blank line": (
        ALTERNATIVE,
        "--b\nContent-Type: text/plain\nI place a stone at E5.\n--b--\n",
    ),
    "text that looks like a header": (ALTERNATIVE, "--b\nMove: E5\n--b--\n"),
    "boundary with regex metacharacters": (
        'multipart/mixed; boundary="=_a.b+c(d)?*[e]^$|{2}\\\\"',
        "--=_a.b+c(d)?*[e]^$|{2}\\\n\nE5\n--=_a.b+c(d)?*[e]^$|{2}\\--\n",
    ),
    "boundary with a colon, part of headers only": (
        'multipart/mixed; boundary="a:b"',
        "--a:b\nContent-Type: text/plain\n--a:b\nX-Note: 1\n--a:b--\n",
    ),
    "boundary with spaces": ('multipart/mixed; boundary=" a b "', "-- a b\n\nE5\n-- a b--\n"),
    "unquoted boundary, folded type": ("multipart/mixed;\n\tboundary=b", "--b\n\nE5\n--b--\n"),
    "inner boundary a prefix of the outer": (
        'multipart/mixed; boundary="in-1"',
        f"--in-1\n{INNER}--in-1--\n",
    ),
    "base64 text part": (
        ALTERNATIVE,
        "--b\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
        + base64.encodebytes("I place a stone at E5. Ça va.\n".encode()).decode()
        + "--b--\n",
    ),
    "base64 text part missing its padding": (
        ALTERNATIVE,
        "--b\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\n"
        + base64.b64encode(b"I place a stone at E5.").decode().rstrip("=")
        + "\n--b--\n",
    ),
    "quoted-printable text part": (
        ALTERNATIVE,
        "--b\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: "
        "quoted-printable\n\nI place a stone at E5. =C3=87a va, a soft=\n break.\n--b--\n",
    ),
    "format=flowed part": (
        ALTERNATIVE,
        "--b\nContent-Type: text/plain; format=flowed; delsp=yes\n\nI place a  \nstone.\n--b--\n",
    ),
    "html-only alternative": (ALTERNATIVE, f"--b\n{HTML_PART}--b--\n"),
    "html-only alternative with a footer": (
        MIXED,
        '--out\nContent-Type: multipart/alternative; boundary="in"\n\n'
        f"--in\n{HTML_PART}--in--\n--out\n{FOOTER}--out--\n",
    ),
    "attachment before the text": (
        MIXED,
        "--out\nContent-Type: text/plain\nContent-Disposition: attachment; filename=a.txt\n\n"
        f"E4\n--out\n{PLAIN_PART}--out--\n",
    ),
    "7bit multipart part": (
        MIXED,
        "--out\nContent-Transfer-Encoding: 7bit\n" + INNER + "--out--\n",
    ),
    "envelope line first in a part": (
        ALTERNATIVE,
        "--b\nFrom alice Thu\n" + PLAIN_PART + "--b--\n",
    ),
    "envelope line inside a part's header block": (
        ALTERNATIVE,
        "--b\nContent-Type: text/plain\nFrom alice Thu\nX-Note: 1\n\nE5\n--b--\n",
    ),
    "continuation first in a part": (ALTERNATIVE, "--b\n folded\n" + PLAIN_PART + "--b--\n"),
    "missing header name in a part": (ALTERNATIVE, "--b\n: no name\n" + PLAIN_PART + "--b--\n"),
    "invalid part type (read as text/plain)": (
        ALTERNATIVE,
        "--b\nContent-Type: multipart\n\nE5\n--b--\n",
    ),
    "enclosing close line ends the inner epilogue": (
        MIXED,
        f"--out\n{INNER}\n--in\nnot a part any more\n--out--\n",
    ),
}
# What the split does not follow: the stdlib parser reads it.
STEPPED_ASIDE = {
    "no close boundary": (ALTERNATIVE, f"--b\n{PLAIN_PART}"),
    "ends at a separator": (ALTERNATIVE, f"--b\n{PLAIN_PART}--b\n"),
    "no start boundary": (ALTERNATIVE, "I place a stone at E5.\n--b--\n"),
    "boundary never found": (ALTERNATIVE, "I place a stone at E5.\n"),
    "inner part ending at the outer boundary": (
        MIXED,
        f'--out\nContent-Type: multipart/alternative; boundary="in"\n\n--in\n{PLAIN_PART}'
        f"--out\n{FOOTER}--out--\n",
    ),
    "enclosing boundary before the inner start": (
        MIXED,
        '--out\nContent-Type: multipart/alternative; boundary="in"\n\n--out\n\nE5\n--out--\n',
    ),
    "repeated close line": (ALTERNATIVE, f"--b\n--b--\n{PLAIN_PART}--b--\n"),
    "same boundary nested": (
        ALTERNATIVE,
        f'--b\nContent-Type: multipart/mixed; boundary="b"\n\n--b\n{PLAIN_PART}--b--\n--b--\n',
    ),
    "multipart/digest": ('multipart/digest; boundary="b"', "--b\n\nFrom: a@b\n\nE5\n--b--\n"),
    "message/rfc822 part": (
        MIXED,
        f"--out\nContent-Type: message/rfc822\n\n{HEAD}\nI place a stone at E5.\n--out--\n",
    ),
    "message/delivery-status part": (
        MIXED,
        "--out\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; x\n\n"
        "Status: 5.0.0\n--out--\n",
    ),
    "multipart part without a boundary": (
        MIXED,
        "--out\nContent-Type: multipart/alternative\n\nE5\n--out--\n",
    ),
    "base64 multipart part": (
        MIXED,
        "--out\nContent-Transfer-Encoding: base64\n" + INNER + "--out--\n",
    ),
    "empty boundary": ('multipart/mixed; boundary=""', "--\n\nE5\n----\n"),
    "envelope line last in a part's header block": (
        ALTERNATIVE,
        "--b\nContent-Type: text/plain\nFrom alice Thu\n\nE5\n--b--\n",
    ),
    "inner boundary the outer's close line": (
        MIXED,
        '--out\nContent-Type: multipart/alternative; boundary="out--"\n\n--out--\n\nE5\n'
        "--out----\n--out--\n",
    ),
}
NEWLINES = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}


def nested(depth: int) -> str:
    """A body of ``depth`` multiparts, each inside the last."""
    if depth == 0:
        return PLAIN_PART
    boundary = f"level{depth}"
    return (
        f'Content-Type: multipart/mixed; boundary="{boundary}"\n\n'
        f"--{boundary}\n{nested(depth - 1)}--{boundary}--\n"
    )


@pytest.mark.parametrize("newline", NEWLINES.values(), ids=NEWLINES)
@pytest.mark.parametrize("case", TAKEN.values(), ids=TAKEN)
def test_split_takes_well_formed_bodies(case: tuple[str, str], newline: str) -> None:
    assert assert_split_as_stdlib(post(*case, newline=newline))


@pytest.mark.parametrize("newline", NEWLINES.values(), ids=NEWLINES)
@pytest.mark.parametrize("case", STEPPED_ASIDE.values(), ids=STEPPED_ASIDE)
def test_split_steps_aside(case: tuple[str, str], newline: str) -> None:
    assert not assert_split_as_stdlib(post(*case, newline=newline))


@pytest.mark.parametrize("case", [*TAKEN.values(), *STEPPED_ASIDE.values()])
@pytest.mark.usefixtures("without_split")
def test_stdlib_path_alone(case: tuple[str, str]) -> None:
    raw = post(*case, newline="\r\n")
    assert with_body(raw, decode_headers(raw)) == decode_message(raw)


def test_mixed_line_ends() -> None:
    body = f"--out\r\n{INNER}\r\n--out\r{FOOTER}--out--\r\n".replace("--in\n", "--in\r\n")
    assert assert_split_as_stdlib(post(MIXED, body))


def test_nesting_depth_limit() -> None:
    within = nested(MAX_SPLIT_DEPTH).split("\n\n", 1)
    beyond = nested(MAX_SPLIT_DEPTH + 1).split("\n\n", 1)
    assert assert_split_as_stdlib(post(within[0].removeprefix("Content-Type: "), within[1]))
    assert not assert_split_as_stdlib(post(beyond[0].removeprefix("Content-Type: "), beyond[1]))


def test_split_reads_only_multiparts() -> None:
    assert split_multipart([("Content-Type", "text/plain")], "--b\n\nE5\n--b--\n") is None
    assert split_multipart([("Content-Type", 'message/rfc822; boundary="b"')], "--b\n") is None


@pytest.fixture(scope="module")
def archive_posts(bench_archive: Callable[[int], list[bytes]]) -> list[bytes]:
    return bench_archive(ARCHIVE_POSTS)


def test_split_takes_every_multipart_post_of_the_archive(archive_posts: list[bytes]) -> None:
    heads = [(raw, decode_headers(raw).head) for raw in archive_posts]
    multipart = [raw for raw, head in heads if head and head.get_content_maintype() == "multipart"]
    assert len(multipart) > ARCHIVE_POSTS // 4
    assert all(assert_split_as_stdlib(raw) for raw in multipart)


# --- generated bodies ------------------------------------------------------------

BOUNDARIES = ("b", "b2", "b-", "in", "=_x.y+(z)?", "a b", "a:b")
PART_HEADERS = (
    "Content-Type: text/plain; charset=utf-8",
    "Content-Type: text/html",
    "Content-Type: text/plain; format=flowed",
    "Content-Transfer-Encoding: quoted-printable",
    "Content-Transfer-Encoding: base64",
    "Content-Disposition: attachment",
    " folded",
    "From alice Thu",
    ": no name",
    "X-Note: 1",
)
TEXT_LINES = ("I place a stone at E5.", "", "-- ", "Move: E5", "SSBwbGFjZQ==", "a=\n soft")


def boundary_line(boundary: str, close: bool, spaces: str) -> str:
    return f"--{boundary}{'--' if close else ''}{spaces}"


@st.composite
def leaf_part(draw: st.DrawFn, noise: bool) -> list[str]:
    headers = draw(
        st.lists(st.sampled_from(PART_HEADERS if noise else PART_HEADERS[:6]), max_size=3)
    )
    blank = [""] if draw(st.booleans()) or not noise else []
    lines = draw(st.lists(st.sampled_from(TEXT_LINES), max_size=4))
    if noise and draw(st.integers(0, 3)) == 0:
        odd = [boundary_line(name, close, "x") for name in BOUNDARIES for close in (False, True)]
        lines.append(draw(st.sampled_from(odd + [f"--{name}" for name in BOUNDARIES])))
    return [*headers, *blank, *lines]


@st.composite
def any_part(draw: st.DrawFn, depth: int, used: tuple[str, ...], noise: bool) -> list[str]:
    """The lines of one part: a leaf, or a multipart while ``depth`` allows."""
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(leaf_part(noise))
    return draw(multipart(depth, used, noise))


@st.composite
def multipart(draw: st.DrawFn, depth: int, used: tuple[str, ...], noise: bool) -> list[str]:
    """The lines of a multipart part; well-formed unless ``noise``.

    Well-formed: a boundary unused by the enclosing multiparts, one line per
    boundary, no white space after it, the close line always there.  With
    ``noise``, now and then: a boundary used above, repeated and spaced
    boundary lines, no close line, stray boundary-like lines in the text.
    """
    free = [name for name in BOUNDARIES if name not in used]
    anyone = noise and draw(st.integers(0, 3)) == 0
    boundary = draw(st.sampled_from(BOUNDARIES if anyone else free))
    subtype = draw(st.sampled_from(["mixed", "alternative", "related"] * 3 + ["digest"] * noise))
    spaces = st.sampled_from(["", " ", "\t "] if noise else [""])
    lines = [f'Content-Type: multipart/{subtype}; boundary="{boundary}"', ""]
    lines += draw(st.lists(st.sampled_from(TEXT_LINES[:2]), max_size=2))  # the preamble
    for _ in range(draw(st.integers(1, 3))):
        lines += [boundary_line(boundary, False, draw(spaces))] * draw(st.integers(1, 1 + noise))
        lines += draw(any_part(depth - 1, (*used, boundary), noise))
    if not noise or draw(st.integers(0, 9)):
        lines.append(boundary_line(boundary, True, draw(spaces)))
        lines += draw(st.lists(st.sampled_from(TEXT_LINES[:2]), max_size=2))  # the epilogue
    return lines


@st.composite
def multipart_posts(draw: st.DrawFn, noise: bool) -> bytes:
    """A post whose body is a generated multipart, with one kind of line end throughout."""
    lines = draw(multipart(3, (), noise))
    content_type = lines[0].removeprefix("Content-Type: ")
    body = "\n".join(lines[2:]) + draw(st.sampled_from(["", "\n"]))
    return post(content_type, body, newline=draw(st.sampled_from(list(NEWLINES.values()))))


SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@SETTINGS
@given(multipart_posts(noise=False))
def test_split_takes_generated_well_formed_bodies(raw: bytes) -> None:
    assert assert_split_as_stdlib(raw)


@SETTINGS
@given(multipart_posts(noise=True))
def test_split_on_generated_bodies_with_stray_boundary_lines(raw: bytes) -> None:
    assert_split_as_stdlib(raw)


# Pieces of lines, joined at random between a separator and a close line:
# boundary lines glued to text, stray line ends, header-like text, nested types.
PIECES = (
    "--b",
    "--b--",
    "--in",
    "--in--",
    "--",
    "\n",
    "\r",
    "\r\n",
    "\n\n",
    " ",
    "\t",
    "x",
    ":",
    "From ",
    "a: 1\n",
    'Content-Type: multipart/mixed; boundary="in"\n',
    "Content-Type: message/rfc822\n",
    "Content-Type: text/html\n",
    "Content-Transfer-Encoding: base64\n",
    "SGk=\n",
)


@SETTINGS
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.sampled_from([ALTERNATIVE, MIXED]))
def test_split_on_pieces_of_lines(pieces: list[str], content_type: str) -> None:
    boundary = "b" if content_type == ALTERNATIVE else "out"
    assert_split_as_stdlib(post(content_type, f"--{boundary}\n{''.join(pieces)}\n--{boundary}--\n"))
