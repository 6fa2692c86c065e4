"""The coach's review as a private message of pages (Components V2), each about a phone screen.

Page 0, the summary: the score and place, how much of the result against the others' average was
the cards and how much the play (`Review.cards_and_play`), and the three costliest decisions, each
with one line of why drawn from what the hard player's search computed (the tricks it expects the
seat to end the round with after each choice). Then the rounds, a few a page (`round_pages`): the
hand and trump, the bid against the hard player's, and the costliest card where it would have
played otherwise, with a count of the others.

Every figure says its unit, and points are whole ("≈ 15 points"). The summary of a 20-round game
fits a phone screen above its buttons, and a page of rounds about one (`phone_lines` estimates a
text's lines there; it was measured against the screens tool's drawing, docs/screens.md). The
buttons turn the pages by editing the message (`_ids.ReviewPageId`); a page is drawn from the
stored review each time.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import Bid, Play
from bot.manager import placings

from . import _ids
from ._hand import cards_text
from ._look import COLOUR, Look, button, gap, layout, line, text

if TYPE_CHECKING:
    # Only its types: `bot.review` brings the computer players, which starting the bot leaves out.
    from bot.review import Moment, Review, RoundReview

# The cards of a round shown on its page: its costliest; the others are counted in one line.
SHOWN_CARDS = 1
# How much of a page the rounds may fill, in lines of a phone screen (about 25 at 390 px, less the
# page's heading and buttons): a round weighs the lines it takes there (`_weight`).
PAGE_LINES = 20
# Characters on one line of a review on a phone screen (390 px wide: the message's text is about
# 260 px), of 16 px body text and of the smaller `-#` text: for estimating a text's lines there.
PHONE_LINE = 34
PHONE_SUBTEXT_LINE = 43
SUBTEXT_LINE = 17 / 22  # the height of a `-#` line, and of a heading's, in lines of body text
HEADING_LINE = 28 / 22
_CUSTOM_EMOJI = re.compile(r"<a?:\w+:\d+>")
_PAGING = Look("en")


def whole(points: float) -> int:
    """Points as a person counts them: rounded half up (a stake of 0.5 is 1 point, not 0)."""
    return math.floor(points + 0.5)


# Scripts drawn wider than Latin letters, by how much: Hangul and CJK (their ranges of code
# points), and Greek and Cyrillic a little.
_WIDE = ((0x1100, 0x11FF, 1.7), (0x2E80, 0x9FFF, 1.7), (0xAC00, 0xD7AF, 1.7), (0x370, 0x52F, 1.1))


def _width(text: str) -> float:
    """A text's width in Latin letters."""
    return sum(next((wide for low, high, wide in _WIDE if low <= ord(char) <= high), 1.0) for char in text)


def phone_lines(content: str) -> float:
    """About how many lines of body text `content` takes on a phone screen: a `-#` line is smaller
    (17 px to 22), a heading larger; an emoji is as wide as about three letters."""
    lines = 0.0
    for part in content.split("\n"):
        subtext, heading = part.startswith("-# "), part.startswith("### ")
        shown = _CUSTOM_EMOJI.sub("xxx", part.removeprefix("-# ").removeprefix("### ").replace("**", ""))
        wrapped = max(1, math.ceil(_width(shown) / (PHONE_SUBTEXT_LINE if subtext else PHONE_LINE)))
        lines += wrapped * (SUBTEXT_LINE if subtext else HEADING_LINE if heading else 1.0)
    return lines


def _decision(look: Look, action: Bid | Play) -> str:
    return str(action.tricks) if isinstance(action, Bid) else look.card(action.card)


def _about(look: Look, stake: float) -> str:
    return look.tn("review.about", whole(stake))


def _signed(look: Look, points: int) -> str:
    return look.tn("review.points_signed", points)


# -- the summary ------------------------------------------------------------------------------


