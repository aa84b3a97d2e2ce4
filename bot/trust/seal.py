"""Did the game's list carry this post?  Proven by the list's own signature.

Two proofs, as ``[trust] list_signature`` says:

* ``arc``: the newest ARC set (RFC 8617) was made by the list's domain
  (``list_signer``, and ``list_selector`` when given), and both its
  ARC-Message-Signature and its ARC-Seal verify.  The ARC-Authentication-
  Results of that set are then the list's own record of how it
  authenticated the author.  Earlier sets (the author's provider's) need not
  verify: the bot relies on the list alone.
* ``dkim``: a DKIM-Signature by the list's domain that verifies, without
  ``l=`` (a body-length limit would let anyone append text, and actions, to
  a signed post).  The list's own Authentication-Results, if the signature
  covers them, then play the part of ARC's results.

A List-Id header proves nothing by itself: anybody can type one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import dkim
from dkim.util import InvalidTagValueList, parse_tag_value

from bot.trust.keys import DnsFunction, signature_verifies
from bot.trust.results import AuthResults, parse_results

_INSTANCE = re.compile(rb"(?:^|;)\s*i\s*=\s*(\d+)\s*(?:;|$)")


@dataclass(frozen=True)
class SealCheck:
    ok: bool
    reason: str  # what was verified, or why the post is not the list's
    results: AuthResults | None = None  # the list's own authentication results
    signed: frozenset[str] = frozenset()  # the header names the signature covers


def verify_list_seal(
    raw: bytes,
    *,
    kind: str,
    signer: str,
    selector: str,
    lookup: DnsFunction,
    list_authserv_id: str = "",
) -> SealCheck:
    """Check that ``raw`` carries the list's valid signature (``kind`` "arc" or "dkim")."""
    try:
        headers, _body = dkim.rfc822_parse(raw)
    except dkim.DKIMException as error:
        return SealCheck(False, f"the message cannot be read for its signature: {error}")
    if kind == "arc":
        return _verify_arc(raw, headers, signer.lower(), selector.lower(), lookup)
    return _verify_dkim(
        raw, headers, signer.lower(), selector.lower(), lookup, list_authserv_id or signer
    )


def _verify_arc(
    raw: bytes,
    headers: list[tuple[bytes, bytes]],
    signer: str,
    selector: str,
    lookup: DnsFunction,
) -> SealCheck:
    sets = _arc_instances(headers)
    if not sets:
        return SealCheck(False, f"no ARC seal: the list ({signer}) did not carry it")
    newest = max(sets)
    try:
        _cv, results, comment = dkim.ARC(raw).verify(dnsfunc=lookup)
    except dkim.DKIMException as error:  # a malformed chain
        return SealCheck(False, f"the ARC chain is malformed: {error}")
    mine = next((r for r in results if r.get("instance") == newest), None)
    if mine is None:
        return SealCheck(False, f"the newest ARC set (i={newest}) is malformed: {comment}")
    problem = _not_the_lists(mine, signer, selector)
    if problem:
        return SealCheck(False, problem)
    list_results = parse_results(mine["aar-value"].decode("utf-8", "replace"))
    signed = _signed_names(_tag(headers, b"arc-message-signature", newest, b"h"))
    return SealCheck(True, f"ARC seal i={newest} of {signer} verified", list_results, signed)


def _not_the_lists(result: dict[str, object], signer: str, selector: str) -> str:
    domains = {_text(result.get("ams-domain")), _text(result.get("as-domain"))}
    if domains != {signer}:
        named = " and ".join(sorted(d for d in domains if d)) or "nobody"
        return f"the newest ARC set was made by {named}, not by the list ({signer})"
    selectors = {_text(result.get("ams-selector")), _text(result.get("as-selector"))}
    if selector and selectors != {selector}:
        return f"the newest ARC set uses selector {', '.join(sorted(selectors))}, not {selector}"
    if not result.get("ams-valid"):
        return "the list's ARC-Message-Signature does not verify: the post was changed"
    if not result.get("as-valid"):
        return "the list's ARC-Seal does not verify"
    return ""


def _verify_dkim(
    raw: bytes,
    headers: list[tuple[bytes, bytes]],
    signer: str,
    selector: str,
    lookup: DnsFunction,
    authserv_id: str,
) -> SealCheck:
    signatures = [value for name, value in headers if name.lower() == b"dkim-signature"]
    for index, value in enumerate(signatures):
        tags = _tags(value)
        if _text(tags.get(b"d")) != signer or (selector and _text(tags.get(b"s")) != selector):
            continue
        if b"l" in tags:
            return SealCheck(False, "the list's DKIM signature covers only part of the body (l=)")
        if not signature_verifies(raw, index, lookup):
            return SealCheck(
                False, "the list's DKIM signature does not verify: the post was changed"
            )
        signed = _signed_names(tags.get(b"h", b""))
        return SealCheck(
            True,
            f"DKIM signature of {signer} verified",
            _covered_results(headers, _signed_list(tags.get(b"h", b"")), authserv_id),
            signed,
        )
    return SealCheck(False, f"no DKIM signature of the list ({signer}): the list did not carry it")


def _covered_results(
    headers: list[tuple[bytes, bytes]], signed: list[str], authserv_id: str
) -> AuthResults | None:
    """The list's Authentication-Results, if exactly one is there and the signature covers it.

    A name listed k times in h= covers the k bottom-most headers of that name
    (RFC 6376 section 5.4.2), so the list's header must be among those.
    """
    covered = signed.count("authentication-results")
    values = [value for name, value in headers if name.lower() == b"authentication-results"]
    parsed = [parse_results(value.decode("utf-8", "replace")) for value in values]
    mine = [
        i for i, found in enumerate(parsed) if found and found.authserv_id == authserv_id.lower()
    ]
    if len(mine) != 1 or mine[0] < len(values) - covered:
        return None
    return parsed[mine[0]]


def _arc_instances(headers: list[tuple[bytes, bytes]]) -> set[int]:
    found: set[int] = set()
    for name, value in headers:
        if name.lower() in {b"arc-seal", b"arc-message-signature"}:
            match = _INSTANCE.search(b" ".join(value.split()))
            if match:
                found.add(int(match.group(1)))
    return found


def _tag(headers: list[tuple[bytes, bytes]], header: bytes, instance: int, tag: bytes) -> bytes:
    for name, value in headers:
        if name.lower() != header:
            continue
        tags = _tags(value)
        if tags.get(b"i", b"").strip() == str(instance).encode():
            return tags.get(tag, b"")
    return b""


def _tags(value: bytes) -> dict[bytes, bytes]:
    try:
        return dict(parse_tag_value(value))
    except InvalidTagValueList:
        return {}


def _signed_list(value: bytes) -> list[str]:
    """The header names of an h= tag, in order, each as often as it is listed."""
    return [
        part.strip().lower() for part in value.decode("ascii", "replace").split(":") if part.strip()
    ]


def _signed_names(value: bytes) -> frozenset[str]:
    return frozenset(_signed_list(value))


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("ascii", "replace").strip().lower()
    return str(value or "").strip().lower()
