"""Publishing the slash commands to Discord at start-up: in one place, and only when they changed.

The commands go to one place: the server DEV_GUILD_ID names (where they appear at once, while
developing), or else globally, to every server. What they were last published as is stored in
the database, as a digest of exactly what was sent (descriptions in every language included), so
a start whose commands are unchanged sends nothing: Discord allows 200 new commands a day per
server, and every sync of global commands reaches every server. `--sync` publishes whatever the
digest says. Processes sharing a database publish one at a time (`Repository.publishing_commands`),
so a change is published once however many start together. Copies published earlier to another
server (a DEV_GUILD_ID since changed or unset) are taken back, so a server does not show every
command twice; global commands are never taken back by themselves, as a server may rely on them.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from .storage import GLOBALLY, Repository

log = logging.getLogger(__name__)

# Answers that say the bot can no longer reach a server: it left it, or it was never invited with
# the `applications.commands` scope. Nothing to take back there, then.
NO_ACCESS = (discord.Forbidden, discord.NotFound)


async def commands_digest(tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None) -> str:
    """A digest of the commands `tree.sync(guild=guild)` sends, as canonical JSON."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is not None:
        payload = [await command.get_translated_payload(tree, translator) for command in commands]
    else:
        payload = [command.to_dict(tree) for command in commands]
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _place(guild_id: int) -> str:
    return "globally" if guild_id == GLOBALLY else f"to the server {guild_id}"


async def publish_commands(
    tree: app_commands.CommandTree[Any],
    repository: Repository,
    application_id: int,
    *,
    guild_id: int | None = None,
    force: bool = False,
) -> None:
    """Publish the tree's commands globally, or to the server `guild_id` (their copy there), if what
    was published there last differs from them, or always with `force`. A failure is logged and the
    bot goes on: the commands stay as Discord has them, and the next start tries again."""
    place = GLOBALLY if guild_id is None else guild_id
    target = None if guild_id is None else discord.Object(id=guild_id)
    if target is not None:
        tree.copy_global_to(guild=target)
    digest = await commands_digest(tree, target)
    async with repository.publishing_commands():
        published = await repository.published_commands(application_id)
        for other in published:
            if other not in (place, GLOBALLY):
                await _take_back(tree, repository, application_id, other)
        if published.get(place) == digest and not force:
            log.info("the slash commands are published %s as they are: nothing to sync", _place(place))
            return
        try:
            synced = await tree.sync(guild=target)
        except app_commands.CommandSyncFailure:
            log.exception("Discord refused the slash commands")
            return
        except discord.HTTPException as error:
            log.warning(
                "could not publish the slash commands %s (%s); the next start tries again", _place(place), error
            )
            return
        await repository.save_published_commands(application_id, place, digest)
    log.info("published %d slash commands %s", len(synced), _place(place))


async def _take_back(
    tree: app_commands.CommandTree[Any], repository: Repository, application_id: int, guild_id: int
) -> None:
    """Remove the copy of the commands published to a server earlier (the tree has none for it)."""
    try:
        await tree.sync(guild=discord.Object(id=guild_id))
    except NO_ACCESS as error:
        log.info("the server %s is out of the bot's reach (%s): no copy of the commands to take back", guild_id, error)
    except discord.HTTPException as error:
        log.warning("could not take back the slash commands from the server %s (%s); the next start tries again",
                    guild_id, error)  # fmt: skip
        return
    else:
        log.info("took back the copy of the slash commands published to the server %s", guild_id)
    await repository.save_published_commands(application_id, guild_id, None)
