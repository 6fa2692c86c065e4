"""The end-of-game chart: every player's total after each round, as a PNG made for a phone."""

from __future__ import annotations

import hashlib
import io
import logging
import subprocess
import sys
import tempfile
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from bot.engine import RoundResult
from bot.i18n import t

if TYPE_CHECKING:
    from matplotlib.backend_bases import RendererBase
    from matplotlib.figure import Figure
    from matplotlib.text import Text

log = logging.getLogger(__name__)

# The size. Discord shows an embed's image at most about 300 px wide on a phone (a 390 px screen)
# and within about 400 × 300 px on a desktop, so a square image is shown 300 px wide on both: one
# pixel of the 900 px image is a third of a pixel there. The smallest text, 16 pt at 150 dpi, is
# 16 × 150 / 72 = 33.3 px in the image and 33.3 / 3 = 11.1 px on the phone (its capitals 8 px);
# the title, 19 pt, is 13.2 px.
SIDE = 900  # pixels, both ways
DPI = 150
TEXT = 16.0  # points: the end labels, the tick labels and the axis labels
TITLE = 19.0
PAD = 30  # pixels from the card's edge to anything on it
PX = 72 / DPI  # one pixel in points

# A dark card with round corners, the same on both themes: no colour can be read as text (4.5:1)
# against both Discord's dark background (#313338) and its light one (#FFFFFF), the best any does
# being 3.6:1, so a transparent chart would need a halo round every line and letter. On the dark
# theme the card sits a shade below the message, like Discord's own panels; on the light theme it
# is a dark picture, which does not glare as the old white one did on the dark theme.
CARD = "#18191C"
INK = "#DBDEE1"  # Discord's own text colour on dark: 13:1 on the card
FAINT = "#80848E"  # the axes and the zero line: 4.7:1
GRID = "#2E3035"

