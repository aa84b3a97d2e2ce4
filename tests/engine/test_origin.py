"""Forged senders: posts that did not come through the list, or failed DMARC."""

from __future__ import annotations

from pathlib import Path

from bot.pipeline import PipelineSettings, run_pipeline

SETTINGS = PipelineSettings(
    bot_addresses=frozenset({"referee@example.test"}),
    list_addresses=frozenset({"nomic@lists.example.test"}),
    required_list_id="nomic.lists.example.test",
)


def post(*headers: str) -> bytes:
    lines = [
        "From: Alice <alice@example.test>",
        "To: nomic@lists.example.test",
        "Subject: Go",
        "Message-ID: <forged-1@example.test>",
        *headers,
        "",
        "I place a stone at E5.",
    ]
    return "\r\n".join(lines).encode()


def test_a_post_through_the_list_is_read() -> None:
    context = run_pipeline(post("List-Id: Nomic <nomic.lists.example.test>"), SETTINGS)
    assert context.stop_reason is None
    assert context.parsed is not None and len(context.parsed.actions) == 1


def test_a_post_that_bypassed_the_list_is_refused() -> None:
    context = run_pipeline(post(), SETTINGS)
    assert context.stop_reason == (
        "not delivered through the game's list (no List-Id <nomic.lists.example.test>)"
    )


def test_a_post_whose_domain_failed_dmarc_is_refused() -> None:
    context = run_pipeline(
        post(
            "Authentication-Results: mx.example.test; dkim=none; dmarc=fail (p=reject)",
            "List-Id: <nomic.lists.example.test>",
        ),
        SETTINGS,
    )
    assert context.stop_reason is not None and "DMARC" in context.stop_reason


def test_only_the_topmost_authentication_results_counts(tmp_path: Path) -> None:
    # A sender can add a lower header saying anything; the receiving server's is on top.
    context = run_pipeline(
        post(
            "Authentication-Results: mx.example.test; dmarc=pass",
            "Authentication-Results: evil.example; dmarc=fail",
            "List-Id: <nomic.lists.example.test>",
        ),
        SETTINGS,
    )
    assert context.stop_reason is None
