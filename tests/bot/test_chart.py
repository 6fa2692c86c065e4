"""The end-of-game chart is a PNG that a phone shows well, on Discord's dark and light themes."""

from __future__ import annotations

import io
import itertools
import logging
import random
import struct
import warnings
from collections.abc import Iterator

import numpy as np
import pytest
from matplotlib import font_manager, ft2font
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Text

from bot.engine import Game, Options, RoundResult
from bot.i18n import LANGUAGES, t
from cogs.wizard import _chart
from cogs.wizard._chart import COLOURS, DPI, SIDE, font_families, minus, totals_chart, totals_figure
from tests.e2e.standin.validation import ATTACHMENT_SIZE_LIMIT
from tests.engine.support import play_out

PHONE = 300  # pixels: the widest Discord shows an embed's image on a 390 px phone


def history(finals: list[int], rounds: int) -> list[RoundResult]:
    """A game of `rounds` rounds whose totals climb evenly to `finals`."""
    zeros = (0,) * len(finals)
    return [
        RoundResult(r, zeros, zeros, zeros, tuple(final * r // rounds for final in finals))
        for r in range(1, rounds + 1)
    ]


def spread(players: int) -> list[int]:
    return [(seat - 2) * 60 for seat in range(players)]


def chart(
    names: list[str], results: list[RoundResult], locale: str = "en", round_numbers: list[int] | None = None
) -> Figure:
    """The figure for a game that plays `round_numbers` (by default the rounds of `results`), drawn."""
    numbers = [result.round for result in results] if round_numbers is None else round_numbers
    figure = totals_figure(names, results, numbers, locale)
    figure.savefig(io.BytesIO(), format="png")
    return figure


def chart_for(game: Game) -> Figure:
    return chart(
        [f"P{seat}" for seat in range(game.players)], list(game.history), round_numbers=list(game.round_numbers)
    )


def labels(figure: Figure) -> list[Text]:
    """The players' labels: the axes' only texts."""
    [axes] = figure.axes
    return list(axes.texts)


def player_lines(axes: Axes) -> list[Line2D]:
    """The players' lines, one point a round and one for the start (the leaders have two)."""
    return [line for line in axes.lines if len(line.get_xdata()) > 2]  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (6, 10), (4, 1)])
def test_the_chart_is_a_square_png_within_discords_limits(players: int, rounds: int) -> None:
    names = [f"Player {seat} with a long name" for seat in range(players)]
    png = totals_chart(names, history(spread(players), rounds), range(1, rounds + 1), "en")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (SIDE, SIDE)
    assert 10_000 < len(png) < ATTACHMENT_SIZE_LIMIT
    assert len(png) < 400_000  # and quick to load on a phone


def test_every_text_is_at_least_11_px_tall_when_shown_300_px_wide() -> None:
    figure = chart([f"Player {seat} with a long name" for seat in range(6)], history(spread(6), 10))
    [axes] = figure.axes
    texts = [text for text in figure.findobj(Text) if text.get_text() and text.get_visible()]
    # The players' labels, the title and axis labels, and the ticks, at least.
    assert len(texts) >= 6 + 3 + len(axes.get_xticks()) + len(axes.get_yticks())
    for text in texts:
        shown = float(text.get_fontsize()) * DPI / 72 * PHONE / figure.bbox.width
        assert shown >= 11, text.get_text()


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
def test_the_chart_draws_every_name_and_its_texts_with_no_missing_glyph(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_chart, "NAME_WIDTH", 0.55)  # room for every letter of these names
    names = [*NAMES, *computer_names(language)]
    results = history(list(range(len(names))), 3)
    png = totals_chart(names, results, [1, 2, 3], language)  # drawn: where a missing glyph is warned of
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # Every name is drawn whole (none of these is cut short), in its own label.
    shown = [text.get_text() for text in labels(chart(names, results, language))]
    assert all(any(label.startswith(name) for label in shown) for name in names)


