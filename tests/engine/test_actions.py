"""The JSON form of actions."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import Action, Bid, Card, ChooseTrump, Play, Suit, action_from_json, action_to_json


@pytest.mark.parametrize(
    ("action", "data"),
    [
        (Bid(0), {"bid": 0}),
        (Bid(20), {"bid": 20}),
        (Play(Card.parse("H12")), {"play": "H12"}),
        (Play(Card.parse("W1")), {"play": "W1"}),
        (Play(Card.parse("J4")), {"play": "J4"}),
        *((ChooseTrump(suit), {"trump": suit.value}) for suit in Suit),
    ],
)
def test_action_json_form(action: Action, data: dict[str, Any]) -> None:
    assert action_to_json(action) == data
    assert action_from_json(data) == action


def test_parsed_play_holds_the_deck_card() -> None:
    action = action_from_json({"play": "S3"})
    assert isinstance(action, Play)
    assert action.card is Card.parse("S3")


@pytest.mark.parametrize(
    "data",
    [
        pytest.param({}, id="empty"),
        pytest.param({"bid": 1, "play": "H1"}, id="two keys"),
        pytest.param({"bid": True}, id="bool bid"),
        pytest.param({"bid": "1"}, id="string bid"),
        pytest.param({"bid": 1.0}, id="float bid"),
        pytest.param({"play": 5}, id="number card"),
        pytest.param({"play": "H14"}, id="unknown card"),
        pytest.param({"trump": "X"}, id="unknown suit"),
        pytest.param({"trump": None}, id="no trump"),
        pytest.param({"pass": 0}, id="unknown key"),
        pytest.param([["bid", 1]], id="list"),
        pytest.param("bid 1", id="string"),
        pytest.param(None, id="None"),
    ],
)
def test_bad_action_json_raises_value_error(data: Any) -> None:
    with pytest.raises(ValueError, match=r"not an action|not a card|not a valid Suit"):
        action_from_json(data)


def test_actions_are_immutable() -> None:
    action = Bid(1)
    with pytest.raises(AttributeError):
        action.tricks = 2  # type: ignore[misc]
    assert action == Bid(1)
