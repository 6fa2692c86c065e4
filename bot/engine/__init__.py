"""The rules of Wizard: pure, synchronous and deterministic for a seed (standard library only)."""

from .actions import Action, Bid, ChooseTrump, Play, action_from_json, action_to_json
from .cards import DECK, Card, Kind, Suit, sort_key
from .errors import (
    IllegalBidError,
    IllegalPlayError,
    IllegalTrumpError,
    NotYourTurnError,
    Reason,
    RuleError,
    WrongPhaseError,
)
from .game import Applied, Deal, Game, Observation, Options, Phase, RoundResult, TrickResult, deal_hands
from .rules import led_suit

__all__ = [
    "DECK",
    "Action",
    "Applied",
    "Bid",
    "Card",
    "ChooseTrump",
    "Deal",
    "Game",
    "IllegalBidError",
    "IllegalPlayError",
    "IllegalTrumpError",
    "Kind",
    "NotYourTurnError",
    "Observation",
    "Options",
    "Phase",
    "Play",
    "Reason",
    "RoundResult",
    "RuleError",
    "Suit",
    "TrickResult",
    "WrongPhaseError",
    "action_from_json",
    "action_to_json",
    "deal_hands",
    "led_suit",
    "sort_key",
]
