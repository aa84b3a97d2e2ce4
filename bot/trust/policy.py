"""What the pipeline needs to judge trust: a picklable copy of ``[trust]``.

The replay prepares posts in a second process, so this holds only plain
values; the key look-up is rebuilt from them where it is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from bot.trust.keys import DnsFunction, make_lookup

# How a post proves the list carried it (docs/trust.md).
SIGNATURE_KINDS = ("arc", "dkim", "none")
# Not a setting: what ``nomicbot replay --list-archive`` judges by.  The
# archive the list's own archiver wrote is the proof that the list carried
# each post in it, and the list's Authentication-Results on top of each
# (written on arrival) say how it authenticated the author.
LIST_ARCHIVE = "archive"
# Whether a list post's author must be authenticated by eir own domain.
AUTHOR_MODES = ("required", "list")


@dataclass(frozen=True)
class TrustPolicy:
    list_signature: str = "none"
    list_signer: str = ""
    list_selector: str = ""
    list_authserv_id: str = ""
    # The bot's own receiving servers, whose topmost Authentication-Results count.
    authserv_ids: frozenset[str] = frozenset()
    author_authentication: str = "required"
    key_records: tuple[tuple[str, str], ...] = ()
    use_dns: bool = True

    @property
    def signed(self) -> bool:
        """Posts must carry the list's signature (not the weaker List-Id mode)."""
        return self.list_signature in {"arc", "dkim", LIST_ARCHIVE}

    @property
    def results_authserv_id(self) -> str:
        """The authserv-id of the list's own Authentication-Results."""
        return self.list_authserv_id or self.list_signer

    def lookup(self) -> DnsFunction:
        return _lookup(self.key_records, self.use_dns)


@cache
def _lookup(records: tuple[tuple[str, str], ...], use_dns: bool) -> DnsFunction:
    return make_lookup(dict(records), use_dns)


def unauthenticated_warning(policy: TrustPolicy) -> str:
    """What the bot says at start-up and in every ruling when it trusts headers alone; or ""."""
    if policy.signed:
        return ""
    return (
        "This referee runs WITHOUT sender authentication: a List-Id header, which "
        "anybody can type, is all that makes a post count (no list signature is "
        "configured; see docs/trust.md)."
    )
