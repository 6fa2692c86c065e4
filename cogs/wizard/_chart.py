"""The end-of-game chart: every player's total after each round, as a PNG."""

from __future__ import annotations

import io
from collections.abc import Sequence

from bot.engine import RoundResult

# The Okabe-Ito palette, told apart by people with any colour-vision deficiency; every line also
# has its own marker and dash pattern, so the chart reads in black and white too.
COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"]
MARKERS = ["o", "s", "^", "D", "v", "P"]
DASHES = ["-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1))]


def totals_chart(names: Sequence[str], history: Sequence[RoundResult]) -> bytes:
    """A line chart of the running totals, sized to be read on a phone (1200 × 750 pixels).

    It carries no words but the players' names: the message it is attached to says what it shows
    in the reader's language, which matplotlib's bundled font could not draw for every script.
    """
    # matplotlib is imported the first time a game ends, in the thread that draws: it takes half a
    # second and tens of MiB that a bot starting up, or waiting for its first game, need not pay.
    # A bare Figure draws to memory (Agg) with no pyplot and none of its global state.
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(8, 5), dpi=150)
    axes = figure.subplots()
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
    axes.tick_params(labelsize=11)
    axes.grid(alpha=0.3)
    axes.legend(fontsize=11, loc="best", framealpha=0.9)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
