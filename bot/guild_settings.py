"""A server's settings for new games: default house rules, turn timer, computer level, public
language, and the channels where games may be started.

`GuildSettings` is an immutable value, checked whenever it changes (`with_changes`, `from_json`):
a bad value raises `SettingsError`, whose `problem` the presentation layer translates. The settings
are defaults only: `options_for_game` lays the options given to ``/wizard start`` over them, and a
game keeps what it was opened with, so a change never reaches a game already open.

Nothing here touches Discord; `load`, `load_all` and `save` carry the settings to and from the
repository, which stores them as a plain `GuildSettingsRecord`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .engine import Options, rules
from .engine.game import SCHEDULES
from .i18n import LANGUAGES
from .manager import COMPUTER_LEVELS, DEFAULT_TURN_TIMER, MAX_TURN_TIMER, MIN_TURN_TIMER, STAND_IN_LEVEL
from .storage import GuildSettingsRecord, Repository

log = logging.getLogger(__name__)

TURN_TIMERS = (30, 60, 120, 300, 900, 3600, 43200, 86400)
"""The turn timers the commands offer, in seconds."""
MAX_CHANNELS = 25
"""At most this many allowed channels, so that the summary stays short."""

OPTION_NAMES = tuple(f.name for f in fields(Options))
SETTING_NAMES = ("turn_timer", "computer_level", "language", "channels")


class Problem(enum.Enum):
    """Why settings were refused; the presentation layer has a text for each (``settings.error.<value>``)."""

    HIDDEN_BIDS = "hidden_bids"  # hidden bids with bids that may not add up: nobody bids last
    BLIND_EVEN = "blind_even"  # a blind first round with only even hands: round 1 is never played
    ROUNDS = "rounds"  # more rounds than three players can play with this schedule; details: n (the most)
    OPTIONS = "options"  # any other option the engine refuses
    TIMER = "timer"  # details: low, high (seconds)
    LEVEL = "level"
    LANGUAGE = "language"
    CHANNELS = "channels"  # too many allowed channels; details: n (the most)


class SettingsError(ValueError):
    """Settings that cannot be used; `problem` says why and `details` fill its message."""

    def __init__(self, problem: Problem, message: str = "", **details: object) -> None:
        super().__init__(message or problem.value)
        self.problem = problem
        self.details = details


def _most_rounds(schedule: str) -> int:
    """How many rounds three players, the fewest, can play with a schedule: any default must fit them."""
    return len(rules.round_numbers(rules.MIN_PLAYERS, None, schedule == "even"))


def _check_options(options: Options) -> None:
    """SettingsError unless `options` are good defaults: rounds that three players can play."""
    if options.rounds is not None and options.rounds > _most_rounds(options.schedule):
        raise SettingsError(Problem.ROUNDS, n=_most_rounds(options.schedule))


def _options(base: Options, changes: Mapping[str, Any]) -> Options:
    """`base` with `changes` (Options field names), checked; SettingsError when they cannot be combined."""
    unknown = set(changes) - set(OPTION_NAMES)
    if unknown:
        raise SettingsError(Problem.OPTIONS, f"unknown options: {sorted(unknown)}")
    wanted = {**base.to_json(), **changes}
    # The engine refuses these combinations too; checked first, each has its own explanation.
    if wanted["hidden_bids"] is True and wanted["bids_may_not_add_up"] is True:
        raise SettingsError(Problem.HIDDEN_BIDS)
    if wanted["blind_first_round"] is True and wanted["schedule"] == "even":
        raise SettingsError(Problem.BLIND_EVEN)
    try:
        options = Options(**wanted)
    except ValueError as error:
        rounds = wanted["rounds"]
        if rounds is not None and type(rounds) is int and wanted["schedule"] in SCHEDULES:
            raise SettingsError(Problem.ROUNDS, str(error), n=_most_rounds(wanted["schedule"])) from error
        raise SettingsError(Problem.OPTIONS, str(error)) from error
    _check_options(options)
    return options


def option_overrides(
    *,
    bids_may_not_add_up: bool | None = None,
    bids_may_add_up_in_round_one: bool | None = None,
    hidden_bids: bool | None = None,
    rounds: int | None = None,
    even_rounds: bool | None = None,
    blind_first_round: bool | None = None,
) -> dict[str, Any]:
    """The options a command was given, as Options fields: None is "not given", `rounds` 0 is all of
    them, and `even_rounds` chooses the schedule."""
    given: dict[str, Any] = {}
    for name, value in (
        ("bids_may_not_add_up", bids_may_not_add_up),
        ("bids_may_add_up_in_round_one", bids_may_add_up_in_round_one),
        ("hidden_bids", hidden_bids),
        ("blind_first_round", blind_first_round),
    ):
        if value is not None:
            given[name] = value
    if rounds is not None:
        given["rounds"] = rounds or None
    if even_rounds is not None:
        given["schedule"] = "even" if even_rounds else "full"
    return given


@dataclass(frozen=True)
class GuildSettings:
    """A server's settings for new games; the defaults are those of a server that never set any."""

    options: Options = field(default_factory=Options)
    turn_timer: float = DEFAULT_TURN_TIMER
    computer_level: str = STAND_IN_LEVEL
    language: str | None = None  # a catalog language for channel messages; None: the server's Discord locale
    channels: tuple[int, ...] = ()  # where games may be started; empty: any channel

    def __post_init__(self) -> None:
        _check_options(self.options)
        if (
            isinstance(self.turn_timer, bool)
            or not isinstance(self.turn_timer, int | float)
            or not MIN_TURN_TIMER <= self.turn_timer <= MAX_TURN_TIMER
        ):
            raise SettingsError(Problem.TIMER, low=MIN_TURN_TIMER, high=MAX_TURN_TIMER)
        if self.computer_level not in COMPUTER_LEVELS:
            raise SettingsError(Problem.LEVEL, level=self.computer_level)
        if self.language is not None and self.language not in LANGUAGES:
            raise SettingsError(Problem.LANGUAGE, language=self.language)
        if len(self.channels) > MAX_CHANNELS:
            raise SettingsError(Problem.CHANNELS, n=MAX_CHANNELS)
        if any(type(channel) is not int for channel in self.channels):
            raise ValueError(f"channel ids must be ints, not {self.channels!r}")

    def with_changes(self, **changes: Any) -> GuildSettings:
        """These settings with some changed: any Options field (``hidden_bids=True``, ``rounds=None``
        for all of them) or `turn_timer`, `computer_level`, `language`, `channels`.

        SettingsError when the result cannot be used; TypeError for an unknown name.
        """
        unknown = set(changes) - set(OPTION_NAMES) - set(SETTING_NAMES)
        if unknown:
            raise TypeError(f"unknown settings: {sorted(unknown)}")
        option_changes = {name: value for name, value in changes.items() if name in OPTION_NAMES}
        other = {name: value for name, value in changes.items() if name in SETTING_NAMES}
        if "channels" in other:
            other["channels"] = tuple(dict.fromkeys(other["channels"]))  # no repeats, in the order given
        options = _options(self.options, option_changes) if option_changes else self.options
        return dataclasses.replace(self, options=options, **other)

    def with_channels(
        self, *, allow: int | None = None, forbid: int | None = None, clear: bool = False
    ) -> GuildSettings:
        """The allowed channels changed: `clear` empties the list (any channel), then `allow` adds one
        and `forbid` takes one off. Forbidding the last one leaves the list empty: any channel."""
        channels = () if clear else self.channels
        if allow is not None and allow not in channels:
            channels = (*channels, allow)
        if forbid is not None:
            channels = tuple(channel for channel in channels if channel != forbid)
        return self if channels == self.channels else self.with_changes(channels=channels)

    def allows_channel(self, channel_id: int, parent_id: int | None = None) -> bool:
        """Whether a game may be started in the channel; a thread counts as its `parent_id` channel too."""
        return (
            not self.channels or channel_id in self.channels or (parent_id is not None and parent_id in self.channels)
        )

    def options_for_game(self, overrides: Mapping[str, Any] | None = None) -> Options:
        """The options of a new game: `overrides` (Options fields, from `option_overrides`) over these defaults.

        SettingsError when the result cannot be played, say hidden bids from the server's defaults
        and bids that may not add up from the host: the host then chooses between them.
        """
        return _options(self.options, overrides) if overrides else self.options

    # -- JSON and the repository ---------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options.to_json(),
            "turn_timer": self.turn_timer,
            "computer_level": self.computer_level,
            "language": self.language,
            "channels": list(self.channels),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GuildSettings:
        """Settings from `to_json` output, checked; a missing key takes its default."""
        unknown = set(data) - {"options", *SETTING_NAMES}
        if unknown:
            raise ValueError(f"unknown settings: {sorted(unknown)}")
        options = _options(Options(), data.get("options", {}))
        defaults = cls()
        return cls(
            options=options,
            turn_timer=data.get("turn_timer", defaults.turn_timer),
            computer_level=data.get("computer_level", defaults.computer_level),
            language=data.get("language", defaults.language),
            channels=tuple(data.get("channels", ())),
        )

    def to_record(self) -> GuildSettingsRecord:
        return GuildSettingsRecord(
            options=self.options.to_json(),
            turn_timer=self.turn_timer,
            computer_level=self.computer_level,
            language=self.language,
            channels=self.channels,
        )

    @classmethod
    def from_record(cls, record: GuildSettingsRecord | None) -> GuildSettings:
        """The settings a stored record holds; the defaults for None (a server that never set any)."""
        if record is None:
            return cls()
        return cls.from_json(
            {
                "options": record.options,
                "turn_timer": record.turn_timer,
                "computer_level": record.computer_level,
                "language": record.language,
                "channels": record.channels,
            }
        )


