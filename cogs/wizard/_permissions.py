"""What the bot must be allowed to do in a game's channel, and how to say what is missing.

A game shows itself through messages the bot posts in its channel: the table, the score pads, the
final standings with their chart (a file). Discord refuses each of these without the right
permission (403 50013, or 50001 without View Channel), so a game is only started where they are
granted, and a game whose channel loses one waits, safely, until it is back. The chart alone is
optional: without Attach Files a game starts, its host is told privately that the final standings
will come without their chart, and they do. Interaction answers (the lobby, every private reply)
need none of them.
"""

from __future__ import annotations

import discord

from bot.i18n import t, tn

# The channel permissions a game needs, in the order they are named to a person. In a thread,
# Send Messages in Threads stands for Send Messages (Discord checks only that one there).
NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files")
IN_THREAD = {"send_messages": "send_messages_in_threads"}
# The chart of the final standings is a file: without Attach Files the standings are shown without
# it, rather than held back, and a game starts without it.
OPTIONAL = frozenset({"attach_files"})

_THREADS = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)


def is_thread(channel: object) -> bool:
    return getattr(channel, "type", None) in _THREADS


def needed(*, thread: bool) -> tuple[str, ...]:
    """The permissions a game needs in a channel (or a thread)."""
    return tuple(IN_THREAD.get(name, name) for name in NEEDED) if thread else NEEDED


def missing(permissions: discord.Permissions, *, thread: bool) -> tuple[str, ...]:
    """Which needed permissions `permissions` lacks, in the order they are named.

    Without View Channel, and without Send Messages, Discord denies the permissions that come
    after them too (its "implicit permissions"): only the one to grant is named then; should
    another be denied as well, the next check names it.
    """
    view, send, *rest = needed(thread=thread)
    for root in (view, send):
        if not getattr(permissions, root):
            return (root,)
    return tuple(name for name in rest if not getattr(permissions, name))


def blocking(lacking: tuple[str, ...]) -> tuple[str, ...]:
    """Of the permissions a game lacks, those that stop it from being shown."""
    return tuple(name for name in lacking if name not in OPTIONAL)


def in_cache(bot: discord.Client, guild_id: int, channel_id: int) -> tuple[str, ...] | None:
    """What the bot lacks in a channel by its own cache (kept up to date by the gateway's channel,
    role and member updates); None when the cache does not know the channel."""
    guild = bot.get_guild(guild_id)
    if guild is None or guild.me is None:
        return None
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        return None
    return missing(channel.permissions_for(guild.me), thread=is_thread(channel))


def names(locale: str | None, lacking: tuple[str, ...]) -> str:
    """The permissions as Discord's settings name them, in the reader's language. The texts that name
    them are plural texts counting them: "grant it" or "grant them", "uprawnienia" or "uprawnień"."""
    return ", ".join(f"**{t(locale, f'permission.{name}')}**" for name in lacking)


def refusal(locale: str | None, channel_id: int, lacking: tuple[str, ...]) -> str:
    """Why a game cannot start here, and where a server manager grants what is missing."""
    return tn(locale, "permissions.cannot_start", len(lacking), channel=channel_id, permissions=names(locale, lacking))


def left_out(locale: str | None, channel_id: int, lacking: tuple[str, ...]) -> str:
    """What a game in the channel will do without, for the host (only the final chart, today)."""
    return tn(locale, "permissions.no_chart", len(lacking), channel=channel_id, permissions=names(locale, lacking))


def paused(locale: str | None, channel_id: int, lacking: tuple[str, ...]) -> str:
    """Why a running game waits, for the player who clicked."""
    return tn(locale, "permissions.paused", len(lacking), channel=channel_id, permissions=names(locale, lacking))
