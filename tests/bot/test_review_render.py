"""The coach's review as pages (cogs/wizard/_review.py): within Discord's limits in every language,
its summary a phone screen, every figure with its unit, and the hard player named in words."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.engine import DECK, Bid, Card, Kind, Play, Suit
from bot.i18n import LANGUAGES
from bot.review import Moment, Review, RoundReview
from cogs.wizard import _faces, _ids
from cogs.wizard._look import Look
from cogs.wizard._review import PAGE_LINES, SHOWN_CARDS, page_count, phone_lines, review_view, round_pages
from tests.e2e.standin import validate_message_body

WIZARDS = [card for card in DECK if card.kind is Kind.WIZARD]
JESTERS = [card for card in DECK if card.kind is Kind.JESTER]
NUMBERS = [card for card in DECK if card.kind is Kind.NUMBER]
# The longest hand to show: 20 cards, every Wizard and Jester (their names are words, not numbers).
LONG_HAND = tuple(WIZARDS + NUMBERS[:12] + JESTERS)
# The bot's own card faces with the longest ids Discord gives (19 digits): the longest text there is.
LONGEST_ID = 10**19 - 1
DRAWN = _faces.Faces(
    {kind: discord.PartialEmoji(name=_faces.PREFIX + kind, id=LONGEST_ID - k) for k, kind in enumerate(_faces.KINDS)}
)
LOOKS = [pytest.param(Look(language, DRAWN), id=language) for language in LANGUAGES]
# A phone screen holds about 25 lines of a review (651 px of messages at 390 px wide, 22 px a line;
# `phone_lines` measured against the screens tool's drawing): the summary's text, above its page
# buttons, must leave room for the message's author line and the gaps between its parts.
SUMMARY_LINES = 24


def busy_review(rounds: int = 20, cards: int = 20, players: int = 3, costly: str = "bids") -> Review:
    """A review of `rounds` rounds of `cards` cards where hard differs at every bid and card, with
    the longest figures; the defaults are the most a review can hold (3 players). The costliest
    decisions are its `costly` ("bids" or "cards": Wizards against Jesters, the longest why)."""
    made = []
    bids, plays = (100.0, 0.0) if costly == "bids" else (0.0, 200.0)
    for place in range(1, rounds + 1):
        moments = [Moment(place, 0, Bid(cards), Bid(0), bids + place, 19.75, 10.5)]
        moments += [
            Moment(
                place,
                trick,
                Play(WIZARDS[trick % 4]),
                Play(JESTERS[trick % 4]),
                plays + place + trick / 100,
                19.5,
                13.25,
                trick % 2 == 0,
            )
            for trick in range(1, cards + 1)
        ]
        made.append(
            RoundReview(
                place,
                cards,
                LONG_HAND[:cards],
                Suit.CLUBS,
                cards,
                0,
                -10 * cards,
                0,
                0.4,
                tuple(moments),
                (-123.45,) * players,
            )
        )
    # The lowest score of a 20-round game of 3 against the highest: the longest figures there are.
    return Review("0123456789abcdef", 0, tuple(made), (-2100, 2500, 2500, 2500, 2500, 2500)[:players])


def short_review() -> Review:
    moments = (
        Moment(1, 0, Bid(2), Bid(1), 12.5, 1.75, 1.25),
        Moment(1, 1, Play(Card.parse("S13")), Play(Card.parse("S8")), 3.25, 1.5, 1.0, True),
        Moment(1, 2, Play(WIZARDS[0]), Play(JESTERS[0]), 0.75, 1.5, 1.25, False),
    )
    hand = (WIZARDS[0], Card.parse("S13"), Card.parse("S8"))
    rounds = (RoundReview(1, 3, hand, Suit.HEARTS, 2, 3, -10, 1, 1.2, moments, (18.0, 30.0, 20.0)),)
    return Review("c0ffee01", 1, rounds, (10, -10, 20))


def texts(components: list[dict[str, Any]]) -> list[str]:
    found = []
    for component in components:
        if component.get("type") == 10:
            found.append(str(component["content"]))
        found += texts(component.get("components", []))
    return found


def buttons(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for component in components:
        if component.get("type") == 2:
            found.append(component)
        found += buttons(component.get("components", []))
    return found


def page(review: Review, look: Look, number: int = 0) -> list[dict[str, Any]]:
    return review_view(review, look, number).to_components()  # type: ignore[no-untyped-call]


def sendable(components: list[dict[str, Any]]) -> None:
    """Raise the stand-in's DiscordError if Discord would refuse this private V2 message."""
    body = {"components": components, "flags": 1 << 15 | 1 << 6}
    validate_message_body(body, creating=True, known_emoji=lambda emoji_id: emoji_id > LONGEST_ID - 100)


