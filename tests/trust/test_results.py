"""Reading Authentication-Results and ARC-Authentication-Results (bot.trust.results).

Which results to trust is the callers' business; this module must read the
real forms servers write (an ARC ``i=`` prefix, comments, folded lines),
give None for what it cannot read, and decide alignment and DMARC verdicts
by the rules of docs/trust.md: a list's DMARC verdict is not taken on its
word, a DMARC failure outweighs a DKIM pass, and a bare top-level domain
aligns with nothing.
"""

from __future__ import annotations

import pytest

from bot.trust.results import (
    AuthResults,
    MethodResult,
    aligned,
    dmarc_failed,
    domain_passed,
    parse_results,
)


def parsed(value: str) -> AuthResults:
    results = parse_results(value)
    assert results is not None, f"unreadable: {value!r}"
    return results


def methods(results: AuthResults) -> list[tuple[str, str]]:
    return [(result.method, result.result) for result in results.results]


# -- parse_results ---------------------------------------------------------------------------


def test_the_aar_of_a_list_is_read_without_its_instance_prefix() -> None:
    results = parsed(
        "i=1; lists.example.org; dkim=pass header.d=a.example; dmarc=pass header.from=a.example"
    )
    assert results.authserv_id == "lists.example.org"
    assert results.results == (
        MethodResult("dkim", "pass", (("header.d", "a.example"),)),
        MethodResult("dmarc", "pass", (("header.from", "a.example"),)),
    )


def test_comments_are_dropped_and_every_property_kept() -> None:
    results = parsed(
        "mx.example.org (Postfix 3.7); dkim=pass (2048-bit key; unprotected) "
        "header.d=a.example header.i=@a.example header.b=AbCd; "
        "dmarc=pass (p=reject dis=none) header.from=a.example; spf=pass smtp.mailfrom=a.example"
    )
    assert results.authserv_id == "mx.example.org"
    assert methods(results) == [("dkim", "pass"), ("dmarc", "pass"), ("spf", "pass")]
    dkim_result = results.results[0]
    assert dkim_result.property("header.d") == "a.example"
    assert dkim_result.property("header.i") == "@a.example"
    assert dkim_result.property("header.from") == ""


def test_a_folded_value_is_read_as_one_line() -> None:
    results = parsed(
        "i=2; lists.example.org;\r\n dkim=pass header.d=a.example;"
        "\r\n\tdmarc=fail header.from=a.example"
    )
    assert results.authserv_id == "lists.example.org"
    assert methods(results) == [("dkim", "pass"), ("dmarc", "fail")]


def test_case_is_folded_in_names_results_and_property_values() -> None:
    results = parsed(
        "MX.Example.ORG; DKIM=Pass header.D=A.Example; DMARC=FAIL header.From=A.Example"
    )
    assert results.authserv_id == "mx.example.org"
    assert methods(results) == [("dkim", "pass"), ("dmarc", "fail")]
    assert results.results[0].property("header.d") == "a.example"
    assert results.results[1].property("header.from") == "a.example"


def test_a_server_that_checked_nothing_writes_none() -> None:
    results = parsed("mx.example.org; none")
    assert results.authserv_id == "mx.example.org" and results.results == ()


@pytest.mark.parametrize(
    "value",
    [
        "",
        "garbage",
        ";;;",
        "mx.example.org; dkim=",
        "mx.example.org; dkim=pass header.d=a.example; garbage",
        "=?utf-8?q?mx.example.org?=",
        "\x00",
    ],
)
def test_unreadable_values_give_none(value: str) -> None:
    assert parse_results(value) is None


# -- aligned ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("domain", "signer"),
    [
        ("a.example", "a.example"),
        ("mail.a.example", "a.example"),  # a child and its parent
        ("a.example", "mail.a.example"),
        ("A.Example", "a.EXAMPLE"),
        ("a.example.", "a.example"),  # a fully qualified name
        ("a.example", "A.EXAMPLE."),
    ],
)
def test_aligned_domains(domain: str, signer: str) -> None:
    assert aligned(domain, signer)


@pytest.mark.parametrize(
    ("domain", "signer"),
    [
        ("a.example", "example"),  # never a bare top-level domain
        ("example", "a.example"),
        ("a.example", "evil.example"),
        ("a.example.org", "b.example.org"),  # siblings: no public suffix list to join them
        ("a.example", "xa.example"),  # a suffix of the text is no parent
        ("a.example", "a.example.evil"),
        ("a.example", ""),
        ("", ""),
    ],
)
def test_unaligned_domains(domain: str, signer: str) -> None:
    assert not aligned(domain, signer)


