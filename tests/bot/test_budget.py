"""The process's share of Discord's global request budget, spent by priority (bot/budget.py)."""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import functools
from collections import deque
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.budget import Priority, RequestBudget, exempt, priority
from bot.client import WizardBot
from bot.settings import Settings

RATE = 40.0  # requests a second: a bucket of 8, at most 48 in any one second


class Clock:
    """A clock the test moves; the budget's timers still run on the event loop."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def drained(clock: Clock) -> RequestBudget:
    budget = RequestBudget(RATE, clock=clock)
    for _ in range(int(budget.capacity)):
        await asyncio.wait_for(budget.take(Priority.TABLE), 1)  # a burst goes at once
    return budget


async def sent(budget: RequestBudget, clock: Clock, requests: int) -> None:
    """`requests` tables sent as fast as the budget lets them, each answered at once."""
    for _ in range(requests):
        while not budget._may_go(1):  # the budget's own arithmetic, without the event loop's timers
            clock.now += 0.001
        await asyncio.wait_for(budget.take(Priority.TABLE), 1)
        budget.answered()


async def crowded(clock: Clock) -> RequestBudget:
    """A budget whose last second holds its share: no room for a turn edit."""
    budget = RequestBudget(RATE, clock=clock)
    await sent(budget, clock, int(RATE))
    return budget


async def test_a_waiting_table_request_goes_before_a_hand_request_that_waited_longer() -> None:
    clock = Clock()
    budget = await drained(clock)
    hand = asyncio.create_task(budget.take(Priority.HAND))
    table = asyncio.create_task(budget.take(Priority.TABLE))
    await asyncio.sleep(0)  # a yield, not a wait: both tasks run up to their place in the queue
    clock.now += 1.5 / RATE  # one request's worth (and a half, for the floating point)
    done, _ = await asyncio.wait({hand, table}, timeout=5, return_when=asyncio.FIRST_COMPLETED)
    assert done == {table}
    clock.now += 1 / RATE
    await asyncio.wait_for(hand, 5)


@pytest.mark.parametrize(("before", "goes"), [(0, True), (20, True), (39, True), (40, False)])
async def test_a_turn_edit_goes_only_while_the_last_second_holds_fewer_than_the_share(before: int, goes: bool) -> None:
    """The rest of the window, a burst's worth, is kept for the tables and hands that may come at once."""
    clock = Clock()
    budget = RequestBudget(RATE, clock=clock)
    await sent(budget, clock, before)
    assert budget.try_take() is goes
    assert (budget.sent[Priority.TURN], budget.skipped) == ((1, 0) if goes else (0, 1))


async def test_turn_edits_leave_the_bucket_to_tables_and_hands() -> None:
    """A bucket of a few requests put off a third of the turn edits at 200 games at a human pace,
    while the process averaged half its share: turn edits go by the window alone."""
    budget = await drained(Clock())
    assert budget.try_take()
    assert budget._tokens == 0  # untouched: no table or hand waits longer for it


async def test_a_turn_edit_never_takes_a_request_from_one_that_waits() -> None:
    clock = Clock()
    budget = await drained(clock)
    waiting = asyncio.create_task(budget.take(Priority.HAND))
    await asyncio.sleep(0)  # a yield: the task takes its place in the queue
    clock.now += 10.0  # the bucket refilled, but the hand request has not been let through yet
    assert not budget.try_take()
    await asyncio.wait_for(waiting, 5)


@pytest.mark.parametrize(
    ("path", "is_exempt"),
    [
        ("/api/v10/channels/1/messages", False),
        ("/api/v10/channels/1/messages/2", False),
        ("/api/v10/users/@me/channels", False),
        ("/api/v10/interactions/1/token/callback", True),
        ("/api/v10/webhooks/1/token/messages/@original", True),
        ("/", True),  # the gateway's websocket
    ],
)
def test_interaction_endpoints_and_the_gateway_are_outside_the_budget(path: str, is_exempt: bool) -> None:
    assert exempt(path) is is_exempt


@pytest.mark.parametrize("level", [None, Priority.TABLE])
async def test_a_request_already_paid_for_does_not_pay_again(level: Priority | None) -> None:
    budget = RequestBudget(RATE, clock=Clock())
    with priority(level):
        await asyncio.wait_for(budget.pace("/api/v10/channels/1/messages/2"), 1)
    assert sum(budget.sent.values()) == (0 if level is None else 1)