@pytest.mark.parametrize("look", LOOKS)
def test_every_page_of_the_longest_review_fits_in_one_message(look: Look) -> None:
    review = busy_review()
    for number in range(page_count(review)):
        sendable(page(review, look, number))


@pytest.mark.parametrize("costly", ["bids", "cards"])
@pytest.mark.parametrize("look", LOOKS)
def test_the_summary_of_the_longest_review_fits_a_phone_screen(look: Look, costly: str) -> None:
    lines = phone_lines("\n".join(texts(page(busy_review(costly=costly), look))))
    assert lines <= SUMMARY_LINES


def test_the_pages_hold_every_round_once_in_order_about_a_phone_screen_each() -> None:
    review = busy_review(rounds=20, cards=10)
    pages = round_pages(review)
    covered = [place for first, last in pages for place in range(first, last + 1)]
    assert covered == [r.round for r in review.rounds]
    look = Look("en")
    for number, (first, last) in enumerate(pages, start=1):
        if first != last:  # a page of one round may be longer: a round is never split
            # The rounds fill PAGE_LINES at most; the page's own line ("Page 2 of 7") comes on top.
            assert phone_lines("\n".join(texts(page(review, look, number)))) <= PAGE_LINES + 1
    assert len(pages) < len(review.rounds)  # a few rounds a page, not one


def test_the_buttons_turn_the_pages_and_lead_back_to_the_summary() -> None:
    review = busy_review(rounds=10, cards=4)
    count = page_count(review)
    assert count >= 4
    for number in range(count):
        ids = [_ids.parse(str(b["custom_id"])) for b in buttons(page(review, Look("en"), number))]
        assert all(isinstance(i, _ids.ReviewPageId) and i.game == review.game_id for i in ids)
        expected = [n for n in (number - 1, number + 1) if 0 <= n < count]
        if number > 1:
            expected.append(0)
        assert [i.page for i in ids] == expected  # type: ignore[union-attr]


def test_a_button_says_which_rounds_it_turns_to() -> None:
    review = busy_review(rounds=10, cards=4)
    pages = round_pages(review)
    labels = [str(b["label"]) for b in buttons(page(review, Look("en"), 2))]
    (first, last), (after_first, after_last) = pages[0], pages[2]
    assert labels == [f"← Rounds {first}–{last}", f"Rounds {after_first}–{after_last} →", "Summary"]
    assert next(str(b["label"]) for b in buttons(page(review, Look("en"), 1))) == "← Summary"


@pytest.mark.parametrize("number", [-1, 99])
def test_a_page_the_review_does_not_have_is_refused(number: int) -> None:
    with pytest.raises(ValueError, match="pages, not a page"):
        review_view(short_review(), Look("en"), number)


