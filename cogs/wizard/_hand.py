"""A player's hand: the DM kept for the round, and the private copies of My hand.

A hand is a complete play surface: every decision can be made from it alone, without the
channel. Top to bottom: the round and its trump; whose move it is (yours, or who plays and how
many moves until yours); the trick so far; your cards — at your move, what you may play now as
buttons, grouped by suit, Wizards and Jesters on a row of their own, and the rest named below
them; when it is not your move, the cards by suit as text — then each player's bid, tricks taken
and what they still need. It is drawn the same for the DM and for a copy from My hand; the
presenter keeps every one of them current after each move (`_feed`), or retires it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import groupby
from typing import Any

import discord

from bot.engine import Bid, Card, ChooseTrump, Kind, Observation, Phase, Play, Suit, led_suit, sort_key
from bot.manager import Table, placings

from . import _ids, _round
from ._look import (
    BELL_EMOJI,
    COLOUR,
    HAND_EMOJI,
    NO_BELL_EMOJI,
    ROW_SIZE,
    TURN_COLOUR,
    Look,
    button,
    layout,
    line,
    position,
    text,
)
from ._table import back_button


def is_turn(table: Table, observation: Observation) -> bool:
    """Whether it is the player's move and they play for themselves."""
    return bool(observation.legal) and table.players[observation.seat].user_id not in table.away


def _group(card: Card) -> int:
    """Which group a card is shown in: each suit its own, the Wizards and Jesters together last."""
    return list(Suit).index(card.suit) if card.suit is not None else len(Suit)


def _groups(cards: Iterable[Card]) -> list[list[Card]]:
    ordered = sorted(cards, key=lambda card: (_group(card), sort_key(card)))
    return [list(group) for _, group in groupby(ordered, key=_group)]


def _group_text(look: Look, group: list[Card]) -> str:
    """One group of cards: a suit's mark and its numbers ("♥ 13 11 7"), or the Wizards and Jesters
    by name, counted ("★ Wizard ×2 · 🃏 Jester")."""
    if group[0].suit is not None:
        return f"{look.faces.suit(group[0].suit)} {' '.join(str(card.rank) for card in group)}"
    named = []
    for kind in (Kind.WIZARD, Kind.JESTER):
        alike = [card for card in group if card.kind is kind]
        if alike:
            named.append(look.card(alike[0]) + (f" ×{len(alike)}" if len(alike) > 1 else ""))
    return " · ".join(named)


def cards_text(look: Look, cards: Iterable[Card], *, separator: str = "\n") -> str:
    """Cards by suit, a line each (or one line, `separator` between the groups); the Wizards and
    Jesters last."""
    return separator.join(_group_text(look, group) for group in _groups(cards))


def _your_move(look: Look, observation: Observation) -> str:
    """What the player may do now, for the top of the hand."""
    if observation.phase is Phase.CHOOSE_TRUMP:
        return look.t("you.choose_trump")
    if observation.phase is Phase.BID:
        forbidden = _forbidden(observation)
        if forbidden is not None:
            return look.t("you.bid_forbidden", value=forbidden, tricks=observation.round)
        return look.t("you.bid")
    led = led_suit(observation.trick)
    if led is None:
        return look.t("you.lead" if not observation.trick else "you.free")
    if not any(card.suit is led for card in observation.hand):
        return look.t("you.cannot_follow", suit=look.faces.suit_named(look.locale, led))
    return look.t("you.follow", suit=look.faces.suit_named(look.locale, led))


def status_text(look: Look, table: Table, observation: Observation) -> str:
    """The hand's first line: your move, or who moves and when yours comes."""
    if table.players[observation.seat].user_id in table.away:
        return look.t("hand.prompt.away")
    if is_turn(table, observation):
        return _your_move(look, observation)
    return _round.wait_text(look, table, observation, observation.seat)


def _forbidden(observation: Observation) -> int | None:
    """The bid value missing from the legal bids, if the variant forbids one (known on one's turn)."""
    if not observation.legal or observation.phase is not Phase.BID:
        return None
    legal = {action.tricks for action in observation.legal if isinstance(action, Bid)}
    missing = [n for n in range(observation.round + 1) if n not in legal]
    return missing[0] if missing else None


