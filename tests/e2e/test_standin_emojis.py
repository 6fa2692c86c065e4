"""The stand-in keeps the application's emojis as Discord does, and refuses what Discord refuses."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from tests.e2e.standin import DiscordStandin
from tests.e2e.standin.emojis import MAX_EMOJIS, MAX_IMAGE_BYTES, ApplicationEmoji
from tests.e2e.test_standin_validation import Site, button, leaves, row

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64  # the stand-in reads a file's type from its first bytes


def data_uri(data: bytes = PNG, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


@pytest_asyncio.fixture
async def site() -> AsyncIterator[Site]:
    import aiohttp

    async with DiscordStandin() as standin:
        guild = standin.create_guild()
        channel = standin.create_text_channel(guild, "wizard")
        user = standin.create_user("alice")
        standin.add_member(guild, user)
        async with aiohttp.ClientSession() as http:
            yield Site(standin, http, channel, user)
        assert standin.unknown_routes == []
        assert standin.failures == []


def emojis(site: Site, suffix: str = "") -> str:
    return f"/applications/{site.standin.application_id}/emojis{suffix}"


async def test_an_uploaded_emoji_is_listed_fetched_renamed_and_deleted(site: Site) -> None:
    status, created = await site.call("POST", emojis(site), {"name": "wz1_hearts", "image": data_uri()})
    assert status == 201
    assert created["name"] == "wz1_hearts"
    assert created["user"]["id"] == str(site.standin.bot_user.id)
    status, listed = await site.call("GET", emojis(site))
    assert status == 200
    assert [item["id"] for item in listed["items"]] == [created["id"]]
    assert site.standin.app_emojis.get(int(created["id"])).image == PNG
    status, renamed = await site.call("PATCH", emojis(site, f"/{created['id']}"), {"name": "wz2_hearts"})
    assert (status, renamed["name"]) == (200, "wz2_hearts")
    status, _ = await site.call("DELETE", emojis(site, f"/{created['id']}"))
    assert status == 204
    status, gone = await site.call("GET", emojis(site, f"/{created['id']}"))
    assert (status, gone["code"]) == (404, 10014)


@pytest.mark.parametrize(
    ("name", "code"),
    [
        pytest.param("a", "BASE_TYPE_BAD_LENGTH", id="1-character"),
        pytest.param("a" * 33, "BASE_TYPE_BAD_LENGTH", id="33-characters"),
        pytest.param("wz-hearts", "EMOJI_NAME_INVALID", id="hyphen"),
        pytest.param("wz hearts", "EMOJI_NAME_INVALID", id="space"),
        pytest.param("wz♥", "EMOJI_NAME_INVALID", id="symbol"),
    ],
)
async def test_a_name_discord_refuses_is_refused(site: Site, name: str, code: str) -> None:
    status, answer = await site.call("POST", emojis(site), {"name": name, "image": data_uri()})
    assert (status, answer["code"]) == (400, 50035)
    assert leaves(answer["errors"]) == {("name",): [code]}
    assert site.standin.app_emojis.emojis == {}


async def test_a_name_already_taken_is_refused(site: Site) -> None:
    await site.call("POST", emojis(site), {"name": "wz1_hearts", "image": data_uri()})
    status, answer = await site.call("POST", emojis(site), {"name": "wz1_hearts", "image": data_uri()})
    assert (status, answer["code"]) == (400, 50035)
    assert leaves(answer["errors"]) == {("name",): ["APPLICATION_EMOJI_NAME_ALREADY_TAKEN"]}


@pytest.mark.parametrize(
    "image",
    [
        pytest.param(data_uri(mime="image/svg+xml"), id="svg"),
        pytest.param("iVBORw0KGgo=", id="not-a-data-uri"),
        pytest.param(data_uri(b"GIF89a..."), id="png-type-gif-bytes"),
        pytest.param("data:image/png;base64,***", id="not-base64"),
    ],
)
async def test_an_image_discord_cannot_read_is_refused(site: Site, image: str) -> None:
    status, answer = await site.call("POST", emojis(site), {"name": "wz1_hearts", "image": image})
    assert (status, answer["code"]) == (400, 50035)
    assert leaves(answer["errors"]) == {("image",): ["IMAGE_INVALID"]}


async def test_an_image_over_256_kib_is_refused_and_one_at_the_limit_taken(site: Site) -> None:
    over = PNG + b"\0" * (MAX_IMAGE_BYTES - len(PNG) + 1)
    status, answer = await site.call("POST", emojis(site), {"name": "big", "image": data_uri(over)})
    assert status == 400
    assert answer["code"] == 0
    status, _ = await site.call("POST", emojis(site), {"name": "big", "image": data_uri(over[:-1])})
    assert status == 201


async def test_the_2001st_emoji_is_refused(site: Site) -> None:
    store = site.standin.app_emojis
    for k in range(MAX_EMOJIS):
        store.emojis[k + 1] = ApplicationEmoji(k + 1, f"e{k}", PNG, "image/png", {})
    status, answer = await site.call("POST", emojis(site), {"name": "wz1_hearts", "image": data_uri()})
    assert (status, answer["code"]) == (400, 30008)


async def test_another_applications_emojis_are_out_of_reach(site: Site) -> None:
    other = f"/applications/{site.standin.application_id + 1}/emojis"
    status, answer = await site.call("GET", other)
    assert (status, answer["code"]) == (403, 50001)


async def test_a_button_may_wear_the_applications_emoji_and_no_other(site: Site) -> None:
    status, created = await site.call("POST", emojis(site), {"name": "wz1_hearts", "image": data_uri()})
    assert status == 201

    def body(emoji_id: str) -> dict[str, Any]:
        return {"content": "x", "components": [row(button(emoji={"id": emoji_id, "name": "wz1_hearts"}))]}

    status, _ = await site.call("POST", f"/channels/{site.channel.id}/messages", body(created["id"]))
    assert status == 200
    status, answer = await site.call("POST", f"/channels/{site.channel.id}/messages", body(str(int(created["id"]) + 1)))
    assert (status, answer["code"]) == (400, 50035)
    assert leaves(answer["errors"]) == {
        ("components", "0", "components", "0", "emoji", "id"): ["BUTTON_COMPONENT_INVALID_EMOJI"]
    }
