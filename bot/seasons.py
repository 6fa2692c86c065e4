"""The seasons' calendar: when a monthly or quarterly season begins and ends.

Seasons turn over at midnight UTC on the first day of a month (monthly) or of January, April, July
and October (quarterly), the same moment everywhere. Times are seconds since the epoch.
"""

from __future__ import annotations

import datetime

from .storage import SEASON_LENGTHS

# Months in a season of each length that has a calendar.
_MONTHS = {"monthly": 1, "quarterly": 3}


def has_calendar(length: str) -> bool:
    """Whether seasons of this length end by themselves ("none": only when an admin ends one)."""
    if length not in SEASON_LENGTHS:
        raise ValueError(f"no season length {length!r}")
    return length in _MONTHS


def _first_of_period(length: str, moment: float) -> datetime.datetime:
    months = _MONTHS[length]
    day = datetime.datetime.fromtimestamp(moment, datetime.UTC)
    month = (day.month - 1) // months * months + 1
    return datetime.datetime(day.year, month, 1, tzinfo=datetime.UTC)


def period_start(length: str, moment: float) -> float:
    """When the period of `length` that `moment` falls in began (its last turnover at or before it)."""
    return _first_of_period(length, moment).timestamp()


def next_turnover(length: str, moment: float) -> float:
    """The first turnover of `length` after `moment`: when a season running at `moment` ends."""
    start = _first_of_period(length, moment)
    month = start.month - 1 + _MONTHS[length]
    return datetime.datetime(start.year + month // 12, month % 12 + 1, 1, tzinfo=datetime.UTC).timestamp()
