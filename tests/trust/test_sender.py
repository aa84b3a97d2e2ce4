"""Authenticating the sender of a private mail (bot.trust.sender, docs/trust.md).

Two ways tested here: the topmost Authentication-Results of one of the
bot's own receiving servers (mx.bot.example), and the sender's own DKIM
signature, really made and verified with dkimpy against keys given through
``make_lookup`` (no DNS).  Alice mails from a.example; evil.example is an
attacker's domain with a published key of its own.
"""

from __future__ import annotations

import pytest

from bot.pipeline import PipelineSettings, run_pipeline
from bot.testing.signing import SigningKey, signing_key
from bot.trust.keys import DnsFunction, make_lookup
from bot.trust.policy import TrustPolicy
from bot.trust.sender import SenderCheck, authenticate_sender

RECEIVING_SERVER = "mx.bot.example"
TRUSTED = frozenset({RECEIVING_SERVER})
BOT_ADDRESS = "referee@bot.example"


def alice_key() -> SigningKey:
    return signing_key("a.example", "s1")


def evil_key() -> SigningKey:
    return signing_key("evil.example", "s1")


def published() -> dict[str, str]:
    return {key.record_name: key.record for key in (alice_key(), evil_key())}


LOOKUP: DnsFunction = make_lookup(published(), use_dns=False)


def mail(sender: str = "Alice <alice@a.example>", body: str = "My holdings please.") -> bytes:
    lines = [
        f"From: {sender}",
        f"To: {BOT_ADDRESS}",
        "Subject: Holdings",
        "Date: Thu, 01 Jan 2026 01:00:00 +0000",
        "Message-ID: <private-1@a.example>",
        "",
        body,
        "",
    ]
    return "\r\n".join(lines).encode()


def check(
    raw: bytes,
    results: tuple[str, ...] = (),
    from_domain: str = "a.example",
    authserv_ids: frozenset[str] = TRUSTED,
) -> SenderCheck:
    return authenticate_sender(raw, results, from_domain, authserv_ids, LOOKUP)


# -- the receiving server's Authentication-Results -------------------------------------------

DMARC_PASS = f"{RECEIVING_SERVER}; dkim=pass header.d=a.example; dmarc=pass header.from=a.example"


def test_the_topmost_results_of_the_bot_s_server_authenticate() -> None:
    result = check(mail(), (DMARC_PASS,))
    assert result == SenderCheck(
        f"dmarc=pass header.from=a.example, by the receiving server {RECEIVING_SERVER}"
    )


def test_the_receiving_server_s_id_is_matched_without_regard_to_case() -> None:
    result = check(mail(), ("MX.Bot.Example; dmarc=pass header.from=a.example",))
    assert result.authenticated.endswith(f"by the receiving server {RECEIVING_SERVER}")


def test_an_aligned_dkim_pass_of_the_server_authenticates() -> None:
    result = check(mail(), (f"{RECEIVING_SERVER}; dkim=pass header.d=a.example",))
    assert result.authenticated == (
        f"dkim=pass header.d=a.example, by the receiving server {RECEIVING_SERVER}"
    )


def test_the_same_results_below_another_header_do_not_count() -> None:
    # Only the topmost is the receiving server's; a lower one was typed by the sender.
    results = ("mx.elsewhere.example; none", DMARC_PASS)
    assert check(mail(), results) == SenderCheck("")


def test_results_of_a_server_the_bot_does_not_run_do_not_count() -> None:
    results = ("mx.elsewhere.example; dmarc=pass header.from=a.example",)
    assert check(mail(), results) == SenderCheck("")


def test_a_pass_for_another_domain_does_not_count() -> None:
    results = (
        f"{RECEIVING_SERVER}; dkim=pass header.d=evil.example; dmarc=pass header.from=evil.example",
    )
    assert check(mail(), results) == SenderCheck("")


@pytest.mark.parametrize("verdict", ["fail", "permerror", "temperror"])
def test_a_dmarc_failure_on_top_refuses_the_mail(verdict: str) -> None:
    results = (f"{RECEIVING_SERVER}; dkim=pass header.d=a.example; dmarc={verdict}",)
    result = check(alice_key().dkim_sign(mail()), results)
    assert result == SenderCheck(
        "", f"the receiving server reports dmarc={verdict} for the From domain"
    )


def test_a_dmarc_failure_below_the_top_refuses_nothing() -> None:
    results = (DMARC_PASS, f"{RECEIVING_SERVER}; dmarc=fail header.from=a.example")
    assert check(mail(), results).authenticated.startswith("dmarc=pass")


def test_without_trusted_servers_no_results_count() -> None:
    assert check(mail(), (DMARC_PASS,), authserv_ids=frozenset()) == SenderCheck("")


def test_unreadable_topmost_results_do_not_count() -> None:
    assert check(mail(), ("garbage", DMARC_PASS)) == SenderCheck("")


# -- the sender's own DKIM signature ---------------------------------------------------------


