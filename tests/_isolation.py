"""What keeps every test away from the user's own bot: its settings, its `.env`, and Discord itself.

`tests/conftest.py` applies it to each test process, and `tests/e2e/_process.py` to each bot process
a test starts. Whatever the environment holds and whatever `.env` the clone has, a test talks to the
local stand-in only.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

from bot import settings as bot_settings

# The clone the tests run from: its .env is the user's own.
CLONE = Path(__file__).resolve().parent.parent
# The hosts of Discord's API, gateway, CDN and voice; a test that looks one up would reach Discord.
DISCORD_DOMAINS = ("discord.com", "discordapp.com", "discord.gg", "discordapp.net", "discord.media")

#: What a test process tried and was refused (a Discord host looked up, the clone's .env read).
refused: list[str] = []


def setting_names() -> frozenset[str]:
    """Every environment variable `Settings.from_env` reads, as it reads them."""
    read: set[str] = set()

    class Recording(dict[str, str]):
        def get(self, key: str, default: Any = None) -> Any:
            read.add(key)
            return "a-token" if key == "DISCORD_TOKEN" else default

    bot_settings.Settings.from_env(Recording())
    return frozenset(read)


def is_discord(host: object) -> bool:
    name = (host.decode() if isinstance(host, bytes) else str(host or "")).rstrip(".").lower()
    return any(name == domain or name.endswith(f".{domain}") for domain in DISCORD_DOMAINS)


def refuse_discord() -> None:
    """Make every look-up of a Discord host in this process fail, and note it in `refused`."""
    lookup: Callable[..., Any] = socket.getaddrinfo

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if is_discord(host):
            refused.append(f"looked up {host!r}")
            raise socket.gaierror(socket.EAI_NONAME, f"{host}: the tests talk to the Discord stand-in only")
        return lookup(host, *args, **kwargs)

    socket.getaddrinfo = getaddrinfo


def refuse_clone_env() -> None:
    """Make the bot's settings refuse to read the clone's `.env` in this process (whether or not
    the clone has one), and note it in `refused`."""
    read: Callable[[Path], dict[str, str]] = bot_settings.read_env_file
    forbidden = (CLONE / bot_settings.ENV_FILE).resolve()

    def read_env_file(path: Path) -> dict[str, str]:
        if path.resolve() == forbidden:
            refused.append(f"read {forbidden}")
            raise AssertionError(f"a test made the bot read the clone's {forbidden}, the user's own settings")
        return read(path)

    bot_settings.read_env_file = read_env_file


def isolate(environ: MutableMapping[str, str]) -> None:
    """Everything above for this process, and none of the bot's settings left in `environ`."""
    for name in setting_names():
        environ.pop(name, None)
    refuse_discord()
    refuse_clone_env()
