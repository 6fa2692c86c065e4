"""Where a game lives, and Discord's word that it changed: its channel or thread deleted, the bot
removed from its server, the server down for a while, its thread archived or locked.

The cog hears these from the gateway; a feed that missed the event meets them as Discord's refusals,
read here. A game whose place is gone ends (the manager stores why), its players are told once by
DM with the standings so far, and nothing is sent to that place again. A locked thread, or a server
in an outage, holds a game as a missing permission does (`_feed.Feed.blocked`), under a name of its
own. An archived thread refuses edits: the feed posts the table again instead, and the post
unarchives it (`_feed.Feed._edit_table`).
"""

from __future__ import annotations

import enum
import logging
from typing import TYPE_CHECKING

import discord

from bot.i18n import t, tn
from bot.manager import CHANNEL_GONE, SERVER_GONE, Table, placings

from . import _permissions
from ._look import COLOUR, player_name, position

if TYPE_CHECKING:
    from bot.client import WizardBot

log = logging.getLogger(__name__)

# Discord's JSON error codes about a place (Opcodes and Status Codes, "JSON Error Codes").
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
CLOSED_DMS = 50007  # also: the person shares no server with the bot any more
THREAD_ARCHIVED = 50083
THREAD_LOCKED = 160005

# What a game may wait for besides permissions: a locked thread it may not post in (without Manage
# Threads), and a server in an outage. Named in `Feed.blocked` beside the permissions.
LOCKED = "thread_locked"
SERVER_DOWN = "server_unavailable"
HOLDS = (LOCKED, SERVER_DOWN)


class Outcome(enum.Enum):
    """What a feed does with a job Discord refused for its place."""

    HOLD = "hold"  # the job waits, first in the queue, and the game with it
    DROP = "drop"  # the job is done with: the place is gone (the game's end is queued, if it ran)


def refused_there(error: discord.HTTPException, channel_id: int) -> bool:
    """Whether a refused request was one to the game's channel (not to a DM, say)."""
    url = getattr(getattr(error, "response", None), "url", None)
    path = str(getattr(url, "path", ""))
    return path.endswith(f"/channels/{channel_id}") or f"/channels/{channel_id}/" in path


def server_gone(bot: WizardBot, guild_id: int) -> bool:
    """Whether the bot was removed from a server, by its cache: it is ready, runs the shard of that
    server, and the server is not among its own (a new session's READY lists every server the bot is
    in, an outage's as unavailable)."""
    return bot.is_ready() and bot.settings.owns_guild(guild_id) and bot.get_guild(guild_id) is None


def gone_by_refusal(bot: WizardBot, table: Table, error: discord.HTTPException) -> str | None:
    """Why the game's place is gone, from a refusal of a request there; None if it is not."""
    if not refused_there(error, table.channel_id):
        return None
    if error.code == UNKNOWN_CHANNEL:
        return CHANNEL_GONE
    if error.code == MISSING_ACCESS and server_gone(bot, table.guild_id):
        return SERVER_GONE  # else it is a permission taken away: the game waits for it
    return None


def holds(
    bot: WizardBot, locked_threads: dict[int, int | None], table: Table, *, manage_threads: bool | None = None
) -> tuple[str, ...]:
    """What the game's place keeps it from being shown for now: its server down, or its thread locked
    to a bot without Manage Threads (`manage_threads`: the bot's, if an interaction just said).
    `locked_threads`: the threads Discord said are locked, with their parents when known."""
    guild = bot.get_guild(table.guild_id)
    if guild is not None and guild.unavailable:
        return (SERVER_DOWN,)
    cached = guild.get_thread(table.channel_id) if guild is not None else None
    locked = cached.locked if cached is not None else table.channel_id in locked_threads
    if not locked:
        return ()
    if manage_threads is None:
        # In the thread, or (archived, so not in the cache) in the parent it takes its permissions from.
        parent = locked_threads.get(table.channel_id) if cached is None else cached.parent_id
        where = cached or (guild.get_channel(parent) if guild is not None and parent is not None else None)
        me = guild.me if guild is not None else None
        manage_threads = where is not None and me is not None and where.permissions_for(me).manage_threads
    return () if manage_threads else (LOCKED,)


def repost_instead(error: discord.HTTPException) -> bool:
    """Whether a refused edit of the table is shown instead by posting it again: its message was
    deleted (10008), or its thread archived (50083), which a post unarchives ("Sending a message will
    automatically unarchive the thread, unless the thread has been locked")."""
    return error.code in (UNKNOWN_MESSAGE, THREAD_ARCHIVED)


def gone_embed(table: Table, reason: str, locale: str | None) -> discord.Embed:
    """What a player of a game whose place is gone is told: why it ended, and the standings so far."""
    scores = table.game.scores
    places = placings(scores)
    lines = [t(locale, f"gone.{reason}")]
    if table.game.history:
        last = position(table, table.game.history[-1].round)
        lines += ["", t(locale, "gone.standings", round=last, rounds=table.game.rounds)]
        order = sorted(range(len(scores)), key=lambda seat: (places[seat], seat))
        lines += [
            tn(locale, "final.line", scores[seat], place=places[seat], name=player_name(table.players[seat], locale))
            for seat in order
        ]
    else:
        lines += ["", t(locale, "gone.no_round")]
    return discord.Embed(title=t(locale, "gone.title"), description="\n".join(lines), colour=COLOUR)


def paused(locale: str | None, channel_id: int, lacking: tuple[str, ...]) -> str:
    """Why a running game waits, for the player who clicked: its place, else a permission."""
    if SERVER_DOWN in lacking:
        return t(locale, "places.paused.server_unavailable")
    if LOCKED in lacking:
        return t(locale, "places.paused.thread_locked", channel=channel_id)
    return _permissions.paused(locale, channel_id, lacking)
