"""Every card reads at a glance: its written form names it, and no suit is drawn in Discord's dark ♠ or ♣."""

from __future__ import annotations

import io

import discord
import emoji as emoji_list
import pytest
from PIL import Image

from bot.engine import DECK, Card, Kind, Suit
from cogs.wizard import _emoji_art, _faces
from tests.e2e._reading import Face, faces
from tests.e2e.standin.emojis import MAX_IMAGE_BYTES, NAME
from tests.e2e.standin.validation import is_discord_emoji

DRAWN = _faces.Faces(
    {kind: discord.PartialEmoji(name=_faces.PREFIX + kind, id=900 + k) for k, kind in enumerate(_faces.KINDS)}
)
FACES = [pytest.param(_faces.TEXT, id="text faces"), pytest.param(DRAWN, id="drawn faces")]
# Discord draws these as its own emoji, near-black: on its dark theme they vanish (#31373D on #2B2D31).
DARK_EMOJI = ("♠", "♣")
# The backgrounds a card is read on: Discord's dark theme (chat, embed) and light theme (chat, embed).
BACKGROUNDS = {"dark chat": "#313338", "dark embed": "#2B2D31", "light chat": "#FFFFFF", "light embed": "#F2F3F5"}


@pytest.mark.parametrize("faces_", FACES)
@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_card_written_in_text_names_that_card_and_no_dark_suit(faces_: _faces.Faces, card: Card) -> None:
    text = faces_.card("en-US", card)
    assert not any(mark in text for mark in DARK_EMOJI), text
    assert faces(text) == [Face.of(card)]


@pytest.mark.parametrize("faces_", FACES)
def test_cards_that_differ_are_written_differently(faces_: _faces.Faces) -> None:
    written = {faces_.card("en-US", card) for card in DECK}
    # The four Wizards look alike, as do the four Jesters: 52 numbered cards and those two.
    assert len(written) == 52 + 2


@pytest.mark.parametrize("faces_", FACES)
@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_cards_button_shows_its_suit_by_shape_and_its_number(faces_: _faces.Faces, card: Card) -> None:
    face, label = faces_.button("en-US", card)
    if card.kind is Kind.NUMBER:
        assert card.suit is not None
        if faces_.drawn:
            # The suit is the button's emoji (a label is plain text and cannot hold a custom emoji).
            assert isinstance(face, discord.PartialEmoji)
            assert face.id == DRAWN.emojis[_faces.KIND_OF_SUIT[card.suit]].id
            assert label == str(card.rank)
        else:
            assert face is None
            assert label == f"{_faces.TEXT_SUIT[card.suit]} {card.rank}"
    else:
        name = "Wizard" if card.kind is Kind.WIZARD else "Jester"
        assert label == name
        assert face is not None
        if isinstance(face, str):
            assert is_discord_emoji(face)


def test_the_text_marks_of_spades_and_clubs_are_not_emoji_so_discord_draws_them_in_the_texts_colour() -> None:
    for suit in (Suit.SPADES, Suit.CLUBS):
        assert not emoji_list.is_emoji(_faces.TEXT_SUIT[suit])
    # Hearts and diamonds are Discord's red emoji, which read on both themes.
    for suit in (Suit.HEARTS, Suit.DIAMONDS):
        assert emoji_list.is_emoji(_faces.TEXT_SUIT[suit])
    assert len(set(_faces.TEXT_SUIT.values())) == 4


@pytest.mark.parametrize("kind", _emoji_art.KINDS)
def test_each_drawn_emoji_is_an_image_discord_takes(kind: str) -> None:
    png = _emoji_art.draw(kind)
    assert len(png) <= MAX_IMAGE_BYTES
    image = Image.open(io.BytesIO(png))
    assert (image.format, image.size, image.mode) == ("PNG", (128, 128), "RGBA")
    assert NAME.fullmatch(_faces.PREFIX + kind)


def test_the_six_drawn_emojis_differ() -> None:
    assert len({_emoji_art.draw(kind) for kind in _emoji_art.KINDS}) == 6


def _luminance(rgb: tuple[int, ...]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """WCAG's contrast ratio of two colours."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


@pytest.mark.parametrize("kind", _emoji_art.KINDS)
def test_each_symbol_stands_out_from_its_badge_as_text_does(kind: str) -> None:
    badge, _, symbol = _emoji_art.COLOURS[kind]
    assert contrast(symbol, badge) >= 4.5  # WCAG's level for normal text


@pytest.mark.parametrize("kind", _emoji_art.KINDS)
@pytest.mark.parametrize("background", BACKGROUNDS)
def test_each_badge_shows_its_edge_on_both_themes(kind: str, background: str) -> None:
    badge, rim, _ = _emoji_art.COLOURS[kind]
    edge = rim if rim is not None else badge
    assert contrast(edge, _rgb(BACKGROUNDS[background])) >= 1.5
