"""Key look-ups for DKIM and ARC: a file of records first, then (optionally) DNS.

A deployment names, in ``[trust] key_file``, the TXT records it wants
answered without DNS (the list's ARC key, say), one per line, as they are
published::

    nomic._domainkey.lists.example.org v=DKIM1; k=rsa; p=MIIBIjANBg...

Every other name is looked up in DNS unless ``[trust] dns = false``.  Tests
use the file alone, so they need no DNS.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import dkim

# dkimpy's look-up signature: (name, timeout) -> the TXT record's bytes.
DnsFunction = Callable[..., bytes | None]


class KeyFileError(ValueError):
    """The key file cannot be read, or a line is not "NAME VALUE"."""


def load_key_file(path: str | Path) -> Mapping[str, str]:
    """The records of a key file, by lower-case name without the trailing dot.

    Blank lines and lines starting with ``#`` are skipped; a value may be
    quoted, as in a zone file.  Raises KeyFileError.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise KeyFileError(f"cannot read the key file {path}: {error.strerror}") from None
    records: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, value = line.partition(" ")
        value = value.strip().strip('"').strip()
        if not value:
            raise KeyFileError(f"{path}, line {number}: expected NAME followed by the record")
        records[normalised_name(name)] = value
    return records


def normalised_name(name: str) -> str:
    return name.strip().rstrip(".").lower()


def make_lookup(records: Mapping[str, str], use_dns: bool) -> DnsFunction:
    """A dkimpy ``dnsfunc``: the records first, then DNS when allowed."""

    def lookup(name: bytes | str, timeout: int = 5) -> bytes | None:
        text = name.decode("ascii", "replace") if isinstance(name, bytes) else name
        found = records.get(normalised_name(text))
        if found is not None:
            return found.encode("ascii", "replace")
        if not use_dns:
            return None
        from dkim.dnsplug import get_txt

        answer: bytes | None = get_txt(name, timeout=timeout)
        return answer

    return lookup


def signature_verifies(raw: bytes, index: int, lookup: DnsFunction) -> bool:
    """Whether the ``index``-th DKIM-Signature of ``raw`` verifies with keys from ``lookup``.

    dkimpy raises on some failures (a changed body) and returns False on
    others; both are a failure here.
    """
    try:
        return bool(dkim.DKIM(raw).verify(idx=index, dnsfunc=lookup))
    except dkim.DKIMException:
        return False
