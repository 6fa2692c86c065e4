"""Helpers for the computer-player tests: hand-built situations and small players."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai import EasyPlayer, HardPlayer, Level, NormalPlayer, Player
from bot.engine import Action, Bid, Card, Deal, Game, Options, Play, deal_hands

LEVELS = tuple(Level)


def small_player(level: Level, seed: int = 1) -> Player:
    """A player of `level`; the hard one with a search of the default size (a smaller one is too
    noisy for the close calls some blunder tests pose), capped by its plays, not the clock."""
    rng = random.Random(seed)
    if level is Level.EASY:
        return EasyPlayer(rng)
    if level is Level.NORMAL:
        return NormalPlayer(rng)
    return HardPlayer(rng, deadline=float("inf"))


def situation(
    hands: Sequence[str],
    turned_up: str | None,
    *,
    dealer: int,
    bids: Sequence[int] = (),
    plays: str = "",
    variant: bool = False,
    trump: Card | None = None,
) -> Game:
    """A game at the first round whose size the hands give, dealt `hands` (space-separated codes by
    seat) by `dealer`; then the bids in turn order and the plays (space-separated codes) in turn order."""
    split = [hand.split() for hand in hands]
    number = len(split[0])
    game = Game(
        len(split),
        0,
        Options(bids_may_not_add_up=variant),
        deals={number: Deal(deal_hands(split), Card.parse(turned_up) if turned_up else None)},
        first_dealer=dealer,
        start_round=number,
    )
    for tricks in bids:
        game.apply(Bid(tricks), by=game.to_move)
    for code in plays.split():
        game.apply(Play(Card.parse(code)), by=game.to_move)
    return game


def cards(codes: str) -> set[Card]:
    return {Card.parse(code) for code in codes.split()}


def play_game(game: Game, seats: list[Player]) -> list[tuple[int, Action]]:
    """Play `game` to the end, checking every choice against the legal actions; return the log."""
    log = []
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        observation = game.observation(seat)
        action = seats[seat].choose(observation)
        assert action in observation.legal
        game.apply(action, by=seat)
        log.append((seat, action))
    return log
