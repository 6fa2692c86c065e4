"""The custom_id scheme: every button round-trips, damaged ids are refused, ids fit Discord."""

from __future__ import annotations

import pytest

from bot.engine import DECK, Bid, ChooseTrump, Play, Suit
from cogs.wizard import _ids

BUTTONS: list[_ids.ButtonId] = [
    *(_ids.LobbyId("0123abcd", op) for op in _ids.LOBBY_OPS),
    _ids.HandId("0123abcd"),
    _ids.ReviewId("0123456789abcdef"),
    *(_ids.ReviewPageId("0123456789abcdef", page) for page in (0, 1, 999)),
    *(_ids.ActionId("0123abcd", 20, 19, Play(card)) for card in DECK),
    *(_ids.ActionId("ffffffff", 20, 0, Bid(n)) for n in range(21)),
    *(_ids.ActionId("0", 1, 0, ChooseTrump(suit)) for suit in Suit),
    _ids.BoardId("exact_rate", 999, None),
    _ids.BoardId("rating", 0, 1),
    _ids.BoardId("wins", 12, 999999),
]


def test_a_leaderboard_page_posted_before_seasons_is_of_all_time() -> None:
    assert _ids.parse("wz:board:wins:3") == _ids.BoardId("wins", 3, None)


@pytest.mark.parametrize("button", BUTTONS, ids=str)
def test_every_button_id_round_trips(button: _ids.ButtonId) -> None:
    assert _ids.parse(_ids.build(button)) == button


def test_the_longest_id_fits_discords_limit() -> None:
    longest = max((_ids.build(button) for button in BUTTONS), key=len)
    assert len(longest) <= _ids.MAX_LENGTH


@pytest.mark.parametrize(
    "custom_id",
    [
        "",
        "hello",
        "wz:",
        "wz:play",
        "wz:play:zz:1:0:H1",  # the game id is hexadecimal
        "wz:play:0123abcd:1:0:H14",  # no such card
        "wz:play:0123abcd:1:0:W5",
        "wz:play:0123abcd:01:0:H1",  # numbers have no leading zeros
        "wz:play:0123abcd:1:-1:H1",
        "wz:bid:0123abcd:1:0:X",
        "wz:trump:0123abcd:1:0:N",
        "wz:lobby:0123abcd:explode",
        "wz:hand:",
        "wz:review:",
        "wz:review:0123abcd:1",
        "wz:review_page:0123abcd:",
        "wz:review_page:0123abcd:01",  # numbers have no leading zeros
        "wz:review_page:0123abcd:-1",
        "wz:review_page:0123abcd:1:2",
        "wz:play:0123abcd:1:0:H1:extra",
        "wz:board:wins:0:0",  # seasons count from 1
        "wz:board:wins:0:b",
        "wz:board:wins:0:a:1",
    ],
)
def test_a_damaged_or_foreign_id_is_refused(custom_id: str) -> None:
    with pytest.raises(ValueError, match=r"button|card|bid|Suit"):
        _ids.parse(custom_id)
