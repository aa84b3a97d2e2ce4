"""Authentication-Results (RFC 8601) and ARC-Authentication-Results, read.

Only results written by a server the bot trusts mean anything: the list's
own ARC-Authentication-Results inside a seal the bot verified, or the
topmost Authentication-Results of the bot's own receiving server.  This
module only reads them; which ones to trust is decided by the caller.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import authres

_INSTANCE = re.compile(r"^\s*i\s*=\s*\d+\s*;", re.IGNORECASE)
# Results that authenticate; "permerror"/"temperror"/"neutral"/"policy" do not.
PASS = "pass"


@dataclass(frozen=True)
class MethodResult:
    method: str  # "dkim", "dmarc", "spf", "arc"
    result: str  # "pass", "fail", "none", "permerror", ...
    properties: tuple[tuple[str, str], ...]  # ("header.d", "a.example"), ...

    def property(self, name: str) -> str:
        for key, value in self.properties:
            if key == name:
                return value.strip().lower()
        return ""


@dataclass(frozen=True)
class AuthResults:
    authserv_id: str
    results: tuple[MethodResult, ...]


def parse_results(value: str) -> AuthResults | None:
    """One Authentication-Results or ARC-Authentication-Results value, or None if unreadable."""
    value = _INSTANCE.sub("", " ".join(value.split()), count=1)
    try:
        header = authres.AuthenticationResultsHeader.parse(f"Authentication-Results: {value}")
    except Exception:  # authres raises its own errors and ValueError on hostile text
        return None
    results = tuple(
        MethodResult(
            str(result.method).lower(),
            str(result.result).lower(),
            tuple(
                (f"{prop.type}.{prop.name}".lower(), str(prop.value)) for prop in result.properties
            ),
        )
        for result in header.results
    )
    return AuthResults(str(header.authserv_id).lower(), results)


def aligned(domain: str, signer: str) -> bool:
    """DMARC's relaxed alignment, without a public suffix list.

    Equal domains align, and so do a domain and its parent when the parent
    has at least two labels (a.example.org and example.org), never a domain
    and a bare top-level domain.
    """
    domain, signer = domain.lower().rstrip("."), signer.lower().rstrip(".")
    if not domain or not signer:
        return False
    if domain == signer:
        return True
    shorter, longer = sorted((domain, signer), key=len)
    return shorter.count(".") >= 1 and longer.endswith("." + shorter)


def domain_passed(results: AuthResults, domain: str, *, trust_dmarc: bool = True) -> str | None:
    """How ``results`` authenticate mail From ``domain``, or None.

    DMARC ``pass`` for that header.from domain (only with ``trust_dmarc``),
    else a DKIM ``pass`` whose signing domain aligns with it by this
    module's own, stricter test (``aligned``); a DMARC ``fail`` for it
    outweighs any DKIM pass.  A list's record is read with ``trust_dmarc``
    off: Mailman 3.3's DMARC check (authheaders) finds the organizational
    domain with a public suffix list and, for a name under a suffix the
    list does not know, takes the bare top-level domain, so that
    ``alice@a.example`` "passes" with a signature of ``evil.example``.
    """
    dmarc = [r for r in results.results if r.method == "dmarc"]
    if any(r.property("header.from") == domain.lower() and r.result == "fail" for r in dmarc):
        return None
    for result in dmarc if trust_dmarc else ():
        if result.result == PASS and result.property("header.from") == domain.lower():
            return f"dmarc=pass header.from={domain}"
    for result in results.results:
        if result.method != "dkim" or result.result != PASS:
            continue
        signer = result.property("header.d") or result.property("header.i").rpartition("@")[2]
        if aligned(domain, signer):
            return f"dkim=pass header.d={signer}"
    return None


def dmarc_failed(results: AuthResults) -> str | None:
    """A DMARC result that says the From domain may be forged: fail, permerror or temperror."""
    for result in results.results:
        if result.method == "dmarc" and result.result in {"fail", "permerror", "temperror"}:
            return f"dmarc={result.result}"
    return None


def passed_domain(results: AuthResults) -> str:
    """The header.from domain the results name as DMARC-passed, or the aligned DKIM one."""
    for result in results.results:
        if result.method == "dmarc" and result.result == PASS:
            return result.property("header.from")
    return ""


def dmarc_domain(results: AuthResults) -> str:
    """The header.from domain named by the DMARC result, whatever the result."""
    for result in results.results:
        if result.method == "dmarc":
            return result.property("header.from")
    return ""
