"""The origin and author stages on raw list posts, ARC-sealed by the list (docs/trust.md).

Each post is raw bytes as the list delivers it: signed by the author's
provider (a.example), then sealed by the list (lists.example.org) with its
record of how it authenticated the author on arrival.  The pipeline runs
with ``[trust] list_signature = "arc"`` and the list's key pinned in a key
file; what is asserted is who the post is attributed to, or why it is
refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import dkim
import pytest

from bot.pipeline import PipelineSettings, PostContext, run_pipeline
from bot.testing.signing import LIST_SIGNED_HEADERS, signing_key, write_key_file
from bot.trust.keys import load_key_file
from bot.trust.policy import TrustPolicy

LIST_DOMAIN = "lists.example.org"
LIST_ADDRESS = "nomic@lists.example.org"
BOT_ADDRESS = "referee@bot.example"
ALICE = "alice@a.example"
PASSED = "dkim=pass header.d=a.example header.i=@a.example; dmarc=pass header.from=a.example"
MUNGED_FROM = f"Alice via Nomic <{LIST_ADDRESS}>"

Judge = Callable[..., PostContext]


@pytest.fixture(scope="module")
def key_records(tmp_path_factory: pytest.TempPathFactory) -> tuple[tuple[str, str], ...]:
    path = tmp_path_factory.mktemp("keys") / "keys.txt"
    write_key_file(path, [signing_key(LIST_DOMAIN, "nomic"), signing_key("a.example", "s1")])
    return tuple(sorted(load_key_file(path).items()))


@pytest.fixture(scope="module")
def judge(key_records: tuple[tuple[str, str], ...]) -> Judge:
    """Run the pipeline on a raw post, with ``[trust]`` author_authentication as given."""

    def run(raw: bytes, author_authentication: str = "required") -> PostContext:
        policy = TrustPolicy(
            list_signature="arc",
            list_signer=LIST_DOMAIN,
            list_selector="nomic",
            author_authentication=author_authentication,
            key_records=key_records,
            use_dns=False,
        )
        settings = PipelineSettings(
            bot_addresses=frozenset({BOT_ADDRESS}),
            list_addresses=frozenset({LIST_ADDRESS}),
            required_list_id="nomic.lists.example.org",
            trust=policy,
        )
        return run_pipeline(raw, settings)

    return run


def post(sender: str = f"Alice <{ALICE}>", *extra: str, body: str = "I roll 1d6.") -> bytes:
    """A post as the list distributes it (List-Id added), signed by a.example."""
    lines = [
        f"From: {sender}",
        f"To: {LIST_ADDRESS}",
        "Subject: Dice",
        "Date: Thu, 01 Jan 2026 01:00:00 +0000",
        "Message-ID: <dice-1@a.example>",
        *extra,
        "List-Id: <nomic.lists.example.org>",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=us-ascii",
        "",
        body,
        "",
    ]
    return signing_key("a.example", "s1").dkim_sign("\r\n".join(lines).encode())


def sealed(
    raw: bytes, results: str = PASSED, headers: Iterable[str] = LIST_SIGNED_HEADERS
) -> bytes:
    """``raw`` sealed by the list as Mailman 3 seals in delivery (sig_headers ``headers``)."""
    key = signing_key(LIST_DOMAIN, "nomic")
    message = f"Authentication-Results: {LIST_DOMAIN}; {results}\r\n".encode() + raw
    arc_set = dkim.arc_sign(
        message,
        b"nomic",
        LIST_DOMAIN.encode(),
        key.private_pem,
        LIST_DOMAIN.encode(),
        include_headers=[name.lower().encode() for name in headers],
    )
    return b"".join(arc_set) + message


def under_the_seal(raw: bytes, added: bytes) -> bytes:
    """``added`` header lines right below the list's ARC set, above everything it sealed."""
    at = raw.index(b"\r\nAuthentication-Results: ") + 2
    return raw[:at] + added + raw[at:]


def refused_because(context: PostContext, words: str) -> None:
    assert context.refused, f"not refused: author {context.author}"
    assert context.stop_reason is not None and words in context.stop_reason, context.stop_reason
    assert context.author is None


# -- a genuine post --------------------------------------------------------------------------


def test_a_sealed_genuine_post_is_the_from_mailbox_s(judge: Judge) -> None:
    context = judge(sealed(post()))
    assert context.stop_reason is None and not context.refused
    assert (context.author, context.author_name) == (ALICE, "Alice")
    assert context.carriage == f"ARC seal i=1 of {LIST_DOMAIN} verified"
    assert context.authentication == (
        f"dkim=pass header.d=a.example, recorded by the list ({LIST_DOMAIN})"
    )
    assert context.parsed is not None
    assert [action.action for action in context.parsed.actions] == ["dice.roll"]


