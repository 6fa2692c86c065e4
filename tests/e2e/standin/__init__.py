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
from .errors import DiscordError
from .server import DiscordStandin
from .state import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    DM_APP_PERMISSIONS,
    EPHEMERAL,
    LOADING,
    BotCrashed,
    Channel,
    FaultRule,
    Guild,
    InteractionRecord,
    Member,
    Overwrite,
    RestCall,
    Role,
    StandinState,
    StoredMessage,
    User,
    permission_bits,
)
from .validation import (
    command_errors,
    is_discord_emoji,
    message_body_errors,
    modal_errors,
    validate_commands,
    validate_message_body,
    validate_modal,
)

__all__ = [
    "ADMINISTRATOR",
    "ALL_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "DM_APP_PERMISSIONS",
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
    "Overwrite",
    "RestCall",
    "Role",
    "StandinState",
    "StoredMessage",
    "User",
    "command_errors",
    "is_discord_emoji",
    "message_body_errors",
    "modal_errors",
    "patched_discord",
    "permission_bits",
    "run_bot",
    "validate_commands",
    "validate_message_body",
    "validate_modal",
]
