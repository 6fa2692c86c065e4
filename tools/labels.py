"""Every button label the bot draws, and whether a phone shows it whole.

Discord draws a button's label on one line and never wraps it: a row of buttons wraps onto more
lines instead, so a button can be as wide as the message, and a label wider than that is cut with
"…". The narrowest phone Discord is commonly used on is 360 CSS px wide (many Android phones; an
iPhone is 375 or 390). There, as tools/screens draws a phone (docs/screens.md), a message is
360 − 72 (the avatar's gutter) − 16 = 272 px wide; a button takes 16 px of padding on each side
and an emoji 1.375 em (19.25 px at the label's 14 px) with a 4 px gap; a Components V2 container
takes 16 px of padding on each side, its 1 px border and its 4 px accent bar. What is left is the
room of a label, measured in Noto Sans Medium at 14 px (Noto Sans CJK for Korean), the font
tools/screens draws with in place of Discord's gg sans, which is about as wide.

`labels(language)` builds the screens that have buttons (the lobby and the host's panel in every
state, the table, every hand of whole games with every house rule, the final standings, a
leaderboard page) as the bot sends them and reads each button back from the payload, so a new
button on those screens is measured without being listed. tests/i18n/test_button_labels.py fails
on any label wider than its room; ``python -m tools.texts --buttons`` prints them all.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

import discord
from PIL import ImageFont

from bot.engine import Game, Options, Phase
from bot.manager import Lobby, Player, Table
from bot.storage import Sort, Standing
from cogs.wizard import _end, _faces, _hand, _lobby, _look, _stats, _table

PHONE_WIDTH = 360
MESSAGE_WIDTH = PHONE_WIDTH - 72 - 16  # 272 px: the avatar's gutter on the left, 16 px on the right
CONTAINER_INSET = 2 * 16 + 1 + 4  # a container's padding, its border and its accent bar
BUTTON_PADDING = 2 * 16
FONT_SIZE = 14  # px: a button's label, in weight 500
EMOJI_WIDTH = 1.375 * FONT_SIZE + 4  # a button's emoji and the gap after it

# The bot's own card emojis, as `_faces.load` makes them (the button then shows the emoji, not a mark).
DRAWN = _faces.Faces(
    {kind: discord.PartialEmoji(name=_faces.PREFIX + kind, id=900 + k) for k, kind in enumerate(_faces.KINDS)}
)


@dataclass(frozen=True, slots=True)
class Label:
    """One button as a phone shows it: its text, whether it has an emoji, whether it is in a container."""

    text: str
    emoji: bool
    contained: bool
    where: str  # the screen it was found on

    @property
    def room(self) -> float:
        return room(emoji=self.emoji, contained=self.contained)

    @property
    def width(self) -> float:
        return width(self.text)

    @property
    def fits(self) -> bool:
        return self.width <= self.room


def room(*, emoji: bool, contained: bool) -> float:
    """How wide a label may be on a 360-px phone before Discord cuts it (px)."""
    return MESSAGE_WIDTH - (CONTAINER_INSET if contained else 0) - BUTTON_PADDING - (EMOJI_WIDTH if emoji else 0)


@functools.cache
def _font(cjk: bool) -> ImageFont.FreeTypeFont:
    if cjk:
        # The collection's second face is Noto Sans CJK KR.
        font = ImageFont.truetype(str(resources.files("manimgx_fonts_cjk") / "NotoSansCJK-VF.otf.ttc"), FONT_SIZE, 1)
    else:
        font = ImageFont.truetype(str(resources.files("manimgx_fonts") / "NotoSans[wght].ttf"), FONT_SIZE)
    font.set_variation_by_axes([500])
    return font


def _is_cjk(character: str) -> bool:
    return "\u1100" <= character <= "\u11ff" or "\u3000" <= character <= "\u9fff" or "\uac00" <= character <= "\ud7af"


def _is_emoji(character: str) -> bool:
    return character >= "\U0001f000" or "\u2600" <= character <= "\u27bf"


@functools.lru_cache(maxsize=4096)
def width(text: str) -> float:
    """A label's width in px, as a 14-px medium Noto Sans (and Noto Sans CJK) draws it; an emoji in
    a label (a text card face, "♥️ 7") is drawn 1.375 em wide, as Discord draws emoji."""
    total = 0.0
    run = ""
    kind: bool | None = None
    for character in text + "\0":
        if character == "\ufe0f":
            continue  # the emoji presentation selector takes no room of its own
        if character == "\0" or _is_emoji(character):
            if run:
                total += _font(bool(kind)).getlength(run)
            run, kind = "", None
            if character != "\0":
                total += 1.375 * FONT_SIZE
            continue
        cjk = _is_cjk(character)
        if kind is not None and cjk != kind:
            total += _font(kind).getlength(run)
            run = ""
        run += character
        kind = cjk
    return total


# -- the screens -------------------------------------------------------------------------------


def buttons(components: Iterable[Mapping[str, Any]], where: str, contained: bool = False) -> Iterator[Label]:
    """The buttons of a message's components, however nested (type 17 is a container)."""
    for component in components:
        if component.get("type") == 2 and component.get("label"):
            yield Label(str(component["label"]), bool(component.get("emoji")), contained, where)
        inner = [component["accessory"]] if "accessory" in component else []
        inner += component.get("components") or []
        yield from buttons(inner, where, contained or component.get("type") == 17)


