"""The end-of-game chart is a PNG that a phone shows well."""

from __future__ import annotations

import logging
import struct
import warnings

import pytest

from bot.engine import RoundResult
from bot.i18n import LANGUAGES, t
from cogs.wizard._chart import totals_chart, totals_figure


def history(players: int, rounds: int) -> list[RoundResult]:
    zeros = (0,) * players
    return [
        RoundResult(r, zeros, zeros, zeros, tuple((seat - 2) * 15 * r for seat in range(players)))
        for r in range(1, rounds + 1)
    ]


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (6, 10), (4, 1)])
def test_the_chart_is_a_png_of_phone_size(players: int, rounds: int) -> None:
    png = totals_chart([f"Player {seat} with a long name" for seat in range(players)], history(players, rounds), "en")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (1200, 750)
    assert 10_000 < len(png) < 400_000


# Names as Discord members write them: every script of the six languages, Japanese and Chinese, and
# emoji (a variation selector, a skin tone, a joined sequence and the card suits among them).
NAMES = [
    "Zoë Łukasiewicz-Dvořák",
    "Анна Петрова",
    "Νίκος Παπαδόπουλος",
    "김민준",
    "山田 たろう",
    "张伟",
    "🎉 Party 🃏🧙",
    "dave 😀👍🏽🔥",
    "♠️♥️♦️♣️ 👨‍👩‍👧",
]


def computer_names(language: str) -> list[str]:
    """The computer players' names in `language`, as the table shows them ("컴퓨터 1 (어려움)")."""
    return [
        t(language, "computer.name", number=number, level=t(language, f"level.{level}"))
        for number, level in enumerate(("easy", "normal", "hard"), 1)
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_chart_draws_every_name_and_its_texts_with_no_missing_glyph(
    language: str, caplog: pytest.LogCaptureFixture
) -> None:
    names = [*NAMES, *computer_names(language)]
    figure = totals_figure(names, history(len(names), 3), language)
    with warnings.catch_warnings(record=True) as warned, caplog.at_level(logging.WARNING, logger="matplotlib"):
        warnings.simplefilter("always")
        figure.canvas.draw()  # where matplotlib warns of a glyph missing from every font it tried
    assert [str(warning.message) for warning in warned] == []
    assert caplog.messages == []  # nor a font it had to make do with


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_chart_has_a_title_and_axis_labels_in_the_channels_language(language: str) -> None:
    [axes] = totals_figure(["Ann", "Bo", "Cy"], history(3, 2), language).axes
    texts = (axes.get_title(), axes.get_xlabel(), axes.get_ylabel())
    assert texts == (t(language, "chart.title"), t(language, "chart.rounds"), t(language, "chart.points"))
