"""Reading the list's own archive (docs/archive.md): what proves a post, and when it took effect.

``nomicbot replay --list-archive`` judges archived copies, which carry the
list's Authentication-Results on top but no seal; and a post takes effect
when the list's server received it, in the bot's copy and the archive's
alike (``bot.ingress.instant``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

from bot.ingress.instant import WINDOW, list_receipt_time
from bot.pipeline import PipelineSettings, PostContext, run_pipeline
from bot.trust.policy import LIST_ARCHIVE, TrustPolicy

LIST_DOMAIN = "lists.example.org"
LIST_ADDRESS = "nomic@lists.example.org"
BOT_ADDRESS = "referee@bot.example"
LIST_RESULTS = (
    f"Authentication-Results: {LIST_DOMAIN}; dkim=pass header.d=a.example; "
    "dmarc=pass header.from=a.example"
)
RECEIVED_BY_THE_LIST = datetime(2026, 3, 4, 12, 0, 5, tzinfo=UTC)


def received(by: str, recipient: str, at: datetime) -> str:
    stamp = format_datetime(at)
    return f"Received: from somewhere by {by} with ESMTP id X1 for <{recipient}>; {stamp}"


def archived(
    *,
    top: tuple[str, ...] = (LIST_RESULTS,),
    sender: str = "Alice <alice@a.example>",
    extra: tuple[str, ...] = (),
) -> bytes:
    """A post as the list's archive keeps it: list headers, its results, the original From."""
    lines = [
        *top,
        received(f"mx.{LIST_DOMAIN}", LIST_ADDRESS, RECEIVED_BY_THE_LIST),
        f"From: {sender}",
        f"To: {LIST_ADDRESS}",
        *extra,
        "Subject: [Nomic] Dice",
        "Message-ID: <p1@a.example>",
        "List-Id: <nomic.lists.example.org>",
        f"List-Post: <mailto:{LIST_ADDRESS}>",
        "",
        "I roll 1d6.",
    ]
    return "\r\n".join(lines).encode()


def judged(raw: bytes) -> PostContext:
    policy = TrustPolicy(list_signature=LIST_ARCHIVE, list_signer=LIST_DOMAIN, use_dns=False)
    settings = PipelineSettings(
        bot_addresses=frozenset({BOT_ADDRESS}),
        list_addresses=frozenset({LIST_ADDRESS}),
        required_list_id="nomic.lists.example.org",
        trust=policy,
    )
    return run_pipeline(raw, settings)


def test_an_archived_post_is_by_its_from_authenticated_by_the_lists_results() -> None:
    context = judged(archived())
    assert context.stop_reason is None
    assert (context.author, context.author_name) == ("alice@a.example", "Alice")
    assert "pass" in context.authentication and LIST_DOMAIN in context.authentication
    assert context.carriage == "the list's archive"


def test_results_written_by_anybody_else_do_not_authenticate_the_author() -> None:
    typed = LIST_RESULTS.replace(LIST_DOMAIN, "mx.evil.example")
    context = judged(archived(top=(typed,)))
    assert context.refused and "could not authenticate its author's domain" in str(
        context.stop_reason
    )


def test_the_lists_results_must_be_on_top() -> None:
    typed_below = (
        "Authentication-Results: mx.evil.example; dmarc=fail header.from=a.example",
        LIST_RESULTS,
    )
    assert judged(archived(top=typed_below)).refused


def test_a_repeated_read_header_is_as_ambiguous_in_the_archive_as_live() -> None:
    context = judged(archived(extra=("From: Bob <bob@b.example>",)))
    assert context.refused and "2 From headers" in str(context.stop_reason)


def test_a_post_not_of_the_list_is_refused() -> None:
    raw = archived().replace(b"List-Id: <nomic.lists.example.org>", b"List-Id: <other.example>")
    assert judged(raw).refused


# -- the instant ------------------------------------------------------------------------


def test_the_archives_copy_and_the_bots_copy_take_effect_at_the_lists_stamp() -> None:
    archive_copy = archived()
    # The bot's copy: the list's outgoing hops sit above, naming the bot.
    later = RECEIVED_BY_THE_LIST + timedelta(seconds=4)
    bots_copy = (
        received("mx.bot.example", BOT_ADDRESS, later).encode()
        + b"\r\n"
        + received(f"mx.{LIST_DOMAIN}", BOT_ADDRESS, later).encode()
        + b"\r\n"
        + archive_copy
    )
    delivered = RECEIVED_BY_THE_LIST + timedelta(seconds=9)
    assert list_receipt_time(archive_copy, RECEIVED_BY_THE_LIST) == RECEIVED_BY_THE_LIST
    assert list_receipt_time(bots_copy, delivered) == RECEIVED_BY_THE_LIST


def test_a_stamp_typed_below_the_lists_own_is_not_read() -> None:
    forged = received("mx.a.example", LIST_ADDRESS, RECEIVED_BY_THE_LIST - timedelta(hours=3))
    raw = archived(extra=(forged,))
    # Headers below the list's own stamp are the sender's; only the topmost counts.
    assert list_receipt_time(raw, RECEIVED_BY_THE_LIST) == RECEIVED_BY_THE_LIST


def test_a_stamp_after_the_delivery_or_long_before_it_is_not_believed() -> None:
    raw = archived()
    early = RECEIVED_BY_THE_LIST - timedelta(seconds=1)
    assert list_receipt_time(raw, early) == early  # never moved forward
    late = RECEIVED_BY_THE_LIST + WINDOW + timedelta(seconds=1)
    assert list_receipt_time(raw, late) == late


def test_a_mail_without_list_post_keeps_its_delivery_time() -> None:
    raw = archived().replace(f"List-Post: <mailto:{LIST_ADDRESS}>\r\n".encode(), b"")
    delivered = RECEIVED_BY_THE_LIST + timedelta(seconds=9)
    assert list_receipt_time(raw, delivered) == delivered
