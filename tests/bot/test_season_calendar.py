"""The seasons' calendar: turnovers at midnight UTC on the first of a month or a quarter."""

from __future__ import annotations

import datetime

import pytest

from bot import seasons


def at(*parts: int) -> float:
    return datetime.datetime(*parts, tzinfo=datetime.UTC).timestamp()


@pytest.mark.parametrize(
    ("length", "moment", "start", "end"),
    [
        ("monthly", at(2027, 3, 15, 12), at(2027, 3, 1), at(2027, 4, 1)),
        ("monthly", at(2027, 12, 31, 23, 59), at(2027, 12, 1), at(2028, 1, 1)),
        ("monthly", at(2027, 4, 1), at(2027, 4, 1), at(2027, 5, 1)),  # at a turnover: the new period
        ("monthly", at(2028, 2, 29, 6), at(2028, 2, 1), at(2028, 3, 1)),
        ("quarterly", at(2027, 3, 15), at(2027, 1, 1), at(2027, 4, 1)),
        ("quarterly", at(2027, 4, 1), at(2027, 4, 1), at(2027, 7, 1)),
        ("quarterly", at(2027, 11, 2), at(2027, 10, 1), at(2028, 1, 1)),
    ],
)
def test_a_period_starts_and_ends_at_its_turnovers(length: str, moment: float, start: float, end: float) -> None:
    assert (seasons.period_start(length, moment), seasons.next_turnover(length, moment)) == (start, end)


def test_none_has_no_calendar_and_an_unknown_length_is_refused() -> None:
    assert not seasons.has_calendar("none")
    assert seasons.has_calendar("monthly")
    assert seasons.has_calendar("quarterly")
    with pytest.raises(ValueError, match="weekly"):
        seasons.has_calendar("weekly")
