"""The slash commands as they are synced to Discord: localised for cs, pl, ru, ko and el, within Discord's rules."""

from __future__ import annotations

import unicodedata
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest_asyncio
from discord import app_commands

from bot import i18n
from bot.client import WizardBot
from bot.settings import Settings

LOCALISED = ("cs", "pl", "ru", "ko", "el")
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2


@pytest_asyncio.fixture
async def payloads(tmp_path: Path) -> AsyncIterator[list[dict[str, Any]]]:
    """What a sync sends for each top-level command, made the way the bot makes it at start-up."""
    bot = WizardBot(Settings(token="not-used", database_path=tmp_path / "wizard.db"))
    try:
        await bot.setup_hook()
        translator = bot.tree.translator
        assert isinstance(translator, i18n.CatalogTranslator)
        yield [await command.get_translated_payload(bot.tree, translator) for command in bot.tree.get_commands()]
    finally:
        await bot.close()


def walk(payloads: list[dict[str, Any]], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, subcommand and option in the payloads, with a readable path."""
    for item in payloads:
        where = f"{path} {item['name']}".strip()
        yield where, item
        if item.get("type") in (None, SUBCOMMAND, SUBCOMMAND_GROUP) or "options" in item:
            yield from walk(item.get("options", []), where)


def valid_name(name: str) -> bool:
    """Discord's rule for command and option names: ^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$, lowercase."""

    def allowed(char: str) -> bool:
        script = "\u0900" <= char <= "\u097f" or "\u0e00" <= char <= "\u0e7f"  # Devanagari, Thai
        return char in "-_'" or unicodedata.category(char)[0] in "LN" or script

    return 1 <= len(name) <= 32 and all(map(allowed, name)) and name == name.lower()


def test_the_name_check_follows_discords_rule() -> None:
    for name in ("wizard", "čaroděj", "волшебник", "마법사", "μάγος", "turn_timer", "x" * 32):
        assert valid_name(name), name
    for name in ("Wizard", "two words", "x" * 33, "", "turn.timer", "Μάγος"):
        assert not valid_name(name), name


async def test_every_description_is_localised_within_100_characters(payloads: list[dict[str, Any]]) -> None:
    items = list(walk(payloads))
    assert {path for path, _ in items} >= {
        "wizard",
        "wizard start",
        "wizard start bids_may_not_add_up",
        "wizard start turn_timer",
        "wizard stop",
        "wizard hand",
        "wizard rules",
        "leaderboard",
        "leaderboard sort",
        "stats",
        "stats player",
    }
    for path, item in items:
        assert 1 <= len(item["description"]) <= 100, path
        localised = item.get("description_localizations") or {}
        assert set(localised) == set(LOCALISED), path  # and none for English: the default text is English
        for locale, text in localised.items():
            assert 1 <= len(text) <= 100, (path, locale, text)
            assert text != item["description"], (path, locale)


async def test_every_choice_name_is_localised(payloads: list[dict[str, Any]]) -> None:
    choices = [(path, choice) for path, item in walk(payloads) for choice in item.get("choices", [])]
    # /wizard start's turn timers and computer levels, the leaderboard's sort orders, and /wizard settings'
    # turn timers, computer levels, languages (the server's, or one of the catalogs), season lengths and
    # season commands (start, end), and /wizard pings' on and off.
    assert len(choices) == 8 + 3 + 4 + 8 + 3 + 1 + len(i18n.LANGUAGES) + 3 + 2 + 2
    for path, choice in choices:
        assert 1 <= len(choice["name"]) <= 100
        assert set(choice.get("name_localizations") or {}) == set(LOCALISED), (path, choice["name"])
        for text in choice["name_localizations"].values():
            assert 1 <= len(text) <= 100
    timers = {choice["value"]: choice for path, choice in choices if path == "wizard start turn_timer"}
    assert timers[30]["name"] == "30 seconds"
    assert timers[120]["name_localizations"]["cs"] == "2 minuty"
    assert timers[300]["name_localizations"]["pl"] == "5 minut"
    assert timers[3600]["name_localizations"]["ru"] == "1 час"
    assert timers[86400]["name_localizations"]["ko"] == "24시간"
    assert timers[43200]["name_localizations"]["el"] == "12 ώρες"
    sorts = {choice["value"]: choice for path, choice in choices if path == "leaderboard sort"}
    assert sorts["wins"]["name_localizations"]["ru"] == "победы"


async def test_names_are_valid_for_discord_and_stay_english(payloads: list[dict[str, Any]]) -> None:
    # Command and option names are not localised: the bot's texts and the rules say "/wizard start"
    # in every language. Any localised name added later must still be valid for Discord.
    for path, item in walk(payloads):
        assert valid_name(item["name"]), path
        for locale, name in (item.get("name_localizations") or {}).items():
            assert valid_name(name), (path, locale, name)
        assert not item.get("name_localizations"), path


async def test_english_defaults_come_from_the_english_catalog(payloads: list[dict[str, Any]]) -> None:
    described = {path: item["description"] for path, item in walk(payloads)}
    assert described["wizard"] == i18n.t("en", "command.wizard")
    assert described["wizard start turn_timer"] == i18n.t("en", "command.wizard.start.turn_timer")
    assert described["stats player"] == i18n.t("en", "command.stats.player")


async def test_the_translator_leaves_english_unknown_locales_and_names_alone() -> None:
    translator = i18n.CatalogTranslator()
    text = i18n.command_text("command.wizard.rules")
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await translator.translate(text, discord.Locale.czech, context) == "Pravidla hry Wizard ve zkratce."
    assert await translator.translate(text, discord.Locale.american_english, context) is None
    assert await translator.translate(text, discord.Locale.british_english, context) is None
    assert await translator.translate(text, discord.Locale.german, context) is None
    name = app_commands.locale_str("rules")  # how discord.py marks a command's name
    assert await translator.translate(name, discord.Locale.czech, context) is None
