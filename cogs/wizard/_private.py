"""Each player's private hand (My hand, /wizard hand): one message, updated in place while Discord allows.

Only the interaction that made an ephemeral message can change it, through its token ("Edit
Original Interaction Response", or a follow-up's "Edit Followup Message"); Discord honours a token
for 15 minutes, and the bot's own message routes cannot see ephemeral messages at all. So a press
of My hand whose player has a private hand of this round, made through a token still good, is
acknowledged without a message (a deferred update of the table, which changes nothing) and that
hand is edited; otherwise — the first press, a token too old, a hand of an earlier round's table
(it sits above that table, out of sight), or a refused edit — a new private hand is sent.
/wizard hand always answers with a new one: a slash command cannot be acknowledged without one.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import discord

# Discord's lifetime of an interaction token, less time for the edit itself and for clock skew.
TOKEN_LIFETIME = datetime.timedelta(minutes=15)
MARGIN = datetime.timedelta(minutes=1)


def token_valid(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's token may still be used for an edit."""
    return discord.utils.utcnow() - interaction.created_at < TOKEN_LIFETIME - MARGIN


@dataclass(slots=True)
class _Shown:
    interaction: discord.Interaction[Any]  # whose token can edit the message
    message_id: int | None  # a follow-up's id; None: the interaction's original response
    round: int  # the game's round the hand shows


class PrivateHands:
    """Each player's latest private hand per game, with the means to edit it."""

    def __init__(self) -> None:
        self._shown: dict[tuple[str, int], _Shown] = {}

    def remember(
        self,
        game_id: str,
        user_id: int,
        interaction: discord.Interaction[Any],
        round: int,
        message_id: int | None = None,
    ) -> None:
        self._shown[game_id, user_id] = _Shown(interaction, message_id, round)

    def latest(self, game_id: str, user_id: int, round: int) -> _Shown | None:
        """The player's private hand of this round that can still be edited, if any."""
        shown = self._shown.get((game_id, user_id))
        if shown is None or shown.round != round or not token_valid(shown.interaction):
            return None
        return shown

    async def edit(self, game_id: str, user_id: int, round: int, **fields: Any) -> bool:
        """Edit the player's private hand of this round; False (and forgotten) when it cannot be."""
        shown = self.latest(game_id, user_id, round)
        if shown is None:
            return False
        try:
            if shown.message_id is None:
                await shown.interaction.edit_original_response(**fields)
            else:
                await shown.interaction.followup.edit_message(shown.message_id, **fields)
        except discord.HTTPException:
            # Gone (dismissed, or the token refused): the next press sends a new one.
            self._shown.pop((game_id, user_id), None)
            return False
        return True

    def forget(self, game_id: str) -> None:
        for key in [key for key in self._shown if key[0] == game_id]:
            del self._shown[key]
