"""What /wizard settings writes: a text for every refusal, and a summary that reads well in every language."""

from __future__ import annotations

import pytest

from bot.engine import Options
from bot.guild_settings import DEFAULTS, MAX_CHANNELS, GuildSettings, Problem, SettingsError
from bot.i18n import LANGUAGES
from bot.manager import MAX_TURN_TIMER, MIN_TURN_TIMER
from cogs.wizard import _settings

SAMPLE_DETAILS: dict[Problem, dict[str, object]] = {
    Problem.ROUNDS: {"n": 10},
    Problem.TIMER: {"low": MIN_TURN_TIMER, "high": MAX_TURN_TIMER},
    Problem.LEVEL: {"level": "godlike"},
    Problem.LANGUAGE: {"language": "xx"},
    Problem.CHANNELS: {"n": MAX_CHANNELS},
}
FULL = GuildSettings(
    options=Options(bids_may_not_add_up=True, bids_may_add_up_in_round_one=True, rounds=10, schedule="even"),
    turn_timer=MAX_TURN_TIMER,
    computer_level="hard",
    language="ru",
    channels=tuple(10**18 + n for n in range(MAX_CHANNELS)),
)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("problem", list(Problem))
def test_every_refusal_has_a_text_in_every_language(language: str, problem: Problem) -> None:
    text = _settings.explain(language, SettingsError(problem, **SAMPLE_DETAILS.get(problem, {})))
    assert text.strip()
    assert "{" not in text


def test_the_timer_refusal_names_durations() -> None:
    error = SettingsError(Problem.TIMER, low=MIN_TURN_TIMER, high=MAX_TURN_TIMER)
    assert _settings.explain("en-US", error) == "The turn timer must be at least 30 seconds and at most 24 hours."
    assert _settings.explain("cs", error) == "Čas na tah musí být nejméně 30 sekund a nejvýš 24 hodin."


def test_a_refusal_from_real_settings_reads_well() -> None:
    with pytest.raises(SettingsError) as refused:
        DEFAULTS.with_changes(turn_timer=5)
    assert _settings.explain("pl", refused.value) == "Najkrótszy czas na ruch to 30 sekund, najdłuższy to 24 godziny."


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("settings", [DEFAULTS, FULL], ids=["defaults", "everything set"])
def test_the_summary_fits_discords_limits_in_every_language(language: str, settings: GuildSettings) -> None:
    embed = _settings.settings_embed(settings, language, server="S" * 100, guild_locale="pl", saved=True)
    assert len(embed) <= 6000
    assert len(embed.title or "") <= 256
    assert 0 < len(embed.description or "") <= 4096
    assert len(embed.fields) == 5
    for field in embed.fields:
        assert 0 < len(field.name or "") <= 256
        assert 0 < len(field.value or "") <= 1024
        assert "{" not in field.value


def test_the_summary_in_english() -> None:
    embed = _settings.settings_embed(FULL, "en-US", server="Guild", guild_locale="pl", saved=False)
    fields = {field.name: field.value for field in embed.fields}
    assert fields["House rules"] == "\n".join(
        [
            "Bids may not add up to the number of tricks: on",
            "…except in round 1: on",
            "Hidden bids: off",
            "Rounds: 10",
            "Only even hands (2, 4, 6, … cards): on",
            "Blind first round: off",
        ]
    )
    assert fields["Turn timer"] == "24 hours"
    assert fields["Computer players"] == "hard"
    assert fields["Language in channels"] == "Russian"
    assert fields["Where games may be started"].startswith(f"<#{10**18}>, <#{10**18 + 1}>")
    server = _settings.settings_embed(DEFAULTS, "en-US", server="Guild", guild_locale="pl", saved=False)
    assert {field.name: field.value for field in server.fields}["Language in channels"] == (
        "The server's language in Discord (now Polish)"
    )


def test_the_channel_refusal_names_the_allowed_channels() -> None:
    settings = GuildSettings(channels=(5, 6))
    assert _settings.channel_refusal("en-US", settings) == "Games on this server can be started only in <#5>, <#6>."
    assert (
        _settings.channel_refusal("ko", settings)
        == "이 서버에서는 다음 채널에서만 게임을 시작할 수 있습니다: <#5>, <#6>"
    )
