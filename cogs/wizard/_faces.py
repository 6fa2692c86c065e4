"""How cards and suits are written: the bot's own application emojis, or text that stays text.

Discord draws ♠ and ♣ as its own emoji, near-black, so on its dark theme "♠10 ♣8" reads "10 8".
The bot therefore uploads its own six badges (`_emoji_art`) as *application emojis* at start-up,
once: Discord keeps them for the application (up to 2000), lets its buttons wear them without Use
External Emojis, and they survive restarts. Their names carry a version, so a redrawn set is
uploaded beside the old one, which is then deleted.

When they cannot be had (Discord refuses the upload, or the listing fails), the bot plays with
text faces instead: ♥️ and ♦️ as Discord's red emoji, and the outlined ♤ and ♧, which are not
emoji and so are drawn in the text's own colour, light on the dark theme and dark on the light.
Either way a suit is told apart by its shape as well as its colour.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from bot.engine import Card, Kind, Suit
from bot.i18n import t

if TYPE_CHECKING:
    from bot.client import WizardBot

log = logging.getLogger(__name__)

VERSION = 1  # raise when `_emoji_art` draws differently: the new set is uploaded, the old deleted
PREFIX = f"wz{VERSION}_"
_OURS = re.compile(r"wz\d+_[a-z]+")  # every version's names, to tell the emojis of ours

KIND_OF_SUIT = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"}

# The text faces. ♥️ and ♦️ are emoji (red on both themes); ♤ and ♧ are not, so they stay text.
TEXT_SUIT = {Suit.SPADES: "♤", Suit.HEARTS: "♥️", Suit.DIAMONDS: "♦️", Suit.CLUBS: "♧"}
TEXT_WIZARD = "🧙"
TEXT_JESTER = "🃏"


@dataclass(frozen=True)
class Faces:
    """The marks cards are written with: the application's emojis by kind, or none (text faces)."""

    emojis: dict[str, discord.PartialEmoji] = field(default_factory=dict)

    @property
    def drawn(self) -> bool:
        """Whether the bot's own emojis are in use."""
        return bool(self.emojis)

    def mark(self, kind: str) -> str:
        """A suit's (or the Wizard's, the Jester's) mark in text."""
        emoji = self.emojis.get(kind)
        if emoji is not None:
            return str(emoji)
        if kind == "wizard":
            return TEXT_WIZARD
        if kind == "jester":
            return TEXT_JESTER
        return TEXT_SUIT[next(suit for suit, name in KIND_OF_SUIT.items() if name == kind)]

    def suit(self, suit: Suit) -> str:
        return self.mark(KIND_OF_SUIT[suit])

    def suit_named(self, locale: str | None, suit: Suit) -> str:
        """A suit with its name: the mark alone would ask a new player to learn it."""
        return f"{self.suit(suit)} {t(locale, f'suit.{suit.value}')}"

    def card(self, locale: str | None, card: Card) -> str:
        """A card in text: its suit's mark and its number, or the Wizard's and the Jester's mark and name."""
        if card.kind is Kind.WIZARD:
            return f"{self.mark('wizard')} {t(locale, 'card.wizard')}"
        if card.kind is Kind.JESTER:
            return f"{self.mark('jester')} {t(locale, 'card.jester')}"
        assert card.suit is not None
        return f"{self.suit(card.suit)}{card.rank}"

    def button(self, locale: str | None, card: Card) -> tuple[discord.PartialEmoji | str | None, str]:
        """A card's button: its emoji and label. A button's label is plain text and cannot hold a
        custom emoji, so the drawn suit is the button's emoji; text faces put the mark in the label."""
        if card.kind is not Kind.NUMBER:
            kind = "wizard" if card.kind is Kind.WIZARD else "jester"
            return self.emojis.get(kind) or self.mark(kind), t(locale, f"card.{kind}")
        assert card.suit is not None
        emoji = self.emojis.get(KIND_OF_SUIT[card.suit])
        if emoji is not None:
            return emoji, str(card.rank)
        return None, f"{TEXT_SUIT[card.suit]} {card.rank}"

    def suit_button(self, locale: str | None, suit: Suit) -> tuple[discord.PartialEmoji | None, str]:
        """A trump choice's button: the suit's emoji and name."""
        emoji = self.emojis.get(KIND_OF_SUIT[suit])
        name = t(locale, f"suit.{suit.value}")
        return (emoji, name) if emoji is not None else (None, f"{TEXT_SUIT[suit]} {name}")


TEXT = Faces()

KINDS = (*KIND_OF_SUIT.values(), "wizard", "jester")


async def load(bot: WizardBot) -> Faces:
    """The application's card emojis, uploading those missing; the text faces if Discord will not have them."""
    if bot.application_id is None:
        return TEXT  # not logged in (a test that only looks at the commands)
    try:
        have = {emoji.name: emoji for emoji in await bot.fetch_application_emojis()}
    except discord.HTTPException as error:
        log.warning("the card emojis could not be listed (%s %s): cards are shown as text", error.status, error.code)
        return TEXT
    emojis: dict[str, discord.PartialEmoji] = {}
    for kind in KINDS:
        name = PREFIX + kind
        emoji = have.get(name)
        if emoji is None:
            from . import _emoji_art  # Pillow is loaded only on the start that uploads

            try:
                emoji = await bot.create_application_emoji(name=name, image=_emoji_art.draw(kind))
                log.info("uploaded the card emoji %s", name)
            except discord.HTTPException as error:
                # Another process of the bot may have just uploaded it (the name is taken): look again.
                emoji = next((e for e in await _listed(bot) if e.name == name), None)
                if emoji is None:
                    log.warning(
                        "the card emoji %s could not be uploaded (%s %s: %s): cards are shown as text",
                        name,
                        error.status,
                        error.code,
                        error.text,
                    )
                    return TEXT
        emojis[kind] = discord.PartialEmoji(name=emoji.name, id=emoji.id)
    for old in have.values():
        if _OURS.fullmatch(old.name) and not old.name.startswith(PREFIX):
            try:
                await old.delete()
            except discord.HTTPException as error:
                log.info("an old card emoji %s could not be deleted (%s %s)", old.name, error.status, error.code)
    return Faces(emojis)


async def _listed(bot: WizardBot) -> list[discord.Emoji]:
    try:
        return await bot.fetch_application_emojis()
    except discord.HTTPException:
        return []
