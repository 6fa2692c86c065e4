"""New games follow the server's settings: only in the allowed channels, with the default house rules,
turn timer and computer level, and channel messages in the language the managers chose; a game
already open keeps what it was opened with.

These need /wizard start and the channel messages to read `bot.guild_settings` (the patch to
cogs/wizard/_cog.py, _stats.py and _presenter.py that goes with /wizard settings).
"""

from __future__ import annotations

from bot.engine import Options
from bot.manager import Lobby

from .conftest import Server


async def test_new_games_start_only_in_the_allowed_channels_with_the_defaults(server: Server) -> None:
    await server.settings(
        server.admin, hidden_bids=True, rounds=5, turn_timer=120, computer_level="hard", allow_channel=server.games
    )
    refused = await server.start(server.bob, server.general)
    assert refused.ephemeral
    assert refused.text() == f"Games on this server can be started only in <#{server.games.id}>."
    assert server.bot.manager.in_channel(server.general.id) is None

    lobby = await server.start(server.bob, server.games, computer_players=1)
    assert not lobby.ephemeral
    text = lobby.text()
    for line in ("Hidden bids: everyone bids at once", "Shorter game: 5 rounds", "Turn timer: 2 minutes"):
        assert line in text, line
    assert "Computer 1 (hard)" in text
    opened = server.bot.manager.in_channel(server.games.id)
    assert isinstance(opened, Lobby)
    assert opened.options == Options(hidden_bids=True, rounds=5)
    assert opened.turn_timer == 120


async def test_the_options_given_to_start_win_over_the_defaults(server: Server) -> None:
    await server.settings(server.admin, hidden_bids=True, rounds=5, turn_timer=120, computer_level="hard")
    lobby = await server.start(
        server.bob, server.games, hidden_bids=False, rounds=3, turn_timer=60, computer_players=1, computer_level="easy"
    )
    assert "Shorter game: 3 rounds" in lobby.text()
    assert "Hidden bids" not in lobby.text()
    assert "Turn timer: 1 minute" in lobby.text()
    assert "Computer 1 (easy)" in lobby.text()
    opened = server.bot.manager.in_channel(server.games.id)
    assert isinstance(opened, Lobby)
    assert opened.options == Options(rounds=3)


async def test_options_that_clash_with_the_defaults_are_explained(server: Server) -> None:
    await server.settings(server.admin, hidden_bids=True)
    refused = await server.start(server.bob, server.games, bids_may_not_add_up=True)
    assert refused.ephemeral
    assert refused.text() == (
        "Hidden bids cannot be combined with bids that may not add up: with hidden bids nobody bids last."
    )
    assert server.bot.manager.in_channel(server.games.id) is None
    lobby = await server.start(server.bob, server.games, bids_may_not_add_up=True, hidden_bids=False)
    assert "Bids may not add up" in lobby.text()


async def test_a_change_never_reaches_a_game_already_open(server: Server) -> None:
    await server.start(server.bob, server.games)
    opened = server.bot.manager.in_channel(server.games.id)
    assert isinstance(opened, Lobby)
    await server.settings(server.admin, hidden_bids=True, turn_timer=60, allow_channel=server.general)
    assert opened.options == Options()
    assert opened.turn_timer == 300
    # The lobby in a channel no longer allowed carries on; a new game there is refused.
    assert server.bot.manager.in_channel(server.games.id) is opened
    refused = await server.start(server.carol, server.games)
    assert "can be started only in" in refused.text()


async def test_channel_messages_follow_the_language_the_managers_chose(server: Server) -> None:
    await server.settings(server.admin, language="cs")
    lobby = await server.start(server.bob, server.games)
    assert "Wizard — zakládá se nová hra" in lobby.text()
    refused = await server.start(server.carol, server.games)  # a private reply stays in carol's language
    assert refused.ephemeral
    assert "There is already a game in this channel" in refused.text()
    board = await (await server.driver.slash(server.bob, server.general, "leaderboard")).wait_response()
    assert "Žebříček — Wizard Guild" in board.text()

    await server.settings(server.admin, language="server")
    lobby = await server.start(server.bob, server.general)
    assert "Wizard — a new game is forming" in lobby.text()


async def test_a_running_game_keeps_the_language_it_started_with(server: Server) -> None:
    await server.settings(server.admin, language="cs")
    lobby = await server.start(server.bob, server.games, computer_players=2)
    start = next(str(b["custom_id"]) for b in lobby.buttons() if str(b["custom_id"]).endswith(":start"))
    await (await server.driver.click(server.bob, lobby, start)).wait_acked(3)
    table = await server.standin.wait_for(
        lambda: next((m for m in server.driver.channel_view(server.games) if "kolo 1" in m.text()), None),
        timeout=5,
        what="the Czech table",
    )
    await server.settings(server.admin, language="pl")
    running = server.bot.manager.in_channel(server.games.id)
    assert running is not None
    # The next move edits the table: still in Czech.
    edits = table.edits
    hand = await server.standin.wait_for(
        lambda: next((m for m in reversed(server.driver.dm_view(server.bob)) if m.buttons()), None),
        timeout=5,
        what="bob's hand",
    )
    move = next(b for b in hand.buttons() if not b.get("disabled"))
    await (await server.driver.click(server.bob, hand, str(move["custom_id"]))).wait_acked(3)
    await server.standin.wait_for(lambda: server.standin.messages[table.id].edits > edits, timeout=5, what="an edit")
    assert "kolo 1" in server.standin.messages[table.id].text()
