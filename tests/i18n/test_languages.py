"""The bot on a Polish server with Czech, Russian and Korean players: each reads their own language.

Private texts (ephemeral replies, refusals, the hands in direct messages) follow the Discord locale
of the person; what the whole channel reads follows the server's language.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest_asyncio

from bot.client import WizardBot
from bot.manager import GameManager
from bot.settings import Settings
from tests.e2e.standin import Channel, DiscordStandin, Driver, StoredMessage, User, run_bot


@dataclass
class Server:
    standin: DiscordStandin
    driver: Driver
    channel: Channel
    jana: User  # Czech
    ivan: User  # Russian
    minji: User  # Korean


@pytest_asyncio.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    async with DiscordStandin() as standin:
        guild = standin.create_guild("Serwer", locale="pl")
        channel = standin.create_text_channel(guild, "wizard")
        people = [standin.create_user(name, locale=locale) for name, locale in (("jana", "cs"), ("ivan", "ru"))]
        people.append(standin.create_user("minji", locale="ko"))
        for person in people:
            standin.add_member(guild, person)
        bot = WizardBot(Settings(token=standin.token, database_path=tmp_path / "wizard.db"), sync_commands=True)
        bot.manager = GameManager(seed_source=lambda: 7)
        async with run_bot(standin, bot, capture_loggers=("discord", "bot", "cogs")):
            yield Server(standin, Driver(standin, require_synced=True), channel, *people)
        assert standin.failures == []


def text(message: StoredMessage) -> str:
    return message.text()


async def test_the_synced_commands_carry_their_localisations(server: Server) -> None:
    wizard = next(command for command in server.standin.commands[None] if command["name"] == "wizard")
    assert wizard["description"] == "Play the card game Wizard"
    assert wizard["description_localizations"]["cs"] == "Karetní hra Wizard"
    start = next(option for option in wizard["options"] if option["name"] == "start")
    timer = next(option for option in start["options"] if option["name"] == "turn_timer")
    assert timer["description_localizations"]["el"] == "Πόσο χρόνο έχει κάθε παίκτης για μια κίνηση"
    assert {choice["name_localizations"]["pl"] for choice in timer["choices"]} >= {"1 minuta", "2 minuty", "5 minut"}


async def test_private_texts_follow_the_person_and_public_ones_the_server(server: Server) -> None:
    driver, channel = server.driver, server.channel
    rules = await (await driver.slash(server.jana, channel, "wizard rules")).wait_response()
    assert rules.ephemeral
    assert "Wizard — pravidla ve zkratce" in text(rules)
    assert "štych" in text(rules)

    lobby = await (await driver.slash(server.jana, channel, "wizard start")).wait_response()
    assert not lobby.ephemeral
    assert "Wizard — zbiera się nowa gra" in text(lobby)
    for person in (server.ivan, server.minji):
        await (await driver.click(person, lobby, "Dołącz")).wait_acked(3)
    refused = await (await driver.click(server.ivan, lobby, "Start")).wait_response()
    assert refused.ephemeral
    assert "Это может сделать только организатор." in text(refused)
    await (await driver.click(server.jana, lobby, "Start")).wait_acked(3)

    table = await driver.wait_message(lambda m: "Wizard — runda 1 z 20" in m.text(), channel=channel)
    assert "Rozdaje:" in text(table)
    for person, title in (
        (server.jana, "Tvoje karty — kolo 1 z 20"),
        (server.ivan, "Ваши карты — раунд 1 из 20"),
        (server.minji, "내 카드 — 20라운드 중 1라운드"),
    ):
        await driver.wait_message(lambda m, title=title: title in m.text(), user=person)

    board = await (await driver.slash(server.minji, channel, "leaderboard")).wait_response()
    assert not board.ephemeral
    assert "Tabela wyników — Serwer" in text(board)
