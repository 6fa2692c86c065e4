"""The one place where refusals become words for the person who was refused."""

from __future__ import annotations

from bot.engine import RuleError, Suit
from bot.i18n import duration, t, text
from bot.manager import GameRefused, Refusal

from ._faces import TEXT, Faces


def explain(locale: str | None, error: Exception, faces: Faces = TEXT) -> str:
    """A refused request as a sentence in `locale` (a suit written with `faces`)."""
    if isinstance(error, GameRefused):
        details = dict(error.details)
        if error.refusal is Refusal.BAD_TIMER:
            # Seconds from the command become durations in the reader's units ("5 minutes").
            details = {
                name: duration(locale, round(value)) if isinstance(value, int | float) else value
                for name, value in details.items()
            }
        return text(locale, f"error.{error.refusal.value}", **details)
    if isinstance(error, RuleError):
        details = dict(error.details)
        suit = details.get("suit")
        if isinstance(suit, Suit):
            details["suit"] = faces.suit_named(locale, suit)
        return t(locale, f"error.{error.reason.value}", **details)
    return t(locale, "error.internal")
