"""The /wizard commands and every button click: translate, call the manager, answer."""

from __future__ import annotations

import dataclasses
import io
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Game, Options, Phase, Play, RuleError, action_from_json, rules
from bot.engine.errors import Reason as RuleReason
from bot.guild_settings import DEFAULTS, SettingsError, language_override, option_overrides
from bot.i18n import command_text, duration, t
from bot.manager import CHANNEL_GONE, SERVER_GONE, GameRefused, Lobby, Player, Refusal, Table
from bot.records import game_record
from bot.storage import GameRecord

from . import _faces, _hand, _ids, _lobby, _look, _permissions, _places, _private, _round, _settings
from ._buttons import custom_ids
from ._errors import explain
from ._presenter import Presenter
from ._review import review_view
from ._stats import StatsCog

if TYPE_CHECKING:
    from bot.client import WizardBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

# The same choices as /wizard settings offers for the server's defaults.
TURN_TIMERS = _settings.TIMER_CHOICES
PING_CHOICES = [app_commands.Choice(name=command_text(f"ping.choice.{value}"), value=value) for value in ("on", "off")]
LEVELS = _settings.LEVEL_CHOICES
# A game needs one person, who opens it; the other seats may all be computer players.
MOST_COMPUTERS = rules.MAX_PLAYERS - 1
# Discord's answer to an interaction answered after its 3 seconds (or twice): "Unknown interaction".
UNKNOWN_INTERACTION = 10062
# The commands /wizard help lists, in its order (each described by its key "command.<name>");
# tests/e2e/test_help.py checks they are the commands the bot syncs.
HELP_COMMANDS = (
    "wizard.start",
    "wizard.hand",
    "wizard.pings",
    "wizard.rules",
    "wizard.stop",
    "wizard.help",
    "wizard.review",
    "wizard.settings",
    "leaderboard",
    "stats",
)


def _locale(interaction: Interaction) -> str:
    return str(interaction.locale)


def _public_locale(interaction: Interaction) -> str | None:
    """What the whole channel reads: the language the server's managers chose, else the server's locale."""
    chosen = language_override(interaction.client.guild_settings, interaction.guild_id)
    if chosen is not None:
        return chosen
    return str(interaction.guild_locale) if interaction.guild_locale else None


def _player(user: discord.abc.User) -> Player:
    return Player(user.id, user.display_name)


def switched(options: Options, op: str) -> Options:
    """The house rules after the host pressed one of the lobby's switches; ValueError if they clash."""
    if op == "rule_length":
        lengths = list(_lobby.LENGTHS)
        now = (options.rounds, options.schedule)
        rounds, schedule = lengths[(lengths.index(now) + 1) % len(lengths)] if now in lengths else lengths[0]
        return dataclasses.replace(options, rounds=rounds, schedule=schedule)
    if op == "rule_add_up":
        return dataclasses.replace(options, bids_may_not_add_up=not options.bids_may_not_add_up)
    if op == "rule_round_one":
        return dataclasses.replace(options, bids_may_add_up_in_round_one=not options.bids_may_add_up_in_round_one)
    if op == "rule_hidden":
        return dataclasses.replace(options, hidden_bids=not options.hidden_bids)
    return dataclasses.replace(options, blind_first_round=not options.blind_first_round)


def _message_link(guild_id: int, channel_id: int, message_id: int | None) -> str:
    if message_id is None:
        return f"<#{channel_id}>"
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def _with_link(error: GameRefused) -> GameRefused:
    """A refusal because the channel is busy names the lobby or game that keeps it busy, as a link."""
    existing = error.details.get("game")
    if isinstance(existing, Lobby | Table):
        message_id = existing.message_id if isinstance(existing, Lobby) else existing.table_message_id
        error.details["link"] = _message_link(existing.guild_id, existing.channel_id, message_id)
    return error


