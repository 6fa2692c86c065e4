"""The one place where refusals become words for the person who was refused."""

from __future__ import annotations

from bot.engine import RuleError, Suit
from bot.i18n import suit_name, t
from bot.manager import GameRefused


def explain(locale: str | None, error: Exception) -> str:
    """A refused request as a sentence in `locale`."""
    if isinstance(error, GameRefused):
        return t(locale, f"error.{error.refusal.value}", **error.details)
    if isinstance(error, RuleError):
        details = dict(error.details)
        suit = details.get("suit")
        if isinstance(suit, Suit):
            details["suit"] = suit_name(locale, suit)
        return t(locale, f"error.{error.reason.value}", **details)
    return t(locale, "error.internal")