def _of(view: discord.ui.View | discord.ui.LayoutView | None, where: str) -> Iterator[Label]:
    if view is not None:
        yield from buttons(view.to_components(), where)


PEOPLE = [Player(1000 + seat, name) for seat, name in enumerate(("Eva", "Kuba", "Ola", "Dima", "Eleni"))]
COMPUTER = Player(-1, "", computer="hard")


def _lobby_screens(language: str) -> Iterator[Label]:
    for options in (
        Options(),
        Options(bids_may_not_add_up=True, bids_may_add_up_in_round_one=True, blind_first_round=True),
        Options(hidden_bids=True, rounds=10),
    ):
        # Two people and a computer: both "Add …" and "Remove computer" are offered.
        lobby = Lobby("00ab", 10, 20, PEOPLE[0].user_id, options, 300, [*PEOPLE[:2], COMPUTER])
        yield from _of(_lobby.lobby_view(lobby, language), "the lobby")
        yield from _of(_lobby.host_panel_view(lobby, language), "the host's panel")
    for rounds, schedule in _lobby.LENGTHS:
        lobby = Lobby("00ab", 10, 20, PEOPLE[0].user_id, Options(rounds=rounds, schedule=schedule), 300, PEOPLE[:3])
        yield from _of(_lobby.host_panel_view(lobby, language), "the host's panel")


def _game_screens(language: str, faces: _faces.Faces) -> Iterator[Label]:
    """The table and the hands of whole games of six with each house rule, at every move (every card
    of the deck is dealt in the last round; a Wizard turned up lets a dealer choose the trump)."""
    look = _look.Look(language, faces)
    for seed, options in enumerate((Options(), Options(blind_first_round=True), Options(hidden_bids=True))):
        rng = random.Random(seed)
        table = Table("00ab", 10, 20, PEOPLE[0].user_id, 300, [*PEOPLE, COMPUTER], Game(6, seed, options))
        table.away.add(PEOPLE[1].user_id)  # "I'm back" on the table and on that player's hand
        game = table.game
        yield from _of(_table.table_view(table, look), "the table")
        yield from _of(_hand.hand_view(table, game.observation(1), look, ping=True), "an away player's hand")
        for step in itertools.count():
            if game.is_over:
                break
            if game.to_move is not None:
                observation = game.observation(game.to_move)
                yield from _of(_hand.hand_view(table, observation, look, ping=step % 2 == 0), "a hand")
            game.apply(rng.choice(game.legal_actions()))
        yield from _of(_end.final_view(table, language), "the final standings")
    # The first game (by seed) whose first round turns up a Wizard: its dealer chooses the trump.
    game = next(game for game in map(Game, itertools.repeat(3), itertools.count()) if game.phase is Phase.CHOOSE_TRUMP)
    table = Table("00ab", 10, 20, PEOPLE[0].user_id, 300, PEOPLE[:3], game)
    assert game.to_move is not None
    yield from _of(_hand.hand_view(table, game.observation(game.to_move), look), "a hand choosing trump")


class _Board:
    """Two pages of a leaderboard's standings: the leaderboard's own code draws its buttons."""

    async def ranked_players(self, guild_id: int, sort: Sort, season: int | None) -> int:
        return 2 * _stats.PAGE_SIZE

    async def leaderboard(self, guild_id: int, sort: Sort, offset: int, limit: int, season: int | None) -> list[Any]:
        return [Standing(offset + k + 1, k, f"P{k}", 3, 1, 40.0, 0.5, 25.0) for k in range(limit)]

    async def standing(self, guild_id: int, user_id: int, sort: Sort, season: int | None) -> None:
        return None


def _board_screens(language: str) -> Iterator[Label]:
    guild, viewer = discord.Object(1), discord.Object(2)
    guild.name = viewer.display_name = "Wizard Club"  # type: ignore[attr-defined]
    for page in (0, 1):
        coroutine = _stats.leaderboard_message(_Board(), guild, viewer, Sort.RATING, page, language)  # type: ignore[arg-type]
        _, view = asyncio.run(coroutine)
        yield from _of(view, "a leaderboard page")


@functools.cache
def labels(language: str) -> tuple[Label, ...]:
    """Every distinct button a reader of `language` can be shown, with the screen it was first seen on."""
    seen: dict[tuple[str, bool, bool], Label] = {}
    for label in (
        *_lobby_screens(language),
        *_game_screens(language, _faces.TEXT),
        *_game_screens(language, DRAWN),
        *_board_screens(language),
    ):
        seen.setdefault((label.text, label.emoji, label.contained), label)
    return tuple(seen.values())
