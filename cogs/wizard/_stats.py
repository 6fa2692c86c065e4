"""/leaderboard and /stats: a server's players compared, a player's record and head-to-head; and a
season's end, announced in the channel the server picked.

The leaderboard shows the season running now, if the server has one, and else all time; a past
season and all time on request. Dates are Discord timestamps (``<t:…:D>``), which each reader's
Discord writes in their language and time zone.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from bot.guild_settings import language_override
from bot.i18n import command_text, t, tn
from bot.manager import Event, SeasonEnded
from bot.storage import HeadToHead, History, PlayerStats, Repository, SeasonRecord, Sort, Standing

from . import _ids, _permissions
from ._buttons import WizardButton
from ._look import COLOUR

if TYPE_CHECKING:
    from bot.client import WizardBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
PAGE_SIZE = 10
STANDINGS_SHOWN = 10  # the final standings a season's end shows
MOST_SEASONS = 999_999  # the season numbers the leaderboard's option takes (the page buttons' limit)
# Discord's answers that mean a channel will not take the announcement: unknown channel, no
# access, missing permissions.
REFUSED = (10003, 50001, 50013)

SORTS = [app_commands.Choice(name=command_text(f"board.sort.{sort.value}"), value=sort.value) for sort in Sort]


def _public_locale(interaction: Interaction) -> str:
    """Leaderboards and statistics are posted in the channel, so they are in the server's language:
    the one its managers chose, else its Discord locale."""
    chosen = language_override(interaction.client.guild_settings, interaction.guild_id)
    return chosen or str(interaction.guild_locale or interaction.locale)


def when(moment: float, style: str = "D") -> str:
    """A moment as a Discord timestamp: each reader sees it in their own language and time zone."""
    return f"<t:{int(moment)}:{style}>"


def season_period(locale: str | None, season: SeasonRecord) -> str:
    """When a season runs or ran: "Season 3: since 1 March 2027, ends 1 April 2027."."""
    start = when(season.started_at)
    if season.ended_at is not None:
        return t(locale, "board.season.ended", number=season.number, start=start, end=when(season.ended_at))
    if season.ends_at is not None:
        return t(locale, "board.season.running", number=season.number, start=start, end=when(season.ends_at))
    return t(locale, "board.season.open", number=season.number, start=start)


def _value(locale: str | None, sort: Sort, standing: Standing) -> str:
    if sort is Sort.WINS:
        return tn(locale, "board.value.wins", standing.wins)
    value = {Sort.RATING: standing.rating, Sort.AVG_SCORE: standing.avg_score, Sort.EXACT_RATE: standing.exact_rate}
    return t(locale, f"board.value.{sort.value}", value=value[sort] or 0.0)


def _line(locale: str | None, sort: Sort, standing: Standing) -> str:
    return t(
        locale,
        "board.line",
        rank=standing.rank,
        name=escape_markdown(standing.name),
        value=_value(locale, sort, standing),
        games=tn(locale, "board.games", standing.games),
    )


async def leaderboard_message(
    repository: Repository,
    guild: discord.Guild,
    viewer: discord.abc.User,
    sort: Sort,
    page: int,
    locale: str,
    season: SeasonRecord | None = None,
) -> tuple[discord.Embed, discord.ui.View | None]:
    """One page of the server's leaderboard, of a `season` or else of all time, with the viewer's own
    rank even when off the page."""
    number = None if season is None else season.number
    total = await repository.ranked_players(guild.id, sort, number)
    if season is None:
        title, header = t(locale, "board.title", server=guild.name), []
    else:
        title = t(locale, "board.title.season", server=guild.name, number=season.number)
        header = [season_period(locale, season), t(locale, "board.season.rule"), ""]
    if total == 0:
        empty = t(locale, "board.empty") if season is None else t(locale, "board.empty.season")
        return discord.Embed(title=title, description="\n".join([*header, empty]), colour=COLOUR), None
    pages = (total + PAGE_SIZE - 1) // PAGE_SIZE
    page = min(max(page, 0), pages - 1)
    standings = await repository.leaderboard(guild.id, sort, page * PAGE_SIZE, PAGE_SIZE, number)
    lines = [_line(locale, sort, s) for s in standings]
    embed = discord.Embed(title=title, description="\n".join([*header, *lines]), colour=COLOUR)
    mine = await repository.standing(guild.id, viewer.id, sort, number)
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
            custom_id=_ids.build(_ids.BoardId(sort.value, target, number)),
            label=label,
            style=discord.ButtonStyle.secondary,
            disabled=disabled,
        )
        view.add_item(WizardButton(button))
    return embed, view


# -- a player's record ------------------------------------------------------------------------


def history_text(locale: str, history: History) -> str:
    """A player's figures over a season or all time, a few short lines."""
    lines = [
        t(locale, "stats.games.value", games=history.games, wins=history.wins, rate=history.wins / history.games),
        t(locale, "stats.history.score", average=history.avg_score, exact=history.exact_rate),
    ]
    if history.best_score is not None:
        date = when(history.best_at) if history.best_at is not None else "—"
        lines.append(tn(locale, "stats.history.best", history.best_score, date=date))
    if history.streak > 0:
        lines.append(tn(locale, "stats.streak.wins", history.streak))
    elif history.streak < 0:
        lines.append(tn(locale, "stats.streak.losses", -history.streak))
    return "\n".join(lines)


