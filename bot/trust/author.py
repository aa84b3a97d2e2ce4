"""The author of a post the list carried, from what the list recorded and signed.

Without From-munging, the author is the one From mailbox.  With it (DMARC
mitigation: ``From: Alice via Nomic <nomic@list>``), GNU Mailman 3 moves the
original From into Reply-To, or into Cc when the list munges Reply-To, by
*appending* it to whatever the member wrote there, and not at all when that
address is already present (``mailman/handlers/dmarc.py``).  So neither the
first nor the last address of those headers can be trusted: a member can
write ``Reply-To: bob@b, alice@a`` and Mailman leaves it as is.

What the list does vouch for is its ARC-Authentication-Results, computed on
arrival, before munging: ``dmarc=... header.from=DOMAIN`` names the
original From domain.  The author is the one Reply-To/Cc mailbox in that
domain; none, or several, and the post is refused, not guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.mail.decode import DecodedMessage
from bot.trust.results import AuthResults, dmarc_domain, domain_passed


@dataclass(frozen=True)
class Author:
    address: str  # "" when the author cannot be established
    name: str = ""
    authenticated: str = ""  # how the list authenticated eir domain; "" if it did not
    refusal: str = ""  # why no author could be established


def author_of_list_post(
    decoded: DecodedMessage,
    results: AuthResults | None,
    list_addresses: frozenset[str],
    bot_addresses: frozenset[str],
) -> Author:
    """The author of a post the list carried, per the list's own ``results``."""
    if decoded.from_problem or decoded.from_address is None:
        return Author("", refusal=decoded.from_problem or "no From address")
    if decoded.from_address not in list_addresses:
        address = decoded.from_address
        return Author(address, decoded.from_name, _how(results, address))
    return _munged_author(decoded, results, list_addresses | bot_addresses)


def _munged_author(
    decoded: DecodedMessage, results: AuthResults | None, not_authors: frozenset[str]
) -> Author:
    original_domain = dmarc_domain(results) if results is not None else ""
    candidates = [
        address for address in (*decoded.reply_to, *decoded.cc) if address not in not_authors
    ]
    if original_domain:
        candidates = [a for a in candidates if a.rpartition("@")[2] == original_domain]
    candidates = list(dict.fromkeys(candidates))
    if len(candidates) != 1:
        where = f" in {original_domain}" if original_domain else ""
        found = ", ".join(candidates) or "none"
        return Author(
            "",
            refusal=(
                "the list rewrote From, and Reply-To/Cc name "
                f"{len(candidates)} possible authors{where} ({found}); "
                "the author is not guessed"
            ),
        )
    address = candidates[0]
    return Author(address, _original_name(decoded, address), _how(results, address))


def _original_name(decoded: DecodedMessage, address: str) -> str:
    """The display name the original From had, for the ruling (never for trust).

    GNU Mailman 3 writes "NAME via LIST", where NAME is the original From's
    display name or, when it had none, the address with its domain replaced
    by "---" (mailman/handlers/dmarc.py): that one is Mailman's, not the
    author's, and the list archive's copy (the original From) has no name.
    """
    name = decoded.from_name.rsplit(" via ", 1)[0].strip()
    invented = re.sub(r"@([^ .]+\.)+[^ .]+$", "---", address)
    return "" if name.lower() == invented.lower() else name


def _how(results: AuthResults | None, address: str) -> str:
    if results is None:
        return ""
    # The list's own DMARC verdict is not taken on its word (see domain_passed).
    how = domain_passed(results, address.rpartition("@")[2], trust_dmarc=False)
    return f"{how}, recorded by the list ({results.authserv_id})" if how else ""