@pytest.mark.parametrize("share", [10.0, 40.0, 45.0, 49.0])
async def test_no_second_holds_more_than_discords_50_requests(share: float) -> None:
    """The bucket lets through at most its capacity plus a second's refill in any second."""
    clock = Clock()
    budget = RequestBudget(share, clock=clock)
    sent: deque[float] = deque()
    most = 0
    for _ in range(int(share * 5)):  # a greedy sender for five seconds, a millisecond a step
        while not budget._may_go(1):  # the budget's own arithmetic, without the event loop's timers
            clock.now += 0.001
        await asyncio.wait_for(budget.take(Priority.TABLE), 1)
        budget.answered()  # at once: the window never holds the sender back
        sent.append(clock.now)
        while sent[0] <= clock.now - 1.0:
            sent.popleft()
        most = max(most, len(sent))
    assert most <= min(50, share * 1.2)


async def test_a_put_off_turn_edit_is_handed_its_request_already_paid_for() -> None:
    """Handed, not merely told: the room cannot be taken by another request before the edit goes
    (telling only made put-off edits lose it again and again, to the back of the queue)."""
    clock = Clock()
    budget = await crowded(clock)
    assert not budget.try_take()
    handed = asyncio.Event()
    budget.when_room(handed.set)
    clock.now += 10.0  # the last second is empty again
    budget._room()  # the budget's own hand-out, without waiting for its timer
    assert handed.is_set()
    assert (budget.sent[Priority.TURN], budget._flying) == (1, 1)


async def test_put_off_turn_edits_get_the_room_in_the_order_they_were_put_off() -> None:
    clock = Clock()
    budget = await crowded(clock)
    handed: list[int] = []
    everyone = asyncio.Event()

    def edit(number: int) -> Callable[[], None]:
        def hand() -> None:
            handed.append(number)
            clock.now += 10.0  # the bucket refills for the next one
            if len(handed) == 4:
                everyone.set()

        return hand

    for number in range(3):
        assert not budget.try_take()
        budget.when_room(edit(number))
    clock.now += 10.0
    assert not budget.try_take()  # a new turn edit queues behind the ones put off before it
    budget.when_room(edit(3))
    budget._room()
    await asyncio.wait_for(everyone.wait(), 5)
    assert handed == [0, 1, 2, 3]


async def test_a_request_handed_out_and_not_needed_is_given_back() -> None:
    clock = Clock()
    budget = RequestBudget(RATE, clock=clock)
    assert budget.try_take()
    budget.give_back()  # the turn had passed
    assert (budget.sent[Priority.TURN], budget.given_back, budget._flying) == (0, 1, 0)


@pytest.mark.parametrize("waiting", [Priority.TABLE, Priority.HAND])
async def test_a_put_off_turn_edit_waits_for_every_waiting_table_and_hand(waiting: Priority) -> None:
    """Over budget the turn edits give way first: the room goes to waiting requests of higher priority."""
    clock = Clock()
    budget = await drained(clock)
    handed = asyncio.Event()
    budget.when_room(handed.set)
    request = asyncio.create_task(budget.take(waiting))
    await asyncio.sleep(0)  # a yield: the request takes its place in the queue
    clock.now += 10.0  # the bucket refilled, but the waiting request has not been let through yet
    budget._room()  # the budget's hand-out, before the waiting request's own timer
    assert not handed.is_set()
    await asyncio.wait_for(request, 5)
    await asyncio.wait_for(handed.wait(), 5)


@pytest.mark.parametrize(
    ("share", "tables_a_second", "turns_a_second"),
    [(40.0, 10, 10), (40.0, 20, 15), (40.0, 5, 30), (20.0, 10, 8)],
)
async def test_under_budget_every_turn_edit_is_sent(share: float, tables_a_second: int, turns_a_second: int) -> None:
    """A steady stream under the share, every table edit followed at once by a turn edit as after a
    move: every turn edit goes, at once or when the room comes, and none is given up."""
    clock = Clock()
    budget = RequestBudget(share, clock=clock)
    delays: list[float] = []
    turns = 0

    def room(since: float) -> None:
        delays.append(clock.now - since)
        budget.answered()

    steps = 1000  # ten seconds, a hundredth of a second a step
    for step in range(steps):
        clock.now += 0.01
        if step * tables_a_second // 100 != (step + 1) * tables_a_second // 100:
            await asyncio.wait_for(budget.take(Priority.TABLE), 1)
            budget.answered()  # a prompt answer, as from Discord
        if step * turns_a_second // 100 != (step + 1) * turns_a_second // 100:
            turns += 1
            if budget.try_take():
                budget.answered()
            else:
                budget.when_room(functools.partial(room, clock.now))
        budget._room()  # the budget's own hand-out, without the event loop's timers
    for _ in range(100):  # the stream has stopped: a second more for the last ones
        clock.now += 0.01
        budget._room()
    assert (budget.sent[Priority.TURN], budget.given_back) == (turns, 0)
    assert max(delays, default=0.0) < 0.1  # "a little": less than a tenth of a second late


