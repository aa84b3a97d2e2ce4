"""The configuration file: the annotated example loads, and mistakes are named."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, MinistryEntry, load_settings

EXAMPLE = Path(__file__).parents[2] / "deploy" / "nomicbot.example.toml"


def test_the_annotated_example_loads_with_every_section() -> None:
    settings = load_settings(EXAMPLE, environ={})
    assert settings.holdings.bandwidth_per_nweek == 10
    assert settings.elections.nomination_ndays == 5
    assert settings.ministries == (MinistryEntry("Ministry of Justice", "Alice", ()),)
    assert [player.name for player in settings.players] == ["Alice", "Bob the Voting Fish"]


def test_an_environment_variable_overrides_a_new_section(tmp_path: Path) -> None:
    settings = load_settings(EXAMPLE, environ={"NOMICBOT_FIELD_MATCHES_REFEREE": "Bob"})
    assert settings.field_matches.referee == "Bob"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[ministries]]\nholder = "Alice"\n', "needs a ministry name"),
        ('[[ministries]]\nministry = "Rules"\ndeputies = "Bob"\n', "deputies must be a list"),
        ('[elections]\nvoting_ndays = "four"\n', "[elections] voting_ndays"),
        ("[fields]\n", "unknown configuration section"),
    ],
)
def test_a_mistake_is_named(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_settings(path, environ={})
