"""The end-of-game chart: every player's total after each round, as a PNG."""

from __future__ import annotations

import hashlib
import io
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

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
    out), registered with matplotlib; the cuts used least recently are dropped. Called under _lock."""
    from matplotlib import font_manager

    if characters in _cuts:
        _cuts.move_to_end(characters)
        return _cuts[characters][0]
    from fontTools import subset
    from fontTools.ttLib import TTFont
    from fontTools.varLib import instancer

    if not _folder:
        # Removed with its files when the bot stops.
        _folder.append(tempfile.TemporaryDirectory(prefix="wizard-chart-fonts-"))
    digest = hashlib.sha256("".join(sorted(characters)).encode()).hexdigest()[:16]
    family = f"Wizard Chart CJK {digest}"
    path = Path(_folder[0].name) / f"{digest}.otf"
    with TTFont(collection, fontNumber=CJK_FACE, lazy=True) as font:
        options = subset.Options()
        options.notdef_outline = True
        cutter = subset.Subsetter(options)
        cutter.populate(text="".join(characters))
        cutter.subset(font)
        instancer.instantiateVariableFont(font, {"wght": REGULAR}, inplace=True)
        font["OS/2"].usWeightClass = REGULAR
        # Its own family name: two cuts must not be taken for one another.
        names = font["name"]
        names.names = []
        for number, value in ((1, family), (2, "Regular"), (4, family), (6, family.replace(" ", ""))):
            names.setName(value, number, 3, 1, 0x409)
        font.save(path)
    font_manager.fontManager.addfont(path)
    _cuts[characters] = (family, path)
    while len(_cuts) > KEPT_CUTS:
        _, (_, old) = _cuts.popitem(last=False)
        font_manager.fontManager.ttflist = [e for e in font_manager.fontManager.ttflist if e.fname != str(old)]
        old.unlink()
    return family


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

    title, xlabel, ylabel = t(locale, "chart.title"), t(locale, "chart.rounds"), t(locale, "chart.points")
    families = font_families([title, xlabel, ylabel, *names])
    figure = Figure(figsize=(8, 5), dpi=150)
    axes = figure.subplots()
    axes.set_title(title, fontsize=14, family=families)
    axes.set_xlabel(xlabel, fontsize=12, family=families)
    axes.set_ylabel(ylabel, fontsize=12, family=families)
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