DEFAULTS = GuildSettings()


def _readable(guild_id: int, record: GuildSettingsRecord) -> GuildSettings:
    """A stored record as settings, keeping every part that is still valid (a language whose catalog
    was removed, say, falls back to the server's locale) rather than stopping the bot."""
    try:
        return GuildSettings.from_record(record)
    except ValueError as error:
        log.warning("server %s: stored settings are not all valid (%s); the invalid ones are reset", guild_id, error)
    settings = DEFAULTS
    with contextlib.suppress(ValueError):
        settings = settings.with_changes(**Options.from_json(record.options).to_json())
    for name in SETTING_NAMES:
        with contextlib.suppress(ValueError):
            settings = settings.with_changes(**{name: getattr(record, name)})
    return settings


async def load(repository: Repository, guild_id: int) -> GuildSettings:
    """A server's settings; the defaults when it never set any."""
    record = await repository.guild_settings(guild_id)
    return DEFAULTS if record is None else _readable(guild_id, record)


async def load_all(repository: Repository) -> dict[int, GuildSettings]:
    """Every server's settings that differ from the defaults, by server id: what start-up loads."""
    return {
        guild_id: _readable(guild_id, record) for guild_id, record in (await repository.all_guild_settings()).items()
    }


async def save(repository: Repository, guild_id: int, settings: GuildSettings) -> None:
    await repository.save_guild_settings(guild_id, settings.to_record())


def language_override(settings: Mapping[int, GuildSettings], guild_id: int | None) -> str | None:
    """The language a server's admins chose for channel messages; None to follow the server's Discord locale."""
    if guild_id is None:
        return None
    found = settings.get(guild_id)
    return found.language if found is not None else None