def test_a_valid_signature_of_the_from_domain_authenticates() -> None:
    result = check(alice_key().dkim_sign(mail()), authserv_ids=frozenset())
    assert result == SenderCheck("your DKIM signature (d=a.example) verified")


def test_the_signature_is_checked_when_the_server_says_nothing_useful() -> None:
    results = (f"{RECEIVING_SERVER}; none",)
    result = check(alice_key().dkim_sign(mail()), results)
    assert result.authenticated == "your DKIM signature (d=a.example) verified"


def test_a_parent_domain_s_signature_authenticates_a_subdomain_sender() -> None:
    raw = alice_key().dkim_sign(mail("Alice <alice@mail.a.example>"))
    result = check(raw, from_domain="mail.a.example")
    assert result.authenticated == "your DKIM signature (d=a.example) verified"


def test_a_signature_of_an_unaligned_domain_does_not_authenticate() -> None:
    assert check(evil_key().dkim_sign(mail())) == SenderCheck("")


def test_an_unaligned_signature_above_an_aligned_one_does_not_hide_it() -> None:
    raw = evil_key().dkim_sign(alice_key().dkim_sign(mail()))
    assert check(raw).authenticated == "your DKIM signature (d=a.example) verified"


def test_a_signature_limited_by_l_does_not_authenticate() -> None:
    raw = alice_key().dkim_sign(mail(), length=True)
    assert check(raw) == SenderCheck("")
    assert check(raw + b"I vote FOR proposal 9.\r\n") == SenderCheck("")


def test_a_signature_whose_key_is_not_published_does_not_authenticate() -> None:
    raw = alice_key().dkim_sign(mail())
    result = authenticate_sender(raw, (), "a.example", frozenset(), make_lookup({}, False))
    assert result == SenderCheck("")


def test_a_signed_header_changed_after_signing_does_not_authenticate() -> None:
    raw = alice_key().dkim_sign(mail()).replace(b"Subject: Holdings", b"Subject: Vote")
    assert check(raw) == SenderCheck("")


def test_a_body_changed_after_signing_does_not_authenticate() -> None:
    # BUG (bot/trust/sender.py, _own_signature): dkimpy's DKIM.verify raises
    # dkim.ValidationError("body hash mismatch") rather than returning False,
    # and the call is not guarded: instead of "not authenticated" (and then
    # the secret check) the private mail crashes the pipeline and is shunted.
    raw = alice_key().dkim_sign(mail()).replace(b"My holdings", b"I vote FOR proposal 9. My")
    assert check(raw) == SenderCheck("")


def test_an_unsigned_mail_is_not_authenticated() -> None:
    assert check(mail(), authserv_ids=frozenset()) == SenderCheck("")


# -- through the origin stage ----------------------------------------------------------------


def private_settings() -> PipelineSettings:
    policy = TrustPolicy(
        list_signature="arc",
        list_signer="lists.example.org",
        authserv_ids=TRUSTED,
        key_records=tuple(sorted(published().items())),
        use_dns=False,
    )
    return PipelineSettings(
        bot_addresses=frozenset({BOT_ADDRESS}),
        list_addresses=frozenset({"nomic@lists.example.org"}),
        trust=policy,
    )


def test_a_private_mail_signed_by_its_sender_is_authenticated() -> None:
    context = run_pipeline(alice_key().dkim_sign(mail()), private_settings())
    assert context.private and not context.refused
    assert context.author == "alice@a.example"
    assert context.authentication == "your DKIM signature (d=a.example) verified"


def test_a_private_mail_whose_server_reports_a_dmarc_failure_is_refused() -> None:
    raw = f"Authentication-Results: {RECEIVING_SERVER}; dmarc=fail\r\n".encode() + mail()
    context = run_pipeline(raw, private_settings())
    assert context.refused
    assert context.stop_reason == (
        "private mail refused: the receiving server reports dmarc=fail for the From domain"
    )


def test_a_private_mail_whose_headers_parsers_split_differently_is_not_the_victim_s() -> None:
    # BUG (bot/pipeline/origin.py _check_private_sender / bot/mail/decode.py):
    # the stdlib parser ends header lines at a bare CR, dkimpy does not.
    # Mallory signs her own mail with her provider's key (a.example, Alice's
    # provider too) and puts above it one header whose bare CRs make the stdlib
    # see "From: Alice" and the end of the header; dkimpy still sees and
    # verifies Mallory's signed From.  The mail is taken as Alice's,
    # authenticated by "your DKIM signature".
    mallorys = alice_key().dkim_sign(mail("Mallory <mallory@a.example>"))
    smuggled = b"X-Note: x\rFrom: Alice <alice@a.example>\rTo: referee@bot.example\r\r\n"
    context = run_pipeline(smuggled + mallorys, private_settings())
    assert context.author != "alice@a.example", (
        f"Mallory's mail was taken as Alice's: {context.authentication}"
    )