def _why(look: Look, moment: Moment, game_round: RoundReview) -> str:
    """One line of why, from what the search computed: the tricks it expects by the round's end
    after each choice (and, for a card, whether it took its trick)."""
    theirs, hard = _decision(look, moment.theirs), _decision(look, moment.hard)
    figures: dict[str, object] = {
        "theirs": theirs,
        "hard": hard,
        "theirs_tricks": moment.theirs_tricks,
        "hard_tricks": moment.hard_tricks,
    }
    if moment.trick == 0:
        return look.t("review.why_bid", tricks=game_round.tricks, **figures)
    if moment.took:
        return look.t("review.why_play.took", bid=game_round.bid, **figures)
    return look.t("review.why_play.lost", bid=game_round.bid, **figures)


def _costly(look: Look, place: int, moment: Moment, game_round: RoundReview) -> str:
    theirs, about = _decision(look, moment.theirs), _about(look, moment.stake)
    if moment.trick == 0:
        head = look.t("review.top_bid", place=place, round=moment.round, theirs=theirs, about=about)
    else:
        head = look.t(
            "review.top_play", place=place, round=moment.round, trick=moment.trick, theirs=theirs, about=about
        )
    return f"{head}\n-# {_why(look, moment, game_round)}"


def _summary(review: Review, look: Look) -> list[discord.ui.Item[Any]]:
    place = placings(list(review.totals))[review.seat]
    cards, play = review.cards_and_play()
    lead = _signed(look, cards + play)
    score = "\n".join(
        [
            f"### {look.t('review.title')}",
            look.tn("review.score", review.score, place=place, players=len(review.totals), lead=lead),
            look.t("review.split", cards=_signed(look, cards), play=_signed(look, play)),
            "-# " + look.t("review.split_why"),
        ]
    )
    items: list[discord.ui.Item[Any]] = [text(score), line()]
    costliest = review.costliest()
    if costliest:
        by_place = {game_round.round: game_round for game_round in review.rounds}
        lines = [look.t("review.costliest")]
        lines += [_costly(look, place, m, by_place[m.round]) for place, m in enumerate(costliest, start=1)]
        items.append(text("\n".join(lines)))
    else:
        items.append(text(look.t("review.none")))
    return items


# -- the rounds -------------------------------------------------------------------------------


def _weight(game_round: RoundReview) -> float:
    """About how many phone lines a round takes on its page, the gap before it included. Measured
    on the English text with text faces, so that the pages of a review are the same for everyone."""
    return 0.4 + phone_lines(_round_text(_PAGING, game_round))


def round_pages(review: Review) -> list[tuple[int, int]]:
    """The rounds of each page after the summary, as (first, last) places in the game: as many
    rounds as fit about one phone screen, and at least one."""
    pages: list[tuple[int, int]] = []
    start, lines = 0, 0.0
    for index, game_round in enumerate(review.rounds):
        weight = _weight(game_round)
        if index > start and lines + weight > PAGE_LINES:
            pages.append((review.rounds[start].round, review.rounds[index - 1].round))
            start, lines = index, 0.0
        lines += weight
    if review.rounds:
        pages.append((review.rounds[start].round, review.rounds[-1].round))
    return pages


def _bid_lines(look: Look, game_round: RoundReview) -> list[str]:
    result = look.tn("review.result", game_round.points, bid=game_round.bid, tricks=game_round.tricks)
    if game_round.hard_bid is None or game_round.expected is None:
        return [result, "-# " + look.t("review.unweighed")]
    moment = next((m for m in game_round.moments if m.trick == 0), None)
    if game_round.hard_bid == game_round.bid:
        hard = look.t("review.hard_bid_same", expected=game_round.expected)
    elif moment is None:
        hard = look.t("review.hard_bid_close", hard=game_round.hard_bid, expected=game_round.expected)
    else:
        hard = look.t(
            "review.hard_bid", hard=game_round.hard_bid, expected=game_round.expected, about=_about(look, moment.stake)
        )
    return [result, "-# " + hard]


