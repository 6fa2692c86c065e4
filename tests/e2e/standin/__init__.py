"""Local stand-in for the Discord API (REST + gateway) to drive a real discord.py client in tests.

Typical use::

    async with DiscordStandin() as standin:
        guild = standin.create_guild("G")
        channel = standin.create_text_channel(guild, "general")
        alice = standin.create_user("alice")
        standin.add_member(guild, alice)
        async with run_bot(standin, bot):
            driver = Driver(standin)
            rec = await driver.slash(alice, channel, "wizard start")
            await rec.wait_acked(3)
"""

from .driver import BotRunner, Driver, patched_discord, run_bot
from .server import DiscordError, DiscordStandin, validate_message_body
from .state import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    EPHEMERAL,
    LOADING,
    BotCrashed,
    Channel,
    FaultRule,
    Guild,
    InteractionRecord,
    Member,
    RestCall,
    Role,
    StandinState,
    StoredMessage,
    User,
)

__all__ = [
    "ADMINISTRATOR",
    "ALL_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "EPHEMERAL",
    "LOADING",
    "BotCrashed",
    "BotRunner",
    "Channel",
    "DiscordError",
    "DiscordStandin",
    "Driver",
    "FaultRule",
    "Guild",
    "InteractionRecord",
    "Member",
    "RestCall",
    "Role",
    "StandinState",
    "StoredMessage",
    "User",
    "patched_discord",
    "run_bot",
    "validate_message_body",
]