# The Okabe-Ito colours, told apart by people with any colour-vision deficiency, less its dark blue
# (3.4:1 on the card) and plus its yellow: each one, used for the line's label too, is at least 4.5:1
# on the card. Every line also has its own marker and dash pattern, and a label at its end.
COLOURS = ["#56B4E9", "#E69F00", "#009E73", "#CC79A7", "#F0E442", "#D55E00"]
MARKERS = ["o", "s", "^", "D", "v", "P"]
DASHES = ["-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1))]

NAME_WIDTH = 0.3  # of the image: a longer name is cut short with "…" (the standings show it whole)


# The fonts, from packages the bot installs (never the host's), tried in turn for each character
# (matplotlib's font fallback): Noto Sans for Latin, Cyrillic and Greek, then Noto Sans CJK for
# Korean, Japanese and Chinese, then Noto Emoji (monochrome: matplotlib cannot draw colour emoji
# fonts) for emoji and card symbols. Noto Sans and Noto Emoji are variable fonts whose default
# instance is their Regular weight, which is what matplotlib draws.
LATIN = ("manimgx_fonts", "NotoSans[wght].ttf")
EMOJI = ("manimgx_fonts", "NotoEmoji[wght].ttf")
# Noto Sans CJK's default instance is its thinnest weight (100), and matplotlib can neither choose
# another instance of a variable font nor read a static one out of this collection: each chart
# gets the Regular instance (400, as Noto Sans) cut down by fontTools to the characters its texts
# need from it. Cutting takes about a second, for the first chart with those characters: the
# Korean texts and computer players' names recur, so most charts find their cut ready. Its face
# is Korean, the bot's one CJK language (Hangul and kana are alike in every face).
CJK = ("manimgx_fonts_cjk", "NotoSansCJK-VF.otf.ttc")
CJK_FACE = 1
REGULAR = 400
KEPT_CUTS = 16  # the cuts kept, each a file of a few KiB registered with matplotlib
# The cut runs in a child process: fontTools reads the tables of all 65,535 glyphs in pure Python,
# which in the bot's process would hold the GIL against the event loop for that second and leave
# the process some 50 MiB larger for good. It reads the characters (code points) from stdin.
CUT = """
import sys
from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

collection, face, weight, family, path = sys.argv[1:]
with TTFont(collection, fontNumber=int(face), lazy=True) as font:
    options = subset.Options()
    options.notdef_outline = True
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=[int(code) for code in sys.stdin.read().split()])
    cutter.subset(font)
    instancer.instantiateVariableFont(font, {"wght": int(weight)}, inplace=True)
    font["OS/2"].usWeightClass = int(weight)
    # Its own family name: two cuts must not be taken for one another.
    names = font["name"]
    names.names = []
    for number, value in ((1, family), (2, "Regular"), (4, family), (6, family.replace(" ", ""))):
        names.setName(value, number, 3, 1, 0x409)
    font.save(path)
"""
CUT_TIMEOUT = 120  # seconds; it takes one or two


class _Fonts(NamedTuple):
    latin: str  # family names
    emoji: str
    drawn: frozenset[int]  # the characters Noto Sans or Noto Emoji draw
    cjk: Path  # the collection to cut from


_lock = threading.Lock()  # two games may end at once and draw in two threads
_fonts: list[_Fonts] = []
_cuts: OrderedDict[frozenset[str], tuple[str, Path]] = OrderedDict()  # characters: (family, file)
_folder: list[tempfile.TemporaryDirectory[str]] = []


def _registered() -> _Fonts:
    """Noto Sans and Noto Emoji, registered with matplotlib the first time a chart is drawn."""
    # Found when the first chart is drawn, like matplotlib: importlib.resources is slow to import.
    from importlib import resources

    from matplotlib import font_manager, ft2font

    if not _fonts:
        latin, emoji, cjk = (Path(str(resources.files(package) / name)) for package, name in (LATIN, EMOJI, CJK))
        drawn: set[int] = set()
        families = []
        for path in (latin, emoji):
            font_manager.fontManager.addfont(path)
            font = ft2font.FT2Font(str(path))
            drawn.update(font.get_charmap())
            families.append(font.family_name)
        _fonts.append(_Fonts(families[0], families[1], frozenset(drawn), cjk))
    return _fonts[0]


def font_families(texts: Sequence[str] = ()) -> list[str]:
    """The font families to draw `texts` with, in the order matplotlib tries them for a character."""
    with _lock:
        fonts = _registered()
        wanted = frozenset(c for text in texts for c in text if ord(c) not in fonts.drawn and not c.isspace())
        if not wanted:
            return [fonts.latin, fonts.emoji]
        return [fonts.latin, _cjk_cut(fonts.cjk, wanted), fonts.emoji]


def _cjk_cut(collection: Path, characters: frozenset[str]) -> str:
    """The family name of Noto Sans CJK Regular cut down to `characters` (those it lacks are left
    out), registered with matplotlib; the cuts used least recently are dropped. Called under _lock.

    Should the cut fail, the chart is drawn with the collection's Thin default rather than not at all.
    """
    from matplotlib import font_manager

    if characters in _cuts:
        _cuts.move_to_end(characters)
        return _cuts[characters][0]
    if not _folder:
        # Removed with its files when the bot stops.
        _folder.append(tempfile.TemporaryDirectory(prefix="wizard-chart-fonts-"))
    digest = hashlib.sha256("".join(sorted(characters)).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    family = f"Wizard Chart CJK {digest}"
    path = Path(_folder[0].name) / f"{digest}.otf"
    command = [sys.executable, "-c", CUT, str(collection), str(CJK_FACE), str(REGULAR), family, str(path)]
    codes = " ".join(str(ord(c)) for c in sorted(characters))
    try:
        subprocess.run(command, input=codes, text=True, capture_output=True, check=True, timeout=CUT_TIMEOUT)
    except (OSError, subprocess.SubprocessError) as error:
        stderr = getattr(error, "stderr", None) or ""
        log.error("could not cut Noto Sans CJK Regular (%s); the chart uses its Thin face\n%s", error, stderr)
        if not any(entry.fname == str(collection) for entry in font_manager.fontManager.ttflist):
            font_manager.fontManager.addfont(collection)
        return str(font_manager.FontProperties(fname=collection).get_name())
    font_manager.fontManager.addfont(path)
    _cuts[characters] = (family, path)
    while len(_cuts) > KEPT_CUTS:
        _, (_, old) = _cuts.popitem(last=False)
        font_manager.fontManager.ttflist = [e for e in font_manager.fontManager.ttflist if e.fname != str(old)]
        old.unlink()
    return family


def totals_chart(
    names: Sequence[str], history: Sequence[RoundResult], round_numbers: Sequence[int], locale: str | None
) -> bytes:
    """A line chart of the running totals after the rounds of `history` (at least one), of a game
    that plays `round_numbers`, as a square PNG made to be read on a phone, its texts in `locale`'s
    language."""
    buffer = io.BytesIO()
    totals_figure(names, history, round_numbers, locale).savefig(buffer, format="png")
    return buffer.getvalue()


def minus(number: int) -> str:
    """`number` as the chart writes it: with a real minus sign, as matplotlib writes the ticks."""
    return str(number).replace("-", "\N{MINUS SIGN}")


def totals_figure(
    names: Sequence[str], history: Sequence[RoundResult], round_numbers: Sequence[int], locale: str | None
) -> Figure:
    """The chart of `totals_chart`, laid out and ready to draw (with the Agg canvas)."""
    # matplotlib is imported the first time a game ends, in the thread that draws: it takes half a
    # second and tens of MiB that a bot starting up, or waiting for its first game, need not pay.
    # A bare Figure draws to memory (Agg) with no pyplot and none of its global state.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch
    from matplotlib.ticker import FixedLocator, MaxNLocator
    from matplotlib.transforms import IdentityTransform, blended_transform_factory

    title, xlabel, ylabel = t(locale, "chart.title"), t(locale, "chart.rounds"), t(locale, "chart.points")
    families = font_families([title, xlabel, ylabel, *names])
    figure = Figure(figsize=(SIDE / DPI, SIDE / DPI), dpi=DPI, facecolor="none")
    canvas = FigureCanvasAgg(figure)
    renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
    figure.add_artist(
        FancyBboxPatch(
            (0, 0),
            SIDE,
            SIDE,
            boxstyle=f"round,pad=0,rounding_size={PAD}",
            transform=IdentityTransform(),
            facecolor=CARD,
            edgecolor="none",
            zorder=-1,  # below the axes
        )
    )

    # The rounds as the game numbers them, by their place in its schedule (the even schedule's
    # 2-card round is round 1, as the table says); the lines start at 0 the round before the first.
    xs = [round_numbers.index(result.round) + 1 for result in history]
    first, last = xs[0] - 1, xs[-1]
    xs.insert(0, first)
    rounds = last - first
    totals = [[0, *(result.totals[seat] for result in history)] for seat in range(len(names))]
    finals = [line[-1] for line in totals]
    lowest = min(0, *(min(line) for line in totals))
    highest = max(0, *(max(line) for line in totals))
    margin = max(highest - lowest, 10) * 0.06
    low, high = lowest - margin, highest + margin
    locator = MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10], integer=True)
    yticks = [int(v) for v in locator.tick_values(low, high) if low <= v <= high]

    def width(text: str) -> float:
        return _extent(figure, renderer, text, TEXT, families)[0]

    line_height = _extent(figure, renderer, "Ag", TEXT, families)[1]
    labels = [_label(name, final, SIDE * NAME_WIDTH, width) for name, final in zip(names, finals, strict=True)]

    # The layout, in pixels of the image: the title at the top, the y axis's label under it (across,
    # so that it takes no width), the y ticks on the left, the x ticks and their label below, the
    # players' labels on the right.
    title_height = _extent(figure, renderer, title, TITLE, families)[1]
    gap = line_height * 0.35
    lead = 24  # from a line's end to its label
    left = PAD + max(width(minus(v)) for v in yticks) + gap
    right = SIDE - PAD - max(width(label) for label in labels) - lead
    bottom = PAD + 2 * line_height + gap
    top = SIDE - PAD - title_height - gap - line_height - gap
    axes = figure.add_axes((left / SIDE, bottom / SIDE, (right - left) / SIDE, (top - bottom) / SIDE))
    axes.set_facecolor("none")
    axes.set_xlim(first, last)
    axes.set_ylim(low, high)
    axes.xaxis.set_major_locator(FixedLocator(_round_ticks(first, last, (right - left) / rounds, width(str(last)))))
    axes.yaxis.set_major_locator(FixedLocator(yticks))
    axes.yaxis.set_major_formatter(lambda value, _: minus(round(value)))
    axes.tick_params(labelsize=TEXT, labelfontfamily=families, colors=INK, length=0, pad=gap * PX)
    for side in ("top", "right", "left"):
        axes.spines[side].set_visible(False)
    axes.spines["bottom"].set_color(FAINT)
    axes.grid(axis="y", color=GRID, linewidth=1.5)
    if low < 0:
        axes.axhline(0, color=FAINT, linewidth=1.5)
    figure.text(PAD / SIDE, 1 - PAD / SIDE, title, size=TITLE, family=families, color=INK, va="top", ha="left")
    axes.set_xlabel(xlabel, size=TEXT, family=families, color=INK, labelpad=gap * PX)
    axes.set_ylabel(ylabel, size=TEXT, family=families, color=INK, rotation=0, ha="left", va="bottom")
    axes.yaxis.set_label_coords(-(left - PAD) / (right - left), 1 + gap / (top - bottom))

    # Markers as large as the rounds leave room for: 7 pt up to 10 rounds, 4 pt at 20.
    marker = min(7.0, max(4.0, (right - left) / rounds * PX * 0.4))
    for seat, line in enumerate(totals):
        axes.plot(
            xs,
            line,
            color=COLOURS[seat % 6],
            marker=MARKERS[seat % 6],
            markevery=slice(1, None),
            linestyle=DASHES[seat % 6],
            linewidth=3.2,
            markersize=marker,
            clip_on=False,
            solid_capstyle="round",
            zorder=3 + seat * 0.01,
        )

    # The labels, each at its line's end, moved up or down as little as can be so that none covers
    # another, and joined to the line's end when moved.
    ends = axes.transData.transform([(last, final) for final in finals])[:, 1]
    placed = _spread(list(ends), line_height * 1.05, bottom, top)
    beside = blended_transform_factory(axes.transAxes, axes.transData)
    to_data = axes.transData.inverted()
    for seat, (label, end, y) in enumerate(zip(labels, ends, placed, strict=True)):
        value = to_data.transform((0, y))[1]
        colour = COLOURS[seat % 6]
        axes.text(
            1 + lead / (right - left),
            value,
            label,
            transform=beside,
            size=TEXT,
            family=families,
            color=colour,
            va="center",
            ha="left",
            clip_on=False,
        )
        if abs(y - end) > 1:
            axes.plot(
                [1, 1 + (lead - 6) / (right - left)],
                [finals[seat], value],
                transform=beside,
                color=colour,
                linewidth=1.5,
                clip_on=False,
                zorder=2,
            )
    return figure


