"""A game with a one-day turn timer, played over days: the real `python -m bot` process on a clock
the test moves forward (and the stand-in's with it, so interaction tokens age as they would), with
a turn that runs out while the bot runs, another that runs out while it is down, and a restart in
between. No interaction token is used once it has expired: Discord would refuse it (401 50027)."""

from __future__ import annotations

import contextlib
import re
import sqlite3
from pathlib import Path

from tests.e2e._play import Players, has_hand_button, messages_of, open_game, three_people
from tests.e2e._process import WorldClock
from tests.e2e.standin import DiscordStandin, Driver, StoredMessage
from tests.e2e.test_restart import Bot

HOUR = 3600.0
DAY = 24 * HOUR
RAN_OUT = "ran out of time"


def moves_stored(database: Path) -> int:
    with contextlib.closing(sqlite3.connect(database)) as db:
        (count,) = db.execute("SELECT count(*) FROM actions").fetchone()
    return int(count)


async def test_a_one_day_game_lives_through_days_a_timeout_and_a_restart_without_an_expired_token(
    tmp_path: Path,
) -> None:
    async with DiscordStandin() as standin:
        channel, people = three_people(standin)
        driver = Driver(standin)
        clock = WorldClock(standin, tmp_path)
        bot = Bot(standin, tmp_path / "bot", channel.guild_id or 0, seed=20261202)
        bot.environ |= clock.environ
        database = tmp_path / "bot" / "wizard.db"

        def table() -> StoredMessage:
            tables = [m for m in driver.channel_view(channel) if has_hand_button(m)]
            assert tables, "no table"
            return tables[-1]

        copies: list[StoredMessage] = []

        async def my_hand() -> list[int]:
            """people[0] presses My hand on the table; how the bot answered (4: a new private hand)."""
            record = await driver.click(people[0], table(), "My hand")
            await record.wait_acked(3)
            copies.append(await record.wait_response())
            return record.callback_types

        try:
            await bot.start()
            await open_game(driver, channel, people, rounds=2, turn_timer=86400)
            players = Players(standin, driver, channel, people)
            assert await players.move()  # the first bid, from a DM
            assert await my_hand() == [4]

            # Half a day and more: the one to move is reminded; the My hand answer's token has
            # expired, so a second press gets a new private hand, not an edit through the old token.
            clock.advance(13 * HOUR)
            await standin.wait_for(lambda: messages_of(driver, channel, "time runs out <t:"), 10, "the reminder")
            # The time left as Discord's relative timestamp, which every reader's client counts down.
            (reminder,) = messages_of(driver, channel, "time runs out <t:")
            deadline = re.search(r"<t:(\d+):R>", reminder.text())
            assert deadline is not None
            assert 10 * HOUR < int(deadline[1]) - clock.now() < 11 * HOUR + 60
            assert await my_hand() == [4]
            edits = copies[-1].edits
            assert await players.move()  # a DM click, its hand's turn edits from now on by the bot's token
            # The copy follows the move through its fresh token before the day passes: a day does not
            # pass between a token's check and its use, as the moved clock could make it.
            await standin.wait_for(lambda: copies[-1].edits > edits, 10, "the copy brought up to date")

            # A day: the turn runs out while the bot runs, and the computer moves for that person.
            clock.advance(DAY)
            await standin.wait_for(lambda: RAN_OUT in table().text(), 10, "the timeout shown on the table")

            # The bot is down for more than a day: the next turn runs out as it is back.
            await bot.kill()
            stored = moves_stored(database)
            clock.advance(DAY + HOUR)
            await bot.start()
            await standin.wait_for(lambda: moves_stored(database) == stored + 1, 20, "the timeout at the restart")
            await standin.wait_for(lambda: RAN_OUT in table().text(), 10, "the timeout shown after the restart")

            while await players.move():
                pass
            await standin.wait_for(players.finished, 30, "the final standings")
            assert len(messages_of(driver, channel, "Final standings")) == 1
        finally:
            await bot.stop()
        refused = [(call.method, call.route) for call in standin.rest_log if call.status == 401]
        assert refused == []  # no token used after it expired
        assert standin.global_refusals == 0
