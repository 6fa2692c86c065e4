"""Settings come from the environment once; a missing token stops the bot with one clear line."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError


def test_defaults_apply_when_only_the_token_is_set() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "abc"})
    assert settings == Settings(token="abc", database_path=Path("data/wizard.db"), log_level=logging.INFO)


def test_every_setting_is_read() -> None:
    settings = Settings.from_env(
        {"DISCORD_TOKEN": " abc ", "DATABASE_PATH": "/tmp/w.db", "LOG_LEVEL": "debug", "DEV_GUILD_ID": "1234"}
    )
    assert settings == Settings(token="abc", database_path=Path("/tmp/w.db"), log_level=logging.DEBUG,
                                dev_guild_id=1234)  # fmt: skip


@pytest.mark.parametrize(
    ("environ", "complaint"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "  "}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "a", "LOG_LEVEL": "loud"}, "LOG_LEVEL"),
        ({"DISCORD_TOKEN": "a", "DEV_GUILD_ID": "my-server"}, "DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": "a", "LOG_FORMAT": "xml"}, "LOG_FORMAT must be text or json"),
        ({"DISCORD_TOKEN": "a", "METRICS_PORT": "http"}, "METRICS_PORT must be a port number"),
        ({"DISCORD_TOKEN": "a", "METRICS_PORT": "70000"}, "METRICS_PORT must be a port number"),
        ({"DISCORD_TOKEN": "a", "REST_SHARE": "lots"}, "REST_SHARE must be"),
        ({"DISCORD_TOKEN": "a", "REST_SHARE": "0"}, "REST_SHARE must be"),
        ({"DISCORD_TOKEN": "a", "REST_SHARE": "50"}, "REST_SHARE must be"),
    ],
)
def test_a_bad_setting_is_explained(environ: dict[str, str], complaint: str) -> None:
    with pytest.raises(SettingsError, match=complaint):
        Settings.from_env(environ)


def test_the_service_settings_are_read() -> None:
    environ = {"DISCORD_TOKEN": "a", "LOG_FORMAT": "JSON", "METRICS_PORT": "9100", "METRICS_HOST": "0.0.0.0"}
    settings = Settings.from_env(environ)
    assert (settings.log_format, settings.metrics_port, settings.metrics_host) == ("json", 9100, "0.0.0.0")


@pytest.mark.parametrize(("text", "share"), [("", 40.0), ("25", 25.0), ("12.5", 12.5), ("49", 49.0)])
def test_the_request_share_is_read(text: str, share: float) -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "a", "REST_SHARE": text}).rest_share == share


def test_a_database_url_without_the_postgresql_driver_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "asyncpg", None)  # as if the `postgres` extra were not installed
    with pytest.raises(SettingsError, match=r"the PostgreSQL driver is not installed: pip install -r requirements.txt"):
        Settings.from_env({"DISCORD_TOKEN": "a", "DATABASE_URL": "postgresql://u@h/db"})


def test_the_token_is_not_in_the_settings_repr() -> None:
    assert "s3cret" not in repr(Settings(token="s3cret"))


def test_a_missing_token_ends_the_process_with_one_line_and_status_2(tmp_path: Path) -> None:
    environ = {key: value for key, value in os.environ.items() if key != "DISCORD_TOKEN"}
    # Run from an empty folder, so no .env is found.
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=environ | {"PYTHONPATH": os.getcwd()},
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "Traceback" not in result.stderr