def test_the_summary_gives_the_score_the_cards_and_play_and_the_costliest_decisions_with_why() -> None:
    # Seat 1 scored −10 against the others' 15: −25 points. Its hands were worth 30 against 19.
    assert texts(page(short_review(), Look("en-US"))) == [
        "### The coach's review\n"
        "You scored **−10 points**, place 3 of 3: **−25 points** against the others' average.\n"
        "Cards **+11 points** · play **−36 points**\n"
        "-# Cards: your hands against the others', each valued by the hard player's search at its bid."
        " Play: what each of you made of them.",
        "**The costliest of your decisions**\n"
        "**1.** Round 1, bid 2 · ≈ 13 points\n"
        "-# The hard player bids 1. Expected tricks: 1.2 bidding 1, 1.8 bidding 2; you took 3.\n"
        "**2.** Round 1, trick 1: ♤13 · ≈ 3 points\n"
        "-# Bid 2; expected tricks: 1.0 with the hard player's ♤8, 1.5 with yours, which took the trick.\n"
        "**3.** Round 1, trick 2: 🧙 Wizard · ≈ 1 point\n"
        "-# Bid 2; expected tricks: 1.2 with the hard player's 🃏 Jester, 1.5 with yours, which lost the trick.",
    ]


def test_a_round_shows_its_hand_trump_bid_and_the_cards_the_hard_player_would_change() -> None:
    assert texts(page(short_review(), Look("en-US"), 1)) == [
        "-# Page 1 of 1",
        "**Round 1** · trump ♥️ Hearts\n"
        "♤ 13 8 · 🧙 Wizard\n"
        "Bid 2, took 3: −10 points.\n"
        "-# The hard player bids 1 (expected tricks: 1.2) · ≈ 13 points\n"
        "Trick 1: you ♤13, the hard player ♤8 · ≈ 3 points\n"
        "… and 1 more card",
    ]


def test_a_round_shows_its_costliest_cards_and_counts_the_rest() -> None:
    review = busy_review(rounds=1, cards=8)
    [block] = texts(page(review, Look("en"), 1))[1:]
    shown = [line for line in block.splitlines() if line.startswith("Trick ")]
    # The busy review's later tricks cost more: the last ones are shown, in the order played.
    assert [line.split(":")[0] for line in shown] == [f"Trick {8 - n}" for n in reversed(range(SHOWN_CARDS))]
    assert block.splitlines()[-1] == f"… and {8 - SHOWN_CARDS} more cards"


@pytest.mark.parametrize(
    ("game_round", "expected"),
    [
        (RoundReview(1, 1, (Card.parse("H1"),), None, 0, 0, 20, 0, 0.125, (), (20.0,) * 3), "bids the same"),
        (RoundReview(1, 1, (Card.parse("H1"),), None, 0, 0, 20, 1, 0.5, (), (20.0,) * 3), "bids 1 (expected"),
        (RoundReview(1, 1, (Card.parse("H1"),), None, 0, 0, 20, None, None, (), (20.0,) * 3), "Nothing to weigh"),
    ],
    ids=["the same bid", "another bid within half a point", "nothing to weigh"],
)
def test_the_hard_players_bid_is_said_in_words(game_round: RoundReview, expected: str) -> None:
    review = Review("c0ffee01", 0, (game_round,), (20, 20, 20))
    assert "The hard player would have made your choices wherever it mattered." in texts(page(review, Look("en")))
    assert expected in texts(page(review, Look("en"), 1))[1]


def test_no_emoji_stands_in_for_the_hard_player_and_every_number_has_its_unit() -> None:
    review = busy_review(rounds=6, cards=6)
    for number in range(page_count(review)):
        shown = "\n".join(texts(page(review, Look("en"), number)))
        assert "🤖" not in shown
        assert "stake" not in shown
        # Points are whole, and say so; tricks are said before their figure ("expected tricks: 0.4").
        assert not re.search(r"\d[.,]\d(?! after| bidding|\))", shown.replace("tricks: ", ""))
        for figure in re.findall(r"[+−]?\d+(?: points?)?", shown.split("Game")[0]):
            if figure.startswith(("+", "−")):
                assert figure.endswith(("point", "points")), figure
