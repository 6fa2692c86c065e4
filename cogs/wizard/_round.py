"""The round in play, as text: the trump, whose move it is, the trick, the bids and tricks taken.

The table and every hand show these the same way, so a player deciding from the hand alone reads
what the channel reads. Everything here comes from the public part of an `Observation` (which the
engine builds), never from a hand that is not the reader's.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Card, Kind, Observation, Phase, TrickResult, led_suit
from bot.manager import Player, Table

from ._look import Look


def trump_text(look: Look, table: Table, observation: Observation) -> str:
    """The trump, named once: the suit, none, or that the dealer is choosing."""
    if observation.phase is Phase.CHOOSE_TRUMP:
        return look.t("round.trump.pending")
    if observation.trump is None:
        return look.t("round.trump.none")
    suit = look.faces.suit_named(look.locale, observation.trump)
    if observation.turned_up is not None and observation.turned_up.kind is Kind.WIZARD:
        # A Wizard turned up: the dealer named the suit.
        return look.t("round.trump.chosen", suit=suit, name=look.name(table.players[observation.dealer]))
    return look.t("round.trump", suit=suit)


def dealt_text(look: Look, table: Table, observation: Observation) -> str:
    """Who dealt and what was turned up (the last round turns up nothing)."""
    dealer = look.name(table.players[observation.dealer])
    if observation.turned_up is None:
        return look.t("round.dealt.none", name=dealer)
    return look.t("round.dealt", name=dealer, card=look.card(observation.turned_up))


def mover_text(look: Look, table: Table, observation: Observation) -> str:
    """Who is to move, and doing what: "**Carol** is bidding", "**Carol** leads the trick"."""
    assert observation.to_move is not None
    name = look.name(table.players[observation.to_move])
    if observation.phase is Phase.PLAY and not observation.trick:
        return look.t("mover.lead", name=name)
    return look.t(f"mover.{observation.phase.value}", name=name)


def turn_text(look: Look, table: Table, observation: Observation) -> str:
    """The table's line of whose move it is, with the suit to follow."""
    if observation.to_move is None:
        return look.t("turn.over")
    if observation.phase is Phase.BID and observation.options.hidden_bids:
        return look.t("turn.hidden_bids", done=sum(observation.has_bid), players=observation.players)
    mover = mover_text(look, table, observation)
    led = led_suit(observation.trick) if observation.phase is Phase.PLAY else None
    if led is not None:
        return look.t("turn.follow", mover=mover, suit=look.faces.suit_named(look.locale, led))
    return look.t("turn.move", mover=mover)


def before(observation: Observation, seat: int) -> list[int] | None:
    """The seats that move before `seat` from now on in this bidding or trick, in order (empty:
    `seat` moves now); None when `seat` has already bid or played in it."""
    if observation.to_move is None or observation.phase is Phase.CHOOSE_TRUMP:
        return None
    n = observation.players
    if observation.phase is Phase.BID:
        if observation.has_bid[seat]:
            return None
    elif (seat - observation.trick_leader) % n < len(observation.trick):
        return None
    return [(observation.to_move + k) % n for k in range((seat - observation.to_move) % n)]


def wait_text(look: Look, table: Table, observation: Observation, seat: int) -> str:
    """For a player who is not to move: who is, and how many moves until theirs ("Carol is
    playing; you are next after Dave.")."""
    if observation.to_move is None:
        return look.t("turn.over")
    if observation.phase is Phase.CHOOSE_TRUMP:
        return look.t("wait.trump", mover=mover_text(look, table, observation))
    if observation.phase is Phase.BID and observation.options.hidden_bids:
        return look.t("wait.hidden_bids", done=sum(observation.has_bid), players=observation.players)
    mover = mover_text(look, table, observation)
    ahead = before(observation, seat)
    if ahead is None:
        return look.t("wait.bid_in" if observation.phase is Phase.BID else "wait.played", mover=mover)
    between = ahead[1:]  # the first of them moves now: the mover
    if not between:
        return look.t("wait.next", mover=mover)
    return look.t("wait.after", mover=mover, names=", ".join(look.name(table.players[s]) for s in between))


def trick_cards(look: Look, cards: Sequence[tuple[int, Card]], players: Sequence[Player], winner: int | None) -> str:
    """The cards of a trick with who played them, in order; the winning card in bold."""
    parts = []
    for seat, card in cards:
        text = f"{look.name(players[seat])} {look.card(card)}"
        parts.append(f"**{text}**" if seat == winner else text)
    return " · ".join(parts)


def trick_text(look: Look, table: Table, observation: Observation) -> str | None:
    """The trick in play so far, led first; None before its first card."""
    if observation.phase is not Phase.PLAY or not observation.trick:
        return None
    n = observation.players
    cards = [((observation.trick_leader + k) % n, card) for k, card in enumerate(observation.trick)]
    return look.t(
        "trick.now",
        trick=len(observation.tricks) + 1,
        tricks=observation.round,
        cards=trick_cards(look, cards, table.players, None),
    )


def last_trick_text(look: Look, table: Table, trick: TrickResult) -> str:
    return look.t(
        "trick.last",
        cards=trick_cards(look, trick.by_seat(), table.players, trick.winner),
        name=look.name(table.players[trick.winner]),
    )


def tricks_text(look: Look, observation: Observation, seat: int, *, hidden: bool) -> str:
    """A seat's bid and tricks taken, "bid/taken", with how many it still needs."""
    bid = observation.bids[seat]
    if hidden:
        return look.t("tricks.bid_in") if observation.has_bid[seat] else look.t("tricks.bidding")
    if bid is None:
        return look.t("tricks.bidding")
    won = observation.tricks_won[seat]
    if won < bid:
        return look.tn("tricks.needs", bid - won, bid=bid, won=won)
    if won == bid:
        return look.t("tricks.made", bid=bid, won=won)
    return look.tn("tricks.over", won - bid, bid=bid, won=won)


def player_lines(
    look: Look, table: Table, observation: Observation, *, reader: int | None = None, live: bool = True
) -> list[str]:
    """One line a player: the marker of the one to move, the name, bid/taken, the score.

    `reader`: the seat whose hand this is (marked as "you"), if any; `live`: False for a game
    that ended early, whose lines mark nobody to move."""
    # Hidden bids stay hidden until all are in: only who has bid shows (a hand knows its own bid).
    hidden = observation.phase is Phase.BID and observation.options.hidden_bids
    if not live:
        waiting: set[int] = set()
    elif hidden:
        waiting = {s for s in range(observation.players) if not observation.has_bid[s]}
    else:
        waiting = {observation.to_move} if observation.to_move is not None else set()
    lines = []
    for seat, player in enumerate(table.players):
        name = look.name(player)
        if seat == reader:
            name = look.t("player.you", name=name)
        line = look.tn(
            "player.line",
            observation.scores[seat],
            marker="▶ " if seat in waiting else "",
            name=name,
            tricks=tricks_text(look, observation, seat, hidden=hidden and seat != reader),
        )
        if player.user_id in table.away:
            line += " " + look.t("table.away_marker")
        lines.append(line)
    return lines
