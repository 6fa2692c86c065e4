"""The end of a round and of the game: the score pad, the final standings and their buttons."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import discord

from bot.engine import RoundResult
from bot.i18n import number, t, tn
from bot.manager import Table, placings

from . import _ids
from ._look import COLOUR, RECORD_EMOJI, REMATCH_EMOJI, REVIEW_EMOJI, button, plain_name, player_name, position

PAD_WIDTH = 34
PAD_INDENT = 2  # the numbers stand in from the names, so that a name starts each player's lines
# The least width of each column (bid, took, points, total), for its widest value: bids and tricks
# up to 20, points such as "+220", totals such as "−1230".
PAD_VALUE_WIDTHS = (2, 2, 4, 5)
EXACT_MARK = " ✓"


def _width(text: str) -> int:
    """Columns `text` takes in a monospaced font: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _right(text: str, width: int) -> str:
    """`text` right-aligned in `width` columns."""
    return " " * (width - _width(text)) + text


def _cut(text: str, width: int) -> str:
    """`text`, or as much of it as fits in `width` columns followed by "…"."""
    if _width(text) <= width:
        return text
    while _width(text) > width - 1:
        text = text[:-1]
    return text + "…"


def score_pad(table: Table, result: RoundResult, locale: str | None) -> str:
    """The round as a score pad: per player the bid, tricks, points and running total; ✓ for an exact bid."""
    headers = [t(locale, f"pad.{column}") for column in ("bid", "took", "points", "total")]
    widths = [max(_width(header), least) for header, least in zip(headers, PAD_VALUE_WIDTHS, strict=True)]

    def columns(values: Sequence[str]) -> str:
        return " " * PAD_INDENT + " ".join(_right(value, width) for value, width in zip(values, widths, strict=True))

    lines = [columns(headers)]
    for seat, player in enumerate(table.players):
        # A computer player's name is short enough; a person's display name (32 characters at most)
        # is cut only when wide letters make it longer than a line.
        lines.append(_cut(plain_name(player, locale), PAD_WIDTH))
        values = [
            number(locale, result.bids[seat]),
            number(locale, result.tricks[seat]),
            number(locale, result.points[seat], "+d"),
            number(locale, result.totals[seat]),
        ]
        lines.append(columns(values) + (EXACT_MARK if result.bids[seat] == result.tricks[seat] else ""))
    return "```\n" + "\n".join(lines) + "\n```"


def summary_embed(table: Table, result: RoundResult, locale: str | None) -> discord.Embed:
    """The round's results as a score pad."""
    return discord.Embed(
        title=t(locale, "summary.title", round=position(table, result.round), rounds=table.game.rounds),
        description=score_pad(table, result, locale),
        colour=COLOUR,
    )


def final_embed(table: Table, locale: str | None) -> discord.Embed:
    scores = table.game.scores
    places = placings(scores)
    order = sorted(range(len(scores)), key=lambda seat: (places[seat], seat))
    lines = [
        tn(locale, "final.line", scores[seat], place=places[seat], name=player_name(table.players[seat], locale))
        for seat in order
    ]
    winners = [player_name(table.players[seat], locale) for seat in table.game.winners()]
    key = "final.winner" if len(winners) == 1 else "final.winners"
    lines += ["", "🏆 " + t(locale, key, names=", ".join(winners))]
    return discord.Embed(title=t(locale, "final.title"), description="\n".join(lines), colour=discord.Colour.gold())


def final_view(table: Table, locale: str | None) -> discord.ui.View:
    """The buttons under the final standings: a rematch first (what most want next), then each
    player's own review, then the game's record (a file, for the few who keep one)."""
    view = discord.ui.View(timeout=None)
    for custom_id, key, style, emoji in (
        (_ids.RematchId(table.id), "final.rematch", discord.ButtonStyle.success, REMATCH_EMOJI),
        (_ids.ReviewId(table.id), "final.review", discord.ButtonStyle.primary, REVIEW_EMOJI),
        (_ids.RecordId(table.id), "final.record", discord.ButtonStyle.secondary, RECORD_EMOJI),
    ):
        view.add_item(button(_ids.build(custom_id), t(locale, key), style=style, emoji=emoji))
    return view
