"""A server's settings as a value: what it accepts, what it refuses and why, and how a game's options
are laid over its defaults."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import Options
from bot.guild_settings import (
    DEFAULTS,
    MAX_CHANNELS,
    GuildSettings,
    Problem,
    SettingsError,
    language_override,
    option_overrides,
)
from bot.i18n import LANGUAGES
from bot.manager import DEFAULT_TURN_TIMER, MAX_TURN_TIMER, MIN_TURN_TIMER

HIDDEN = GuildSettings(options=Options(hidden_bids=True))
NO_ADD_UP = GuildSettings(options=Options(bids_may_not_add_up=True))
EVEN = GuildSettings(options=Options(schedule="even"))


def test_the_defaults_are_those_of_a_server_that_never_set_any() -> None:
    assert GuildSettings() == DEFAULTS
    assert DEFAULTS.options == Options()
    assert DEFAULTS.turn_timer == DEFAULT_TURN_TIMER
    assert DEFAULTS.computer_level == "normal"
    assert DEFAULTS.language is None
    assert DEFAULTS.channels == ()


@pytest.mark.parametrize(
    ("start", "changes", "expected"),
    [
        (DEFAULTS, {"hidden_bids": True}, GuildSettings(options=Options(hidden_bids=True))),
        (DEFAULTS, {"rounds": 5, "schedule": "even"}, GuildSettings(options=Options(rounds=5, schedule="even"))),
        (GuildSettings(options=Options(rounds=5)), {"rounds": None}, DEFAULTS),
        (
            DEFAULTS,
            {"bids_may_not_add_up": True, "bids_may_add_up_in_round_one": True},
            GuildSettings(options=Options(bids_may_not_add_up=True, bids_may_add_up_in_round_one=True)),
        ),
        # Switching one rule off and the clashing one on in the same change is fine.
        (HIDDEN, {"hidden_bids": False, "bids_may_not_add_up": True}, NO_ADD_UP),
        (EVEN, {"schedule": "full", "blind_first_round": True}, GuildSettings(options=Options(blind_first_round=True))),
        (DEFAULTS, {"turn_timer": MIN_TURN_TIMER}, GuildSettings(turn_timer=MIN_TURN_TIMER)),
        (DEFAULTS, {"turn_timer": MAX_TURN_TIMER}, GuildSettings(turn_timer=MAX_TURN_TIMER)),
        (DEFAULTS, {"turn_timer": 90.5}, GuildSettings(turn_timer=90.5)),
        (DEFAULTS, {"computer_level": "hard"}, GuildSettings(computer_level="hard")),
        (DEFAULTS, {"language": "cs"}, GuildSettings(language="cs")),
        (GuildSettings(language="ko"), {"language": None}, DEFAULTS),
        (DEFAULTS, {"channels": (3, 1, 3, 2)}, GuildSettings(channels=(3, 1, 2))),  # no repeats, order kept
        (DEFAULTS, {}, DEFAULTS),
    ],
)
def test_changes_that_are_accepted(start: GuildSettings, changes: dict[str, Any], expected: GuildSettings) -> None:
    assert start.with_changes(**changes) == expected


@pytest.mark.parametrize(
    ("start", "changes", "problem", "details"),
    [
        (DEFAULTS, {"hidden_bids": True, "bids_may_not_add_up": True}, Problem.HIDDEN_BIDS, {}),
        (HIDDEN, {"bids_may_not_add_up": True}, Problem.HIDDEN_BIDS, {}),
        (NO_ADD_UP, {"hidden_bids": True}, Problem.HIDDEN_BIDS, {}),
        (DEFAULTS, {"blind_first_round": True, "schedule": "even"}, Problem.BLIND_EVEN, {}),
        (EVEN, {"blind_first_round": True}, Problem.BLIND_EVEN, {}),
        (GuildSettings(options=Options(blind_first_round=True)), {"schedule": "even"}, Problem.BLIND_EVEN, {}),
        (DEFAULTS, {"rounds": 21}, Problem.ROUNDS, {"n": 20}),
        (DEFAULTS, {"rounds": 0}, Problem.ROUNDS, {"n": 20}),
        # Three players have only 10 even rounds, so no default may ask for more.
        (EVEN, {"rounds": 11}, Problem.ROUNDS, {"n": 10}),
        (GuildSettings(options=Options(rounds=15)), {"schedule": "even"}, Problem.ROUNDS, {"n": 10}),
        (DEFAULTS, {"schedule": "odd"}, Problem.OPTIONS, {}),
        (DEFAULTS, {"hidden_bids": "yes"}, Problem.OPTIONS, {}),
        (DEFAULTS, {"turn_timer": MIN_TURN_TIMER - 1}, Problem.TIMER, {"low": MIN_TURN_TIMER, "high": MAX_TURN_TIMER}),
        (DEFAULTS, {"turn_timer": MAX_TURN_TIMER + 1}, Problem.TIMER, {"low": MIN_TURN_TIMER, "high": MAX_TURN_TIMER}),
        (DEFAULTS, {"turn_timer": True}, Problem.TIMER, {"low": MIN_TURN_TIMER, "high": MAX_TURN_TIMER}),
        (DEFAULTS, {"turn_timer": "300"}, Problem.TIMER, {"low": MIN_TURN_TIMER, "high": MAX_TURN_TIMER}),
        (DEFAULTS, {"computer_level": "random"}, Problem.LEVEL, {"level": "random"}),
        (DEFAULTS, {"language": "de"}, Problem.LANGUAGE, {"language": "de"}),
        (DEFAULTS, {"language": "en-US"}, Problem.LANGUAGE, {"language": "en-US"}),
        (DEFAULTS, {"channels": tuple(range(MAX_CHANNELS + 1))}, Problem.CHANNELS, {"n": MAX_CHANNELS}),
    ],
)
def test_changes_that_are_refused_say_why(
    start: GuildSettings, changes: dict[str, Any], problem: Problem, details: dict[str, object]
) -> None:
    with pytest.raises(SettingsError) as refused:
        start.with_changes(**changes)
    assert refused.value.problem is problem
    assert refused.value.details == details
    assert isinstance(refused.value, ValueError)


def test_an_unknown_setting_is_a_programming_error() -> None:
    with pytest.raises(TypeError, match="colour"):
        DEFAULTS.with_changes(colour="blue")


def test_settings_are_checked_when_made_too() -> None:
    with pytest.raises(SettingsError) as refused:
        GuildSettings(options=Options(rounds=12, schedule="even"))
    assert refused.value.problem is Problem.ROUNDS
    with pytest.raises(SettingsError):
        GuildSettings(turn_timer=5)
    with pytest.raises(ValueError, match="channel ids"):
        GuildSettings(channels=("general",))  # type: ignore[arg-type]


def test_every_language_with_a_catalog_may_be_chosen() -> None:
    assert {DEFAULTS.with_changes(language=language).language for language in LANGUAGES} == set(LANGUAGES)
    assert set(LANGUAGES) >= {"en", "cs", "pl", "ru", "ko", "el"}


# -- channels ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("channels", "change", "expected"),
    [
        ((), {"allow": 1}, (1,)),
        ((1,), {"allow": 2}, (1, 2)),
        ((1, 2), {"allow": 1}, (1, 2)),
        ((1, 2), {"forbid": 1}, (2,)),
        ((1, 2), {"forbid": 3}, (1, 2)),
        ((1,), {"forbid": 1}, ()),  # the last one taken off: any channel again
        ((1, 2), {"clear": True}, ()),
        ((1, 2), {"clear": True, "allow": 3}, (3,)),
        ((1, 2), {"allow": 3, "forbid": 1}, (2, 3)),
        ((1, 2), {"allow": 3, "forbid": 3}, (1, 2)),
        ((1, 2), {}, (1, 2)),
    ],
)
def test_allowing_and_forbidding_channels(
    channels: tuple[int, ...], change: dict[str, Any], expected: tuple[int, ...]
) -> None:
    assert GuildSettings(channels=channels).with_channels(**change).channels == expected


def test_no_more_channels_than_the_most_can_be_allowed() -> None:
    full = GuildSettings(channels=tuple(range(1, MAX_CHANNELS + 1)))
    with pytest.raises(SettingsError) as refused:
        full.with_channels(allow=MAX_CHANNELS + 1)
    assert refused.value.problem is Problem.CHANNELS
    assert full.with_channels(allow=1) == full


@pytest.mark.parametrize(
    ("channels", "channel", "parent", "allowed"),
    [
        ((), 5, None, True),
        ((5,), 5, None, True),
        ((5, 6), 6, None, True),
        ((5,), 7, None, False),
        ((5,), 7, 5, True),  # a thread in an allowed channel
        ((5,), 7, 8, False),
    ],
)
def test_which_channels_allow_a_new_game(
    channels: tuple[int, ...], channel: int, parent: int | None, allowed: bool
) -> None:
    assert GuildSettings(channels=channels).allows_channel(channel, parent) is allowed


# -- a game's options over the defaults -----------------------------------------------------------


@pytest.mark.parametrize(
    ("defaults", "given", "expected"),
    [
        (DEFAULTS, {}, Options()),
        (HIDDEN, {}, Options(hidden_bids=True)),
        (HIDDEN, {"rounds": 3}, Options(hidden_bids=True, rounds=3)),
        (HIDDEN, {"hidden_bids": False}, Options()),
        (GuildSettings(options=Options(rounds=5)), {"rounds": None}, Options()),  # "all rounds" given
        (EVEN, {"schedule": "full", "blind_first_round": True}, Options(blind_first_round=True)),
        (NO_ADD_UP, {"bids_may_add_up_in_round_one": True}, Options(True, True)),
    ],
)
def test_a_games_options_are_the_given_ones_over_the_defaults(
    defaults: GuildSettings, given: dict[str, Any], expected: Options
) -> None:
    assert defaults.options_for_game(given) == expected


@pytest.mark.parametrize(
    ("defaults", "given", "problem"),
    [
        (HIDDEN, {"bids_may_not_add_up": True}, Problem.HIDDEN_BIDS),
        (NO_ADD_UP, {"hidden_bids": True}, Problem.HIDDEN_BIDS),
        (EVEN, {"blind_first_round": True}, Problem.BLIND_EVEN),
        (EVEN, {"rounds": 15}, Problem.ROUNDS),
        (DEFAULTS, {"shuffle": "never"}, Problem.OPTIONS),
    ],
)
def test_a_game_whose_options_clash_with_the_defaults_is_refused(
    defaults: GuildSettings, given: dict[str, Any], problem: Problem
) -> None:
    with pytest.raises(SettingsError) as refused:
        defaults.options_for_game(given)
    assert refused.value.problem is problem


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({}, {}),
        ({"bids_may_not_add_up": False}, {"bids_may_not_add_up": False}),
        ({"hidden_bids": True, "blind_first_round": True}, {"hidden_bids": True, "blind_first_round": True}),
        ({"bids_may_add_up_in_round_one": True}, {"bids_may_add_up_in_round_one": True}),
        ({"rounds": 0}, {"rounds": None}),
        ({"rounds": 7}, {"rounds": 7}),
        ({"even_rounds": True}, {"schedule": "even"}),
        ({"even_rounds": False}, {"schedule": "full"}),
        ({"hidden_bids": None, "rounds": None, "even_rounds": None}, {}),
    ],
)
def test_a_commands_options_become_options_fields(given: dict[str, Any], expected: dict[str, Any]) -> None:
    assert option_overrides(**given) == expected


def test_the_public_language_override() -> None:
    chosen = {1: GuildSettings(language="pl"), 2: GuildSettings(turn_timer=60)}
    assert language_override(chosen, 1) == "pl"
    assert language_override(chosen, 2) is None  # follows the server's Discord locale
    assert language_override(chosen, 3) is None
    assert language_override(chosen, None) is None


# -- JSON ----------------------------------------------------------------------------------------

EVERYTHING = GuildSettings(
    options=Options(bids_may_not_add_up=True, bids_may_add_up_in_round_one=True, rounds=4, schedule="even"),
    turn_timer=120,
    computer_level="easy",
    language="el",
    channels=(1234567890123456789, 42),
)


@pytest.mark.parametrize("settings", [DEFAULTS, HIDDEN, EVERYTHING], ids=["defaults", "hidden bids", "everything"])
def test_json_round_trip(settings: GuildSettings) -> None:
    assert GuildSettings.from_json(settings.to_json()) == settings
    assert GuildSettings.from_record(settings.to_record()) == settings


def test_json_of_everything() -> None:
    assert EVERYTHING.to_json() == {
        "options": {
            "bids_may_not_add_up": True,
            "bids_may_add_up_in_round_one": True,
            "hidden_bids": False,
            "rounds": 4,
            "schedule": "even",
            "blind_first_round": False,
        },
        "turn_timer": 120,
        "computer_level": "easy",
        "language": "el",
        "channels": [1234567890123456789, 42],
    }


def test_missing_json_keys_take_their_defaults() -> None:
    assert GuildSettings.from_json({}) == DEFAULTS
    assert GuildSettings.from_json({"options": {"hidden_bids": True}}) == HIDDEN
    assert GuildSettings.from_record(None) == DEFAULTS


@pytest.mark.parametrize(
    "data",
    [
        {"colour": "blue"},
        {"options": {"shuffle": "never"}},
        {"options": {"hidden_bids": True, "bids_may_not_add_up": True}},
        {"turn_timer": 1},
        {"computer_level": "godlike"},
        {"language": "xx"},
        {"channels": ["general"]},
    ],
)
def test_bad_json_is_refused(data: dict[str, Any]) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - SettingsError or a plain ValueError, both are refusals
        GuildSettings.from_json(data)
