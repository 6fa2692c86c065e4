"""Everything the bot draws passes the strict stand-in's checks of what Discord accepts.

Discord refuses a whole message for one bad part (an emoji it does not know, a label of 81
characters, a sixth row of buttons): the round's table would not appear and the game would stop.
These tests send every emoji the code names, and every screen of whole games in every language
and house rule, through the stand-in's validator, the same one its REST routes apply.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot import i18n
from bot.engine import Game, Options
from bot.manager import Lobby, Player, Table
from cogs.wizard import _end, _faces, _hand, _lobby, _look, _table
from cogs.wizard._look import Look
from tests.e2e.standin import DiscordError, is_discord_emoji, validate_message_body

ROOT = Path(__file__).resolve().parents[2]
# Long names, wide letters and markdown, so that the longest texts are tried too.
NAMES = ["Ann", "Bo_b*" * 6, "컴퓨터 플레이어" * 4, "Ελένη Παπαδοπούλου", "Δημήτρης", "`tick`" * 5]
VARIANTS = [
    Options(),
    Options(bids_may_not_add_up=True),
    Options(bids_may_not_add_up=True, bids_may_add_up_in_round_one=True),
    Options(hidden_bids=True),
    Options(blind_first_round=True),
    Options(rounds=5, schedule="even"),
]


def emoji_constants() -> Iterator[tuple[str, str]]:
    """Every emoji the code names for a button: the constants, and any literal given as `emoji=`."""
    for module in (_look, i18n):
        for name in sorted(vars(module)):
            value = getattr(module, name)
            if not name.endswith("_EMOJI") or (module is _look and name in vars(i18n)):
                continue  # not an emoji constant, or one _look imports from i18n
            if isinstance(value, str):
                yield f"{module.__name__}.{name}", value
            elif isinstance(value, dict):
                for key, each in value.items():
                    yield f"{module.__name__}.{name}[{key}]", each
    for path in sorted([*ROOT.joinpath("cogs").rglob("*.py"), *ROOT.joinpath("bot").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.keyword) and node.arg == "emoji" and isinstance(node.value, ast.Constant):
                value = node.value.value
                if isinstance(value, str):
                    yield f"{path.relative_to(ROOT)}:{node.value.lineno}", value


@pytest.mark.parametrize(("where", "emoji"), list(emoji_constants()))
def test_every_button_emoji_in_the_code_is_one_discord_accepts(where: str, emoji: str) -> None:
    assert is_discord_emoji(emoji), f"{where}: {emoji!r} is not an emoji Discord accepts on a button"


def test_the_validator_refuses_the_playing_card_back_that_stopped_every_game() -> None:
    # The check above is only worth something if it can fail: U+1F0A0 looks like an emoji and is not one.
    assert not is_discord_emoji("\U0001f0a0")


def check(embed: discord.Embed | None, view: discord.ui.BaseView | None, what: str) -> None:
    """Validate one message as the bot would send it; fail naming the screen and Discord's error."""
    body: dict[str, object] = {}
    if embed is not None:
        body["embeds"] = [embed.to_dict()]
    if view is not None:
        body["components"] = view.to_components()
        if isinstance(view, discord.ui.LayoutView):
            body["flags"] = 1 << 15
    try:
        validate_message_body(body, creating=True, has_files=False, known_emoji=lambda emoji_id: emoji_id >= 900)
    except DiscordError as error:
        pytest.fail(f"Discord would refuse {what}: {error}")


# The bot's own card emojis, as `_faces.load` makes them from what Discord lists (ids the stand-in knows above).
DRAWN = _faces.Faces(
    {kind: discord.PartialEmoji(name=_faces.PREFIX + kind, id=900 + k) for k, kind in enumerate(_faces.KINDS)}
)


def screens(table: Table, look: Look) -> Iterator[tuple[discord.ui.LayoutView, str]]:
    """The table and every seat's hand (the DM and a My hand copy) at this moment."""
    game = table.game
    yield _table.table_view(table, look), "the table"
    for seat in range(game.players):
        observation = game.observation(seat)
        for in_dm in (True, False):
            yield _hand.hand_view(table, observation, look, in_dm=in_dm), f"seat {seat}'s hand (in_dm={in_dm})"


@pytest.mark.parametrize("faces", [_faces.TEXT, DRAWN], ids=["text faces", "drawn faces"])
@pytest.mark.parametrize("locale", i18n.LANGUAGES)
@pytest.mark.parametrize(
    ("players", "options"), [(3, VARIANTS[0]), *((p, o) for p, o in zip((4, 5, 6, 3, 6), VARIANTS[1:], strict=True))]
)
def test_every_screen_of_a_whole_game_is_a_message_discord_accepts(
    players: int, options: Options, locale: str, faces: _faces.Faces
) -> None:
    rng = random.Random(players * 31 + len(locale))
    look = Look(locale, faces)
    people = [Player(1000 + seat, NAMES[seat]) for seat in range(players - 1)] + [Player(-1, "", computer="hard")]
    lobby = Lobby("00ab", 10, 20, people[0].user_id, options, 300, people)
    check(_lobby.lobby_embed(lobby, locale), _lobby.lobby_view(lobby, locale), "the lobby")
    game = Game(players, rng.randrange(2**32), options)
    table = Table("00ab", 10, 20, people[0].user_id, 300, people, game)
    table.away.add(people[1].user_id)  # "I'm back" buttons beside the largest hands
    table.stand_in = (1, "away")
    while not game.is_over:
        if rng.random() < 0.1 or len(game.log) == 0:
            for view, what in screens(table, look):
                check(None, view, f"{what} in round {game.round}")
        applied = game.apply(rng.choice(game.legal_actions()))
        if applied.round is not None and applied.trick is not None:
            check(_end.summary_embed(table, applied.round, locale), None, "the score pad")
            check(None, _table.round_over_view(table, applied.round, applied.trick, look), "a finished table")
            check(None, _hand.hand_over_view(table, applied.round.round, look, 0), "a finished hand")
            check(None, _hand.retired_view(table, applied.round.round, look), "a retired copy")
    check(_end.final_embed(table, locale), _end.final_view(table, locale), "the final standings")
    check(None, _table.closed_table_view(table, look, stopped_by=people[0]), "a stopped table")