def _extent(figure: Figure, renderer: RendererBase, text: str, size: float, families: list[str]) -> tuple[float, float]:
    """The width and height of `text` drawn in pixels."""
    artist: Text = figure.text(0, 0, text, size=size, family=families)
    box = artist.get_window_extent(renderer)
    artist.remove()
    return box.width, box.height


def _label(name: str, final: int, room: float, measure: Callable[[str], float]) -> str:
    """A player's label: the name (cut short with "…" to fit `room` pixels) and the final score."""
    score = minus(final)
    if measure(name) <= room:
        return f"{name} {score}"
    cuts = [0, *(i for i in range(1, len(name)) if _may_cut(name, i))]
    # The longest cut that fits (a longer cut is never narrower): found in a few measurements.
    fits, too_long = 0, len(cuts)
    while too_long - fits > 1:
        middle = (fits + too_long) // 2
        if measure(name[: cuts[middle]].rstrip() + "…") <= room:
            fits = middle
        else:
            too_long = middle
    return f"{name[: cuts[fits]].rstrip()}… {score}"


def _may_cut(text: str, at: int) -> bool:
    """Whether `text` may be cut short before `at` without splitting a character a reader sees as
    one: an accent, a variation selector, a skin tone, a joined emoji sequence or a flag."""
    before, after = text[at - 1], text[at]
    if before == "\N{ZERO WIDTH JOINER}" or after == "\N{ZERO WIDTH JOINER}":
        return False
    if unicodedata.category(after) in ("Mn", "Mc", "Me") or "\U0001f3fb" <= after <= "\U0001f3ff":
        return False
    if "\U000e0020" <= after <= "\U000e007f":  # the tags of a subdivision flag
        return False
    flags = 0
    while at - flags - 1 >= 0 and "\U0001f1e6" <= text[at - flags - 1] <= "\U0001f1ff":
        flags += 1
    return not ("\U0001f1e6" <= after <= "\U0001f1ff" and flags % 2 == 1)


