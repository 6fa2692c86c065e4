"""The table: one public message per round, edited as the round goes.

Top to bottom in the order a player looks: the round and its trump; whose move it is and the suit
to follow; the trick in play; each player's bid, tricks taken and what they still need, and their
score; then, small, the last trick, the dealer and turned-up card, and (on the game's first table
only) the house rules. A V2 message (a container of text displays): custom emojis show in every
part of it, and its text is as large as a message's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.engine import RoundResult, TrickResult
from bot.manager import Player, Table

from . import _ids, _round
from ._end import score_pad
from ._look import (
    BACK_EMOJI,
    COLOUR,
    HAND_EMOJI,
    Look,
    button,
    gap,
    house_rules,
    layout,
    line,
    position,
    text,
)


def _heading(look: Look, table: Table, round_position: int) -> str:
    return look.t("table.title", round=round_position, rounds=table.game.rounds)


def table_view(table: Table, look: Look, *, buttons: bool = True) -> discord.ui.LayoutView:
    """The live public table of the round in play (`buttons` False: a copy it has replaced)."""
    # The public part of any seat's observation is the same; seat 0's hand is never shown here
    # (and `player_lines` shows no hidden bid: it is drawn for no reader).
    observation = table.game.observation(0)
    heading = f"### {_heading(look, table, observation.round_position)} · {_round.trump_text(look, table, observation)}"
    now = [_round.turn_text(look, table, observation)]
    trick = _round.trick_text(look, table, observation)
    if trick is not None:
        now.append(trick)
    small = []
    if observation.tricks:
        small.append(_round.last_trick_text(look, table, observation.tricks[-1]))
    small.append(_round.dealt_text(look, table, observation))
    if table.stand_in is not None:
        seat, by = table.stand_in
        small.append("🤖 " + look.t(f"table.stand_in.{by}", name=look.name(table.players[seat])))
    rules = house_rules(table.game.options, look.locale, len(table.players))
    if rules and observation.round_position == 1:
        # The house rules are news once: on the first table of the game (and in /wizard rules).
        small.append(look.t("table.house_rules_line", rules=" · ".join(rules)))
    container = discord.ui.Container[Any](accent_colour=COLOUR)
    container.add_item(text(heading))
    container.add_item(text("\n".join(now)))
    container.add_item(line())
    container.add_item(text("\n".join(_round.player_lines(look, table, observation))))
    container.add_item(text("\n".join(f"-# {part}" for part in small)))
    if not buttons:
        return layout(container)
    row = discord.ui.ActionRow[Any]()
    row.add_item(my_hand_button(table, look))
    if table.away:
        row.add_item(back_button(table, look))
    return layout(container, row)


def my_hand_button(table: Table, look: Look) -> discord.ui.Item[Any]:
    return button(
        _ids.build(_ids.HandId(table.id)), look.t("table.my_hand"), style=discord.ButtonStyle.primary, emoji=HAND_EMOJI
    )


def back_button(table: Table, look: Look) -> discord.ui.Item[Any]:
    return button(
        _ids.build(_ids.BackId(table.id)), look.t("table.back"), style=discord.ButtonStyle.success, emoji=BACK_EMOJI
    )


def round_over_view(table: Table, result: RoundResult, last: TrickResult | None, look: Look) -> discord.ui.LayoutView:
    """What a round's table message becomes when the round ends: the round's score pad (so the
    channel gets one message a round, not a table and a pad), and its last trick when known."""
    round_position = position(table, result.round)
    parts = [
        text(f"### {look.t('summary.title', round=round_position, rounds=table.game.rounds)}"),
        text(score_pad(table, result, look.locale)),
    ]
    if last is not None:
        parts.append(text("-# " + _round.last_trick_text(look, table, last)))
    return layout(discord.ui.Container[Any](*parts, accent_colour=COLOUR))


def closed_table_view(table: Table, look: Look, *, stopped_by: Player | None) -> discord.ui.LayoutView:
    """The table of a game that ended early: who stopped it, or (it ended itself, or who stopped it
    is not known after a restart) that it is over; never whose turn it was."""
    observation = table.game.observation(0)
    ended = look.t("table.stopped", name=stopped_by.name) if stopped_by is not None else look.t("table.game_over")
    container = discord.ui.Container[Any](
        text(f"### {_heading(look, table, observation.round_position)}"),
        text(ended),
        gap(),
        text("\n".join(_round.player_lines(look, table, observation, live=False))),
    )
    return layout(container)


def reminder_text(look: Look, user_id: int, deadline: float) -> str:
    """The channel's mention of a player whose time runs low. The time is Discord's relative
    timestamp: each reader's client writes it in their own language and units ("in 2 minutes",
    "za 2 minuty"), and keeps it counting down."""
    return look.t("table.reminder", user=user_id, when=f"<t:{int(deadline)}:R>")


def dm_closed_text(players: Sequence[Player], look: Look) -> str:
    return look.t("table.dm_closed", names=", ".join(f"<@{p.user_id}>" for p in players))
