"""/wizard settings through the Discord stand-in: who may use it, the summary, and saving changes."""

from __future__ import annotations

from bot import guild_settings
from bot.engine import Options
from bot.guild_settings import DEFAULTS, GuildSettings
from bot.i18n import LANGUAGES

from .conftest import Server


async def stored(server: Server) -> GuildSettings:
    assert server.bot.repository is not None
    return await guild_settings.load(server.bot.repository, server.guild.id)


async def test_the_command_is_synced_as_a_subcommand_of_wizard_with_localised_texts(server: Server) -> None:
    wizard = next(command for command in server.standin.commands[None] if command["name"] == "wizard")
    settings = next(option for option in wizard["options"] if option["name"] == "settings")
    assert settings["description_localizations"]["cs"].startswith("Výchozí nastavení nových her")
    names = [option["name"] for option in settings["options"]]
    assert names == [
        "bids_may_not_add_up", "bids_may_add_up_in_round_one", "hidden_bids", "rounds", "even_rounds",
        "blind_first_round", "turn_timer", "computer_level", "language", "allow_channel", "forbid_channel",
        "any_channel", "season_length", "season_channel", "season",
    ]  # fmt: skip
    assert not any(option.get("required") for option in settings["options"])
    language = next(option for option in settings["options"] if option["name"] == "language")
    assert [choice["value"] for choice in language["choices"]] == ["server", *LANGUAGES]
    assert set(LANGUAGES) >= {"en", "cs", "pl", "ru", "ko", "el"}
    czech = next(choice for choice in language["choices"] if choice["value"] == "cs")
    assert czech["name"] == "Czech"
    assert czech["name_localizations"]["cs"] == "čeština"
    channel = next(option for option in settings["options"] if option["name"] == "allow_channel")
    assert channel["channel_types"] == [0, 5]  # text and announcement channels


async def test_a_member_who_cannot_manage_the_server_is_refused(server: Server) -> None:
    for options in ({}, {"hidden_bids": True, "allow_channel": server.games}):
        reply = await server.settings(server.bob, **options)
        assert reply.ephemeral
        assert reply.text() == "Only members who can manage the server can see and change the Wizard settings."
    refused = await server.settings(server.bob, locale="pl", any_channel=True)
    assert "Ustawienia Wizarda może oglądać i zmieniać tylko ktoś" in refused.text()
    assert server.bot.guild_settings == {}
    assert await stored(server) == DEFAULTS


async def test_without_options_a_manager_sees_the_settings_in_force(server: Server) -> None:
    reply = await server.settings(server.admin)
    assert reply.ephemeral
    text = reply.text()
    for line in (
        "Wizard settings — Wizard Guild",
        "New games on this server start with these settings.",
        "Bids may not add up to the number of tricks: off",
        "…except in round 1: off",
        "Hidden bids: off",
        "Rounds: all",
        "Only even hands (2, 4, 6, … cards): off",
        "Blind first round: off",
        "5 minutes",
        "normal",
        "The server's language in Discord (now English)",
        "Any channel",
    ):
        assert line in text, line
    assert "Saved" not in text
    assert server.bot.guild_settings == {}  # showing saves nothing


async def test_a_manager_sets_the_defaults_and_where_games_may_start(server: Server) -> None:
    reply = await server.settings(
        server.admin,
        hidden_bids=True,
        rounds=5,
        turn_timer=120,
        computer_level="hard",
        language="cs",
        allow_channel=server.games,
    )
    assert reply.ephemeral
    text = reply.text()
    for line in (
        "Saved. New games start with these settings; games already open keep their own.",
        "Hidden bids: on",
        "Rounds: 5",
        "2 minutes",
        "hard",
        "Czech",
        f"<#{server.games.id}>",
    ):
        assert line in text, line
    assert "Any channel" not in text
    expected = GuildSettings(
        options=Options(hidden_bids=True, rounds=5),
        turn_timer=120,
        computer_level="hard",
        language="cs",
        channels=(server.games.id,),
    )
    assert server.bot.guild_settings == {server.guild.id: expected}
    assert await stored(server) == expected

    # A second change keeps the first: one more channel, the rounds back to all, the server's language.
    reply = await server.settings(server.admin, rounds=0, language="server", allow_channel=server.general)
    assert f"<#{server.games.id}>, <#{server.general.id}>" in reply.text()
    assert "Rounds: all" in reply.text()
    assert "Hidden bids: on" in reply.text()
    expected = expected.with_changes(rounds=None, language=None, channels=(server.games.id, server.general.id))
    assert await stored(server) == server.bot.guild_settings[server.guild.id] == expected

    reply = await server.settings(server.admin, forbid_channel=server.games)
    assert await stored(server) == expected.with_channels(forbid=server.games.id)
    reply = await server.settings(server.admin, any_channel=True)
    assert "Any channel" in reply.text()
    assert (await stored(server)).channels == ()


async def test_a_clash_is_explained_and_nothing_is_saved(server: Server) -> None:
    await server.settings(server.admin, hidden_bids=True)
    reply = await server.settings(server.admin, bids_may_not_add_up=True, turn_timer=60)
    assert reply.ephemeral
    assert reply.text() == (
        "Hidden bids cannot be combined with bids that may not add up: with hidden bids nobody bids last."
    )
    reply = await server.settings(server.admin, even_rounds=True, rounds=15)
    assert reply.text() == "Three players can play at most 10 rounds with these rules."
    reply = await server.settings(server.admin, locale="ru", blind_first_round=True, even_rounds=True)
    assert "Для первого раунда вслепую нужен раунд с одной картой" in reply.text()
    assert (
        await stored(server)
        == server.bot.guild_settings[server.guild.id]
        == GuildSettings(options=Options(hidden_bids=True))
    )


async def test_the_summary_is_in_the_managers_language(server: Server) -> None:
    await server.settings(server.admin, language="ko", allow_channel=server.games)
    reply = await server.settings(server.admin, locale="cs")
    text = reply.text()
    assert "Nastavení Wizardu — Wizard Guild" in text
    assert "Skryté odhady: vypnuto" in text
    assert "5 minut" in text
    assert "korejština" in text
    assert f"<#{server.games.id}>" in text
    reply = await server.settings(server.admin, locale="el")
    assert "Ρυθμίσεις Wizard — Wizard Guild" in reply.text()
    assert "Κορεατικά" in reply.text()