def _round_ticks(first: int, last: int, apart: float, widest: float) -> list[int]:
    """The rounds after `first` up to `last` that the x axis names, given the pixels between two
    rounds and the widest number: every round if they fit, else every 2nd, 5th or 10th (and the
    first one too, when every 5th or 10th), and always the last."""
    step = next((s for s in (1, 2, 5, 10) if s * apart >= widest * 1.6), 10)
    ticks = [n for n in range(first + 1, last + 1) if n % step == 0]
    if step >= 5 and (not ticks or ticks[0] - first > step * 0.6):
        ticks.insert(0, first + 1)
    if not ticks or ticks[-1] != last:
        if ticks and last - ticks[-1] < step * 0.6:  # too close to the last to be read apart
            ticks.pop()
        ticks.append(last)
    return ticks


def _spread(targets: list[float], gap: float, low: float, high: float) -> list[float]:
    """Heights for labels wanted at `targets`, at least `gap` apart, between `low` and `high`, each
    as near its target as can be (least squares), in the order of their targets (of tied targets,
    the first given above)."""
    order = sorted(range(len(targets)), key=lambda i: (targets[i], -i))
    # Shifting the k-th lowest label down by k gaps turns "gap apart" into "in order": the nearest
    # ordered values are the pooled means of adjacent violators (isotonic regression).
    shifted = [targets[i] - k * gap for k, i in enumerate(order)]
    blocks: list[tuple[float, int]] = []
    for value in shifted:
        mean, count = value, 1
        while blocks and blocks[-1][0] > mean:
            other, others = blocks.pop()
            mean, count = (other * others + mean * count) / (others + count), others + count
        blocks.append((mean, count))
    pooled = [mean for mean, count in blocks for _ in range(count)]
    ceiling = max(low, high - (len(targets) - 1) * gap)
    placed = [0.0] * len(targets)
    for k, i in enumerate(order):
        placed[i] = min(max(pooled[k], low), ceiling) + k * gap
    return placed
