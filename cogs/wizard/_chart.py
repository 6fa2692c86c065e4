"""The end-of-game chart: every player's total after each round, as a PNG."""

from __future__ import annotations

import dataclasses
import io
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.engine import RoundResult
from bot.i18n import t

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# The Okabe-Ito palette, told apart by people with any colour-vision deficiency; every line also
# has its own marker and dash pattern, so the chart reads in black and white too.
COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"]
MARKERS = ["o", "s", "^", "D", "v", "P"]
DASHES = ["-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1))]


# The fonts, from packages the bot installs (never the host's), tried in turn for each character
# (matplotlib's font fallback): Noto Sans for Latin, Cyrillic and Greek; Noto Sans CJK for Korean,
# Japanese and Chinese (the first face of its collection, the one every matplotlib release reads;
# all its faces draw Hangul and kana alike); Noto Emoji (monochrome: matplotlib cannot draw colour
# emoji fonts) for emoji and card symbols.
FONTS = (
    ("manimgx_fonts", "NotoSans[wght].ttf"),
    ("manimgx_fonts_cjk", "NotoSansCJK-VF.otf.ttc"),
    ("manimgx_fonts", "NotoEmoji[wght].ttf"),
)
_registering = threading.Lock()
_families: list[str] = []


def font_families() -> list[str]:
    """The chart's font families, registered with matplotlib the first time a chart is drawn
    (once, though two games may end at once and draw in two threads)."""
    # Found when the first chart is drawn, like matplotlib: importlib.resources is slow to import.
    from importlib import resources

    from matplotlib import font_manager

    with _registering:
        if _families:
            return list(_families)
        files = [Path(str(resources.files(package) / name)) for package, name in FONTS]
        manager = font_manager.fontManager
        for path in files:
            manager.addfont(path)
        # matplotlib draws a variable font's default instance and cannot choose another weight.
        # Noto Sans CJK's default is its thinnest (100): entered as the regular weight the chart asks
        # for, or matplotlib would warn on every draw that it found no regular weight.
        manager.ttflist = [
            dataclasses.replace(entry, weight="normal") if entry.fname == str(files[1]) else entry
            for entry in manager.ttflist
        ]
        names = [font_manager.FontProperties(fname=path).get_name() for path in files]
        _families[:] = names
        return list(_families)


def totals_chart(names: Sequence[str], history: Sequence[RoundResult], locale: str | None) -> bytes:
    """A line chart of the running totals as a PNG, sized to be read on a phone (1200 × 750 pixels),
    its title and axes in `locale`'s language."""
    buffer = io.BytesIO()
    totals_figure(names, history, locale).savefig(buffer, format="png")
    return buffer.getvalue()


def totals_figure(names: Sequence[str], history: Sequence[RoundResult], locale: str | None) -> Figure:
    """The chart of `totals_chart`, not yet drawn."""
    # matplotlib is imported the first time a game ends, in the thread that draws: it takes half a
    # second and tens of MiB that a bot starting up, or waiting for its first game, need not pay.
    # A bare Figure draws to memory (Agg) with no pyplot and none of its global state.
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    families = font_families()
    figure = Figure(figsize=(8, 5), dpi=150)
    axes = figure.subplots()
    axes.set_title(t(locale, "chart.title"), fontsize=14, family=families)
    axes.set_xlabel(t(locale, "chart.rounds"), fontsize=12, family=families)
    axes.set_ylabel(t(locale, "chart.points"), fontsize=12, family=families)
    rounds = [0, *(result.round for result in history)]
    for seat, name in enumerate(names):
        totals = [0, *(result.totals[seat] for result in history)]
        axes.plot(
            rounds,
            totals,
            label=name,
            color=COLOURS[seat % 6],
            marker=MARKERS[seat % 6],
            linestyle=DASHES[seat % 6],
            linewidth=2.2,
            markersize=5,
        )
    axes.axhline(0, color="#777777", linewidth=0.8)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.tick_params(labelsize=11, labelfontfamily=families)
    axes.grid(alpha=0.3)
    axes.legend(prop={"family": families, "size": 11}, loc="best", framealpha=0.9)
    figure.tight_layout()
    return figure
