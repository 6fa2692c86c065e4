"""The reference for bench/recovery.py: the least a discord.py bot does to answer a button.

    python bench/_minimal_bot.py REST_BASE GATEWAY_URL   (the token in DISCORD_TOKEN)

It logs in with the guilds intent, as the bot does, and answers every click with a deferred update.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl


class Minimal(discord.Client):
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()


def main() -> None:
    discord.http.Route.BASE = sys.argv[1]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
    Minimal(intents=discord.Intents(guilds=True)).run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
