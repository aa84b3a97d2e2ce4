"""Real nomic prose: B Nomic rulesets are third-person rules, not anyone's actions."""

from __future__ import annotations

from pathlib import Path

from bot.parser import parse_post


def test_rulesets_yield_no_actions_and_no_false_alarms(corpora: Path) -> None:
    rulesets = sorted((corpora / "nomic" / "bnomic_rulesets").glob("rules.*.md"))
    assert rulesets, "the B Nomic rulesets are missing from the corpora"
    for ruleset in rulesets:
        result = parse_post(ruleset.read_text(encoding="utf-8"))
        assert result.actions == (), ruleset.name
        assert result.not_understood == (), ruleset.name
