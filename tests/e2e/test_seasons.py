"""/stats through the stand-in: a player's season and all time, and head-to-head between two players;
a game with computer players counts in /stats but not in the season's ranking."""

from __future__ import annotations

from dataclasses import dataclass

from bot.manager import Table
from tests.e2e._play import Recorder, messages_of, start_game
from tests.e2e.conftest import World
from tests.e2e.standin import StoredMessage, User


@dataclass
class NextGame(Recorder):
    """Plays the channel's next game: it is over when one more final standings than before are shown."""

    standings_before: int = 0

    def finished(self) -> bool:
        return len(messages_of(self.world.driver, self.world.channel, "Final standings")) > self.standings_before


async def play(world: World, seats: list[User], **options: object) -> Table:
    """A one-round game of these people, played to its end; the game as the bot finished it."""
    before = len(messages_of(world.driver, world.channel, "Final standings"))
    table = await start_game(world, seats, rounds=1, **options)
    await NextGame(world, seats, standings_before=before).play_to_end()
    return table


async def stats(world: World, user: User, **options: object) -> StoredMessage:
    record = await world.driver.slash(user, world.channel, "stats", options=options or None)
    return await record.wait_response()


async def monthly_seasons(world: World) -> None:
    admin = world.people[0]
    options = {"season_length": "monthly"}
    reply = await (await world.driver.slash(admin, world.channel, "wizard settings", options=options)).wait_response()
    assert "Season 1: since" in reply.text()


def name(user: User) -> str:
    return user.global_name or user.name


async def test_head_to_head_compares_two_players_game_by_game(world: World) -> None:
    alice, bob, carol, dave = world.people[:4]
    await monthly_seasons(world)
    games = [await play(world, [alice, bob, carol]), await play(world, [bob, alice, dave])]

    def side(table: Table, user: User) -> tuple[int, int]:
        seat = table.seat_of(user.id)
        assert seat is not None
        scores = table.game.scores
        return scores[seat], 1 + sum(other > scores[seat] for other in scores)

    sides = [(side(game, alice), side(game, bob)) for game in games]
    ahead = sum(a_place < b_place for (_, a_place), (_, b_place) in sides)
    behind = sum(b_place < a_place for (_, a_place), (_, b_place) in sides)
    wins = sum(a_place == 1 for (_, a_place), _ in sides), sum(b_place == 1 for _, (_, b_place) in sides)
    averages = [round(sum(s[i][0] for s in sides) / 2) for i in (0, 1)]

    text = (await stats(world, alice, vs=bob)).text()
    assert f"Head-to-head — {name(alice)} and {name(bob)}" in text
    lines = text.splitlines()
    assert lines.count("2 games together") == 2  # this season's, and all time's
    places = f"finished ahead: {name(alice)} {ahead} · {name(bob)} {behind} · level {2 - ahead - behind}"
    assert places in lines
    assert f"games won: {name(alice)} {wins[0]} · {name(bob)} {wins[1]}" in lines
    shown = [f"{value}".replace("-", "−") for value in averages]
    assert f"average score: {name(alice)} {shown[0]} · {name(bob)} {shown[1]}" in lines

    assert "1 game together" in (await stats(world, bob, player=carol, vs=alice)).text()
    never = (await stats(world, alice, vs=world.people[4])).text()
    assert f"{name(alice)} and {name(world.people[4])} have not finished a game together" in never
    myself = await stats(world, alice, vs=alice)
    assert myself.ephemeral
    assert "choose someone else" in myself.text()


async def test_stats_show_the_season_and_all_time_and_a_game_with_computers_counts_only_in_stats(
    world: World,
) -> None:
    alice, bob, carol = world.people[:3]
    await play(world, [alice, bob, carol])  # before seasons: all time only
    before = (await stats(world, alice)).text()
    assert "Season" not in before
    assert "All time\n1 played" in before

    await monthly_seasons(world)
    await play(world, [alice, bob, carol])
    await play(world, [alice], computer_players=2, computer_level="easy")
    text = (await stats(world, alice)).text()
    assert "Season 1\n2 played" in text  # the game with computer players counts in her figures
    assert "All time\n3 played" in text
    assert "best game:" in text
    assert "current streak:" in text
    board = (await (await world.driver.slash(bob, world.channel, "leaderboard")).wait_response()).text()
    assert "Only games with a person in every seat count for a season's ranking." in board
    lines = [line for line in board.splitlines() if line[:1].isdigit()]
    assert len(lines) == 3
    assert all(line.endswith("· 1 game") for line in lines)  # the game with computer players is not ranked
