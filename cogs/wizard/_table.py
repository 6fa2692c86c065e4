"""The table: one public message per round, edited as the round goes."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine import Card, Observation, Phase, RoundResult, TrickResult, led_suit
from bot.i18n import card_name, suit_name, t, tn
from bot.manager import Player, Table

from . import _ids
from ._buttons import WizardButton
from ._look import BACK_EMOJI, COLOUR, HAND_EMOJI, button, house_rules, player_name, position


def trick_text(
    cards: Sequence[tuple[int, Card]], players: Sequence[Player], locale: str | None, winner: int | None = None
) -> str:
    """The cards of a trick with who played them; the winning card in bold."""
    parts = []
    for seat, card in cards:
        text = f"{player_name(players[seat], locale)} {card_name(locale, card)}"
        parts.append(f"**{text}**" if seat == winner else text)
    return " · ".join(parts)


def _trump_line(observation: Observation, players: Sequence[Player], locale: str | None) -> str:
    turned = observation.turned_up
    parts = [t(locale, "table.dealer", name=player_name(players[observation.dealer], locale))]
    if turned is None:
        parts.append(t(locale, "table.turned_up.none"))
    else:
        parts.append(t(locale, "table.turned_up", card=card_name(locale, turned)))
    if observation.phase is Phase.CHOOSE_TRUMP:
        parts.append(t(locale, "table.trump.pending"))
    elif observation.trump is None:
        parts.append(t(locale, "table.trump.none"))
    else:
        parts.append(t(locale, "table.trump", suit=suit_name(locale, observation.trump)))
    return " · ".join(parts)


def _turn_text(observation: Observation, players: Sequence[Player], locale: str | None) -> str:
    if observation.to_move is None:
        return t(locale, "table.game_over")
    if observation.phase is Phase.BID and observation.options.hidden_bids:
        return t(locale, "table.turn.hidden_bids")
    name = player_name(players[observation.to_move], locale)
    led = led_suit(observation.trick) if observation.phase is Phase.PLAY else None
    if led is not None:
        # The DM hands enable every card, so the table is where the suit to follow is read.
        return t(locale, "table.turn.play_follow", name=name, suit=suit_name(locale, led))
    return t(locale, f"table.turn.{observation.phase.value}", name=name)


def table_embed(table: Table, locale: str | None) -> discord.Embed:
    """The live public table: round, trump, bids, the trick in play, the last trick, the scores."""
    game = table.game
    # The public part of any seat's observation is the same; seat 0's hand is never shown here.
    observation = game.observation(0)
    players = table.players
    # Hidden bids stay hidden until all are in: the table shows only who has bid (seat 0's
    # observation knows its own bid, which must not show here).
    hidden = observation.phase is Phase.BID and game.options.hidden_bids
    bids = [bid for bid in observation.bids if bid is not None]
    if hidden:
        bid_line = t(locale, "table.bids.hidden", done=sum(observation.has_bid), players=game.players)
    else:
        bid_line = t(locale, "table.bids", total=sum(bids), tricks=observation.round)
    lines = [_trump_line(observation, players, locale), bid_line, ""]
    waiting = set(game.waiting_for())
    for seat, player in enumerate(players):
        bid = observation.bids[seat]
        marker = "▶ " if seat in waiting else ""
        if hidden:
            shown: object = "✓" if observation.has_bid[seat] else t(locale, "table.bid.none")
        else:
            shown = t(locale, "table.bid.none") if bid is None else bid
        line = tn(
            locale,
            "table.player_line",
            observation.scores[seat],
            marker=marker,
            name=player_name(player, locale),
            bid=shown,
            won=observation.tricks_won[seat],
        )
        if player.user_id in table.away:
            line += " " + t(locale, "table.away_marker")
        lines.append(line)
    rules = house_rules(game.options, locale)
    if rules:
        lines += ["", "📜 " + " · ".join(rules)]
    if table.stand_in is not None:
        seat, by = table.stand_in
        lines += ["", "🤖 " + t(locale, f"table.stand_in.{by}", name=player_name(players[seat], locale))]
    embed = discord.Embed(
        title=t(locale, "table.title", round=observation.round_position, rounds=observation.rounds),
        description="\n".join(lines),
        colour=COLOUR,
    )
    if observation.phase is Phase.PLAY:
        current = game.current_trick()
        embed.add_field(
            name=t(locale, "table.trick"),
            value=trick_text(current, players, locale) if current else t(locale, "table.trick.empty"),
            inline=False,
        )
    if observation.tricks:
        embed.add_field(
            name=t(locale, "table.last_trick"),
            value=last_trick_text(observation.tricks[-1], players, locale),
            inline=False,
        )
    embed.set_footer(text=_turn_text(observation, players, locale))
    return embed


def last_trick_text(trick: TrickResult, players: Sequence[Player], locale: str | None) -> str:
    return t(
        locale,
        "table.last_trick.won",
        cards=trick_text(trick.by_seat(), players, locale, winner=trick.winner),
        name=player_name(players[trick.winner], locale),
        card=card_name(locale, trick.winning_card),
    )


def table_view(table: Table, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        button(
            _ids.build(_ids.HandId(table.id)),
            t(locale, "table.my_hand"),
            style=discord.ButtonStyle.primary,
            emoji=HAND_EMOJI,
        )
    )
    if table.away:
        view.add_item(back_button(table, locale))
    return view


def back_button(table: Table, locale: str | None) -> WizardButton:
    return button(
        _ids.build(_ids.BackId(table.id)), t(locale, "table.back"), style=discord.ButtonStyle.success, emoji=BACK_EMOJI
    )


def round_over_embed(table: Table, result: RoundResult, last: TrickResult, locale: str | None) -> discord.Embed:
    """What a round's table message becomes when the round ends: its last trick, no buttons."""
    embed = discord.Embed(
        title=t(locale, "table.title", round=position(table, result.round), rounds=table.game.rounds),
        description=t(locale, "table.round_over", round=position(table, result.round)),
    )
    embed.add_field(name=t(locale, "table.last_trick"), value=last_trick_text(last, table.players, locale))
    return embed


def closed_table_embed(table: Table, locale: str | None, *, stopped_by: Player | None) -> discord.Embed:
    """The table of a game that ended early: who stopped it, or (it ended itself, or who stopped it
    is not known after a restart) that it is over; never whose turn it was."""
    embed = table_embed(table, locale)
    if stopped_by is not None:
        embed.set_footer(text=t(locale, "table.stopped", name=stopped_by.name))
    else:
        embed.set_footer(text=t(locale, "table.game_over"))
    return embed


# The score pad is a code block (monospaced, so its columns align), and a phone 360 pixels wide
# shows 34 of its characters on a line before it wraps one. So each player takes two lines: the
# name in full, and under it the numbers, which fit in every language (tests/bot/test_render.py).
def dm_closed_text(players: Sequence[Player], locale: str | None) -> str:
    return t(locale, "table.dm_closed", names=", ".join(f"<@{p.user_id}>" for p in players))
