"""Nothing lost: the bot process is killed (SIGKILL) at random moments of a game and started again."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Action, Game, Options, action_from_json
from cogs.wizard import _ids
from tests.e2e._play import (
    Players,
    custom_ids_ever,
    final_line,
    has_hand_button,
    messages_of,
    mover_on_table,
    open_game,
    read_turn,
    three_people,
    turn_pings,
)
from tests.e2e._process import launch
from tests.e2e.standin import Channel, DiscordStandin, Driver, StoredMessage, User

PLAYERS = 3
KILLS = 8  # spread over the game's 270 moves


class Bot:
    """The bot process, started again after each kill, against one stand-in and one database."""

    def __init__(
        self, standin: DiscordStandin, folder: Path, guild_id: int | None, seed: int | None = None, *args: str
    ) -> None:
        """`guild_id`: the server its commands are synced to (DEV_GUILD_ID); None: `args` say (--sync)."""
        self.standin = standin
        self.folder = folder
        self.environ = {"DISCORD_TOKEN": standin.token, "LOG_LEVEL": "WARNING"}
        if guild_id is not None:
            self.environ["DEV_GUILD_ID"] = str(guild_id)
        self.args = args
        if seed is not None:
            self.environ["TEST_GAME_SEED"] = str(seed)  # see tests/e2e/_process.py
        self.process: asyncio.subprocess.Process | None = None
        folder.mkdir(exist_ok=True)
        self.log = (folder / "bot.log").open("ab")
        self.starts = 0

    async def start(self) -> None:
        logins = len(self.standin.identify_payloads)
        self.process = await launch(self.standin, self.folder, self.environ, *self.args, log=self.log)
        self.starts += 1
        await self.standin.wait_for(lambda: len(self.standin.identify_payloads) > logins and self.standin.gateway_ready,
                                    timeout=60, what="the bot to log in")  # fmt: skip

    async def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        await self.process.wait()
        await self.standin.wait_for(lambda: not self.standin.gateway_ready, timeout=10, what="the gateway to close")

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
        self.log.close()


@dataclass
class Run:
    """A game of three people against the bot process, as `bot_with_a_game` starts it."""

    standin: DiscordStandin
    driver: Driver
    channel: Channel
    people: list[User]
    bot: Bot


@contextlib.asynccontextmanager
async def bot_with_a_game(folder: Path, seed: int | None = None, **options: Any) -> AsyncIterator[Run]:
    """The stand-in, three people, the bot process started, and a game of theirs under way (dealt
    from `seed`, if given); the bot is stopped at the end (the stand-in's record of what everyone
    saw stays readable)."""
    async with DiscordStandin() as standin:
        channel, people = three_people(standin)
        driver = Driver(standin)
        bot = Bot(standin, folder, channel.guild_id or 0, seed)
        try:
            await bot.start()
            await open_game(driver, channel, people, **options)
            yield Run(standin, driver, channel, people, bot)
            assert standin.global_refusals == 0  # the bot paces itself under Discord's 50 requests a second
        finally:
            await bot.stop()


def stored_game(path: Path) -> tuple[int, list[tuple[int, Action]]]:
    """The seed and the action log the bot committed."""
    with sqlite3.connect(path) as db:
        (seed,) = db.execute("SELECT seed FROM games WHERE status IN ('running', 'finished')").fetchone()
        rows = db.execute("SELECT seat, action FROM actions ORDER BY idx").fetchall()
    return seed, [(seat, action_from_json(json.loads(action))) for seat, action in rows]


async def test_killed_at_random_moments_the_game_finishes_with_every_move_once(tmp_path: Path) -> None:
    rng = random.Random(11)
    kill_after = set(rng.sample(range(3, 260), KILLS))
    # Half the kills come the moment a click is sent, before the bot could answer it.
    unanswered = set(rng.sample(sorted(kill_after), KILLS // 2))
    async with bot_with_a_game(tmp_path) as run:
        standin, driver, channel, people, bot = run.standin, run.driver, run.channel, run.people, run.bot

        # Whose turn it is, the players read on the table, once it changed after their last click
        # (every DM keeps its buttons enabled while the others play).
        seen: tuple[int, int] | None = None

        def whose_turn() -> tuple[User, StoredMessage, list[str]] | None:
            tables = [m for m in driver.channel_view(channel) if has_hand_button(m)]
            if not tables or (tables[-1].id, tables[-1].edits) == seen:
                return None
            hands = [([m for m in driver.dm_view(user) if "Your hand" in m.text()] or [None])[-1] for user in people]
            found = mover_on_table(
                tables[-1], [(u.global_name or u.name, h) for u, h in zip(people, hands, strict=True)]
            )
            if found is None:
                return None
            index, moves = found
            hand = hands[index]
            assert hand is not None
            return people[index], hand, moves

        def finished() -> bool:
            return any("Final standings" in m.text() for m in driver.channel_view(channel))

        accepted: list[tuple[int, Action]] = []  # moves the bot confirmed
        unconfirmed: list[tuple[int, Action]] = []  # moves sent just before a kill
        clicks = 0
        while not finished():
            found = await standin.wait_for(lambda: whose_turn() or finished(), timeout=30, what="a move")
            if found is True:
                break
            user, message, moves = found
            custom_id = rng.choice(moves)
            tables = [m for m in driver.channel_view(channel) if has_hand_button(m)]
            seen = (tables[-1].id, tables[-1].edits)
            button = _ids.parse(custom_id)
            assert isinstance(button, _ids.ActionId)
            move = (people.index(user), button.action)
            record = await driver.click(user, message, custom_id)
            clicks += 1
            if clicks in unanswered:
                unconfirmed.append(move)
                await bot.kill()
                await bot.start()
                continue
            await record.wait_acked(10)
            if record.callback_types[0] == 7:  # the hand message was updated: the move was taken
                accepted.append(move)
            if clicks in kill_after:
                await bot.kill()
                await bot.start()

    seed, log = stored_game(tmp_path / "wizard.db")
    replay = Game.replay(PLAYERS, seed, Options(), log)
    assert replay.is_over
    # Every confirmed move is in the log, in order, once; anything else in it is a move sent
    # just before a kill (the bot committed it, but died before it could answer).
    confirmed = iter(accepted)
    expected = next(confirmed, None)
    for move in log:
        if move == expected:
            expected = next(confirmed, None)
        else:
            unconfirmed.remove(move)
    assert expected is None
    final = next(m for m in driver.channel_view(channel) if "Final standings" in m.text())
    for person, score in zip(people, replay.scores, strict=True):
        assert final_line(person.global_name or person.name, score) in final.text()
    assert bot.starts == KILLS + 1


# Where a kill cuts off what the bot was sending: (the card before which the request is held, whose
# request, the request, how many of its kind pass first). Two rounds of three players: round 1 ends
# with the 3rd card (its table closes into its score pad, an edit; then round 2's table and the DM
# hands are posted), the game with the 9th (the last table closes, then the final standings).
CUT_OFF = {
    "round 1's table closing into its score pad": (3, "channel", "PATCH", 0),
    "round 2's table": (3, "channel", "POST", 0),
    "bob's round 2 hand, while dealing": (3, "bob", "POST", 0),
    "the last table closing": (9, "channel", "PATCH", 0),
    "the final standings": (9, "channel", "POST", 0),
}


@pytest.mark.parametrize(("card", "where", "method", "skip"), CUT_OFF.values(), ids=CUT_OFF.keys())
@pytest.mark.parametrize("processed", [False, True], ids=["lost", "made"])
async def test_what_a_kill_cut_off_is_sent_after_the_restart_once(
    tmp_path: Path, card: int, where: str, method: str, skip: int, processed: bool
) -> None:
    """The bot is killed while a post or an edit is in flight: it either never reached Discord, or
    did and only its answer was lost. After the restart the channel and the DMs hold exactly what a
    run without the kill holds: every table closed into its score pad, every hand, and the
    standings, once."""
    async with bot_with_a_game(tmp_path, rounds=2) as run:
        standin, driver, channel, people, bot = run.standin, run.driver, run.channel, run.people, run.bot
        players = Players(standin, driver, channel, people)
        while await players.move(before_card=card):
            pass
        target = channel if where == "channel" else standin.dm_channel_for(people[1])
        path = rf"/channels/{target.id}/messages" + ("$" if method == "POST" else r"/\d+$")
        held = standin.hold(method, path, skip=skip)
        assert await players.move(answered=False)
        await standin.wait_for(lambda: held.hits == 1, 10, "the request in flight")
        await bot.kill()
        if processed:
            calls = len(standin.rest_calls(method))
            held.release()  # Discord acts on the request; the bot never hears of it
            await standin.wait_for(lambda: len(standin.rest_calls(method)) > calls, 5, "the held request made")
        await bot.start()
        while await players.move():
            pass
    assert_each_shown_once(driver, channel, people, rounds=2)


def heading(message: StoredMessage) -> str:
    """The heading a table or hand message starts with, without the trump it names beside the round
    (a score pad's is its embed's title: a pad the channel shows apart, cut off from its table)."""
    if message.embeds:
        return str(message.embeds[0].get("title", ""))
    return message.text().splitlines()[0].removeprefix("### ").split(" · ")[0]


def assert_each_shown_once(driver: Driver, channel: Channel, people: list[User], rounds: int) -> None:
    """The channel holds each round's table, closed into its score pad, and the final standings,
    once each and in order; each person's DMs hold each round's hand once."""
    pads = [heading(m) for m in messages_of(driver, channel, "— results")]
    assert pads == [f"Round {n} of {rounds} — results" for n in range(1, rounds + 1)]
    assert len(messages_of(driver, channel, "Final standings")) == 1
    assert [m for m in driver.channel_view(channel) if has_hand_button(m)] == []  # every table closed
    for person in people:
        hands = [m.text() for m in driver.dm_view(person) if m.text().startswith("Round ")]
        assert [text.split(":")[0] for text in hands] == [f"Round {n}" for n in range(1, rounds + 1)], person.name


@pytest.mark.parametrize("processed", [False, True], ids=["edit-lost", "edit-made"])
async def test_a_game_stopped_as_the_bot_dies_gets_its_table_closed_after_the_restart(
    tmp_path: Path, processed: bool
) -> None:
    async with bot_with_a_game(tmp_path) as run:
        standin, driver, channel, people, bot = run.standin, run.driver, run.channel, run.people, run.bot
        players = Players(standin, driver, channel, people)
        await players.move()
        (table,) = [m for m in driver.channel_view(channel) if has_hand_button(m)]
        held = standin.hold("PATCH", rf"/channels/{channel.id}/messages/{table.id}$")
        stop = await driver.slash(people[0], channel, "wizard stop")
        assert "stopped by Alice" in (await stop.wait_response()).text()
        await standin.wait_for(lambda: held.hits == 1, 10, "the closed table's edit in flight")
        await bot.kill()
        if processed:
            held.release()  # Discord closed the table; the bot never heard
        await bot.start()
        await standin.wait_for(lambda: not has_hand_button(table), 30, "the table closed")
        assert "The game is over." in table.text() or "stopped by Alice" in table.text()
        assert [m for m in driver.channel_view(channel) if has_hand_button(m)] == []


# What a message shows that differs between two runs of the same game: Discord timestamps (turn
# deadlines), snowflakes (ids in links and mentions) and the game's random id in custom_ids.
_VARYING = re.compile(r"<t:\d+(:\w)?>|\d{15,}")


def shown(driver: Driver, channel: Channel, people: list[User]) -> dict[str, list[str]]:
    """Everything the channel and each person's DMs hold at the end, in order: each message's text
    and its buttons (label, emoji, whether enabled), without what differs between runs."""

    def look(message: StoredMessage) -> str:
        buttons = [
            f"[{c.get('label', '')}{(c.get('emoji') or {}).get('name', '')}{' off' if c.get('disabled') else ''}]"
            for c in message.buttons()
        ]
        return _VARYING.sub("…", message.text()) + " " + " ".join(buttons)

    seen = {"channel": [look(m) for m in driver.channel_view(channel)]}
    for person in people:
        seen[person.name] = [look(m) for m in driver.dm_view(person)]
    return seen


async def fault_free(folder: Path, seed: int, **options: Any) -> dict[str, list[str]]:
    """What everyone sees after the same game (same seed, same clicks) played without a fault."""
    async with bot_with_a_game(folder, seed, **options) as run:
        players = Players(run.standin, run.driver, run.channel, run.people)
        while await players.move():
            pass
        await run.standin.wait_for(players.finished, 10, "the final standings")
        return shown(run.driver, run.channel, run.people)


# A game of three whose first round turns up a Wizard: its dealer (carol) names trump first.
TRUMP_CHOICE_SEED = 29
CHOOSING = "Trump: the dealer is choosing"


@pytest.mark.parametrize("processed", [False, True], ids=["edit-lost", "edit-made"])
@pytest.mark.parametrize("answered", [False, True], ids=["unanswered", "answered"])
async def test_killed_at_the_trump_choice_everyone_sees_what_a_fault_free_game_shows(
    tmp_path: Path, answered: bool, processed: bool
) -> None:
    expected = await fault_free(tmp_path / "reference", TRUMP_CHOICE_SEED, rounds=2)
    async with bot_with_a_game(tmp_path / "faulted", TRUMP_CHOICE_SEED, rounds=2) as run:
        standin, driver, channel, people, bot = run.standin, run.driver, run.channel, run.people, run.bot
        players = Players(standin, driver, channel, people)
        # The others' hands are redrawn with the trump named: kill while bob's is on its way (and,
        # half the time, before carol's click is answered).
        held = standin.hold("PATCH", rf"/channels/{standin.dm_channel_for(people[1]).id}/messages/\d+$")
        assert await players.move(answered=answered)  # carol names trump
        await standin.wait_for(lambda: held.hits == 1, 10, "bob's hand redrawn")
        await bot.kill()
        if processed:
            held.release()  # Discord redraws it; the bot never hears
        await bot.start()

        # Before anyone moves again, every hand names the trump (bob's may be the held redraw, if
        # Discord made it, or the restarted bot's).
        def hands() -> list[str]:
            return [[m.text() for m in driver.dm_view(person) if "Your hand" in m.text()][-1] for person in people]

        await standin.wait_for(lambda: all(CHOOSING not in hand for hand in hands()), 10, "the trump in every hand")
        while await players.move():
            pass
        await standin.wait_for(players.finished, 10, "the final standings")
        assert shown(driver, channel, people) == expected


COMPUTER = "Computer 1 (normal)"


@pytest.mark.parametrize("moment", ["thinking", "its move's table edit lost", "its move's table edit made"])
async def test_killed_at_a_computers_move_it_moves_once_and_the_game_is_shown_once(tmp_path: Path, moment: str) -> None:
    """Three people and a computer player; the bot dies while the computer is to move (during the
    pause it takes so people can follow), or while the table edit showing its move is in flight."""
    async with bot_with_a_game(tmp_path, rounds=2, computer_players=1, computer_level="normal") as run:
        standin, driver, channel, people, bot = run.standin, run.driver, run.channel, run.people, run.bot
        players = Players(standin, driver, channel, people)

        def table() -> StoredMessage | None:
            """The live table (none between a round's end and the next round's table)."""
            tables = [m for m in driver.channel_view(channel) if has_hand_button(m)]
            return tables[-1] if tables else None

        def computer_to_move() -> bool:
            live = table()
            return live is not None and COMPUTER in read_turn(live).names

        while not computer_to_move():
            await standin.wait_for(lambda: players.next_move() or computer_to_move(), 30, "a move")
            if not computer_to_move():
                assert await players.move()
        held = None
        if moment != "thinking":
            live = table()
            assert live is not None
            held = standin.hold("PATCH", rf"/channels/{channel.id}/messages/{live.id}$")
            await standin.wait_for(lambda: held.hits == 1, 10, "the table edit showing the computer's move")
        await bot.kill()
        if held is not None and moment.endswith("made"):
            held.release()
        await bot.start()
        while await players.move():
            pass
        await standin.wait_for(players.finished, 10, "the final standings")
        assert_each_shown_once(driver, channel, [*people], rounds=2)

    seed, log = stored_game(tmp_path / "wizard.db")
    assert Game.replay(PLAYERS + 1, seed, Options(rounds=2), log).is_over  # every move once, in order


@pytest.mark.parametrize("processed", [False, True], ids=["answer-lost", "answer-made"])
async def test_killed_at_rematch_the_new_lobby_is_shown_once_and_works(tmp_path: Path, processed: bool) -> None:
    """Rematch stores a new lobby, then answers with it; the bot dies in between. If the answer never
    reached Discord, the restarted bot posts the lobby in the channel; if it did, the bot finds that
    message and keeps it. Either way the channel shows one lobby, and the people can start it."""
    async with bot_with_a_game(tmp_path, rounds=1) as run:
        standin, driver, channel, people, bot = run.standin, run.driver, run.channel, run.people, run.bot
        players = Players(standin, driver, channel, people)
        while await players.move():
            pass
        (final,) = messages_of(driver, channel, "Final standings")
        held = standin.hold("POST", r"/interactions/\d+/[^/]+/callback")
        await driver.click(people[0], final, "Rematch")
        await standin.wait_for(lambda: held.hits == 1, 10, "the answer with the new lobby")
        await bot.kill()
        if processed:
            held.release()  # Discord shows the lobby; the bot never hears
        restarted = time.monotonic()
        await bot.start()

        def looked() -> bool:
            """The restarted bot read the channel (for the lobby Discord may have made) or posted in it."""
            return any(
                call.path.endswith(f"/channels/{channel.id}/messages")
                for call in standin.rest_calls(since=restarted)
                if call.method in ("GET", "POST")
            )

        await standin.wait_for(looked, 10, "the restarted bot to look for its lobby")

        def lobbies() -> list[StoredMessage]:
            """The messages showing an open lobby."""
            return [m for m in driver.channel_view(channel) if m.find_component("Join") is not None]

        names = [person.global_name or person.name for person in people]
        await standin.wait_for(lambda: len(lobbies()) == 1 and names[0] in lobbies()[0].text(), 10, "the lobby")
        (lobby,) = lobbies()
        join = _ids.parse(str((lobby.find_component("Join") or {}).get("custom_id")))
        assert isinstance(join, _ids.LobbyId)
        for person in people[1:]:
            await (await driver.click(person, lobby, "Join")).wait_acked(3)
        await (await driver.click(people[0], lobby, "Start")).wait_acked(3)
        await standin.wait_for(lambda: len([m for m in driver.channel_view(channel) if has_hand_button(m)]) == 1,
                               10, "the new game's table")  # fmt: skip
        # No other message ever showed this lobby (the one Discord made, or the one the bot posted).
        showing = [
            m for m in driver.channel_view(channel)
            if any(isinstance(b := _ids.parse(i), _ids.LobbyId) and b.game == join.game for i in custom_ids_ever(m))
        ]  # fmt: skip
        assert showing == [lobby]
        assert all(name in lobby.text() for name in names)


def stored_pings(path: Path) -> set[int]:
    with sqlite3.connect(path) as db:
        return {row[0] for row in db.execute("SELECT ping_message_id FROM seats WHERE ping_message_id IS NOT NULL")}


async def test_a_turn_ping_sent_before_a_restart_goes_once_its_move_is_made(tmp_path: Path) -> None:
    """Which turn ping is open is stored with the seat: the restarted process takes down the ping
    its predecessor sent, once the move it was for is made, as it takes down its own."""
    async with bot_with_a_game(tmp_path, rounds=2) as run:
        standin, driver, channel, people, bot = run.standin, run.driver, run.channel, run.people, run.bot
        for person in people:
            record = await driver.slash(person, channel, "wizard pings", {"switch": "on"})
            assert "Turn pings are on" in (await record.wait_response()).text()
        players = Players(standin, driver, channel, people)
        found = await standin.wait_for(players.next_move, 30, "a move")
        mover = found[0]
        ping = await standin.wait_for(
            lambda: (shown := turn_pings(driver, mover)) and shown[-1], 10, "the mover's ping"
        )

        # Killed once the ping is stored (a kill between its post and its row leaves it: see docs/playing.md).
        def stored() -> bool:
            if ping.id in stored_pings(tmp_path / "wizard.db"):
                return True
            # The database tells the stand-in nothing: look again in a moment, as `quiet_second` does.
            asyncio.get_running_loop().call_later(0.05, standin.changed_soon)
            return False

        await standin.wait_for(stored, 10, "the ping stored")

        await bot.kill()
        await bot.start()
        assert await players.move()
        await standin.wait_for(
            lambda: all(m.id != ping.id for m in driver.dm_view(mover)), 15, "the ping from before the restart gone"
        )
        while await players.move():
            assert all(len(turn_pings(driver, person)) <= 1 for person in people)
        await standin.wait_for(lambda: all(turn_pings(driver, person) == [] for person in people), 15, "no ping left")
