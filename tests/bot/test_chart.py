"""The end-of-game chart is a PNG that a phone shows well."""

from __future__ import annotations

import logging
import struct
import warnings
from collections.abc import Iterator

import numpy as np
import pytest
from matplotlib import font_manager, ft2font

from bot.engine import RoundResult
from bot.i18n import LANGUAGES, t
from cogs.wizard import _chart
from cogs.wizard._chart import font_families, totals_chart, totals_figure


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


@pytest.fixture
def strict(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Any warning is an error, as is a warning matplotlib logs (a font it had to make do with)."""
    with warnings.catch_warnings(), caplog.at_level(logging.WARNING, logger="matplotlib"):
        warnings.simplefilter("error")
        yield
    assert caplog.messages == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.usefixtures("strict")
def test_the_chart_draws_every_name_and_its_texts_with_no_missing_glyph(language: str) -> None:
    names = [*NAMES, *computer_names(language)]
    png = totals_chart(names, history(len(names), 3), language)  # drawn: where a missing glyph is warned of
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.usefixtures("strict")
def test_a_character_no_font_has_fails_the_drawing() -> None:
    # What the test above would catch: a letter of a script the chart's fonts do not cover.
    with pytest.raises(UserWarning, match=r"missing from font"):
        totals_chart(["Ann", "Bo", "\u0800 Samaritan"], history(3, 2), "en")


def ink(path: str, text: str) -> float:
    """How much ink `text` takes, drawn at 48 px with the font at `path` (its first face)."""
    font = ft2font.FT2Font(path)
    font.set_size(48, 72)
    font.set_text(text)
    font.draw_glyphs_to_bitmap()
    return float(np.asarray(font.get_image(), dtype=float).sum())


def test_korean_is_drawn_in_the_regular_weight_of_noto_sans_cjk_not_its_thin_default() -> None:
    text = "컴퓨터김민준"
    family = font_families([text])[1]
    path = font_manager.findfont(font_manager.FontProperties(family=family), fallback_to_default=False)
    thin = str(_chart._registered().cjk)  # the collection's first face, at its default weight
    # Regular (400) strokes are about three times as wide as Thin (100) ones: with the edges'
    # antialiasing, twice the ink.
    assert ink(path, text) > 1.8 * ink(thin, text)
    # And about as dark as Noto Sans Regular's widest letters of the same size.
    latin = font_manager.findfont(font_manager.FontProperties(family=font_families()[0]))
    assert 0.7 < (ink(path, text) / len(text)) / (ink(latin, "Mmmmmmm") / 7) < 1.5


def test_the_fonts_cut_for_the_chart_are_dropped_once_too_many(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_chart, "KEPT_CUTS", 1)
    old = font_families(["가"])[1]
    path = font_manager.findfont(font_manager.FontProperties(family=old), fallback_to_default=False)
    new = font_families(["나"])[1]
    assert new != old
    assert all(entry.fname != path for entry in font_manager.fontManager.ttflist)
    assert font_families(["나"])[1] == new


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_chart_has_a_title_and_axis_labels_in_the_channels_language(language: str) -> None:
    [axes] = totals_figure(["Ann", "Bo", "Cy"], history(3, 2), language).axes
    texts = (axes.get_title(), axes.get_xlabel(), axes.get_ylabel())
    assert texts == (t(language, "chart.title"), t(language, "chart.rounds"), t(language, "chart.points"))
