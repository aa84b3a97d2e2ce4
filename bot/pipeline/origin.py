"""Stage: refuse posts whose origin cannot be trusted (forged senders).

Two checks, both about headers that the game's own mail servers add:

* With ``list_id`` configured, a post must carry that List-Id: only the
  list, which knows its members, vouches for the sender.  A mail addressed
  to the bot and not to the list is a private mail (``context.private``):
  it never went through the list, so it carries no List-Id; the engine lets
  it take only the actions meant to be private (Concealable votes, requests
  for a digest or a statement).
* The topmost Authentication-Results header (the one the receiving server
  wrote; lower ones could have been written by anybody) must not report a
  DMARC failure for the From domain.
"""

from __future__ import annotations

import re

from bot.pipeline.context import PostContext

DMARC_FAIL = re.compile(r"\bdmarc\s*=\s*fail\b", re.IGNORECASE)


def check_origin(context: PostContext) -> None:
    assert context.decoded is not None, "decode runs before check_origin"
    headers = context.decoded.headers
    context.private = _is_private(context)
    wanted = context.settings.required_list_id
    if wanted and not context.private:
        list_ids = " ".join(headers.get("list-id", ())).lower()
        if f"<{wanted}>" not in list_ids and wanted not in list_ids.split():
            context.stop(f"not delivered through the game's list (no List-Id <{wanted}>)")
            return
    results = headers.get("authentication-results", ())
    if results and DMARC_FAIL.search(results[0]):
        context.stop("the sender's domain failed DMARC: the From address may be forged")


def _is_private(context: PostContext) -> bool:
    """Addressed to the bot and neither to the list nor delivered by it."""
    assert context.decoded is not None
    if context.decoded.headers.get("list-id"):
        return False
    recipients = {address.lower() for address in context.decoded.to + context.decoded.cc}
    settings = context.settings
    return bool(recipients & settings.bot_addresses) and not recipients & settings.list_addresses
