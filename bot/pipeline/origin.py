"""Stage: did the game's list carry this post, or did an authenticated sender mail the bot?

See docs/trust.md.  Three kinds of mail reach this stage:

* A **private mail**: addressed to the bot and not to the list, and not
  relayed by a list.  Its sender must be authenticated (``bot.trust.sender``,
  or a per-player secret the engine checks); it may take only the actions a
  game declares private.
* A **list post**, when ``[trust] list_signature`` is ``arc`` or ``dkim``:
  it counts only if it carries the list's own valid signature, and every
  header the referee reads (From, Reply-To, Cc, To, Message-ID) is covered
  by that signature and appears once, so that nobody can add one to a
  genuine post.  List-Id is checked first, as a cheap filter only.
* A **list post** in the weaker mode (``list_signature = "none"``): the
  List-Id header (typeable by anybody) and, when configured, the bot's own
  receiving server's Authentication-Results.  The bot says at start-up and
  in every ruling that it runs unauthenticated.

A refused post is never answered: the claimed sender may be the victim.
"""

from __future__ import annotations

import re

from bot.pipeline.context import PostContext
from bot.pipeline.decode import read_body
from bot.trust.policy import LIST_ARCHIVE
from bot.trust.results import AuthResults, dmarc_failed, parse_results
from bot.trust.seal import verify_list_seal
from bot.trust.sender import authenticate_sender, trusted_results

# The headers the referee reads to decide who posted and where: a signature
# that does not cover them, or a second copy of one, would let them be forged.
READ_HEADERS = ("from", "reply-to", "cc", "to", "message-id")
_LONE_CR = re.compile(rb"\r(?!\n)")
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")
_SECRET_LINE = re.compile(
    r"^[ \t>]*secret[ \t]*:[ \t]*(\S+)[ \t\r]*$", re.IGNORECASE | re.MULTILINE
)


def check_origin(context: PostContext) -> None:
    assert context.decoded is not None, "decode runs before check_origin"
    context.private = _is_private(context)
    if _LONE_CR.search(_header_block(context.raw)):
        # The stdlib ends a header line at a lone CR, dkimpy does not: a header
        # smuggled behind one would be read but not signed.
        context.refuse(
            "the header holds a lone carriage return: readers would split it differently"
        )
    elif context.private:
        _check_private_sender(context)
    elif not _list_id_matches(context):
        wanted = context.settings.required_list_id
        context.refuse(f"not delivered through the game's list (no List-Id <{wanted}>)")
    elif context.settings.trust.list_signature == LIST_ARCHIVE:
        _check_list_archive(context)
    elif context.settings.trust.signed:
        _check_list_signature(context)
    else:
        _check_receiving_server(context)


def _header_block(raw: bytes) -> bytes:
    """The raw header block, up to the first empty line as dkimpy reads it."""
    found = _BLANK_LINE.search(raw)
    return raw[: found.start()] if found else raw


def _check_list_signature(context: PostContext) -> None:
    policy = context.settings.trust
    seal = verify_list_seal(
        context.raw,
        kind=policy.list_signature,
        signer=policy.list_signer,
        selector=policy.list_selector,
        lookup=policy.lookup(),
        list_authserv_id=policy.list_authserv_id,
    )
    if not seal.ok:
        context.refuse(f"not carried by the game's list: {seal.reason}")
        return
    problem = _unsigned_or_repeated(context, seal.signed)
    if problem:
        context.refuse(problem)
        return
    context.list_results = seal.results
    context.carriage = seal.reason


def _check_list_archive(context: PostContext) -> None:
    """A replay of the list's own archive: being in it proves the list carried the post.

    The list wrote its Authentication-Results on top of each post when it
    arrived (GNU Mailman 3's validate-authenticity, before the archive
    copy is made); a border MTA that drops arriving ones (deploy/GUIDE.md)
    makes the topmost one the list's.  A post whose read headers are
    repeated is as ambiguous here as live.
    """
    assert context.decoded is not None
    problem = _unsigned_or_repeated(context, frozenset(READ_HEADERS))
    if problem:
        context.refuse(problem)
        return
    headers = context.decoded.headers.get("authentication-results", ())
    topmost = _topmost(headers)
    wanted = context.settings.trust.results_authserv_id.lower()
    if topmost is not None and topmost.authserv_id.lower() == wanted:
        context.list_results = topmost
    context.carriage = "the list's archive"


def _unsigned_or_repeated(context: PostContext, signed: frozenset[str]) -> str:
    assert context.decoded is not None
    for name in READ_HEADERS:
        count = len(context.decoded.headers.get(name, ()))
        if count > 1:
            return f"the post has {count} {name.title()} headers; which one counts is ambiguous"
        if count and name not in signed:
            return f"the list's signature does not cover the {name.title()} header"
    return ""


def _check_receiving_server(context: PostContext) -> None:
    """The weaker mode: only the topmost Authentication-Results (RFC 8601) may refuse."""
    assert context.decoded is not None
    headers = context.decoded.headers.get("authentication-results", ())
    ids = context.settings.trust.authserv_ids
    results = trusted_results(headers, ids) if ids else _topmost(headers)
    failed = dmarc_failed(results) if results is not None else None
    if failed:
        context.refuse(f"the sender's domain failed DMARC ({failed}): the From may be forged")
    context.list_results = results if ids else None
    context.carriage = "List-Id only (unauthenticated mode)"


def _topmost(headers: tuple[str, ...]) -> AuthResults | None:
    return parse_results(headers[0]) if headers else None


def _check_private_sender(context: PostContext) -> None:
    decoded = context.decoded
    assert decoded is not None
    if decoded.from_problem or decoded.from_address is None:
        context.refuse(decoded.from_problem or "no From address")
        return
    policy = context.settings.trust
    check = authenticate_sender(
        context.raw,
        decoded.headers.get("authentication-results", ()),
        decoded.from_address.rpartition("@")[2],
        policy.authserv_ids,
        policy.lookup(),
    )
    if check.refusal:
        context.refuse(f"private mail refused: {check.refusal}")
        return
    context.authentication = check.authenticated
    found = _SECRET_LINE.search(read_body(context).body_text)
    context.claimed_secret = found.group(1) if found else ""
    context.carriage = "private mail to the bot"


def _list_id_matches(context: PostContext) -> bool:
    assert context.decoded is not None
    wanted = context.settings.required_list_id
    if not wanted:
        return True
    list_ids = " ".join(context.decoded.headers.get("list-id", ())).lower()
    return f"<{wanted}>" in list_ids or wanted in list_ids.split()


def _is_private(context: PostContext) -> bool:
    """Addressed to the bot and neither to the list nor delivered by it."""
    assert context.decoded is not None
    if context.decoded.headers.get("list-id"):
        return False
    recipients = {address.lower() for address in context.decoded.to + context.decoded.cc}
    settings = context.settings
    return bool(recipients & settings.bot_addresses) and not recipients & settings.list_addresses