def stats_embed(
    stats: PlayerStats | None,
    name: str,
    locale: str,
    *,
    season: SeasonRecord | None = None,
    in_season: History | None = None,
    all_time: History | None = None,
) -> discord.Embed:
    """A player's record: the running season's figures and all time's, then how their bids go."""
    title = t(locale, "stats.title", name=name)
    if stats is None:
        return discord.Embed(
            title=title, description=t(locale, "stats.none", name=escape_markdown(name)), colour=COLOUR
        )
    embed = discord.Embed(title=title, colour=COLOUR)
    if season is not None:
        embed.add_field(
            name=t(locale, "stats.season", number=season.number),
            value=history_text(locale, in_season) if in_season is not None else t(locale, "stats.season.none"),
            inline=False,
        )
    if all_time is not None:
        embed.add_field(name=t(locale, "stats.all_time"), value=history_text(locale, all_time), inline=False)
    rounds = max(stats.rounds, 1)
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


def versus_text(locale: str, versus: HeadToHead, name: str, rival: str) -> str:
    return "\n".join(
        [
            tn(locale, "stats.versus.games", versus.games),
            t(
                locale,
                "stats.versus.places",
                name=name,
                ahead=versus.ahead,
                rival=rival,
                behind=versus.behind,
                level=versus.level,
            ),
            t(locale, "stats.versus.wins", name=name, wins=versus.wins, rival=rival, rival_wins=versus.rival_wins),
            t(
                locale,
                "stats.versus.average",
                name=name,
                average=versus.points / versus.games,
                rival=rival,
                rival_average=versus.rival_points / versus.games,
            ),
        ]
    )


def versus_embed(
    names: tuple[str, str],
    locale: str,
    *,
    season: SeasonRecord | None,
    in_season: HeadToHead | None,
    all_time: HeadToHead | None,
) -> discord.Embed:
    """Two players' games together: the running season's and all time's."""
    name, rival = (escape_markdown(each) for each in names)
    title = t(locale, "stats.versus.title", name=names[0], rival=names[1])
    if all_time is None:
        return discord.Embed(
            title=title, description=t(locale, "stats.versus.none", name=name, rival=rival), colour=COLOUR
        )
    embed = discord.Embed(title=title, colour=COLOUR)
    if season is not None:
        embed.add_field(
            name=t(locale, "stats.season", number=season.number),
            value=versus_text(locale, in_season, name, rival)
            if in_season is not None
            else t(locale, "stats.versus.none_in_season"),
            inline=False,
        )
    embed.add_field(name=t(locale, "stats.all_time"), value=versus_text(locale, all_time, name, rival), inline=False)
    return embed


# -- a season's end -------------------------------------------------------------------------------


def season_end_embed(
    locale: str | None,
    server: str,
    season: SeasonRecord,
    standings: list[Standing],
    following: SeasonRecord | None,
) -> discord.Embed:
    """A season's final standings and its champion (players sharing first place are champions together)."""
    champions = [escape_markdown(standing.name) for standing in standings if standing.rank == 1]
    assert season.ended_at is not None
    lines = [
        # Not a count: first place is one player, or several who share it.
        t(
            locale,
            "season.over.champion" if len(champions) == 1 else "season.over.champions",
            names=", ".join(f"**{name}**" for name in champions),
        ),
        t(
            locale,
            "season.over.period",
            start=when(season.started_at),
            end=when(season.ended_at),
            games=tn(locale, "board.games", season.games),
        ),
        t(locale, "board.season.rule"),
    ]
    if following is not None and following.ended_at is None:  # posted late, the next may be over too
        lines.append(
            t(locale, "season.over.next", number=following.number, end=when(following.ends_at))
            if following.ends_at is not None
            else t(locale, "season.over.next.open", number=following.number)
        )
    embed = discord.Embed(
        title=t(locale, "season.over.title", number=season.number, server=server),
        description="\n".join(lines),
        colour=COLOUR,
    )
    embed.add_field(
        name=t(locale, "season.over.standings"),
        value="\n".join(_line(locale, Sort.RATING, standing) for standing in standings),
        inline=False,
    )
    return embed


