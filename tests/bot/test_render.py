"""Rendering of the lobby, the round summary and the final standings (the table and hands: test_screens)."""

from __future__ import annotations

import discord
import pytest

from bot import i18n
from bot.engine import Game, Options, RoundResult
from bot.manager import Lobby, Player, Table
from cogs.wizard import _end, _ids, _lobby, _look

PLAYERS = [Player(1, "Ann"), Player(2, "Bo_b*"), Player(3, "Cy"), Player(4, "Di"), Player(5, "Ed"), Player(6, "Flo")]
LOCALE = "en-US"


def buttons(view: discord.ui.View | None) -> list[dict[str, object]]:
    assert view is not None
    return [child for row in view.to_components() for child in row["components"]]


def make_table(game: Game) -> Table:
    return Table("00ab", 10, 20, 1, 300, PLAYERS[: game.players], game)


def test_the_score_pad_aligns_bid_took_points_and_total_under_each_name_and_marks_exact_bids() -> None:
    result = RoundResult(2, bids=(1, 0, 2), tricks=(1, 1, 0), points=(30, -10, -20), totals=(50, -10, 0))
    pad = _end.score_pad(make_table(Game(3, 0)), result, LOCALE)
    assert pad.splitlines() == [
        "```",
        "  Bid Took Points Total",
        "Ann",
        "    1    1    +30    50 ✓",
        "Bo_b*",
        "    0    1    −10   −10",
        "Cy",
        "    2    0    −20     0",
        "```",
    ]


# The longest names a pad shows: a Discord display name is 32 characters at most, wide Korean ones
# count twice; and every computer player, whose name is longest in Greek.
LONG_NAMES = ["Maximilian the Magnificent Third", "`tick`", "한국어이름이름", "Ψ" * 32]
COMPUTERS = [Player(-1, "", computer="easy"), Player(-2, "", computer="normal"), Player(-3, "", computer="hard")]


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("names", [LONG_NAMES[:3], LONG_NAMES[3:]], ids=["3 players", "4 players"])
def test_the_score_pad_fits_a_phone_in_every_language_with_full_computer_names(language: str, names: list[str]) -> None:
    players = [*(Player(i, name) for i, name in enumerate(names, 1)), *COMPUTERS]
    table = Table("00ab", 10, 20, 1, 300, players, Game(len(players), 0))
    seats = len(players)
    # The widest values: a bid of 20 missed by 20 (−200), and a four-digit negative total.
    result = RoundResult(20, bids=(20,) * seats, tricks=(0,) * seats, points=(-200,) * seats, totals=(-1230,) * seats)

    lines = _end.score_pad(table, result, language).splitlines()[1:-1]

    # 34 columns is what a phone 360 pixels wide shows of a code block before it wraps a line.
    assert max(map(_end._width, lines)) <= _end.PAD_WIDTH
    names_shown, numbers = lines[1::2], lines[2::2]
    assert names_shown == [_look.plain_name(player, language) for player in players]
    # Every row puts the numbers in the same columns, under the headings.
    assert {_end._width(row) for row in numbers} == {_end._width(lines[0])}
    assert all(row.split() == ["20", "0", "−200", "−1230"] for row in numbers)


def test_a_name_too_wide_for_a_phone_is_cut_and_a_backtick_cannot_end_the_block() -> None:
    players = [Player(1, "가" * 32), Player(2, "`tick`"), Player(3, "Cy")]
    result = RoundResult(1, bids=(0, 0, 0), tricks=(0, 0, 1), points=(20, 20, -10), totals=(20, 20, -10))

    lines = _end.score_pad(Table("00ab", 10, 20, 1, 300, players, Game(3, 0)), result, LOCALE).splitlines()

    assert lines[2] == "가" * 16 + "…"
    assert "`" not in "".join(lines[1:-1])


def test_final_standings_share_places_and_the_win_on_a_tie() -> None:
    table = make_table(Game(4, 0))
    table.game.scores[:] = [120, 150, 150, -30]
    text = _end.final_embed(table, LOCALE).description or ""
    assert text.splitlines() == [
        "1. **Bo\\_b\\***: 150 points",
        "1. **Cy**: 150 points",
        "3. **Ann**: 120 points",
        "4. **Di**: −30 points",
        "",
        "🏆 Bo\\_b\\*, Cy share the win!",
    ]


def test_the_lobby_lists_host_players_and_options() -> None:
    lobby = Lobby("00ab", 10, 20, 1, Options(bids_may_not_add_up=True), 120, PLAYERS[:2])
    embed = _lobby.lobby_embed(lobby, LOCALE)
    fields = {field.name: field.value for field in embed.fields}
    assert fields["Host"] == "Ann"
    assert fields["Players (2/6)"] == "1. Ann\n2. Bo\\_b\\*"
    assert fields["Options"] == "Bids may not add up to the number of tricks\nTurn timer: 2 minutes"
    ids = [_ids.parse(str(b["custom_id"])) for b in buttons(_lobby.lobby_view(lobby, LOCALE))]
    assert ids == [_ids.LobbyId("00ab", op) for op in ("join", "leave", "start", "cancel", "settings")]


def panel_ops(lobby: Lobby) -> list[str]:
    ids = [_ids.parse(str(b["custom_id"])) for b in buttons(_lobby.host_panel_view(lobby, LOCALE))]
    return [button.op for button in ids if isinstance(button, _ids.LobbyId)]


EVERY_SWITCH = ["rule_add_up", "rule_round_one", "rule_hidden", "rule_blind", "rule_length"]
NO_EXCEPTION = ["rule_add_up", "rule_hidden", "rule_blind", "rule_length"]  # "…except round 1" left out
ADD = ["add_easy", "add_normal", "add_hard"]


@pytest.mark.parametrize(
    ("options", "players", "offered"),
    [
        (Options(), PLAYERS[:2], [*ADD, "rule_add_up", "rule_hidden", "rule_blind", "rule_length"]),
        (Options(bids_may_not_add_up=True), PLAYERS[:2], [*ADD, *EVERY_SWITCH]),
        (
            Options(),
            [*PLAYERS[:2], Player(-1, "", "easy")],
            [*ADD, "remove_computer", *NO_EXCEPTION],
        ),
        (Options(), [*PLAYERS[:5], Player(-1, "", "easy")], ["remove_computer", *NO_EXCEPTION]),
        (Options(), PLAYERS, NO_EXCEPTION),
    ],
    ids=["rule off: no exception to it", "rule on", "a computer to remove", "full with a computer", "full"],
)
def test_the_host_panel_offers_only_switches_that_change_something(
    options: Options, players: list[Player], offered: list[str]
) -> None:
    assert panel_ops(Lobby("00ab", 10, 20, 1, options, 120, players)) == offered


def test_the_lobby_after_start_links_to_the_table() -> None:
    lobby = Lobby("00ab", 10, 20, 1, Options(), 120, PLAYERS[:3])
    embed = _lobby.lobby_started_embed(lobby, "https://discord.com/channels/10/20/30", LOCALE)
    assert embed.title == "Wizard — the game is on"
    assert embed.description == "The game is on: [go to the table](https://discord.com/channels/10/20/30)"
    assert "forming" not in str(embed.to_dict())


# -- the steady DM hand: what the player's DM shows all round, whoever's turn it is ---------
