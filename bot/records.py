"""A finished game as a record: its seed, options and moves, and what they led to, round by round.

The record is plain JSON. Its ``game`` part is the engine's own versioned form, so
``Game.from_json(record["game"])`` replays the game exactly; the rest spells it out for people.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .engine import Bid, ChooseTrump, Game

RECORD_FORMAT = "wizard-game-record"
RECORD_VERSION = 1


def game_record(game: Game, names: Sequence[str], game_id: str) -> dict[str, Any]:
    """Every round of `game` (bids, trump, tricks and their winners, points) with the seats' names."""
    replay = Game(game.players, game.seed, game.options, first_dealer=game.first_dealer)
    rounds: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for seat, action in game.log:
        if current is None:
            current = {
                "round": replay.round,
                "dealer": replay.dealer,
                "turned_up": replay.turned_up.code if replay.turned_up else None,
                "trump": None,
                "bids": [None] * game.players,
                "tricks": [],
            }
        if isinstance(action, ChooseTrump):
            current["trump_chosen_by_dealer"] = True
        elif isinstance(action, Bid):
            current["bids"][seat] = action.tricks
        elif not current["tricks"] and replay.trick == []:
            # The first card of the round: trump is settled by now.
            current["trump"] = replay.trump.value if replay.trump else None
        applied = replay.apply(action, by=seat)
        if applied.trick is not None:
            trick = applied.trick
            current["tricks"].append(
                {"leader": trick.leader, "cards": [card.code for card in trick.cards], "winner": trick.winner}
            )
        if applied.round is not None:
            result = applied.round
            current.update(tricks_won=list(result.tricks), points=list(result.points), totals=list(result.totals))
            rounds.append(current)
            current = None
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "id": game_id,
        "players": list(names),
        "seed": game.seed,
        "options": game.options.to_json(),
        "rounds": rounds,
        "scores": list(game.scores),
        "winners": game.winners() if game.is_over else [],
        "game": game.to_json(),
    }
