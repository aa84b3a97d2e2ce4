"""Authenticating the sender of a private mail (one that did not go through the list).

Nothing vouches for a private mail's From but the sender's own domain: the
bot accepts it when

* the topmost Authentication-Results header was written by one of the bot's
  own receiving servers (``[trust] authserv_ids``; RFC 8601 section 5: a
  receiving server's results are the first ones above what the sender
  wrote, and any lower header carrying a trusted id is a forgery) and it
  reports DMARC ``pass`` for the From domain, or an aligned DKIM ``pass``;
  DMARC fail, permerror or temperror there refuse the mail outright; or
* a DKIM signature of the From domain on the mail itself verifies (with
  dkimpy, against the domain's published key), covers From exactly once and
  the whole body (no ``l=``).

A per-player secret is the third way; it needs the roster, so the engine
checks it (``bot.engine.secrets``).
"""

from __future__ import annotations

from dataclasses import dataclass

import dkim
from dkim.util import InvalidTagValueList, parse_tag_value

from bot.trust.keys import DnsFunction, signature_verifies
from bot.trust.results import (
    AuthResults,
    aligned,
    dmarc_failed,
    domain_passed,
    parse_results,
)


@dataclass(frozen=True)
class SenderCheck:
    authenticated: str  # how, in a player's words; "" when not authenticated
    refusal: str = ""  # a result that says the From is forged


def authenticate_sender(
    raw: bytes,
    results_headers: tuple[str, ...],
    from_domain: str,
    authserv_ids: frozenset[str],
    lookup: DnsFunction,
) -> SenderCheck:
    """How the private mail's From domain is authenticated, or a refusal."""
    topmost = trusted_results(results_headers, authserv_ids)
    if topmost is not None:
        failed = dmarc_failed(topmost)
        if failed:
            return SenderCheck("", f"the receiving server reports {failed} for the From domain")
        how = domain_passed(topmost, from_domain)
        if how:
            return SenderCheck(f"{how}, by the receiving server {topmost.authserv_id}")
    return _own_signature(raw, from_domain, lookup)


def trusted_results(
    results_headers: tuple[str, ...], authserv_ids: frozenset[str]
) -> AuthResults | None:
    """The topmost Authentication-Results, if one of the bot's own servers wrote it."""
    if not results_headers or not authserv_ids:
        return None
    topmost = parse_results(results_headers[0])
    if topmost is None or topmost.authserv_id not in authserv_ids:
        return None
    return topmost


def receiving_server_pass(
    results_headers: tuple[str, ...], authserv_ids: frozenset[str], from_domain: str
) -> str:
    """The trusted receiving server's words for a pass of ``from_domain``, or ""."""
    topmost = trusted_results(results_headers, authserv_ids)
    how = domain_passed(topmost, from_domain) if topmost is not None else None
    return f"{how}, by the receiving server {topmost.authserv_id}" if how and topmost else ""


def _own_signature(raw: bytes, from_domain: str, lookup: DnsFunction) -> SenderCheck:
    try:
        headers, _body = dkim.rfc822_parse(raw)
    except dkim.DKIMException:
        return SenderCheck("")
    signatures = [value for name, value in headers if name.lower() == b"dkim-signature"]
    for index, value in enumerate(signatures):
        try:
            tags = dict(parse_tag_value(value))
        except InvalidTagValueList:
            continue
        signer = tags.get(b"d", b"").decode("ascii", "replace").strip().lower()
        if not aligned(from_domain, signer) or b"l" in tags:
            continue
        if signature_verifies(raw, index, lookup):
            return SenderCheck(f"your DKIM signature (d={signer}) verified")
    return SenderCheck("")