class WizardCog(commands.Cog, name="Wizard"):
    """Wizard games: lobbies, tables, hands."""

    wizard = app_commands.Group(name="wizard", description=command_text("command.wizard"), guild_only=True)

    def __init__(self, bot: WizardBot) -> None:
        self.bot = bot
        self.manager = bot.manager
        self.presenter = Presenter(bot)

    async def cog_load(self) -> None:
        # The card emojis, uploaded the first time: before any table or hand is drawn.
        self.presenter.faces = await _faces.load(self.bot)

    async def cog_unload(self) -> None:
        self.presenter.close()

    async def interaction_check(self, interaction: Interaction) -> bool:
        """Every /wizard command is for a server channel. Discord does not offer them in DMs (the
        group is guild-only); should one arrive there anyway, the person is told, not an assertion."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise app_commands.NoPrivateMessage
        return True

    async def _can_host(self, interaction: Interaction) -> bool:
        """Whether the bot may show a game in this channel (from the permissions Discord sent with
        the interaction); if not, tell the person privately what is missing and where to grant it.
        A permission the game can do without (Attach Files, for the final chart) does not stop it:
        see `_tell_what_is_left_out`."""
        lacking = _permissions.missing(interaction.app_permissions, thread=_permissions.is_thread(interaction.channel))
        if not _permissions.blocking(lacking):
            return True
        assert interaction.channel_id is not None
        text = _permissions.refusal(_locale(interaction), interaction.channel_id, lacking)
        await interaction.response.send_message(text, ephemeral=True)
        return False

    async def _tell_what_is_left_out(self, interaction: Interaction) -> None:
        """After a game opened or started: tell its host privately what the game will do without
        for a permission the channel lacks (the final chart, without Attach Files), and why."""
        lacking = _permissions.missing(interaction.app_permissions, thread=_permissions.is_thread(interaction.channel))
        left_out = tuple(name for name in lacking if name not in _permissions.blocking(lacking))
        if not left_out or interaction.channel_id is None:
            return
        text = _permissions.left_out(_locale(interaction), interaction.channel_id, left_out)
        try:
            await interaction.followup.send(text, ephemeral=True)
        except discord.HTTPException as error:
            log.warning("could not tell the host what is left out (%s %s)", error.status, error.code)

    async def _is_shown(self, interaction: Interaction, table: Table) -> bool:
        """Whether the game's channel shows it. A game whose channel lost a permission waits; a
        click finds out whether it is back (from the interaction's own permissions when it comes
        from that channel, else from the cache), and otherwise tells the clicker what is missing."""
        lacking = self.presenter.blocked(table.id)
        if not lacking:
            return True
        here = interaction.channel_id == table.channel_id
        if here:
            app = interaction.app_permissions
            missing = _permissions.missing(app, thread=_permissions.is_thread(interaction.channel))
            now = self.presenter.lacking(table, missing, manage_threads=app.manage_threads)
        else:
            now = self.presenter.lacking(table)
        if now is not None and await self.presenter.unblock(table.id, now, from_interaction=here):
            return True
        text = _places.paused(_locale(interaction), table.channel_id, now or lacking)
        await interaction.response.send_message(text, ephemeral=True)
        return False

    async def _refuse(self, interaction: Interaction, error: Exception) -> None:
        """Answer a refused (or failed) request privately, in the clicker's language.

        Whatever goes wrong here is logged and still ends in an answer: a person never sees only
        "This interaction failed".
        """
        try:
            text = explain(_locale(interaction), error, self.presenter.faces)
        except Exception:
            log.exception("could not explain %r", error)
            text = t(_locale(interaction), "error.internal")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as failed:
            log.warning("could not answer interaction %s: %s %s", interaction.id, failed.status, failed.code)

    # -- slash commands --------------------------------------------------------------------

    @wizard.command(name="start", description=command_text("command.wizard.start"))
    @app_commands.describe(
        bids_may_not_add_up=command_text("command.wizard.start.bids_may_not_add_up"),
        turn_timer=command_text("command.wizard.start.turn_timer"),
        computer_players=command_text("command.wizard.start.computer_players"),
        computer_level=command_text("command.wizard.start.computer_level"),
        bids_may_add_up_in_round_one=command_text("command.wizard.start.bids_may_add_up_in_round_one"),
        hidden_bids=command_text("command.wizard.start.hidden_bids"),
        rounds=command_text("command.wizard.start.rounds"),
        even_rounds=command_text("command.wizard.start.even_rounds"),
        blind_first_round=command_text("command.wizard.start.blind_first_round"),
    )
    @app_commands.choices(turn_timer=TURN_TIMERS)
    @app_commands.choices(computer_level=LEVELS)
    async def start(
        self,
        interaction: Interaction,
        bids_may_not_add_up: bool | None = None,
        turn_timer: app_commands.Choice[int] | None = None,
        computer_players: app_commands.Range[int, 0, MOST_COMPUTERS] = 0,
        computer_level: app_commands.Choice[str] | None = None,
        bids_may_add_up_in_round_one: bool | None = None,
        hidden_bids: bool | None = None,
        rounds: app_commands.Range[int, 1, _settings.MOST_ROUNDS] | None = None,
        even_rounds: bool | None = None,
        blind_first_round: bool | None = None,
    ) -> None:
        """Open a new game of Wizard in this channel."""
        assert interaction.guild_id is not None  # interaction_check
        assert interaction.channel_id is not None
        self.presenter.user_locales[interaction.user.id] = _locale(interaction)
        # Discord checks the options against the synced schema; checked again here, so a stale
        # schema (commands not synced since an upgrade) cannot open a lobby that makes no sense.
        for option, value, low, high in (
            ("computer_players", computer_players, 0, MOST_COMPUTERS),
            ("rounds", rounds, 1, _settings.MOST_ROUNDS),
        ):
            if value is not None and not low <= value <= high:
                text = t(_locale(interaction), "error.option_range", option=option, low=low, high=high)
                await interaction.response.send_message(text, ephemeral=True)
                return
        if not await self._can_host(interaction):
            return
        # The server's settings are the defaults; what the host gives wins over them.
        settings = self.bot.guild_settings.get(interaction.guild_id, DEFAULTS)
        if not settings.allows_channel(interaction.channel_id, getattr(interaction.channel, "parent_id", None)):
            text = _settings.channel_refusal(_locale(interaction), settings)
            await interaction.response.send_message(text, ephemeral=True)
            return
        try:
            options = settings.options_for_game(
                option_overrides(
                    bids_may_not_add_up=bids_may_not_add_up,
                    bids_may_add_up_in_round_one=bids_may_add_up_in_round_one,
                    hidden_bids=hidden_bids,
                    rounds=rounds,
                    even_rounds=even_rounds,
                    blind_first_round=blind_first_round,
                )
            )
        except SettingsError as error:
            await interaction.response.send_message(_settings.explain(_locale(interaction), error), ephemeral=True)
            return
        timer = turn_timer.value if turn_timer is not None else settings.turn_timer
        level = computer_level.value if computer_level is not None else settings.computer_level
        try:
            lobby, replaced = await self._open_lobby(
                interaction.guild_id,
                interaction.channel_id,
                _player(interaction.user),
                options,
                timer,
                computers=[level] * computer_players,
            )
        except GameRefused as error:
            await self._refuse(interaction, error)
            return
        locale = _public_locale(interaction)
        response = await interaction.response.send_message(
            t(locale, "lobby.replaced") if replaced else None,
            embed=_lobby.lobby_embed(lobby, locale),
            view=_lobby.lobby_view(lobby, locale),
        )
        if response.message_id is not None:
            await self.manager.set_lobby_message(lobby.id, response.message_id)
        await self._tell_what_is_left_out(interaction)

    async def _open_lobby(
        self, guild_id: int, channel_id: int, host: Player, options: Options, timer: float, computers: list[str]
    ) -> tuple[Lobby, bool]:
        """A new lobby, and whether it replaces one whose message was deleted (closed now: Discord does
        not tell the bot of a deleted message, its next edit finds out). GameRefused, with a link to
        the lobby or table that keeps the channel busy, if one does."""
        try:
            return await self.manager.open_lobby(guild_id, channel_id, host, options, timer, computers), False
        except GameRefused as error:
            existing = error.details.get("game")
            if error.refusal is not Refusal.CHANNEL_BUSY or not isinstance(existing, Lobby | Table):
                raise
            if await self.presenter.still_shown(existing):
                raise _with_link(error) from None
        try:
            return await self.manager.open_lobby(guild_id, channel_id, host, options, timer, computers), True
        except GameRefused as error:
            raise _with_link(error) from None  # opened by someone else meanwhile

    @wizard.command(name="stop", description=command_text("command.wizard.stop"))
    async def stop(self, interaction: Interaction) -> None:
        """End the game in this channel (host or server managers)."""
        assert interaction.channel_id is not None
        current = self.manager.in_channel(interaction.channel_id)
        if current is None and interaction.guild_id is not None:
            # The game its host cannot reach in its own channel (a thread locked to them, say).
            elsewhere = self.manager.hosted_by(interaction.user.id, interaction.guild_id)
            if elsewhere is not None:
                await self._stop_elsewhere(interaction, elsewhere)
                return
        try:
            if isinstance(current, Lobby):
                await self.manager.cancel(current.id, interaction.user.id)
                await interaction.response.send_message(t(_locale(interaction), "stop.done"), ephemeral=True)
                return
            if current is None:
                raise GameRefused(Refusal.NO_GAME)
            is_moderator = bool(interaction.permissions.manage_guild)
            await self.manager.stop(
                current.id, interaction.user.id, is_moderator=is_moderator, name=interaction.user.display_name
            )
        except (GameRefused, RuleError) as error:
            await self._refuse(interaction, error)
            return
        await interaction.response.send_message(
            t(_public_locale(interaction), "table.stopped", name=interaction.user.display_name)
        )

    async def _stop_elsewhere(self, interaction: Interaction, table: Table) -> None:
        """The host ends their game from another channel of its server; the answer is theirs alone."""
        try:
            await self.manager.stop(
                table.id, interaction.user.id, is_moderator=False, name=interaction.user.display_name
            )
        except (GameRefused, RuleError) as error:
            await self._refuse(interaction, error)
            return
        text = t(_locale(interaction), "stop.elsewhere", channel=table.channel_id)
        await interaction.response.send_message(text, ephemeral=True)

    @wizard.command(name="hand", description=command_text("command.wizard.hand"))
    async def hand(self, interaction: Interaction) -> None:
        """Show your cards and your moves privately (the same as the My hand button)."""
        assert interaction.channel_id is not None
        try:
            table = self.manager.table_for_user(interaction.channel_id, interaction.guild_id, interaction.user.id)
        except GameRefused as error:
            await self._refuse(interaction, error)
            return
        if await self._is_shown(interaction, table):
            await self._show_hand(interaction, table.id)

    @wizard.command(name="pings", description=command_text("command.wizard.pings"))
    @app_commands.describe(switch=command_text("command.wizard.pings.switch"))
    @app_commands.choices(switch=PING_CHOICES)
    async def pings(self, interaction: Interaction, switch: app_commands.Choice[str]) -> None:
        """Turn pings on or off: a short DM when your move comes, in every game (the hand's bell too)."""
        on = switch.value == "on"
        await self.manager.set_turn_ping(interaction.user.id, on)
        self.presenter.pings_changed(interaction.user.id)
        await interaction.response.send_message(
            t(_locale(interaction), "ping.now_on" if on else "ping.now_off"), ephemeral=True
        )

    @wizard.command(name="rules", description=command_text("command.wizard.rules"))
    async def rules(self, interaction: Interaction) -> None:
        """Explain the rules of Wizard in short."""
        locale = _locale(interaction)
        embed = discord.Embed(title=t(locale, "rules.title"), description=t(locale, "rules.text"), colour=_look.COLOUR)
        # The house rules of this channel's game, or else those a new game here would start with.
        current = self.manager.in_channel(interaction.channel_id) if interaction.channel_id else None
        players = None
        if isinstance(current, Lobby):
            options = current.options
        elif isinstance(current, Table):
            options, players = current.game.options, len(current.players)
        else:
            options = self.bot.guild_settings.get(interaction.guild_id or 0, DEFAULTS).options
        house = _look.house_rules(options, locale, players) or [t(locale, "option.standard")]
        embed.add_field(name=t(locale, "table.house_rules"), value="\n".join(house), inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @wizard.command(name="review", description=command_text("command.wizard.review"))
    async def review(self, interaction: Interaction) -> None:
        """Your private review of your last finished game on this server, by the coach."""
        await self._send_review(interaction, None)

    @wizard.command(name="help", description=command_text("command.wizard.help"))
    async def help(self, interaction: Interaction) -> None:
        """How a game is played here, and the commands."""
        locale = _locale(interaction)
        timer = self.bot.guild_settings.get(interaction.guild_id or 0, DEFAULTS).turn_timer
        embed = discord.Embed(
            title=t(locale, "help.title"),
            description=t(locale, "help.text", time=duration(locale, round(timer))),
            colour=_look.COLOUR,
        )
        # Each command with its own description, as Discord shows it in the reader's language.
        commands_text = "\n".join(
            f"`/{name.replace('.', ' ')}` — {t(locale, f'command.{name}')}" for name in HELP_COMMANDS
        )
        embed.add_field(name=t(locale, "help.commands"), value=commands_text, inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # -- buttons ---------------------------------------------------------------------------

    async def on_button(self, interaction: Interaction, button: _ids.ButtonId | None) -> None:
        """Every click on one of the bot's buttons arrives here, already parsed (None if damaged)."""
        self.presenter.user_locales[interaction.user.id] = _locale(interaction)
        try:
            if button is None:
                await interaction.response.send_message(t(_locale(interaction), "error.broken_button"), ephemeral=True)
            elif isinstance(button, _ids.LobbyId):
                await self._lobby_click(interaction, button)
            elif isinstance(button, _ids.HandId | _ids.BackId | _ids.ActionId) and not await self._is_shown(
                # A click on a DM hand reaches shard 0's process, which may not run the game's server.
                interaction,
                await self.manager.find_table(button.game),
            ):
                return
            elif isinstance(button, _ids.HandId):
                await self._show_hand(interaction, button.game)
            elif isinstance(button, _ids.BoardId):
                stats: StatsCog | None = self.bot.get_cog("Stats")  # type: ignore[assignment]
                if stats is not None:
                    await stats.on_page(interaction, button)
            elif isinstance(button, _ids.PingId):
                await self._ping_click(interaction, button)
            elif isinstance(button, _ids.BackId):
                await self.manager.back(button.game, interaction.user.id)
                await interaction.response.send_message(t(_locale(interaction), "back.done"), ephemeral=True)
            elif isinstance(button, _ids.RecordId):
                await self._send_record(interaction, button.game)
            elif isinstance(button, _ids.RematchId):
                await self._rematch(interaction, button.game)
            elif isinstance(button, _ids.ReviewId):
                await self._send_review(interaction, button.game)
            elif isinstance(button, _ids.ReviewPageId):
                await self._review_page(interaction, button)
            else:
                await self._action_click(interaction, button)
        except discord.NotFound as error:
            if error.code != UNKNOWN_INTERACTION:
                log.exception("button %s failed", interaction.data)
                await self._refuse(interaction, error)
                return
            # The answer came after Discord's 3 seconds: the person saw "This interaction failed".
            # What the click did is committed, and the presenter shows it (the DM hand it would
            # have edited is redrawn, since the answer did not record it as shown).
            log.warning("button %s: answered too late (10062); what it did stands", interaction.data)
        except Exception as error:
            if not isinstance(error, GameRefused | RuleError):
                log.exception("button %s failed", interaction.data)
            await self._refuse(interaction, error)

    async def _lobby_click(self, interaction: Interaction, button: _ids.LobbyId) -> None:
        locale = _public_locale(interaction)
        user = interaction.user
        # Held here, or taken now if it has just come back to this process (see `Runners`).
        await self.manager.find_lobby(button.game)
        if button.op == "join":
            lobby = await self.manager.join(button.game, _player(user))
        elif button.op == "leave":
            lobby = await self.manager.leave(button.game, user.id)
        elif button.op == "cancel":
            lobby = await self.manager.cancel(button.game, user.id)
        elif button.op == "settings":
            lobby = self.manager.lobby(button.game)
            if user.id != lobby.host_id:
                raise GameRefused(Refusal.NOT_HOST)
            private = _locale(interaction)
            await interaction.response.send_message(
                embed=_lobby.host_panel_embed(lobby, private),
                view=_lobby.host_panel_view(lobby, private),
                ephemeral=True,
            )
            return
        elif button.op in _ids.COMPUTER_OPS or button.op in _ids.RULE_OPS:
            await self._host_setting(interaction, button)
            return
        else:
            lobby = self.manager.lobby(button.game)
            if not await self._can_host(interaction):
                return
            table = await self.manager.start(button.game, user.id)
            # The table is posted next (by the presenter), which then puts its link here.
            await interaction.response.edit_message(embed=_lobby.lobby_started_embed(lobby, None, locale), view=None)
            self.presenter.link_lobby(table, lobby, interaction, locale)
            await self._tell_what_is_left_out(interaction)
            return
        if self.manager.in_channel(lobby.channel_id) is not lobby:
            # The lobby closed (cancelled, or its last player left): the presenter says so.
            await interaction.response.defer()
            return
        await interaction.response.edit_message(
            embed=_lobby.lobby_embed(lobby, locale), view=_lobby.lobby_view(lobby, locale)
        )

    async def _host_setting(self, interaction: Interaction, button: _ids.LobbyId) -> None:
        """A switch of the host's private panel: the panel and the lobby message show the change."""
        user = interaction.user
        if button.op.startswith("add_"):
            lobby = await self.manager.add_computer(button.game, user.id, button.op.removeprefix("add_"))
        elif button.op == "remove_computer":
            lobby = await self.manager.remove_computer(button.game, user.id)
        else:
            lobby = self.manager.lobby(button.game)
            try:
                options = switched(lobby.options, button.op)
            except ValueError:
                await interaction.response.send_message(t(_locale(interaction), "error.bad_options"), ephemeral=True)
                return
            lobby = await self.manager.set_options(button.game, user.id, options)
        public = _public_locale(interaction)
        embed, view = _lobby.lobby_embed(lobby, public), _lobby.lobby_view(lobby, public)
        if interaction.message is not None and interaction.message.id == lobby.message_id:
            # A lobby posted before the host's panel existed still carries the switches itself.
            await interaction.response.edit_message(embed=embed, view=view)
            return
        private = _locale(interaction)
        await interaction.response.edit_message(
            embed=_lobby.host_panel_embed(lobby, private), view=_lobby.host_panel_view(lobby, private)
        )
        if lobby.message_id is not None:
            channel = self.bot.get_partial_messageable(lobby.channel_id, guild_id=lobby.guild_id)
            try:
                await channel.get_partial_message(lobby.message_id).edit(embed=embed, view=view)
            except discord.NotFound as error:
                if error.code != _places.UNKNOWN_MESSAGE:
                    raise
                # Its message was deleted: nobody can join it any more, so it closes and frees the channel.
                await self.manager.close_lobby(lobby.id, "message_gone")
                await interaction.followup.send(t(private, "lobby.closed.message_gone"), ephemeral=True)
            except discord.HTTPException as error:
                log.warning("lobby %s: its message could not be updated (%s %s)", lobby.id, error.status, error.code)

    async def _finished_game(self, game_id: str) -> tuple[GameRecord, Game] | None:
        """A finished game from the database, rebuilt by the engine; None if it did not finish, and
        GameRefused if its rows are no longer stored."""
        repository = self.bot.repository
        stored = await repository.load_game(game_id) if repository is not None else None
        if stored is None:
            raise GameRefused(Refusal.RECORD_GONE)
        if stored.status != "finished" or stored.seed is None:
            return None
        game = Game.replay(
            len(stored.seats),
            stored.seed,
            Options.from_json(stored.options),
            [(seat, action_from_json(action)) for seat, action in stored.actions],
        )
        return stored, game

    async def _send_record(self, interaction: Interaction, game_id: str) -> None:
        """The finished game's record as a JSON file, privately to whoever asked."""
        locale = _locale(interaction)
        try:
            found = await self._finished_game(game_id)
        except GameRefused as error:
            await self._refuse(interaction, error)
            return
        if found is None:
            await interaction.response.send_message(t(locale, "record.missing"), ephemeral=True)
            return
        stored, game = found
        record = game_record(game, [seat.name for seat in stored.seats], stored.id)
        data = json.dumps(record, ensure_ascii=False, indent=1).encode()
        await interaction.response.send_message(
            t(locale, "record.sent"), file=discord.File(io.BytesIO(data), f"wizard-{stored.id}.json"), ephemeral=True
        )

    async def _send_review(self, interaction: Interaction, game_id: str | None) -> None:
        """The clicker's own review of a finished game (`game_id`, else their last one on this server),
        privately, at its summary. Working it out the first time takes seconds: the answer is deferred,
        and the review (Components V2) then comes as an edit of it."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            review = await self.manager.review(interaction.user.id, interaction.guild_id or 0, game_id)
        except GameRefused as error:
            await self._refuse(interaction, error)
            return
        await interaction.edit_original_response(view=review_view(review, self._look(interaction)))

    async def _review_page(self, interaction: Interaction, button: _ids.ReviewPageId) -> None:
        """A page button of a review: that page in place of the one shown. The review is the clicker's
        (refused if they did not play); only a private review message is turned, so a page forged onto
        another message comes as a new private one."""
        look = self._look(interaction)
        review = await self.manager.stored_review(interaction.user.id, button.game)
        if review is None:
            # Stored in an older form: it is worked out again, which takes seconds.
            await interaction.response.defer()
            review = await self.manager.review(interaction.user.id, interaction.guild_id or 0, button.game)
        answer = interaction.followup.send if interaction.response.is_done() else interaction.response.send_message
        try:
            view = review_view(review, look, button.page)
        except ValueError:
            # A page of an older layout of the review, or a forged one.
            await answer(look.t("review.no_page"), ephemeral=True)
            return
        if interaction.message is None or not interaction.message.flags.ephemeral:
            await answer(view=view, ephemeral=True)
        elif interaction.response.is_done():
            await interaction.edit_original_response(view=view)
        else:
            await interaction.response.edit_message(view=view)

    async def _rematch(self, interaction: Interaction, game_id: str) -> None:
        """A new lobby here with the same options and computer players; the other people are invited."""
        found = await self._finished_game(game_id)
        if found is None:
            raise GameRefused(Refusal.NO_GAME)
        stored, _ = found
        if not any(seat.user_id == interaction.user.id for seat in stored.seats):
            raise GameRefused(Refusal.NOT_IN_GAME)
        if interaction.guild_id is None or interaction.channel_id != stored.channel_id:
            # The button was forged onto another message: a rematch belongs where the game was.
            raise GameRefused(Refusal.STALE)
        settings = self.bot.guild_settings.get(interaction.guild_id, DEFAULTS)
        if not settings.allows_channel(interaction.channel_id, getattr(interaction.channel, "parent_id", None)):
            # A rematch is a new game: it goes only where games may be started.
            text = _settings.channel_refusal(_locale(interaction), settings)
            await interaction.response.send_message(text, ephemeral=True)
            return
        if not await self._can_host(interaction):
            return
        lobby, _ = await self._open_lobby(
            interaction.guild_id,
            interaction.channel_id,
            _player(interaction.user),
            Options.from_json(stored.options),
            stored.turn_timer,
            [seat.computer for seat in stored.seats if seat.computer is not None],
        )
        locale = _public_locale(interaction)
        others = [
            seat.user_id for seat in stored.seats if seat.computer is None and seat.user_id != interaction.user.id
        ]
        invite = t(
            locale, "rematch.invite", names=", ".join(f"<@{user}>" for user in others), join=t(locale, "lobby.join")
        )
        response = await interaction.response.send_message(
            invite,
            embed=_lobby.lobby_embed(lobby, locale),
            view=_lobby.lobby_view(lobby, locale),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user) for user in others]),
        )
        if response.message_id is not None:
            await self.manager.set_lobby_message(lobby.id, response.message_id)
        await self._tell_what_is_left_out(interaction)

    def _look(self, interaction: Interaction) -> _look.Look:
        """How the person who clicked reads their private answers."""
        return _look.Look(_locale(interaction), self.presenter.faces)

    async def _show_hand(self, interaction: Interaction, game_id: str) -> None:
        """The player's hand privately: their latest copy brought up to date where Discord allows (see
        `_private`), else a new one; every copy then follows the game until it is retired."""
        user_id = interaction.user.id
        table, observation = self.manager.hand(game_id, user_id)
        moves = len(table.game.log)
        view = _hand.hand_view(table, observation, self._look(interaction))
        shown = _hand.fingerprint(view)
        hands = self.presenter.private_hands
        round_ = table.game.round
        latest = hands.latest(game_id, user_id, round_)
        if interaction.type is discord.InteractionType.component and latest is not None:
            await interaction.response.defer()  # a deferred update of the table: no message, no change
            if await latest.edit(view=view):
                latest.shown = shown
                self.presenter.settle(table, user_id, latest.message_id, moves)
                return
            sent = await interaction.followup.send(view=view, ephemeral=True, wait=True)
            copy = _private.Copy(interaction, sent.id, round_, followup=True, shown=shown)
        else:
            response = await interaction.response.send_message(view=view, ephemeral=True)
            if response.message_id is None:
                return
            copy = _private.Copy(interaction, response.message_id, round_, shown=shown)
        self.presenter.keep_copy(table, user_id, copy)
        self.presenter.settle(table, user_id, copy.message_id, moves)

    async def _ping_click(self, interaction: Interaction, button: _ids.PingId) -> None:
        """The hand's bell: the clicker's turn pings on or off, for every game; the hand shows it.
        The button says which (an old message's bell, or a second click, sets what it says)."""
        table = await self.manager.find_table(button.game)  # a DM click may be for another shard's game
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise GameRefused(Refusal.NOT_IN_GAME)
        on = button.on
        await self.manager.set_turn_ping(interaction.user.id, on)
        message = interaction.message
        if message is None or not table.is_hand_message(interaction.user.id, message.id):
            # An older round's hand: the choice is made, and said.
            text = t(_locale(interaction), "ping.now_on" if on else "ping.now_off")
            await interaction.response.send_message(text, ephemeral=True)
            self.presenter.pings_changed(interaction.user.id)
            return
        moves = len(table.game.log)
        view = _hand.hand_view(table, table.game.observation(seat), self._look(interaction), in_dm=True, ping=on)
        await interaction.response.edit_message(view=view)
        self.presenter.note_hand_shown(table, interaction.user.id, message.id, view)
        copy = _private.Copy(interaction, message.id, table.game.round, shown=_hand.fingerprint(view))
        self.presenter.dm_hands.remember(table.id, interaction.user.id, copy)
        self.presenter.settle(table, interaction.user.id, message.id, moves)
        self.presenter.pings_changed(interaction.user.id)  # this hand shows it; their other games' too

    async def _action_click(self, interaction: Interaction, button: _ids.ActionId) -> None:
        table = self.manager.table(button.game)
        action = button.action
        if action is None:
            # The face-down card of the blind first round: the player's only card, whatever it is.
            seat = table.seat_of(interaction.user.id)
            hand = table.game.hands[seat] if seat is not None else []
            if len(hand) != 1:
                raise GameRefused(Refusal.STALE)
            action = Play(hand[0])
        look = self._look(interaction)
        try:
            applied = await self.manager.act(
                button.game, interaction.user.id, action, round=button.round, trick=button.trick
            )
        except RuleError as error:
            seat = table.seat_of(interaction.user.id)
            if error.reason is RuleReason.NOT_YOUR_TURN and seat is not None:
                # Not just "not your turn": whose it is, and how many moves until yours.
                text = _round.wait_text(look, table, table.game.observation(seat), seat)
                await interaction.response.send_message(text, ephemeral=True)
                return
            if isinstance(action, Play) and table.game.phase is Phase.BID:
                await interaction.response.send_message(t(look.locale, "error.bidding_not_over"), ephemeral=True)
                return
            raise
        message = interaction.message
        # A click in a DM is on the DM hand (its copies from My hand are in the server's channel): a
        # guest copy of the game (see `Table.guest`) may not know that round's message yet.
        in_dm = message is not None and (
            table.is_hand_message(interaction.user.id, message.id) or interaction.guild_id is None
        )
        if applied.round is not None:
            # The round ended with this card: the clicked message stays with its round, and the
            # next round's hand arrives in a new message.
            await interaction.response.edit_message(
                view=_hand.hand_over_view(table, applied.round.round, look, applied.seat)
            )
            if message is not None:
                self.presenter.note_hand_retired(table, interaction.user.id, message.id)
                if message.flags.ephemeral:
                    self.presenter.private_hands.drop_message(table.id, interaction.user.id, message.id)
            return
        # The clicked message shows the hand as it is now; the feed brings the others up to date.
        moves = len(table.game.log)
        ping = await self.manager.wants_turn_ping(interaction.user.id) if in_dm else None
        view = _hand.hand_view(table, table.game.observation(applied.seat), look, in_dm=in_dm, ping=ping)
        await interaction.response.edit_message(view=view)
        if message is None:
            return
        # This click's token edits the clicked message from now on, outside the request budget.
        copy = _private.Copy(interaction, message.id, table.game.round, shown=_hand.fingerprint(view))
        if in_dm:
            self.presenter.note_hand_shown(table, interaction.user.id, message.id, view)
            self.presenter.dm_hands.remember(table.id, interaction.user.id, copy)
        elif message.flags.ephemeral:
            self.presenter.keep_copy(table, interaction.user.id, copy)
        self.presenter.settle(table, interaction.user.id, message.id, moves)

    # -- permissions given back ------------------------------------------------------------
    # A game that waits for a permission in its channel goes on when Discord says the channel's
    # overwrites or a role changed (the guilds intent brings these events). A role given to the
    # bot itself comes as a member update, which needs the privileged members intent: that case is
    # found at the next click instead (see `_is_shown`).

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        await self.presenter.permissions_changed(after.guild.id)

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        await self.presenter.permissions_changed(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self.presenter.permissions_changed(after.guild.id)

    # -- the places games live in ----------------------------------------------------------
    # What Discord says of a game's channel, thread or server (the guilds intent brings all of it).
    # An event missed (the bot was down, say) shows as Discord's refusal of the next request there,
    # which the feed reads the same way (`_places.refused`).

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        # discord.py also sends on_raw_thread_delete for each thread of the channel it knew of.
        await self.manager.place_gone(CHANNEL_GONE, guild_id=channel.guild.id, channel_ids=[channel.id])

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.manager.place_gone(CHANNEL_GONE, guild_id=payload.guild_id, channel_ids=[payload.thread_id])

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (GUILD_DELETE without `unavailable`): not an outage."""
        await self.manager.place_gone(SERVER_GONE, guild_id=guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """A new session's READY lists every server the bot is in: one of this process's shards that it
        does not list, the bot was removed from while it was away."""
        guilds = {table.guild_id for table in self.manager.tables()} | {
            lobby.guild_id for lobby in self.manager.lobbies()
        }
        for guild_id in guilds:
            if _places.server_gone(self.bot, guild_id):
                await self.manager.place_gone(SERVER_GONE, guild_id=guild_id)

    @commands.Cog.listener()
    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        await self.presenter.places_changed(guild.id)  # an outage: its games wait

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.presenter.places_changed(guild.id)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        metadata: dict[str, Any] = dict(payload.data.get("thread_metadata") or {})
        self.presenter.thread_updated(payload.thread_id, payload.parent_id, locked=bool(metadata.get("locked")))
        await self.presenter.places_changed(payload.guild_id)

    # -- clicks that no button of ours matches -----------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Answer a click that discord.py would drop: a custom_id not of ours or not on the message.

        Without this the player sees only "This interaction failed".
        """
        if interaction.type is not discord.InteractionType.component or interaction.message is None:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        on_message = custom_id in custom_ids(interaction.message.components)
        if custom_id.startswith(_ids.PREFIX) and on_message:
            return  # WizardButton handles it
        await interaction.response.send_message(t(_locale(interaction), "error.broken_button"), ephemeral=True)
