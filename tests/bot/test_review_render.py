"""The coach's review as an embed (cogs/wizard/_review.py): within Discord's limits in every language."""

from __future__ import annotations

import re

import discord
import pytest

from bot.engine import DECK, Bid, Card, Kind, Play
from bot.i18n import LANGUAGES
from bot.review import Moment, Review, RoundReview
from cogs.wizard._look import Look
from cogs.wizard._review import review_embed
from tests.e2e.standin import validate_message_body

WIZARDS = [card for card in DECK if card.kind is Kind.WIZARD]
JESTERS = [card for card in DECK if card.kind is Kind.JESTER]
NUMBERS = [card for card in DECK if card.kind is Kind.NUMBER]
# The longest hand to show: 20 cards, every Wizard and Jester (their names are words, not numbers).
LONG_HAND = tuple(WIZARDS + NUMBERS[:12] + JESTERS)


def busy_review(rounds: int = 20, cards: int = 20) -> Review:
    """A review of `rounds` rounds of `cards` cards where hard differs at every bid and card; the
    defaults are the most a review can hold (3 players)."""
    made = []
    for place in range(1, rounds + 1):
        moments = [Moment(place, 0, Bid(cards), Bid(0), 100.0 + place)]
        moments += [
            Moment(place, trick, Play(WIZARDS[trick % 4]), Play(JESTERS[trick % 4]), place + trick / 100)
            for trick in range(1, cards + 1)
        ]
        made.append(RoundReview(place, cards, LONG_HAND[:cards], cards, 0, -10 * cards, 0, 0.4, tuple(moments)))
    return Review("0123456789abcdef", 0, tuple(made))


def short_review() -> Review:
    moments = (
        Moment(1, 0, Bid(2), Bid(1), 12.5),
        Moment(1, 1, Play(Card.parse("S13")), Play(Card.parse("S8")), 3.25),
        Moment(1, 2, Play(WIZARDS[0]), Play(JESTERS[0]), 0.75),
    )
    return Review(
        "c0ffee01",
        1,
        (RoundReview(1, 3, (WIZARDS[0], Card.parse("S13"), Card.parse("S8")), 2, 3, -10, 1, 1.2, moments),),
    )


def sendable(embed: discord.Embed) -> None:
    """Raise the stand-in's DiscordError if Discord would refuse a message with this embed."""
    validate_message_body({"embeds": [embed.to_dict()], "flags": 64}, creating=True)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_longest_review_fits_in_one_message(language: str) -> None:
    embed = review_embed(busy_review(), Look(language))
    sendable(embed)
    assert len(embed.fields) == 20


@pytest.mark.parametrize("language", LANGUAGES)
def test_folding_keeps_the_cards_with_the_most_at_stake(language: str) -> None:
    review = busy_review(rounds=15, cards=10)
    embed = review_embed(review, Look(language))
    sendable(embed)
    # The play lines end with their stake; a shown one is never worth less than a folded one.
    shown = {float(s.replace(",", ".")) for f in embed.fields for s in re.findall(r"(\d+[.,]\d+)$", f.value, re.M)}
    plays = sorted((m.stake for r in review.rounds for m in r.moments if m.trick), reverse=True)
    shown_plays = [stake for stake in plays if round(stake, 1) in shown]
    assert 0 < len(shown_plays) < len(plays)
    assert shown_plays == plays[: len(shown_plays)]


def test_a_review_that_fits_folds_nothing() -> None:
    embed = review_embed(short_review(), Look("en-US"))
    [field] = embed.fields
    assert field.value.splitlines() == [
        "Bid 2, took 3: −10 · 🤖 bids 1, expected tricks 1.2 · stake 12.5",
        "Trick 1: you ♤13 · 🤖 ♤8 · stake 3.2",
        "Trick 2: you 🧙 Wizard · 🤖 🃏 Jester · stake 0.8",
    ]


def test_the_costliest_moments_lead_the_description_in_order() -> None:
    embed = review_embed(short_review(), Look("en-US"))
    description = embed.description or ""
    lines = [line for line in description.splitlines() if re.match(r"\d\. ", line)]
    assert lines == [
        "1. Round 1, bid: you 2 · 🤖 1 · stake 12.5",
        "2. Round 1, trick 1: you ♤13 · 🤖 ♤8 · stake 3.2",
        "3. Round 1, trick 2: you 🧙 Wizard · 🤖 🃏 Jester · stake 0.8",
    ]


def test_a_review_without_moments_says_hard_agreed() -> None:
    review = Review("c0ffee01", 0, (RoundReview(1, 1, (Card.parse("H1"),), 0, 0, 20, 0, 0.1, ()),))
    embed = review_embed(review, Look("en-US"))
    assert "would have made your choices" in (embed.description or "")
    assert embed.fields[0].value == "Bid 0, took 0: +20 · 🤖 bids 0, expected tricks 0.1"
