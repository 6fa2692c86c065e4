"""The coach's review as a private embed, fitted to Discord's limits.

A review has a field per round (at most 20, under Discord's 25) with the hand, the bid against the
hard player's and the cards where it would have played otherwise. When the whole would pass
Discord's limits (6,000 characters in an embed, 1,024 in a field), the cards with the least at
stake are folded into one line per round ("… 3 more cards, stake 1.2 in all") until it fits; the
bids and the costliest moments are always shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine import Bid, Play

from ._look import COLOUR, Look

if TYPE_CHECKING:
    # Only its types: `bot.review` brings the computer players, which starting the bot leaves out.
    from bot.review import Moment, Review, RoundReview

# Discord's limits (see ../shared/DISCORD.md); the stand-in enforces the same.
EMBED_TOTAL = 6000
FIELD_VALUE = 1024
FIELD_NAME = 256


def _decision(look: Look, action: Bid | Play) -> str:
    return str(action.tricks) if isinstance(action, Bid) else look.card(action.card)


def _costly_line(look: Look, moment: Moment) -> str:
    theirs, hard = _decision(look, moment.theirs), _decision(look, moment.hard)
    if moment.trick == 0:
        return look.t("review.top_bid", round=moment.round, theirs=theirs, hard=hard, stake=moment.stake)
    return look.t(
        "review.top_play", round=moment.round, trick=moment.trick, theirs=theirs, hard=hard, stake=moment.stake
    )


def _bid_line(look: Look, game_round: RoundReview) -> str:
    common = {"bid": game_round.bid, "tricks": game_round.tricks, "points": game_round.points}
    if game_round.hard_bid is None or game_round.expected is None:
        return look.t("review.bid_unweighed", **common)
    bid_moment = next((m for m in game_round.moments if m.trick == 0), None)
    if bid_moment is None:
        return look.t("review.bid", hard=game_round.hard_bid, expected=game_round.expected, **common)
    return look.t(
        "review.bid_stake",
        hard=game_round.hard_bid,
        expected=game_round.expected,
        stake=bid_moment.stake,
        **common,
    )


class _RoundField:
    """A round's field: its name, bid line and card lines made once; the cards folded away re-make
    only the last line."""

    def __init__(self, look: Look, game_round: RoundReview) -> None:
        self.look = look
        self.round = game_round
        hand = " ".join(look.card(card) for card in game_round.hand)
        self.name = look.t("review.round", round=game_round.round, hand=hand)[:FIELD_NAME]
        # Without the hand: the last resort when folding every card is not enough.
        self.short_name = look.t("review.round", round=game_round.round, hand=str(game_round.cards))
        self.bid = _bid_line(look, game_round)
        self.plays = {
            index: look.t(
                "review.play",
                trick=moment.trick,
                theirs=_decision(look, moment.theirs),
                hard=_decision(look, moment.hard),
                stake=moment.stake,
            )
            for index, moment in enumerate(game_round.moments)
            if moment.trick
        }
        self.folded: set[int] = set()
        self.value = self._value()

    def fold(self, index: int) -> None:
        self.folded.add(index)
        self.value = self._value()

    def _value(self) -> str:
        lines = [self.bid, *(line for index, line in self.plays.items() if index not in self.folded)]
        if self.folded:
            stake = sum(self.round.moments[index].stake for index in self.folded)
            lines.append(self.look.tn("review.more", len(self.folded), stake=stake))
        return "\n".join(lines)


def _fits(fixed: int, fields: list[_RoundField], names: bool) -> bool:
    """Whether an embed of these fields fits Discord's limits (`fixed`: its title, description and footer)."""
    size = fixed + sum(len((f.name if names else f.short_name).strip()) + len(f.value.strip()) for f in fields)
    return size <= EMBED_TOTAL and all(len(f.value.strip()) <= FIELD_VALUE for f in fields)


def review_embed(review: Review, look: Look) -> discord.Embed:
    """The review, for its reviewer's eyes only (an ephemeral answer)."""
    costliest = review.costliest()
    summary = [look.t("review.intro"), ""]
    if costliest:
        summary.append(look.t("review.costliest"))
        summary += [f"{place}. {_costly_line(look, m)}" for place, m in enumerate(costliest, start=1)]
    else:
        summary.append(look.t("review.none"))
    embed = discord.Embed(title=look.t("review.title"), description="\n".join(summary), colour=COLOUR)
    embed.set_footer(text=look.t("review.footer", game=review.game_id, stake=review.at_stake))
    fixed = sum(len(part.strip()) for part in (embed.title or "", embed.description or "", embed.footer.text or ""))
    fields = [_RoundField(look, game_round) for game_round in review.rounds]
    # The cards in the order they are folded when space runs out: the least at stake first.
    foldable = sorted(
        (moment.stake, position, index)
        for position, game_round in enumerate(review.rounds)
        for index, moment in enumerate(game_round.moments)
        if moment.trick
    )
    names = True
    for _, position, index in foldable:
        if _fits(fixed, fields, names):
            break
        fields[position].fold(index)
    if not _fits(fixed, fields, names):
        names = False
    if not _fits(fixed, fields, names):
        raise ValueError(f"the review of game {review.game_id} does not fit in an embed")
    for field in fields:
        embed.add_field(name=field.name if names else field.short_name, value=field.value, inline=False)
    return embed