# -- domain_passed ---------------------------------------------------------------------------

# What Mailman 3.3 records for alice@a.example signing with evil.example's key:
# its DMARC check takes the bare top-level domain for a name under a suffix
# it does not know, so "example" aligns with everything (docs/trust.md).
TLD_CONFUSED = (
    "lists.example.org; dkim=pass header.d=evil.example; dmarc=pass header.from=a.example"
)


def test_a_list_s_dmarc_pass_alone_does_not_authenticate_without_trust_dmarc() -> None:
    assert domain_passed(parsed(TLD_CONFUSED), "a.example", trust_dmarc=False) is None


def test_a_trusted_server_s_dmarc_pass_authenticates() -> None:
    how = domain_passed(parsed(TLD_CONFUSED), "a.example", trust_dmarc=True)
    assert how == "dmarc=pass header.from=a.example"


def test_dmarc_pass_for_another_domain_authenticates_nothing() -> None:
    results = parsed("mx.example.org; dmarc=pass header.from=evil.example")
    assert domain_passed(results, "a.example") is None


@pytest.mark.parametrize("trust_dmarc", [True, False])
def test_an_aligned_dkim_pass_authenticates(trust_dmarc: bool) -> None:
    results = parsed("lists.example.org; dkim=pass header.d=a.example header.i=@a.example")
    how = domain_passed(results, "a.example", trust_dmarc=trust_dmarc)
    assert how == "dkim=pass header.d=a.example"


def test_a_parent_domain_s_dkim_pass_authenticates_its_child() -> None:
    results = parsed("lists.example.org; dkim=pass header.d=a.example")
    assert domain_passed(results, "mail.a.example") == "dkim=pass header.d=a.example"


def test_the_signer_is_read_from_header_i_when_header_d_is_missing() -> None:
    results = parsed("lists.example.org; dkim=pass header.i=alice@a.example")
    assert domain_passed(results, "a.example", trust_dmarc=False) == "dkim=pass header.d=a.example"


@pytest.mark.parametrize("result", ["fail", "neutral", "temperror", "permerror", "policy", "none"])
def test_a_dkim_result_other_than_pass_authenticates_nothing(result: str) -> None:
    results = parsed(f"lists.example.org; dkim={result} header.d=a.example")
    assert domain_passed(results, "a.example") is None


def test_an_unaligned_dkim_pass_authenticates_nothing() -> None:
    results = parsed("lists.example.org; dkim=pass header.d=evil.example")
    assert domain_passed(results, "a.example") is None


@pytest.mark.parametrize("trust_dmarc", [True, False])
def test_a_dmarc_fail_for_the_domain_outweighs_an_aligned_dkim_pass(trust_dmarc: bool) -> None:
    results = parsed(
        "lists.example.org; dkim=pass header.d=a.example; dmarc=fail header.from=a.example"
    )
    assert domain_passed(results, "a.example", trust_dmarc=trust_dmarc) is None


def test_a_dmarc_fail_for_another_domain_does_not_outweigh_it() -> None:
    results = parsed(
        "lists.example.org; dkim=pass header.d=a.example; dmarc=fail header.from=b.example"
    )
    assert domain_passed(results, "a.example") == "dkim=pass header.d=a.example"


def test_domains_are_compared_without_regard_to_case() -> None:
    results = parsed("mx.example.org; dmarc=pass header.from=A.Example")
    assert domain_passed(results, "a.EXAMPLE") == "dmarc=pass header.from=a.EXAMPLE"


# -- dmarc_failed ----------------------------------------------------------------------------


@pytest.mark.parametrize("result", ["fail", "permerror", "temperror"])
def test_dmarc_failures(result: str) -> None:
    results = parsed(f"mx.example.org; dkim=pass header.d=a.example; dmarc={result}")
    assert dmarc_failed(results) == f"dmarc={result}"


@pytest.mark.parametrize(
    "value",
    [
        "mx.example.org; dmarc=pass header.from=a.example",
        "mx.example.org; dmarc=none header.from=a.example",
        "mx.example.org; dkim=fail header.d=a.example; spf=fail smtp.mailfrom=a.example",
        "mx.example.org; none",
    ],
)
def test_no_dmarc_failure(value: str) -> None:
    assert dmarc_failed(parsed(value)) is None
