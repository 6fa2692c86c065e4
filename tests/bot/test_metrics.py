"""Metric labels name routes, never ids or tokens; a JSON log record stays on its line; health names the database."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import pytest

from bot.client import WizardBot
from bot.logs import JsonFormatter
from bot.metrics import route_of
from bot.settings import Settings
from bot.storage import Repository

TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OTpSM0Q0cUZ3bUVhY2h"


@pytest.mark.parametrize(
    ("path", "route"),
    [
        ("/api/v10/channels/123/messages", "/channels/{id}/messages"),
        ("/api/v10/channels/123/messages/456", "/channels/{id}/messages/{id}"),
        (f"/api/v10/interactions/789/{TOKEN}/callback", "/interactions/{id}/{token}/callback"),
        (f"/api/v10/webhooks/42/{TOKEN}/messages/@original", "/webhooks/{id}/{token}/messages/@original"),
        ("/api/v10/users/@me", "/users/@me"),
        ("/api/v10/oauth2/applications/@me", "/oauth2/applications/@me"),
        (f"/api/v10/webhooks/42/{TOKEN.lower()}", "/webhooks/{id}/{token}"),
        ("/api/v10/applications/42/guilds/7/commands", "/applications/{id}/guilds/{id}/commands"),
        ("/api/v10/gateway/bot", "/gateway/bot"),
    ],
)
def test_a_request_path_is_labelled_by_its_route(path: str, route: str) -> None:
    assert route_of(path) == route


def test_a_json_log_record_with_a_traceback_is_one_line() -> None:
    try:
        raise ValueError("two\nlines")
    except ValueError:
        record = logging.LogRecord("bot", logging.ERROR, __file__, 1, "failed %s", ("here",), sys.exc_info())
    line = JsonFormatter().format(record)
    assert "\n" not in line
    entry = json.loads(line)
    assert (entry["level"], entry["logger"], entry["message"]) == ("ERROR", "bot", "failed here")
    assert "ValueError: two\nlines" in entry["exception"]


async def test_health_fails_when_the_database_does_not_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = WizardBot(Settings(token="t", database_path=tmp_path / "w.db"))
    bot.repository = await Repository.open(tmp_path / "w.db")
    monkeypatch.setattr(bot, "gateway_connected", lambda: True)
    assert await bot.health() is None
    await bot.repository.close()  # a closed connection answers nothing
    assert await bot.health() == "the database does not answer (ValueError)"