def test_an_unsealed_post_with_the_list_id_is_refused(judge: Judge) -> None:
    refused_because(judge(post()), "not carried by the game's list: no ARC seal")


def test_a_post_without_the_list_id_is_refused_before_its_seal_is_read(judge: Judge) -> None:
    raw = sealed(post()).replace(b"List-Id: <nomic.lists.example.org>\r\n", b"")
    refused_because(judge(raw), "not delivered through the game's list")


# -- headers added to a genuine post ---------------------------------------------------------


@pytest.mark.parametrize("where", ["under the seal", "at the foot of the header"])
def test_a_second_from_is_refused(judge: Judge, where: str) -> None:
    genuine = sealed(post())
    added = b"From: Bob <bob@b.example>\r\n"
    if where == "under the seal":
        raw = under_the_seal(genuine, added)
    else:
        head, _, body = genuine.partition(b"\r\n\r\n")
        raw = head + b"\r\n" + added + b"\r\n" + body
    # dkimpy verifies From as if oversigned, so the seal itself breaks here;
    # the origin stage would refuse a second From in any case.
    context = judge(raw)
    assert context.refused and context.author is None


@pytest.mark.parametrize(
    ("original", "added", "words"),
    [
        ("Reply-To: Alice <alice@a.example>", "Reply-To: bob@b.example", "2 Reply-To headers"),
        ("Cc: carol@c.example", "Cc: bob@b.example", "2 Cc headers"),
        (None, "To: bob@b.example", "2 To headers"),
        (None, "Message-ID: <other@b.example>", "2 Message-Id headers"),
    ],
)
def test_a_second_copy_of_a_read_header_under_the_seal_is_refused(
    judge: Judge,
    original: str | None,
    added: str,
    words: str,
) -> None:
    genuine = sealed(post(f"Alice <{ALICE}>", *([original] if original else [])))
    assert not judge(genuine).refused
    raw = under_the_seal(genuine, f"{added}\r\n".encode())
    refused_because(judge(raw), words)


def test_a_header_the_seal_does_not_cover_is_refused(judge: Judge) -> None:
    not_cc = [name for name in LIST_SIGNED_HEADERS if name != "Cc"]
    genuine = sealed(post(), headers=not_cc)
    assert not judge(genuine).refused
    raw = under_the_seal(genuine, b"Cc: bob@b.example\r\n")
    refused_because(judge(raw), "the list's signature does not cover the Cc header")


def test_a_header_block_that_parsers_split_differently_is_refused(judge: Judge) -> None:
    # BUG (bot/pipeline/origin.py _unsigned_or_repeated, on the headers of
    # bot/mail/decode.py): the stdlib parser ends a line at a bare CR, dkimpy
    # only at (CR)LF.  Mallory, a member at Alice's provider, takes her own
    # sealed post and adds one unsigned header whose bare CRs make the stdlib
    # see a From of Alice and then an empty line, so the stdlib reads none of
    # the sealed headers (they become body text) while dkimpy still verifies
    # the seal over all of them.  The bot attributes Mallory's post, with an
    # action of her choosing, to alice@a.example, authenticated by the
    # list's dkim=pass for a.example.
    mallorys = sealed(post("Mallory <mallory@a.example>", body="I roll 1d6."))
    assert judge(mallorys).author == "mallory@a.example"
    smuggled = (
        b"X-Note: x\rFrom: Alice <alice@a.example>\rList-Id: <nomic.lists.example.org>"
        b"\rTo: nomic@lists.example.org\rMessage-ID: <forged@a.example>\r\rI roll 2d6.\r\r\n"
    )
    context = judge(under_the_seal(mallorys, smuggled))
    assert context.author != ALICE, (
        f"Mallory's sealed post was judged as Alice's ({context.authentication}), "
        f"with actions {context.parsed.actions if context.parsed else ()}"
    )
    assert context.refused


def test_a_from_whose_angle_address_is_another_s_is_not_read_as_the_first(judge: Judge) -> None:
    # BUG (bot/mail/headers.py parse_mailboxes; see test_headers_from.py):
    # "alice@a.example <mallory@a.example>" is read as alice@a.example, the
    # stdlib's InvalidHeaderDefect ignored.  Mallory's provider (Alice's too)
    # signs it, as the mailbox in angle brackets is Mallory's, and the list
    # records dkim=pass for a.example: the post is judged as Alice's.
    context = judge(sealed(post("alice@a.example <mallory@a.example>")))
    assert context.author != ALICE, f"judged as Alice's: {context.authentication}"
    assert context.refused


