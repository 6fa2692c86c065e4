"""Reading the bot's messages the way a person reads them: cards by their marks, the table and the hand.

A person sees a card as its suit's mark and its number. The bot writes a suit with its own
application emoji (``<:wz1_hearts:123…>``, drawn from the emoji's name here, as the client draws
it from its image) or, when it has none, with text marks (♤ ♥️ ♦️ ♧); a Wizard and a Jester with
their own marks. Everything below reads English texts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.engine import Card, Kind, Suit

from .standin import StoredMessage

KINDS = {"spades": Suit.SPADES, "hearts": Suit.HEARTS, "diamonds": Suit.DIAMONDS, "clubs": Suit.CLUBS}
TEXT_MARKS = {"♤": Suit.SPADES, "♥️": Suit.HEARTS, "♦️": Suit.DIAMONDS, "♧": Suit.CLUBS}
WIZARD_MARKS = ("🧙",)
JESTER_MARKS = ("🃏",)
# A mark: the bot's own emoji, by its name, or a text mark.
MARK = re.compile(r"<a?:wz\d+_(?P<kind>[a-z]+):\d+>|(?P<text>♤|♥️|♦️|♧|🧙|🃏)")
# Cards as the bot writes them in text: a suit's mark and its number ("♥7"), or a suit's mark and
# its numbers in a hand's line ("♥ 13 11 7"); the Wizard's or Jester's mark and name, perhaps counted.
CARD = re.compile(
    rf"(?:{MARK.pattern})(?P<ranks>(?: ?(?:1[0-3]|[1-9])\b)*)(?: (?P<name>Wizard|Jester))?(?: ×(?P<count>\d))?"
)


@dataclass(frozen=True)
class Face:
    """A card as a person tells it: its kind, and for a suit card its suit and number (the four
    Wizards, like the four Jesters, look alike)."""

    kind: Kind
    suit: Suit | None = None
    rank: int | None = None

    @staticmethod
    def of(card: Card) -> Face:
        if card.kind is Kind.NUMBER:
            return Face(Kind.NUMBER, card.suit, card.rank)
        return Face(card.kind)


def _mark(match: re.Match[str]) -> Suit | Kind:
    kind, text = match["kind"], match["text"]
    if kind is not None:
        if kind == "wizard":
            return Kind.WIZARD
        if kind == "jester":
            return Kind.JESTER
        return KINDS[kind]
    if text in WIZARD_MARKS:
        return Kind.WIZARD
    if text in JESTER_MARKS:
        return Kind.JESTER
    return TEXT_MARKS[text]


def faces(text: str) -> list[Face]:
    """Every card named in `text`, in order."""
    found = []
    for match in CARD.finditer(text):
        mark = _mark(match)
        if isinstance(mark, Suit):
            # A suit named alone ("follow ♥ Hearts") names no card.
            found += [Face(Kind.NUMBER, mark, int(rank)) for rank in match["ranks"].split()]
        else:
            found += [Face(mark)] * int(match["count"] or 1)
    return found


def suit_named(text: str) -> Suit | None:
    """The suit a phrase such as "follow ♥️ Hearts" names (its mark, then its name)."""
    match = re.search(rf"(?:{MARK.pattern}) (?:Spades|Hearts|Diamonds|Clubs)", text)
    if match is None:
        return None
    mark = _mark(match)
    return mark if isinstance(mark, Suit) else None


@dataclass
class Seat:
    name: str
    bid: int | None  # None: not (yet) shown
    won: int | None
    score: int
    to_move: bool


@dataclass
class Reading:
    """What a table or hand message says, as a person reads it."""

    round: int | None = None
    rounds: int | None = None
    trump: Suit | None = None
    trump_pending: bool = False
    your_move: bool = False
    mover: str | None = None  # the name the turn line gives, when it is not the reader's move
    follow: Suit | None = None
    trick: list[tuple[str, Face]] = field(default_factory=list)  # the trick in play, led first
    seats: list[Seat] = field(default_factory=list)
    you: str | None = None  # the name the reader's own line carries
    over: bool = False


_TITLE = re.compile(r"round (\d+) of (\d+)", re.IGNORECASE)  # "Round 1 of 15 — results" too
_SEAT = re.compile(
    r"^(?P<marker>▶ )?\*\*(?P<name>.+?)(?P<you> \(you\))?\*\* — (?P<tricks>.+?) · (?P<score>[−\-]?\d+) points?",
    re.MULTILINE,
)
_TRICKS = re.compile(r"(?P<bid>\d+)/(?P<won>\d+)")


def unescape(name: str) -> str:
    """A name as the person chose it: the bot escapes markdown in names ("Bo\\_b")."""
    return re.sub(r"\\(.)", r"\1", name)


def _number(text: str) -> int:
    return int(text.replace("−", "-"))


def read(message: StoredMessage) -> Reading:
    """Read a table or a hand message (English)."""
    text = message.text()
    reading = Reading()
    title = _TITLE.search(text)
    if title:
        reading.round, reading.rounds = int(title[1]), int(title[2])
    heading = next((line for line in text.splitlines() if line.startswith("### ")), "")
    if "trump: the dealer is choosing" in heading:
        reading.trump_pending = True
    elif "no trump" not in heading:
        reading.trump = suit_named(heading)
    reading.over = "is over" in text
    reading.your_move = "▶ Your move" in text
    turn = re.search(
        r"^(?:▶ )?\*\*(?P<name>(?:\\.|[^*\\])+)\*\* (?:is to play|is bidding|is choosing trump|leads the trick)",
        text,
        re.MULTILINE,
    )
    if turn and not reading.your_move:
        reading.mover = unescape(turn["name"])
    follow = re.search(r"follow (.+?)(?:[.,]|$)", text, re.MULTILINE)
    if follow:
        reading.follow = suit_named(follow[1])
    trick = re.search(r"^Trick \d+ of \d+: (.+)$", text, re.MULTILINE)
    if trick:
        for part in trick[1].split(" · "):
            part = part.strip("*")
            played = faces(part)
            name = unescape(MARK.split(part, maxsplit=1)[0].strip())
            if played:
                reading.trick.append((name, played[0]))
    for match in _SEAT.finditer(text):
        numbers = _TRICKS.match(match["tricks"])
        reading.seats.append(
            Seat(
                unescape(match["name"]),
                int(numbers["bid"]) if numbers else None,
                int(numbers["won"]) if numbers else None,
                _number(match["score"]),
                bool(match["marker"]),
            )
        )
        if match["you"]:
            reading.you = unescape(match["name"])
    return reading