def _rows(buttons: Sequence[discord.ui.Item[Any]]) -> list[discord.ui.ActionRow[Any]]:
    """Buttons in as few rows as Discord allows (5 a row), the rows as even as they can be: six
    hearts are 3 + 3, not 5 and a lone card below."""
    count = -(-len(buttons) // ROW_SIZE)
    rows = []
    start = 0
    for index in range(count):
        size = len(buttons) // count + (index < len(buttons) % count)  # the first rows take the remainder
        row = discord.ui.ActionRow[Any]()
        for item in buttons[start : start + size]:
            row.add_item(item)
        rows.append(row)
        start += size
    return rows


def hand_view(
    table: Table, observation: Observation, look: Look, *, in_dm: bool = False, ping: bool | None = None
) -> discord.ui.LayoutView:
    """A player's private view of the round, and the moves they may make now.

    `in_dm`: the DM kept for the round (it names the game's channel; a copy from My hand is in it).
    `ping`: whether the player asked for a DM at their move (the bell button sets it); None: no bell."""
    turn = is_turn(table, observation)
    heading = (
        f"### {look.t('hand.title', round=observation.round_position, rounds=observation.rounds)}"
        f" · {_round.trump_text(look, table, observation)}"
    )
    now = [status_text(look, table, observation)]
    trick = _round.trick_text(look, table, observation)
    if trick is not None:
        now.append(trick)
    container = discord.ui.Container[Any](accent_colour=TURN_COLOUR if turn else COLOUR)
    container.add_item(text(heading))
    container.add_item(text("\n".join(now)))
    container.add_item(line())
    for item in _cards(table, observation, look, turn):
        container.add_item(item)
    container.add_item(line())
    container.add_item(text("\n".join(_round.player_lines(look, table, observation, reader=observation.seat))))
    if in_dm:
        container.add_item(text("-# " + look.t("hand.where", channel=table.channel_id)))
    items: list[discord.ui.Item[Any]] = [container]
    below = discord.ui.ActionRow[Any]()
    if table.players[observation.seat].user_id in table.away:
        below.add_item(back_button(table, look))
    if ping is not None:
        below.add_item(ping_button(table, look, ping))
    if below.children:
        items.append(below)
    return layout(*items)


def ping_button(table: Table, look: Look, on: bool) -> discord.ui.Item[Any]:
    """The bell: turns the player's turn pings on, or off while they are on."""
    return button(
        _ids.build(_ids.PingId(table.id, not on)),
        look.t("hand.ping.stop" if on else "hand.ping.start"),
        style=discord.ButtonStyle.secondary,
        emoji=NO_BELL_EMOJI if on else BELL_EMOJI,
    )


def _cards(table: Table, observation: Observation, look: Look, turn: bool) -> list[discord.ui.Item[Any]]:
    """The player's cards, and at their move the buttons of what they may do."""
    # The trick a button is for: the player's next one, the number of cards they have played this
    # round (bids and trump: 0). A click from an earlier trick or round is stale and refused.
    trick = observation.round - observation.hand_sizes[observation.seat]

    def action_id(action: ChooseTrump | Bid | Play | None) -> str:
        return _ids.build(_ids.ActionId(table.id, observation.round, trick, action))

    if observation.blind:
        # The blind first round: your own card is hidden from you, the others' are not.
        held = [
            f"{look.name(table.players[seat])}: {' '.join(look.card(card) for card in cards)}"
            for seat, cards in enumerate(observation.others_cards)
            if cards
        ]
        held_text = "\n".join([look.t("hand.blind"), *held])
    else:
        held_text = cards_text(look, observation.hand) or look.t("hand.empty")
    if not turn:
        return [text(held_text)]
    if observation.phase is Phase.CHOOSE_TRUMP:
        suits = []
        for suit in Suit:
            emoji, label = look.faces.suit_button(look.locale, suit)
            suits.append(button(action_id(ChooseTrump(suit)), label, style=discord.ButtonStyle.primary, emoji=emoji))
        return [text(held_text), *_rows(suits)]
    if observation.phase is Phase.BID:
        forbidden = _forbidden(observation)
        bids: list[discord.ui.Item[Any]] = [
            button(action_id(Bid(n)), str(n), style=discord.ButtonStyle.primary, disabled=n == forbidden)
            for n in range(observation.round + 1)
        ]
        return [text(held_text), *_rows(bids)]
    if observation.blind:
        # One face-down card: its button does not say which card it is.
        face_down = button(
            action_id(None), look.t("card.face_down"), style=discord.ButtonStyle.secondary, emoji=HAND_EMOJI
        )
        return [text(held_text), discord.ui.ActionRow[Any](face_down)]
    playable = {action.card for action in observation.legal if isinstance(action, Play)}
    items: list[discord.ui.Item[Any]] = []
    for group in _groups(playable):
        cards = []
        for card in group:
            face, label = look.faces.button(look.locale, card)
            cards.append(button(action_id(Play(card)), label, style=discord.ButtonStyle.secondary, emoji=face))
        items += _rows(cards)
    rest = [card for card in observation.hand if card not in playable]
    if rest:
        items.append(text("-# " + look.t("hand.not_playable", cards=cards_text(look, rest, separator=" · "))))
    return items


def hand_over_view(table: Table, round_number: int, look: Look, seat: int | None) -> discord.ui.LayoutView:
    """What a hand message becomes when its round is over: one line of how the round went for the
    seat ("Round 3: bid 3, took 1, −20 → 40 · place 1 of 4"), so a game's DMs stay a short list."""
    place = position(table, round_number)
    result = next((r for r in table.game.history if r.round == round_number), None)
    if result is None or seat is None:
        line = look.t("hand.over", round=place)  # ended early (stopped): no result to tell
    else:
        places = placings(list(result.totals))
        line = look.t(
            "hand.result",
            round=place,
            bid=result.bids[seat],
            took=result.tricks[seat],
            points=result.points[seat],
            total=result.totals[seat],
            place=places[seat],
            players=len(result.totals),
        )
    return layout(text(line))


def retired_view(table: Table, round_number: int, look: Look) -> discord.ui.LayoutView:
    """A private copy the bot can no longer keep current (Discord lets it be edited for 15 minutes):
    it says so, with no buttons, instead of showing a moment long past."""
    heading = look.t("hand.title", round=position(table, round_number), rounds=table.game.rounds)
    return layout(discord.ui.Container[Any](text(f"### {heading}"), text(look.t("hand.retired"))))


def fingerprint(view: discord.ui.LayoutView | None) -> object:
    """A fingerprint of a hand message, to tell whether an edit would change anything (only a
    hash is kept, for every seated player of every live game, not the message)."""
    return hash(repr(view.to_components() if view is not None else None))  # type: ignore[no-untyped-call]
