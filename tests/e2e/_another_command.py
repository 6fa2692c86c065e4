"""An extension a test adds to the bot under test: one more slash command, as a newer version of the
bot might bring (`TEST_EXTENSIONS`, tests/e2e/_process.py)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands


@app_commands.command(name="ping", description="Answers pong.")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong", ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    bot.tree.add_command(ping)
