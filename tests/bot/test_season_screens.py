"""The seasons' screens pass the strict stand-in's checks of what Discord accepts, in every language,
with the longest names: a season's end, a player's record, head-to-head, the season settings."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.guild_settings import DEFAULTS
from bot.storage import HeadToHead, History, PlayerStats, SeasonRecord, SeasonSettingsRecord, Standing
from cogs.wizard import _settings, _stats
from tests.bot.test_discord_limits import NAMES, check

T0 = 1_800_000_000.0
LONGEST = "W" * 32  # Discord's longest display name
ENDED = SeasonRecord(7, 999_999, T0, T0 + 86_400, T0 + 86_400, 123_456, 5, None)
RUNNING = SeasonRecord(7, 999_999 + 1, T0 + 86_400, T0 + 2 * 86_400, None)
HISTORY = History(99_999, 99_999, -9_999_999, 1_499_985, 99_999, -120, "00ab", T0, -99_999)
STATS = PlayerStats(1, LONGEST, 99_999, 99_999, -100.0, -120, 1_499_985, 1, 2, 3, -12.5, ((20, 99_999, 1),) * 20)


def standings(count: int) -> list[Standing]:
    return [
        Standing(
            1 if index < 3 else index + 1, index, (NAMES + [LONGEST] * 10)[index], 99_999, 99_999, -999.0, 0.5, -99.9
        )
        for index in range(count)
    ]


@pytest.mark.parametrize("locale", i18n.LANGUAGES)
@pytest.mark.parametrize("champions", [1, 3])
def test_a_seasons_end_is_a_message_discord_accepts(locale: str, champions: int) -> None:
    shown = standings(_stats.STANDINGS_SHOWN)
    if champions == 1:
        shown[1:3] = [
            Standing(2, s.user_id, s.name, s.games, s.wins, s.avg_score, s.exact_rate, s.rating) for s in shown[1:3]
        ]
    embed = _stats.season_end_embed(locale, "S" * 100, ENDED, shown, RUNNING)
    check(embed, None, "a season's end")
    assert ("," in (embed.description or "").splitlines()[0]) == (champions > 1)


@pytest.mark.parametrize("locale", i18n.LANGUAGES)
def test_a_players_record_and_head_to_head_are_messages_discord_accepts(locale: str) -> None:
    check(
        _stats.stats_embed(STATS, LONGEST, locale, season=RUNNING, in_season=HISTORY, all_time=HISTORY), None, "/stats"
    )
    versus = HeadToHead(1, 2, 99_999, 50_000, 49_000, 40_000, 39_000, -9_999_999, 9_999_999)
    check(
        _stats.versus_embed((LONGEST, LONGEST), locale, season=RUNNING, in_season=versus, all_time=versus),
        None,
        "/stats vs",
    )
    check(
        _stats.versus_embed((LONGEST, LONGEST), locale, season=RUNNING, in_season=None, all_time=None),
        None,
        "/stats vs, never together",
    )


@pytest.mark.parametrize("locale", i18n.LANGUAGES)
@pytest.mark.parametrize("current", [None, ENDED, RUNNING, SeasonRecord(7, 3, T0, None, None)])
def test_the_settings_with_their_seasons_are_a_message_discord_accepts(
    locale: str, current: SeasonRecord | None
) -> None:
    seasons = (SeasonSettingsRecord("quarterly", 2**63 - 1), current)
    notes = (i18n.tn(locale, "settings.seasons.cannot_post", 4, channel=2**63 - 1, permissions="x" * 200),)
    embed = _settings.settings_embed(
        DEFAULTS, locale, server="S" * 100, guild_locale="pl", saved=True, seasons=seasons, notes=notes
    )
    check(embed, None, "/wizard settings")
