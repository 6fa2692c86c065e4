"""What the slash commands were last published as, by application and place (`bot.publishing`)."""

from __future__ import annotations

import asyncio

from bot.storage import GLOBALLY, Repository

APP, OTHER_APP, SERVER = 11, 12, 1234


async def test_nothing_is_published_in_a_new_database(repository: Repository) -> None:
    assert await repository.published_commands(APP) == {}


async def test_each_place_keeps_the_digest_it_was_published_with(repository: Repository) -> None:
    await repository.save_published_commands(APP, GLOBALLY, "aaa")
    await repository.save_published_commands(APP, SERVER, "bbb")
    await repository.save_published_commands(APP, GLOBALLY, "ccc")
    await repository.save_published_commands(OTHER_APP, GLOBALLY, "ddd")
    assert await repository.published_commands(APP) == {GLOBALLY: "ccc", SERVER: "bbb"}
    assert await repository.published_commands(OTHER_APP) == {GLOBALLY: "ddd"}


async def test_commands_taken_back_from_a_place_are_forgotten_there(repository: Repository) -> None:
    await repository.save_published_commands(APP, GLOBALLY, "aaa")
    await repository.save_published_commands(APP, SERVER, "bbb")
    await repository.save_published_commands(APP, SERVER, None)
    assert await repository.published_commands(APP) == {GLOBALLY: "aaa"}


async def test_one_publisher_at_a_time(repository: Repository) -> None:
    inside: list[str] = []
    entered, release = asyncio.Event(), asyncio.Event()

    async def publish(name: str) -> None:
        async with repository.publishing_commands():
            inside.append(name)
            entered.set()
            await release.wait()

    first = asyncio.create_task(publish("first"))
    await asyncio.wait_for(entered.wait(), 5)
    second = asyncio.create_task(publish("second"))
    done, _ = await asyncio.wait({second}, timeout=0.2)  # time to enter, which it must not take
    assert not done
    assert inside == ["first"]
    release.set()
    await asyncio.wait_for(asyncio.gather(first, second), 5)
    assert inside == ["first", "second"]
