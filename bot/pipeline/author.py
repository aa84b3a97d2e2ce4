"""Stage: the post's author, established from what the list (or the sender's domain) vouches for.

See ``bot.trust.author`` for how From-munging lists are read.  A post whose
author cannot be established unambiguously is refused, not guessed; with
``[trust] author_authentication = "required"`` (the default) a list post
whose author's domain the list could not authenticate is refused too.
"""

from __future__ import annotations

from bot.pipeline.context import PostContext
from bot.trust.author import author_of_list_post
from bot.trust.sender import receiving_server_pass


def find_author(context: PostContext) -> None:
    decoded = context.decoded
    assert decoded is not None, "decode runs before find_author"
    if context.private:
        assert decoded.from_address is not None, "check_origin refuses a private mail without From"
        context.author, context.author_name = decoded.from_address, decoded.from_name
        return
    settings = context.settings
    author = author_of_list_post(
        decoded, context.list_results, settings.list_addresses, settings.bot_addresses
    )
    if author.refusal:
        context.refuse(author.refusal)
        return
    policy = settings.trust
    how = author.authenticated
    if not policy.signed and not how:
        how = receiving_server_pass(
            decoded.headers.get("authentication-results", ()),
            policy.authserv_ids,
            author.address.rpartition("@")[2],
        )
    if policy.signed and not how and policy.author_authentication == "required":
        context.refuse(
            f"the list carried this post, but could not authenticate its author's domain "
            f"({author.address.rpartition('@')[2]}: no DMARC or aligned DKIM pass in the "
            "list's record); the From may be forged"
        )
        return
    context.author, context.author_name, context.authentication = author.address, author.name, how
