"""The metrics endpoint after a game played by clicking: moves counted, answers timed, requests by route."""

from __future__ import annotations

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.client import WizardBot
from bot.metrics import StatusServer
from tests.e2e._play import Recorder, start_game
from tests.e2e.conftest import World
from tests.e2e.standin import run_bot

CALLBACK_ROUTE = "/interactions/{id}/{token}/callback"


class Scrape:
    """One scrape of /metrics: the value of a sample by name and labels, summed over the others."""

    def __init__(self, text: str) -> None:
        self.samples = [sample for family in text_string_to_metric_families(text) for sample in family.samples]

    def value(self, name: str, **labels: str) -> float:
        matching = [s.value for s in self.samples if s.name == name and labels.items() <= s.labels.items()]
        assert matching, f"no sample {name} {labels}"
        return sum(matching)


async def scrape(bot: WizardBot) -> Scrape:
    """GET /metrics from the bot's status server, as Prometheus would."""
    server = StatusServer(bot.metrics, bot.health)
    await server.start("127.0.0.1", 0)
    try:
        async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{server.port}/metrics") as got:
            assert got.status == 200
            assert got.headers["Content-Type"].startswith("text/plain; version=")
            return Scrape(await got.text())
    finally:
        await server.stop()


async def played(world: World, moves: int) -> Recorder:
    """Three people start a game and make `moves` moves by clicking; every click answered."""
    table = await start_game(world, world.people[:3])
    recorder = Recorder(world, world.people[:3])
    await recorder.play_until(lambda: len(table.game.log) >= moves)
    await world.standin.wait_for(lambda: not world.standin.unacknowledged(), 5, "every interaction answered")
    return recorder


async def test_every_move_of_a_game_is_counted(world: World) -> None:
    recorder = await played(world, 12)
    game = world.bot.manager.tables()[0].game
    metrics = await scrape(world.bot)
    assert metrics.value("wizard_moves_total") == len(game.log)
    assert metrics.value("wizard_moves_total", by="player") == len(recorder.moves)
    # Each move is written before it is answered; a game not over writes it with append_action.
    assert metrics.value("wizard_database_write_seconds_count", operation="append_action") == len(game.log)


async def test_every_interaction_answer_is_timed(world: World) -> None:
    await played(world, 6)
    answered = len(world.standin.interactions)
    metrics = await scrape(world.bot)
    assert metrics.value("wizard_interaction_answer_seconds_count") == answered
    assert metrics.value("wizard_interaction_answer_seconds_sum") > 0
    assert metrics.value("wizard_discord_requests_total", route=CALLBACK_ROUTE) == answered


async def test_an_open_lobby_is_reported(world: World) -> None:
    await (await world.driver.slash(world.people[0], world.channel, "wizard start")).wait_response()
    metrics = await scrape(world.bot)
    assert (metrics.value("wizard_lobbies"), metrics.value("wizard_games")) == (1, 0)


async def test_a_started_game_is_reported_in_place_of_its_lobby(world: World) -> None:
    await start_game(world, world.people[:3])
    metrics = await scrape(world.bot)
    assert (metrics.value("wizard_lobbies"), metrics.value("wizard_games")) == (0, 1)


async def test_a_rate_limited_request_is_counted_by_route_and_scope(world: World) -> None:
    world.standin.inject_429("POST", r"/channels/\d+/messages$", scope="shared")
    await played(world, 1)
    metrics = await scrape(world.bot)
    route = "/channels/{id}/messages"
    assert metrics.value("wizard_discord_rate_limited_total", route=route, scope="shared") == 1
    assert metrics.value("wizard_discord_requests_total", route=route, status="429") == 1


async def test_a_game_restored_after_a_restart_is_counted(world: World) -> None:
    await start_game(world, world.people[:3])
    await world.runner.stop()  # the game stays in the database
    again = WizardBot(world.bot.settings)
    async with run_bot(world.standin, again, capture_loggers=("discord", "bot", "cogs")):
        metrics = await scrape(again)
    assert metrics.value("wizard_games_restored_total") == 1
    assert metrics.value("wizard_games") == 1


async def test_the_reconciler_backlog_counts_what_is_not_shown_yet(world: World) -> None:
    """While Discord holds the table's edit, the move it shows is owed: the backlog says so, and
    falls back to 0 once the edit is through."""
    table = await start_game(world, world.people[:3])
    presenter = world.bot.get_cog("Wizard").presenter  # type: ignore[union-attr]
    await world.standin.wait_for(lambda: presenter.backlog() == 0, 5, "the first round shown")
    assert (await scrape(world.bot)).value("wizard_reconciler_backlog") == 0
    held = world.standin.hold("PATCH", rf"/channels/{world.channel.id}/messages/{table.table_message_id}$")
    await Recorder(world, world.people[:3]).step()
    await world.standin.wait_for(lambda: held.hits == 1, 5, "the table edit in flight")
    assert (await scrape(world.bot)).value("wizard_reconciler_backlog") >= 1
    held.release()
    await world.standin.wait_for(lambda: presenter.backlog() == 0, 5, "the move shown")
    assert (await scrape(world.bot)).value("wizard_reconciler_backlog") == 0
