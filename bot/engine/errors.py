"""Errors for actions the rules do not allow. The state is unchanged when one is raised."""

from __future__ import annotations

import enum


class Reason(enum.Enum):
    """Why an action was refused: a machine-readable code the bot translates for the player."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    ALREADY_BID = "already_bid"  # with hidden bids: a second bid from a seat in the same round
    WRONG_PHASE = "wrong_phase"
    UNKNOWN_ACTION = "unknown_action"
    BID_OUT_OF_RANGE = "bid_out_of_range"
    BID_ADDS_UP = "bid_adds_up"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    NOT_A_SUIT = "not_a_suit"


class RuleError(ValueError):
    """An action that the rules do not allow in this state."""

    def __init__(self, reason: Reason, message: str, **details: object) -> None:
        super().__init__(message)
        self.reason = reason
        # What a translated message needs besides the reason, e.g. the forbidden bid value.
        self.details = details


class NotYourTurnError(RuleError):
    """The action came from a player whose turn it is not (with hidden bids: who has already bid)."""


class WrongPhaseError(RuleError):
    """The action is of the wrong kind for this moment of the game (or the game is over)."""


class IllegalBidError(RuleError):
    """The bid is out of range, or is the value the "bids may not add up" variant forbids."""


class IllegalPlayError(RuleError):
    """The card is not in the player's hand, or the player must follow the led suit."""


class IllegalTrumpError(RuleError):
    """The dealer named something that is not one of the four suits."""