class StatsCog(commands.Cog, name="Stats"):
    """Leaderboards and statistics from finished games, and the announcements of seasons' ends."""

    def __init__(self, bot: WizardBot) -> None:
        self.bot = bot
        self._announcing: set[tuple[int, int]] = set()  # the season ends being posted now
        self._waiting: set[tuple[int, int]] = set()  # those waiting for permissions, logged once
        self._tasks: set[asyncio.Task[None]] = set()
        bot.manager.subscribe(self._on_event)

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
    @app_commands.describe(
        sort=command_text("command.leaderboard.sort"),
        season=command_text("command.leaderboard.season"),
        all_time=command_text("command.leaderboard.all_time"),
    )
    @app_commands.choices(sort=SORTS)
    async def leaderboard(
        self,
        interaction: Interaction,
        sort: app_commands.Choice[str] | None = None,
        season: app_commands.Range[int, 1, MOST_SEASONS] | None = None,
        all_time: bool | None = None,
    ) -> None:
        """Show this server's best Wizard players."""
        assert interaction.guild is not None  # interaction_check
        locale = _public_locale(interaction)
        guild_id = interaction.guild.id
        if season is not None and all_time:
            await interaction.response.send_message(t(str(interaction.locale), "board.both"), ephemeral=True)
            return
        shown: SeasonRecord | None = None
        if season is not None:
            shown = await self.repository.season(guild_id, season)
            if shown is None:
                last = await self.repository.last_season(guild_id)
                refusal = (
                    t(str(interaction.locale), "board.no_seasons")
                    if last is None
                    else t(str(interaction.locale), "board.no_season", number=season, last=last.number)
                )
                await interaction.response.send_message(refusal, ephemeral=True)
                return
        elif not all_time:
            shown = await self.bot.manager.current_season(guild_id)
        order = Sort(sort.value) if sort is not None else Sort.RATING
        embed, view = await leaderboard_message(
            self.repository, interaction.guild, interaction.user, order, 0, locale, shown
        )
        await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING)

    @app_commands.command(name="stats", description=command_text("command.stats"))
    @app_commands.guild_only()
    @app_commands.describe(player=command_text("command.stats.player"), vs=command_text("command.stats.vs"))
    async def stats(
        self, interaction: Interaction, player: discord.User | None = None, vs: discord.User | None = None
    ) -> None:
        """Show a player's Wizard statistics on this server."""
        assert interaction.guild_id is not None  # interaction_check
        guild_id = interaction.guild_id
        who = player or interaction.user
        locale = _public_locale(interaction)
        season = await self.bot.manager.current_season(guild_id)
        number = None if season is None else season.number
        if vs is not None:
            if vs.id == who.id:
                await interaction.response.send_message(t(str(interaction.locale), "stats.versus.self"), ephemeral=True)
                return
            together = await self.repository.head_to_head(guild_id, who.id, vs.id)
            this_season = (
                None if number is None else await self.repository.head_to_head(guild_id, who.id, vs.id, number)
            )
            embed = versus_embed(
                (who.display_name, vs.display_name), locale, season=season, in_season=this_season, all_time=together
            )
            await interaction.response.send_message(embed=embed)
            return
        found = await self.repository.player_stats(guild_id, who.id)
        embed = stats_embed(
            found,
            who.display_name,
            locale,
            season=season,
            in_season=None if number is None else await self.repository.history(guild_id, who.id, number),
            all_time=await self.repository.history(guild_id, who.id),
        )
        await interaction.response.send_message(embed=embed)

    async def on_page(self, interaction: Interaction, button: _ids.BoardId) -> None:
        """A leaderboard page button: show that page in the same message."""
        if interaction.guild is None:  # a leaderboard is never in a DM: not one of ours
            await interaction.response.send_message(t(str(interaction.locale), "error.broken_button"), ephemeral=True)
            return
        season = None if button.season is None else await self.repository.season(interaction.guild.id, button.season)
        try:
            sort = Sort(button.sort)
        except ValueError:
            sort = None
        if sort is None or (button.season is not None and season is None):
            await interaction.response.send_message(t(str(interaction.locale), "error.broken_button"), ephemeral=True)
            return
        embed, view = await leaderboard_message(
            self.repository, interaction.guild, interaction.user, sort, button.page, _public_locale(interaction), season
        )
        await interaction.response.edit_message(embed=embed, view=view)

    # -- a season's end, posted once -----------------------------------------------------------------

    def _on_event(self, event: Event) -> None:
        if not isinstance(event, SeasonEnded):
            return
        key = (event.season.guild_id, event.season.number)
        if key in self._announcing:
            return  # being posted: the manager tells again each beat while it holds the claim
        self._announcing.add(key)
        task = asyncio.get_running_loop().create_task(self._announce(event.season))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(lambda _: self._announcing.discard(key))

    async def _announce(self, season: SeasonRecord) -> None:
        """Post a season's end and note the message; whatever fails, the end stays owed (or is given up,
        when Discord refuses the channel), and the manager asks again at a later beat."""
        try:
            posted = await self._post(season)
            if posted is not None:
                await self.bot.manager.season_announced(season, posted)
        except Exception:
            log.exception(
                "server %s: season %d's end could not be posted; trying again", season.guild_id, season.number
            )

    async def _post(self, season: SeasonRecord) -> int | None:
        """Post a season's final standings and champion in the channel its server picked: the message's
        id, 0 if it never will be (the channel is gone or closed to the bot), None to try again later.

        The post carries a nonce Discord enforces, so a post whose answer was lost (the process died,
        the connection dropped) and that is made again returns the message already posted.
        """
        guild_id, channel_id = season.guild_id, season.channel_id
        if channel_id is None:
            return 0
        if self.bot.get_guild(guild_id) is None and not self.bot.is_ready():
            await self.bot.wait_until_ready()  # restored at start-up: the cache knows the channel soon
        lacking = _permissions.blocking(_permissions.in_cache(self.bot, guild_id, channel_id) or ())
        if lacking:
            # Asking anyway would earn a 403: the end stays owed, and is posted once it is granted.
            if (guild_id, season.number) not in self._waiting:
                self._waiting.add((guild_id, season.number))
                log.warning(
                    "server %s: season %d's end waits for permissions in channel %s: %s",
                    guild_id,
                    season.number,
                    channel_id,
                    ", ".join(lacking),
                )
            return None
        guild = self.bot.get_guild(guild_id)
        chosen = language_override(self.bot.guild_settings, guild_id)
        locale = chosen or (str(guild.preferred_locale) if guild is not None else None)
        standings = await self.repository.leaderboard(guild_id, Sort.RATING, 0, STANDINGS_SHOWN, season.number)
        following = await self.repository.season(guild_id, season.number + 1)
        embed = season_end_embed(locale, guild.name if guild is not None else "", season, standings, following)
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        try:
            message = await channel.send(embed=embed, nonce=season_nonce(season))
        except discord.HTTPException as error:
            if error.status < 500 and error.code in REFUSED:
                # Refused for good: given up, so as not to ask again and again.
                log.warning(
                    "server %s: season %d's end cannot be posted in channel %s (%s %s): given up",
                    guild_id,
                    season.number,
                    channel_id,
                    error.status,
                    error.code,
                )
                return 0
            log.warning(
                "server %s: season %d's end could not be posted (%s %s); trying again",
                guild_id,
                season.number,
                error.status,
                error.code,
            )
            return None
        except (OSError, TimeoutError) as error:
            log.warning(
                "server %s: season %d's end could not be posted (%r); trying again", guild_id, season.number, error
            )
            return None
        log.info("server %s: season %d's end announced in channel %s", guild_id, season.number, channel_id)
        return message.id


def season_nonce(season: SeasonRecord) -> str:
    """The nonce of a season's end announcement: the same however often it is sent, unique to the server
    and season (Discord keeps nonces per sender, not per channel), at most 25 characters."""
    return f"ws{_base36(season.guild_id)}.{_base36(season.number)}"


def _base36(value: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        value, digit = divmod(value, 36)
        text = digits[digit] + text
        if not value:
            return text
