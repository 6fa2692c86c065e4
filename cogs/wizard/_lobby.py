"""The lobby screens: the public lobby message, the host's private panel, the lobby once started or closed."""

from __future__ import annotations

from typing import Literal

import discord

from bot.engine import Options
from bot.engine.rules import MAX_PLAYERS
from bot.i18n import duration, t, tn
from bot.manager import Lobby, Table

from . import _ids
from ._look import COLOUR, COMPUTER_EMOJI, CYCLE_EMOJI, ON_EMOJI, SETTINGS_EMOJI, button, house_rules, player_name


def _players_and_options(embed: discord.Embed, lobby: Lobby, locale: str | None) -> None:
    """The fields every view of a lobby shows: who has joined, and the game's options."""
    embed.add_field(
        name=t(locale, "lobby.players", joined=len(lobby.players), most=MAX_PLAYERS),
        value="\n".join(f"{i}. {player_name(p, locale)}" for i, p in enumerate(lobby.players, 1)),
        inline=False,
    )
    embed.add_field(name=t(locale, "lobby.options"), value=options_text(lobby, locale), inline=False)


def lobby_embed(lobby: Lobby, locale: str | None) -> discord.Embed:
    embed = discord.Embed(title=t(locale, "lobby.title"), colour=COLOUR)
    host = next((p for p in lobby.players if p.user_id == lobby.host_id), lobby.players[0])
    embed.add_field(name=t(locale, "lobby.host"), value=player_name(host, locale), inline=False)
    _players_and_options(embed, lobby, locale)
    embed.set_footer(text=t(locale, "lobby.footer"))
    return embed


def options_text(lobby: Lobby | Table, locale: str | None) -> str:
    options = lobby.options if isinstance(lobby, Lobby) else lobby.game.options
    rules = house_rules(options, locale) or [t(locale, "option.standard")]
    return "\n".join([*rules, t(locale, "option.timer", time=duration(locale, round(lobby.turn_timer)))])


def lobby_view(lobby: Lobby, locale: str | None) -> discord.ui.View:
    """The buttons everyone sees: Join, Leave, and the host's Start, Cancel and settings panel."""
    view = discord.ui.View(timeout=None)
    styles = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
        "cancel": discord.ButtonStyle.danger,
        "settings": discord.ButtonStyle.secondary,
    }
    for op in _ids.PUBLIC_OPS:
        label = t(locale, f"lobby.{op}")
        emoji = SETTINGS_EMOJI if op == "settings" else None
        view.add_item(button(_ids.build(_ids.LobbyId(lobby.id, op)), label, style=styles[op], emoji=emoji))
    return view


def host_panel_embed(lobby: Lobby, locale: str | None) -> discord.Embed:
    """The host's private panel: what it is for, and the lobby's players and options as they are."""
    embed = discord.Embed(title=t(locale, "panel.title"), description=t(locale, "panel.text"), colour=COLOUR)
    _players_and_options(embed, lobby, locale)
    return embed


def host_panel_view(lobby: Lobby, locale: str | None) -> discord.ui.View:
    """The host's settings: computer players, then the house-rule switches (green when on).

    Only what would change something is offered: no computer player to add to a full lobby or to
    remove when there is none, no "…except round 1" while bids may add up anyway.
    """
    view = discord.ui.View(timeout=None)
    full = len(lobby.players) >= MAX_PLAYERS
    has_computer = any(player.computer is not None for player in lobby.players)
    for op in _ids.COMPUTER_OPS:
        if (op == "remove_computer" and not has_computer) or (op != "remove_computer" and full):
            continue
        view.add_item(
            button(
                _ids.build(_ids.LobbyId(lobby.id, op)),
                t(locale, f"lobby.{op}"),
                style=discord.ButtonStyle.secondary,
                emoji=COMPUTER_EMOJI,
                row=0,
            )
        )
    options = lobby.options
    switches = {
        "rule_add_up": options.bids_may_not_add_up,
        "rule_round_one": options.bids_may_add_up_in_round_one,
        "rule_hidden": options.hidden_bids,
        "rule_blind": options.blind_first_round,
        "rule_length": options.rounds is not None or options.schedule != "full",
    }
    for op, on in switches.items():
        if op == "rule_round_one" and not options.bids_may_not_add_up:
            continue  # an exception to a rule that is off changes nothing
        label = t(locale, f"lobby.{op}")
        # A switch says it is one: green with a tick while on. The length steps through the lengths
        # (LENGTHS) at each press: its cycling arrows say so.
        emoji = ON_EMOJI if on else None
        if op == "rule_length":
            label = t(locale, "lobby.rule_length", length=length_text(options, locale))
            emoji = CYCLE_EMOJI
        style = discord.ButtonStyle.success if on else discord.ButtonStyle.secondary
        view.add_item(button(_ids.build(_ids.LobbyId(lobby.id, op)), label, style=style, emoji=emoji, row=1))
    return view


def lobby_started_embed(lobby: Lobby, link: str | None, locale: str | None) -> discord.Embed:
    """The lobby message once the game is on: who plays, and where the table is (`link`: the table
    message's URL, once it is posted), as a short link a phone shows on one line."""
    text = t(locale, "lobby.started", link=link) if link is not None else t(locale, "lobby.started.soon")
    embed = discord.Embed(title=t(locale, "lobby.title.started"), description=text, colour=COLOUR)
    _players_and_options(embed, lobby, locale)
    return embed


# The game lengths the lobby's length switch steps through: (rounds, schedule).
LENGTHS: tuple[tuple[int | None, Literal["full", "even"]], ...] = (
    (None, "full"),
    (5, "full"),
    (10, "full"),
    (None, "even"),
)


def length_text(options: Options, locale: str | None) -> str:
    if options.schedule == "even":
        return t(locale, "length.even")
    if options.rounds is not None:
        return tn(locale, "length.first", options.rounds)
    return t(locale, "length.full")


def lobby_closed_embed(lobby: Lobby, reason: str, locale: str | None) -> discord.Embed:
    return discord.Embed(title=t(locale, "lobby.title"), description=t(locale, f"lobby.closed.{reason}"))
