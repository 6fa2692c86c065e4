"""What every screen shares: its reader (`Look`), colours, names, the one kind of button, the house rules."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import discord
from discord.utils import escape_markdown

from bot.engine import Card, Options, Suit
from bot.i18n import t, tn
from bot.manager import Player, Table

from ._buttons import WizardButton
from ._faces import TEXT, Faces

COLOUR = discord.Colour.dark_purple()
TURN_COLOUR = discord.Colour.green()  # a hand at its player's move: seen at a glance in the DM list
ROW_SIZE = 5

# The emojis on buttons. Discord accepts only emojis of Unicode's emoji list there (or custom
# ones): a symbol that merely looks like one, such as the playing-card back U+1F0A0, makes it
# refuse the whole message. tests/bot/test_emoji.py sends each through the strict stand-in.
HAND_EMOJI = "🎴"  # the My hand button, and the face-down card of the blind round
COMPUTER_EMOJI = "🤖"
BACK_EMOJI = "👋"
RECORD_EMOJI = "📜"
REMATCH_EMOJI = "🔁"
REVIEW_EMOJI = "🎓"  # the coach
SETTINGS_EMOJI = "⚙️"  # the lobby's button that opens the host's private panel
ON_EMOJI = "✅"  # a house-rule switch that is on
BELL_EMOJI = "🔔"  # a hand's button that asks for a DM at one's move
NO_BELL_EMOJI = "🔕"  # the same, to stop them
CYCLE_EMOJI = "🔄"  # the game-length button, which steps to the next length at each press

# Suits differ by emoji and name as well as colour, so colour-blind players can tell them apart.
SUIT_STYLE = {
    Suit.HEARTS: discord.ButtonStyle.danger,
    Suit.DIAMONDS: discord.ButtonStyle.primary,
    Suit.CLUBS: discord.ButtonStyle.success,
    Suit.SPADES: discord.ButtonStyle.secondary,
}


def player_name(player: Player, locale: str | None) -> str:
    """How a player is shown: their name, or a computer player's level in the reader's language."""
    if player.computer is not None:
        level = t(locale, f"level.{player.computer}")
        return t(locale, "computer.name", number=-player.user_id, level=level)
    return escape_markdown(player.name)


@dataclass(frozen=True, slots=True)
class Look:
    """Who reads a screen, as far as drawing it goes: their language, and the card faces the bot has."""

    locale: str | None
    faces: Faces = TEXT

    def t(self, key: str, /, **params: object) -> str:
        return t(self.locale, key, **params)

    def tn(self, key: str, n: int, /, **params: object) -> str:
        return tn(self.locale, key, n, **params)

    def name(self, player: Player) -> str:
        return player_name(player, self.locale)

    def card(self, card: Card) -> str:
        return self.faces.card(self.locale, card)


def button(
    custom_id: str,
    label: str | None,
    *,
    style: discord.ButtonStyle,
    emoji: str | discord.PartialEmoji | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> WizardButton:
    return WizardButton(
        discord.ui.Button(custom_id=custom_id, label=label, style=style, emoji=emoji, disabled=disabled), row=row
    )


# -- Components V2: the table and the hands are laid out with them --------------------------


def text(content: str) -> discord.ui.TextDisplay[Any]:
    return discord.ui.TextDisplay(content)


def line() -> discord.ui.Separator[Any]:
    return discord.ui.Separator(visible=True)


def gap() -> discord.ui.Separator[Any]:
    return discord.ui.Separator(visible=False)


def layout(*items: discord.ui.Item[Any]) -> discord.ui.LayoutView:
    """A message of components (V2), with no timeout: its buttons are `WizardButton`s, which work
    after a restart."""
    view = discord.ui.LayoutView(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def position(table: Table, round_number: int) -> int:
    """Which round of the game deals `round_number` cards (they differ in a shortened game)."""
    return table.game.round_numbers.index(round_number) + 1


def house_rules(options: Options, locale: str | None, players: int | None = None) -> list[str]:
    """The variants in force, one line each; empty for the standard rules. With the game's
    `players`, a length that is the whole game (20 rounds for three) is no shorter game."""
    lines = []
    if options.bids_may_not_add_up:
        key = "option.variant.on_but_round_one" if options.bids_may_add_up_in_round_one else "option.variant.on"
        lines.append(t(locale, key))
    if options.hidden_bids:
        lines.append(t(locale, "option.hidden_bids"))
    if options.schedule == "even":
        lines.append(t(locale, "option.even_rounds"))
    whole = players is not None and options.rounds == len(replace(options, rounds=None).round_numbers(players))
    if options.rounds is not None and not whole:
        lines.append(tn(locale, "option.rounds", options.rounds))
    if options.blind_first_round:
        lines.append(t(locale, "option.blind_first_round"))
    return lines


def plain_name(player: Player, locale: str | None) -> str:
    """A name for a code block: no markdown escapes (they would show), no backticks (they would end it)."""
    if player.computer is not None:
        return player_name(player, locale)
    return player.name.replace("`", "ˋ")