@pytest.mark.usefixtures("strict")
def test_a_character_no_font_has_fails_the_drawing() -> None:
    # What the test above would catch: a letter of a script the chart's fonts do not cover.
    with pytest.raises(UserWarning, match=r"missing from font"):
        totals_chart(["Ann", "Bo", "\u0800 Samaritan"], history([10, 20, 30], 2), [1, 2], "en")


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


def test_a_cut_that_fails_leaves_korean_in_the_thin_face_rather_than_no_chart(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(_chart, "CUT", "import sys; sys.exit('no fontTools here')")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        png = totals_chart(["다람쥐", "Bo", "Cy"], history([10, 20, 30], 2), [1, 2], "en")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    [record] = [r for r in caplog.records if r.name == "cogs.wizard._chart"]
    assert record.levelno == logging.ERROR
    assert "Thin" in record.getMessage()
    assert "no fontTools here" in record.getMessage()


@pytest.mark.parametrize(
    "options",
    [Options(), Options(rounds=4), Options(schedule="even"), Options(schedule="even", rounds=3)],
    ids=["full", "four rounds", "even", "even, three rounds"],
)
def test_the_x_axis_runs_from_the_start_to_the_last_round_as_the_game_numbers_them(options: Options) -> None:
    game = Game(4, seed=5, options=options)
    play_out(game, random.Random(5))
    [axes] = chart_for(game).axes
    assert axes.get_xlim() == (0, game.rounds)
    ticks = [int(tick) for tick in axes.get_xticks()]
    assert ticks[-1] == game.rounds
    assert ticks == sorted(set(ticks))
    assert all(1 <= tick <= game.rounds for tick in ticks)
    for line in player_lines(axes):
        assert list(line.get_xdata()) == list(range(game.rounds + 1))  # type: ignore[arg-type]


def test_a_game_started_later_in_its_schedule_numbers_its_rounds_from_there() -> None:
    game = Game(6, seed=2, start_round=8)
    play_out(game, random.Random(2))
    [axes] = chart_for(game).axes
    assert axes.get_xlim() == (7, 10)
    assert [int(tick) for tick in axes.get_xticks()] == [8, 9, 10]


@pytest.mark.parametrize(("rounds", "shown"), [(3, 3), (10, 10), (15, 4), (20, 5)])
def test_the_x_axis_names_as_many_rounds_as_can_be_read_apart(rounds: int, shown: int) -> None:
    figure = chart([f"Player {seat} with a long name" for seat in range(6)], history(spread(6), rounds))
    [axes] = figure.axes
    ticks = axes.get_xticklabels()
    assert len(ticks) <= shown
    boxes = [tick.get_window_extent() for tick in ticks]
    assert all(a.x1 + 10 < b.x0 for a, b in itertools.pairwise(boxes))  # not touching


def test_each_line_ends_in_a_label_with_the_players_name_and_final_score_in_its_colour() -> None:
    finals = [-130, -20, 95, 240]
    names = ["Ann", "Бо", "Κώστας", "민준"]
    figure = chart(names, history(finals, 10))
    [axes] = figure.axes
    texts = labels(figure)
    assert [text.get_text() for text in texts] == ["Ann −130", "Бо −20", "Κώστας 95", "민준 240"]
    lines = player_lines(axes)
    for text, line, final in zip(texts, lines, finals, strict=True):
        x, y = text.get_position()
        assert x > 1  # right of the last round, in the axes' width
        assert y == pytest.approx(final)  # no neighbour near: just where the line ends
        assert line.get_ydata()[-1] == final  # type: ignore[index]
        assert text.get_color() == line.get_color()
    # Told apart without colour too: each line has its own marker and dashes.
    assert len({line.get_marker() for line in lines}) == len({str(line.get_linestyle()) for line in lines}) == 4
    assert not axes.get_legend()


def luminance(colour: str) -> float:
    """The relative luminance of a colour "#RRGGBB" (WCAG 2)."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("colour", [*COLOURS, _chart.INK])
def test_every_colour_of_text_reads_on_the_card(colour: str) -> None:
    darker, lighter = sorted((luminance(colour), luminance(_chart.CARD)))
    assert (lighter + 0.05) / (darker + 0.05) >= 4.5  # WCAG's contrast for text


@pytest.mark.parametrize(
    "finals", [[100, 100, 100, 100, 100, 100], [100, 95, 90, 105, 0, -5], [0, 0, 5, 10, 500, 505]], ids=str
)
def test_labels_of_tied_or_close_scores_are_moved_apart_and_joined_to_their_lines(finals: list[int]) -> None:
    names = ["Alexandra Konstantinopoulou", "Анна", "Νίκος", "김민준", "dave 😀👍🏽", "Computer 3 (hard)"]
    figure = chart(names, history(finals, 20))
    [axes] = figure.axes
    texts = labels(figure)
    boxes = [text.get_window_extent() for text in texts]
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b)
    card = figure.bbox
    assert all(card.x0 < box.x0 and box.x1 < card.x1 and card.y0 < box.y0 and box.y1 < card.y1 for box in boxes)
    # The higher score above; a tie in the order of the seats.
    order = sorted(range(6), key=lambda seat: (-finals[seat], seat))
    heights = [boxes[seat].y0 for seat in order]
    assert heights == sorted(heights, reverse=True)
    # Every label is given whole: its name (cut short) and its score.
    for text, final in zip(texts, finals, strict=True):
        assert text.get_text().endswith(f" {minus(final)}")
    # A label moved off its line's end is joined to it by a short line in its colour.
    ends = axes.transData.transform([(20, final) for final in finals])[:, 1]
    leaders = [line for line in axes.lines if len(line.get_xdata()) == 2]  # type: ignore[arg-type]
    for seat, end in enumerate(ends):
        middle = (boxes[seat].y0 + boxes[seat].y1) / 2
        if abs(middle - end) > 2:
            [leader] = [line for line in leaders if line.get_color() == COLOURS[seat]]
            start, stop = leader.get_transform().transform(leader.get_xydata())
            assert start[1] == pytest.approx(end)
            assert stop[1] == pytest.approx(middle, abs=2)


def test_a_long_name_is_cut_short_with_an_ellipsis_but_never_inside_an_emoji() -> None:
    long = "Alexandra Konstantinopoulou-Papadopoulou"
    family = "Mm 👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧"
    texts = [text.get_text() for text in labels(chart([long, family, "Bo"], history([10, 200, -100], 3)))]
    assert texts[0].startswith("Alexandra")
    assert texts[0].endswith("… 10")
    assert len(texts[0]) < len(long)
    name = texts[1].removesuffix("… 200")
    assert family.startswith(name)
    assert not name.endswith(("\N{ZERO WIDTH JOINER}", "👨", "👩"))  # whole families only
    assert texts[2] == "Bo −100"


@pytest.mark.parametrize(
    ("targets", "placed"),
    [
        ([0.0, 100.0, 200.0], [0.0, 100.0, 200.0]),  # far enough apart: left where they are
        ([50.0, 50.0], [55.0, 45.0]),  # a tie: half a gap each way, the first above
        ([50.0, 50.0, 50.0], [60.0, 50.0, 40.0]),
        ([0.0, 5.0, 100.0], [-2.5, 7.5, 100.0]),
        ([0.0, 0.0, 100.0], [5.0, -5.0, 100.0]),
        ([-10.0, -10.0], [5.0, -5.0]),  # kept above the floor
    ],
)
def test_labels_move_as_little_as_they_must_to_be_a_gap_apart(targets: list[float], placed: list[float]) -> None:
    low = -5.0
    assert _chart._spread(targets, 10.0, low, 1000.0) == pytest.approx(placed)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_chart_has_a_title_and_axis_labels_in_the_channels_language(language: str) -> None:
    figure = totals_figure(["Ann", "Bo", "Cy"], history([1, 2, 3], 2), [1, 2], language)
    [axes] = figure.axes
    [title] = figure.texts
    texts = (title.get_text(), axes.get_xlabel(), axes.get_ylabel())
    assert texts == (t(language, "chart.title"), t(language, "chart.rounds"), t(language, "chart.points"))