async def test_no_second_at_discords_end_holds_more_than_the_limit_however_late_the_answers() -> None:
    """Requests paced apart can arrive bunched: as the load benchmark saw, the first second's
    requests stamped half a second late (Discord's side busy), the next second's at once. Each
    request here arrives as late as it can, when its answer comes back; still no second holds more
    than the limit."""
    clock = Clock()
    budget = RequestBudget(RATE, clock=clock)
    start = clock.now
    due: list[float] = []  # when each request let through is answered (and, at the latest, arrives)
    for _ in range(4000):  # four seconds, a millisecond a step, a greedy sender
        clock.now += 0.001
        for _ in range(sum(1 for at in due if clock.now - 0.001 < at <= clock.now)):
            budget.answered()
        while not budget._waiting and budget._may_go(1):
            await asyncio.wait_for(budget.take(Priority.TABLE), 1)
            late = 0.5 if clock.now - start < 1.0 else 0.001
            due.append(clock.now + late)
    arrived = sorted(due)
    most = max(bisect.bisect_right(arrived, at + 1.0 - 1e-9) - index for index, at in enumerate(arrived))
    assert len(arrived) > 100  # it did send
    assert most <= budget.limit


@pytest.mark.parametrize(
    ("answered", "later", "goes"),
    [
        (False, 10.0, False),  # the window is full of requests still on their way
        (True, 0.999, False),  # an answer counts for a second more: the request may have just arrived
        (True, 1.0, True),
    ],
)
async def test_a_request_counts_until_a_second_after_its_answer(answered: bool, later: float, goes: bool) -> None:
    clock = Clock()
    budget = RequestBudget(10.0, clock=clock)  # a limit of 12
    for _ in range(budget.limit):
        clock.now += 1.0  # the bucket is full again: only the window holds requests back
        await asyncio.wait_for(budget.take(Priority.TABLE), 1)
    if answered:
        budget.answered()
    clock.now += later
    request = asyncio.create_task(budget.take(Priority.TABLE))
    await asyncio.sleep(0)  # a yield: a request that may go is through
    assert request.done() is goes
    request.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await request


async def test_a_paid_request_sent_again_pays_again() -> None:
    """discord.py sends a call again after a 5xx or a 429: the turn edit paid for covers only the first."""
    budget = RequestBudget(RATE, clock=Clock())
    with priority(None):
        assert await budget.pace("/api/v10/channels/1/messages/2")
        assert sum(budget.sent.values()) == 0
        assert await budget.pace("/api/v10/channels/1/messages/2")
    assert budget.sent == {Priority.TURN: 1}


@pytest.mark.parametrize("refused", [False, True])
async def test_the_bots_session_tells_the_budget_of_each_answer_or_failure(tmp_path: Path, refused: bool) -> None:
    """A request the budget counts must be answered back into it (a failure too), or its place in
    the window would be taken for good."""
    bot = WizardBot(Settings(token="t", database_path=tmp_path / "w.db"))
    app = web.Application()

    async def me(request: web.Request) -> web.Response:
        return web.json_response({})

    app.router.add_get("/api/v10/users/@me", me)
    async with TestServer(app) as server, aiohttp.ClientSession(trace_configs=[bot.http.http_trace]) as session:
        url = server.make_url("/api/v10/users/@me")
        if refused:
            await server.close()  # nothing listens there any more: the connection is refused
        with contextlib.suppress(aiohttp.ClientError):
            async with session.get(url) as response:
                await response.read()
    assert (bot.budget.sent[Priority.TABLE], bot.budget._flying, len(bot.budget._answered)) == (1, 0, 1)