def _round_text(look: Look, game_round: RoundReview) -> str:
    """A round: its heading with the trump, the hand, the bid, and its costliest cards."""
    trump = (
        look.t("round.trump.none")
        if game_round.trump is None
        else look.t("round.trump", suit=look.faces.suit_named(look.locale, game_round.trump))
    )
    lines = [
        look.t("review.round", round=game_round.round, trump=trump),
        cards_text(look, game_round.hand, separator=" · "),
        *_bid_lines(look, game_round),
    ]
    plays = [moment for moment in game_round.moments if moment.trick]
    kept = sorted(sorted(plays, key=lambda m: -m.stake)[:SHOWN_CARDS], key=lambda m: m.trick)
    for moment in kept:
        lines.append(
            look.t(
                "review.play",
                trick=moment.trick,
                theirs=_decision(look, moment.theirs),
                hard=_decision(look, moment.hard),
                about=_about(look, moment.stake),
            )
        )
    folded = [moment for moment in plays if moment not in kept]
    if folded:
        # Not their sum: each is weighed from where the game stood, so the stakes of one round do not add up.
        lines.append(look.tn("review.more", len(folded)))
    return "\n".join(lines)


def _span(look: Look, first: int, last: int) -> str:
    return (
        look.t("review.rounds_one", first=first) if first == last else look.t("review.rounds", first=first, last=last)
    )


def _rounds(review: Review, look: Look, first: int, last: int, page: int, pages: int) -> list[discord.ui.Item[Any]]:
    # Each round says which it is; the buttons say which rounds the other pages hold.
    items: list[discord.ui.Item[Any]] = [text("-# " + look.t("review.page", page=page, pages=pages))]
    for game_round in review.rounds:
        if first <= game_round.round <= last:
            if len(items) > 1:
                items.append(gap())
            items.append(text(_round_text(look, game_round)))
    return items


# -- the message ------------------------------------------------------------------------------


def page_count(review: Review) -> int:
    """The pages of a review: the summary, then the rounds."""
    return 1 + len(round_pages(review))


def _label(look: Look, review: Review, page: int) -> str:
    """What a page holds, for the button that turns to it."""
    if page == 0:
        return look.t("review.summary")
    first, last = round_pages(review)[page - 1]
    return _span(look, first, last)


def review_view(review: Review, look: Look, page: int = 0) -> discord.ui.LayoutView:
    """Page `page` of the review (0: the summary), for its reviewer's eyes only; ValueError when the
    review has no such page."""
    pages = page_count(review)
    if not 0 <= page < pages:
        raise ValueError(f"the review of game {review.game_id} has {pages} pages, not a page {page}")
    container = discord.ui.Container[Any](accent_colour=COLOUR)
    if page == 0:
        items = _summary(review, look)
    else:
        first, last = round_pages(review)[page - 1]
        items = _rounds(review, look, first, last, page, pages - 1)
    for item in items:
        container.add_item(item)
    row = discord.ui.ActionRow[Any]()
    if page > 0:
        custom_id = _ids.build(_ids.ReviewPageId(review.game_id, page - 1))
        label = look.t("review.previous", what=_label(look, review, page - 1))
        row.add_item(button(custom_id, label, style=discord.ButtonStyle.secondary))
    if page + 1 < pages:
        custom_id = _ids.build(_ids.ReviewPageId(review.game_id, page + 1))
        label = look.t("review.next", what=_label(look, review, page + 1))
        row.add_item(button(custom_id, label, style=discord.ButtonStyle.primary))
    if page > 1:
        # Back to the start from anywhere: the previous page is the summary only on page 1.
        custom_id = _ids.build(_ids.ReviewPageId(review.game_id, 0))
        row.add_item(button(custom_id, look.t("review.summary"), style=discord.ButtonStyle.secondary))
    if row.children:
        container.add_item(row)
    return layout(container)
