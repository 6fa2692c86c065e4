"""Settings come from the environment once; a missing token stops the bot with one clear line."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError
from tests._isolation import setting_names


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
    # From an empty folder: no .env there, and none elsewhere is read.
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=os.environ | {"PYTHONPATH": os.getcwd()},
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "Traceback" not in result.stderr


# -- the .env file ---------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent.parent


def example_names() -> list[str]:
    """The settings `.env.example` lists, in its order."""
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    return [line.split("=", 1)[0] for line in lines if line and not line.startswith("#")]


def test_env_example_names_every_setting_the_bot_reads() -> None:
    assert sorted(example_names()) == sorted(setting_names())


def test_env_example_copied_as_it_is_gives_the_defaults(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        (ROOT / ".env.example").read_text(encoding="utf-8").replace("DISCORD_TOKEN=", "DISCORD_TOKEN=abc")
    )
    assert Settings.load(tmp_path, {}) == Settings(token="abc")


def test_the_env_file_of_the_folder_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-the-file\nLOG_LEVEL=DEBUG\nREST_SHARE=20\n")
    settings = Settings.load(tmp_path, {"LOG_LEVEL": "WARNING", "REST_SHARE": " "})
    assert (settings.token, settings.log_level, settings.rest_share) == ("from-the-file", logging.WARNING, 20.0)
    assert settings.token_file == tmp_path / ".env"
    assert Settings.load(tmp_path, {"DISCORD_TOKEN": "from-the-environment"}).token_file is None


def test_an_env_file_in_a_folder_above_is_not_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-above\n")
    (tmp_path / "below").mkdir()
    with pytest.raises(SettingsError, match="DISCORD_TOKEN is not set, and there is no"):
        Settings.load(tmp_path / "below", {})


def test_without_a_token_the_message_names_the_file_it_looked_in(tmp_path: Path) -> None:
    with pytest.raises(SettingsError) as missing:
        Settings.load(tmp_path, {})
    assert f"there is no {tmp_path / '.env'}" in str(missing.value)
    assert "copy .env.example to .env there" in str(missing.value)
    # Copied, with the token still empty: the file is there, and the message says so.
    (tmp_path / ".env").write_text((ROOT / ".env.example").read_text(encoding="utf-8"))
    with pytest.raises(SettingsError) as empty:
        Settings.load(tmp_path, {})
    assert str(empty.value).startswith(f"DISCORD_TOKEN is not set in {tmp_path / '.env'}: put your bot's token")
    assert ".env.example" not in str(empty.value)
