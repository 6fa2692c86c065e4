"""The one custom_id scheme of the bot's buttons, built and parsed only here.

    wz:lobby:<game>:<op>                       op: join, leave, start, cancel, settings (opens the
                                               host's private panel), add_easy, add_normal,
                                               add_hard, remove_computer, or a house-rule switch
                                               (rule_add_up, rule_round_one, rule_hidden,
                                               rule_blind, rule_length)
    wz:hand:<game>                             the table's "My hand" button
    wz:back:<game>                             "I'm back", for a player the computer stood in for
    wz:ping:<game>:<on>                        the hand's bell: the clicker's turn pings on (1) or off (0)
    wz:record:<game>                           the finished game's record, as a JSON file
    wz:rematch:<game>                          a new lobby with the same players and options
    wz:review:<game>                           the clicker's own review of the finished game (the coach)
    wz:review_page:<game>:<page>               a page of that review, shown in place of the one clicked:
                                               0 the summary, then the rounds a few a page; the
                                               review is the clicker's, who must have played
    wz:bid:<game>:<round>:<trick>:<tricks>     a bid
    wz:play:<game>:<round>:<trick>:<card>      a card, by its code (H13, W2, J4); U for the card a
                                               player cannot see in the blind first round
    wz:trump:<game>:<round>:<trick>:<suit>     the dealer's trump choice (S, H, D, C)
    wz:board:<sort>:<page>:<season>            a page of /leaderboard (sort: rating, wins, ...) of a
                                               season (its number) or of all time (a); without
                                               <season> (posted before seasons), all time

<game> is the game's id. <round> is the round the button was drawn in, <trick> the trick it is
for: the player's next one, counted from 0 (the number of cards they have played this round;
always 0 for bids and trump). A click from an earlier round or for a finished trick is stale and
refused. An id is at most 100 characters, Discord's limit; these stay under 40.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.engine import Action, Bid, Card, ChooseTrump, Play, Suit

PREFIX = "wz:"
MAX_LENGTH = 100
UNSEEN = "U"  # the id never names a card its player may not see
# The host's house-rule switches in the lobby; "length" steps through the game lengths.
RULE_OPS = ("rule_add_up", "rule_round_one", "rule_hidden", "rule_blind", "rule_length")
# The lobby message's buttons, which everyone sees, and those of the host's private panel.
PUBLIC_OPS = ("join", "leave", "start", "cancel", "settings")
COMPUTER_OPS = ("add_easy", "add_normal", "add_hard", "remove_computer")
LOBBY_OPS = PUBLIC_OPS + COMPUTER_OPS

_GAME = r"[0-9a-f]{1,16}"
_NUMBER = r"0|[1-9][0-9]{0,2}"
_LOBBY = re.compile(rf"lobby:(?P<game>{_GAME}):(?P<op>{'|'.join(LOBBY_OPS + RULE_OPS)})")
_HAND = re.compile(rf"hand:(?P<game>{_GAME})")
_BACK = re.compile(rf"back:(?P<game>{_GAME})")
_PING = re.compile(rf"ping:(?P<game>{_GAME}):(?P<on>[01])")
_RECORD = re.compile(rf"record:(?P<game>{_GAME})")
_REMATCH = re.compile(rf"rematch:(?P<game>{_GAME})")
_REVIEW = re.compile(rf"review:(?P<game>{_GAME})")
_REVIEW_PAGE = re.compile(rf"review_page:(?P<game>{_GAME}):(?P<page>{_NUMBER})")
_SEASON = r"[1-9][0-9]{0,5}"
ALL_TIME = "a"
_BOARD = re.compile(rf"board:(?P<sort>[a-z_]{{1,12}}):(?P<page>{_NUMBER})(?::(?P<season>{ALL_TIME}|{_SEASON}))?")
_ACTION = re.compile(
    rf"(?P<kind>bid|play|trump):(?P<game>{_GAME}):(?P<round>{_NUMBER}):(?P<trick>{_NUMBER}):(?P<value>[A-Z0-9]{{1,3}})"
)


@dataclass(frozen=True, slots=True)
class LobbyId:
    game: str
    op: str


@dataclass(frozen=True, slots=True)
class HandId:
    game: str


@dataclass(frozen=True, slots=True)
class ActionId:
    game: str
    round: int
    trick: int
    action: Action | None  # None: play the one card you cannot see (the blind first round)


@dataclass(frozen=True, slots=True)
class BackId:
    game: str


@dataclass(frozen=True, slots=True)
class PingId:
    game: str
    on: bool  # what the click sets: a second click of the same button changes nothing


@dataclass(frozen=True, slots=True)
class RecordId:
    game: str


@dataclass(frozen=True, slots=True)
class RematchId:
    game: str


@dataclass(frozen=True, slots=True)
class ReviewId:
    game: str


@dataclass(frozen=True, slots=True)
class ReviewPageId:
    game: str
    page: int  # 0: the summary; then the pages of rounds


@dataclass(frozen=True, slots=True)
class BoardId:
    sort: str
    page: int  # from 0
    season: int | None = None  # None: all time


ButtonId = LobbyId | HandId | BackId | PingId | RecordId | RematchId | ReviewId | ReviewPageId | ActionId | BoardId


def build(button: ButtonId) -> str:
    """The custom_id of a button."""
    if isinstance(button, LobbyId):
        custom_id = f"{PREFIX}lobby:{button.game}:{button.op}"
    elif isinstance(button, HandId):
        custom_id = f"{PREFIX}hand:{button.game}"
    elif isinstance(button, BackId):
        custom_id = f"{PREFIX}back:{button.game}"
    elif isinstance(button, PingId):
        custom_id = f"{PREFIX}ping:{button.game}:{int(button.on)}"
    elif isinstance(button, RecordId):
        custom_id = f"{PREFIX}record:{button.game}"
    elif isinstance(button, RematchId):
        custom_id = f"{PREFIX}rematch:{button.game}"
    elif isinstance(button, ReviewId):
        custom_id = f"{PREFIX}review:{button.game}"
    elif isinstance(button, ReviewPageId):
        custom_id = f"{PREFIX}review_page:{button.game}:{button.page}"
    elif isinstance(button, BoardId):
        season = ALL_TIME if button.season is None else str(button.season)
        custom_id = f"{PREFIX}board:{button.sort}:{button.page}:{season}"
    else:
        action = button.action
        if action is None:
            kind, value = "play", UNSEEN
        elif isinstance(action, Bid):
            kind, value = "bid", str(action.tricks)
        elif isinstance(action, Play):
            kind, value = "play", action.card.code
        else:
            kind, value = "trump", action.suit.value
        custom_id = f"{PREFIX}{kind}:{button.game}:{button.round}:{button.trick}:{value}"
    assert len(custom_id) <= MAX_LENGTH
    return custom_id


def parse(custom_id: str) -> ButtonId:
    """The button a custom_id names; ValueError when it is not one of ours or is damaged."""
    if not custom_id.startswith(PREFIX):
        raise ValueError(f"not a Wizard button: {custom_id!r}")
    body = custom_id[len(PREFIX) :]
    if match := _LOBBY.fullmatch(body):
        return LobbyId(match["game"], match["op"])
    if match := _HAND.fullmatch(body):
        return HandId(match["game"])
    if match := _BACK.fullmatch(body):
        return BackId(match["game"])
    if match := _PING.fullmatch(body):
        return PingId(match["game"], match["on"] == "1")
    if match := _RECORD.fullmatch(body):
        return RecordId(match["game"])
    if match := _REMATCH.fullmatch(body):
        return RematchId(match["game"])
    if match := _REVIEW.fullmatch(body):
        return ReviewId(match["game"])
    if match := _REVIEW_PAGE.fullmatch(body):
        return ReviewPageId(match["game"], int(match["page"]))
    if match := _BOARD.fullmatch(body):
        season = match["season"]
        return BoardId(match["sort"], int(match["page"]), None if season in (None, ALL_TIME) else int(season))
    if match := _ACTION.fullmatch(body):
        value = match["value"]
        action: Action | None
        if match["kind"] == "bid":
            if not value.isdigit():
                raise ValueError(f"not a bid: {value!r}")
            action = Bid(int(value))
        elif match["kind"] == "play":
            action = None if value == UNSEEN else Play(Card.parse(value))
        else:
            action = ChooseTrump(Suit(value))
        return ActionId(match["game"], int(match["round"]), int(match["trick"]), action)
    raise ValueError(f"damaged Wizard button: {custom_id!r}")
