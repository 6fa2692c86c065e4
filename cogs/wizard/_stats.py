"""/leaderboard and /stats: a server's players compared, and one player's record."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from bot.guild_settings import language_override
from bot.i18n import command_text, t, tn
from bot.storage import PlayerStats, Repository, Sort, Standing

from . import _ids
from ._buttons import WizardButton
from ._look import COLOUR

if TYPE_CHECKING:
    from bot.client import WizardBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
PAGE_SIZE = 10

SORTS = [app_commands.Choice(name=command_text(f"board.sort.{sort.value}"), value=sort.value) for sort in Sort]


def _public_locale(interaction: Interaction) -> str:
    """Leaderboards and statistics are posted in the channel, so they are in the server's language:
    the one its managers chose, else its Discord locale."""
    chosen = language_override(interaction.client.guild_settings, interaction.guild_id)
    return chosen or str(interaction.guild_locale or interaction.locale)


def _value(locale: str, sort: Sort, standing: Standing) -> str:
    if sort is Sort.WINS:
        return tn(locale, "board.value.wins", standing.wins)
    value = {Sort.RATING: standing.rating, Sort.AVG_SCORE: standing.avg_score, Sort.EXACT_RATE: standing.exact_rate}
    return t(locale, f"board.value.{sort.value}", value=value[sort] or 0.0)


async def leaderboard_message(
    repository: Repository, guild: discord.Guild, viewer: discord.abc.User, sort: Sort, page: int, locale: str
) -> tuple[discord.Embed, discord.ui.View | None]:
    """One page of the server's leaderboard, with the viewer's own rank even when off the page."""
    total = await repository.ranked_players(guild.id, sort)
    title = t(locale, "board.title", server=guild.name)
    if total == 0:
        return discord.Embed(title=title, description=t(locale, "board.empty"), colour=COLOUR), None
    pages = (total + PAGE_SIZE - 1) // PAGE_SIZE
    page = min(max(page, 0), pages - 1)
    standings = await repository.leaderboard(guild.id, sort, page * PAGE_SIZE, PAGE_SIZE)
    lines = [
        t(
            locale,
            "board.line",
            rank=s.rank,
            name=escape_markdown(s.name),
            value=_value(locale, sort, s),
            games=tn(locale, "board.games", s.games),
        )
        for s in standings
    ]
    embed = discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)
    mine = await repository.standing(guild.id, viewer.id, sort)
    you = (
        t(locale, "board.you", name=viewer.display_name, rank=mine.rank)
        if mine is not None
        else t(locale, "board.you.unranked", name=viewer.display_name)
    )
    sorted_by = t(locale, "board.sorted", sort=t(locale, f"board.sort.{sort.value}"), page=page + 1, pages=pages)
    embed.set_footer(text=f"{sorted_by} · {you}")
    if pages == 1:
        return embed, None
    view = discord.ui.View(timeout=None)
    # The two buttons point at different pages (a disabled one at the page it stands at), since
    # Discord refuses a message whose buttons share a custom_id.
    for label, target, disabled in (
        (t(locale, "board.previous"), max(page - 1, 0), page == 0),
        (t(locale, "board.next"), min(page + 1, pages - 1), page == pages - 1),
    ):
        button = discord.ui.Button[Any](
            custom_id=_ids.build(_ids.BoardId(sort.value, target)),
            label=label,
            style=discord.ButtonStyle.secondary,
            disabled=disabled,
        )
        view.add_item(WizardButton(button))
    return embed, view


def stats_embed(stats: PlayerStats | None, name: str, locale: str) -> discord.Embed:
    title = t(locale, "stats.title", name=name)
    if stats is None:
        return discord.Embed(
            title=title, description=t(locale, "stats.none", name=escape_markdown(name)), colour=COLOUR
        )
    embed = discord.Embed(title=title, colour=COLOUR)
    rounds = max(stats.rounds, 1)
    embed.add_field(
        name=t(locale, "stats.games"),
        inline=False,
        value=t(locale, "stats.games.value", games=stats.games, wins=stats.wins, rate=stats.wins / max(stats.games, 1)),
    )
    embed.add_field(
        name=t(locale, "stats.score"),
        inline=False,
        value=t(locale, "stats.score.value", average=stats.avg_score, best=stats.best_score),
    )
    embed.add_field(
        name=t(locale, "stats.bids"),
        inline=False,
        value=t(
            locale,
            "stats.bids.value",
            exact=stats.exact / rounds,
            over=stats.over / rounds,
            under=stats.under / rounds,
            rounds=tn(locale, "stats.rounds", stats.rounds),
        ),
    )
    rating = (
        t(locale, "stats.rating.none") if stats.rating is None else t(locale, "stats.rating.value", rating=stats.rating)
    )
    embed.add_field(name=t(locale, "stats.rating"), value=rating, inline=False)
    if stats.by_hand_size:
        lines = [
            t(
                locale,
                "stats.by_size.line",
                cards=tn(locale, "stats.cards", size),
                rate=exact / played,
                rounds=tn(locale, "stats.rounds", played),
            )
            for size, played, exact in stats.by_hand_size
        ]
        embed.add_field(name=t(locale, "stats.by_size"), value="\n".join(lines), inline=False)
    return embed


class StatsCog(commands.Cog, name="Stats"):
    """Leaderboards and statistics from finished games."""

    def __init__(self, bot: WizardBot) -> None:
        self.bot = bot

    @property
    def repository(self) -> Repository:
        assert self.bot.repository is not None
        return self.bot.repository

    async def interaction_check(self, interaction: Interaction) -> bool:
        """Leaderboards are per server: Discord does not offer these commands in DMs (guild-only);
        should one arrive there anyway, the person is told, not an assertion."""
        if interaction.guild is None:
            raise app_commands.NoPrivateMessage
        return True

    @app_commands.command(name="leaderboard", description=command_text("command.leaderboard"))
    @app_commands.guild_only()
    @app_commands.describe(sort=command_text("command.leaderboard.sort"))
    @app_commands.choices(sort=SORTS)
    async def leaderboard(self, interaction: Interaction, sort: app_commands.Choice[str] | None = None) -> None:
        """Show this server's best Wizard players."""
        assert interaction.guild is not None  # interaction_check
        order = Sort(sort.value) if sort is not None else Sort.RATING
        embed, view = await leaderboard_message(
            self.repository, interaction.guild, interaction.user, order, 0, _public_locale(interaction)
        )
        await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING)

    @app_commands.command(name="stats", description=command_text("command.stats"))
    @app_commands.guild_only()
    @app_commands.describe(player=command_text("command.stats.player"))
    async def stats(self, interaction: Interaction, player: discord.User | None = None) -> None:
        """Show a player's Wizard statistics on this server."""
        assert interaction.guild_id is not None  # interaction_check
        who = player or interaction.user
        found = await self.repository.player_stats(interaction.guild_id, who.id)
        await interaction.response.send_message(embed=stats_embed(found, who.display_name, _public_locale(interaction)))

    async def on_page(self, interaction: Interaction, button: _ids.BoardId) -> None:
        """A leaderboard page button: show that page in the same message."""
        if interaction.guild is None:  # a leaderboard is never in a DM: not one of ours
            await interaction.response.send_message(t(str(interaction.locale), "error.broken_button"), ephemeral=True)
            return
        try:
            sort = Sort(button.sort)
        except ValueError:
            await interaction.response.send_message(t(str(interaction.locale), "error.broken_button"), ephemeral=True)
            return
        embed, view = await leaderboard_message(
            self.repository, interaction.guild, interaction.user, sort, button.page, _public_locale(interaction)
        )
        await interaction.response.edit_message(embed=embed, view=view)
