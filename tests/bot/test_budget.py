"""The process's share of Discord's global request budget, spent by priority (bot/budget.py)."""

from __future__ import annotations

import asyncio
from collections import deque

import pytest

from bot.budget import Priority, RequestBudget, exempt, priority

RATE = 40.0  # requests a second: capacity 4, reserve 1


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


@pytest.mark.parametrize(("left", "goes"), [(4, True), (2, True), (1, False), (0, False)])
async def test_a_turn_edit_goes_only_while_the_bucket_holds_more_than_the_reserve(left: int, goes: bool) -> None:
    budget = RequestBudget(RATE, clock=Clock())
    assert (budget.capacity, budget.reserve) == (4, 1)
    for _ in range(4 - left):
        await asyncio.wait_for(budget.take(Priority.HAND), 1)
    assert budget.try_take() is goes
    assert (budget.sent[Priority.TURN], budget.skipped) == ((1, 0) if goes else (0, 1))


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
        while budget._tokens < 1:  # the bucket's own arithmetic, without the event loop's timers
            clock.now += 0.001
            budget._refill()
        await asyncio.wait_for(budget.take(Priority.TABLE), 1)
        sent.append(clock.now)
        while sent[0] <= clock.now - 1.0:
            sent.popleft()
        most = max(most, len(sent))
    assert most <= min(50, share * 1.2)


async def test_a_put_off_turn_edit_is_told_when_the_bucket_has_room_again() -> None:
    clock = Clock()
    budget = await drained(clock)
    assert not budget.try_take()
    told = asyncio.Event()
    budget.when_room(told.set)
    clock.now += 10.0  # refilled
    await asyncio.wait_for(told.wait(), 5)
    assert budget.try_take()