# -- From-munging ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        ("Reply-To: Alice <alice@a.example>",),
        (f"Reply-To: {LIST_ADDRESS}", "Cc: Alice <alice@a.example>"),  # the list munges Reply-To
        ("Reply-To: bob@b.example, alice@a.example",),  # Mailman appends to the member's
        ("Reply-To: alice@a.example, bob@b.example",),
        ("Reply-To: bob@b.example", "Cc: alice@a.example"),
    ],
    ids=["reply-to", "cc", "appended", "first", "reply-to-and-cc"],
)
def test_the_munged_author_is_the_one_address_in_the_list_s_from_domain(
    judge: Judge,
    headers: tuple[str, ...],
) -> None:
    context = judge(sealed(post(MUNGED_FROM, *headers)))
    assert context.stop_reason is None
    assert (context.author, context.author_name) == (ALICE, "Alice")
    assert context.authentication.startswith("dkim=pass header.d=a.example")


def test_two_candidates_in_the_from_domain_are_not_guessed(judge: Judge) -> None:
    raw = sealed(post(MUNGED_FROM, "Reply-To: carol@a.example, alice@a.example"))
    refused_because(judge(raw), "2 possible authors in a.example")
    refused_because(judge(raw), "the author is not guessed")


def test_the_same_candidate_twice_is_one_candidate(judge: Judge) -> None:
    raw = sealed(post(MUNGED_FROM, "Reply-To: alice@a.example", "Cc: Alice <ALICE@A.example>"))
    assert judge(raw).author == ALICE


@pytest.mark.parametrize(
    "headers",
    [("Reply-To: bob@b.example",), (f"Reply-To: {LIST_ADDRESS}", f"Cc: {BOT_ADDRESS}"), ()],
    ids=["another-domain", "list-and-bot", "none"],
)
def test_no_candidate_in_the_from_domain_is_refused(judge: Judge, headers: tuple[str, ...]) -> None:
    refused_because(judge(sealed(post(MUNGED_FROM, *headers))), "0 possible authors in a.example")


def test_typed_claims_of_the_original_from_are_never_read(judge: Judge) -> None:
    raw = sealed(
        post(
            MUNGED_FROM,
            "Reply-To: bob@b.example",
            "X-Original-From: alice@a.example",
            "X-MailFrom: alice@a.example",
        )
    )
    refused_because(judge(raw), "not guessed")


# -- authenticating the author's domain ------------------------------------------------------

# Mailman 3.3's record when alice@a.example's post is signed with evil.example's key.
LISTS_DMARC_ONLY = "dkim=pass header.d=evil.example; dmarc=pass header.from=a.example"


def test_an_author_domain_the_list_did_not_authenticate_is_refused(judge: Judge) -> None:
    refused_because(
        judge(sealed(post(), LISTS_DMARC_ONLY)),
        "could not authenticate its author's domain (a.example",
    )


def test_a_dmarc_fail_outweighs_the_list_s_dkim_pass(judge: Judge) -> None:
    raw = sealed(post(), "dkim=pass header.d=a.example; dmarc=fail header.from=a.example")
    refused_because(judge(raw), "could not authenticate its author's domain")


def test_a_munged_author_whose_domain_is_unauthenticated_is_refused(judge: Judge) -> None:
    raw = sealed(post(MUNGED_FROM, "Reply-To: alice@a.example"), LISTS_DMARC_ONLY)
    refused_because(judge(raw), "could not authenticate its author's domain (a.example")


@pytest.mark.parametrize("results", [LISTS_DMARC_ONLY, "none", "dmarc=none header.from=a.example"])
def test_in_list_mode_the_list_s_word_is_enough(judge: Judge, results: str) -> None:
    context = judge(sealed(post(), results), author_authentication="list")
    assert context.stop_reason is None
    assert (context.author, context.authentication) == (ALICE, "")


def test_in_list_mode_a_munged_author_is_still_not_guessed(judge: Judge) -> None:
    raw = sealed(post(MUNGED_FROM, "Reply-To: carol@a.example, alice@a.example"))
    refused_because(judge(raw, author_authentication="list"), "not guessed")


def test_in_list_mode_a_forged_seal_is_still_refused(judge: Judge) -> None:
    raw = sealed(post()).replace(b"I roll 1d6.", b"I roll 6d6.")
    refused_because(judge(raw, author_authentication="list"), "does not verify")
