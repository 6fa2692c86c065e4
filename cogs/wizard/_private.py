"""The hand messages a player's interaction tokens can edit: their copies from My hand, and their DM.

Only the interaction that made an ephemeral message can change it, through its token ("Edit
Original Interaction Response", or a follow-up's "Edit Followup Message"); Discord honours a token
for 15 minutes, and the bot's own message routes cannot see ephemeral messages at all. A click on
a message gives a new token for that message. So each copy of a hand is kept with the latest token
that can edit it, and the presenter edits every copy after each move (interaction routes are
outside the global request budget), and retires a copy — "out of date", no buttons — before its
token runs out, and at its round's end. A DM hand is kept the same way once its player has clicked
it: that click's token edits it outside the budget too.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

# Discord's lifetime of an interaction token, less time for the edit itself and for clock skew.
TOKEN_LIFETIME = datetime.timedelta(minutes=15)
MARGIN = datetime.timedelta(minutes=1)
# A player's copies kept current at once; an older one is retired when another is opened.
MOST_COPIES = 5


def deadline(interaction: discord.Interaction[Any]) -> datetime.datetime:
    """Until when the interaction's token may still be used for an edit."""
    return interaction.created_at + TOKEN_LIFETIME - MARGIN


def token_valid(interaction: discord.Interaction[Any]) -> bool:
    return discord.utils.utcnow() < deadline(interaction)


@dataclass(slots=True)
class Copy:
    """One hand message, the interaction whose token edits it, and what it shows."""

    interaction: discord.Interaction[Any]
    message_id: int
    round: int  # the round of the game the message shows
    followup: bool = False  # sent as a follow-up of `interaction` (else its original response)
    shown: object = field(default=None)  # a fingerprint of what it shows now (`_hand.fingerprint`)

    @property
    def valid(self) -> bool:
        return token_valid(self.interaction)

    @property
    def editable(self) -> bool:
        """Whether Discord would still take an edit through its token (the margin of `valid` spent:
        the copy's retirement comes at its deadline, a minute before this runs out)."""
        return discord.utils.utcnow() < self.interaction.created_at + TOKEN_LIFETIME

    def expires_within(self, seconds: float) -> bool:
        """Whether its token can no longer be counted on `seconds` from now."""
        return discord.utils.utcnow() + datetime.timedelta(seconds=seconds) >= deadline(self.interaction)

    async def edit(self, **fields: Any) -> bool:
        """Edit the message through the token; False when Discord refused (dismissed, or too late)."""
        try:
            if self.followup:
                await self.interaction.followup.edit_message(self.message_id, **fields)
            else:
                await self.interaction.edit_original_response(**fields)
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError):
            # Refused (dismissed, the token too old), or lost on the way: the copy is let go.
            return False
        return True


class PrivateHands:
    """Each player's hand messages per game that a token of theirs can edit."""

    def __init__(self, *, most: int = MOST_COPIES) -> None:
        self.most = most
        self._copies: dict[tuple[str, int], list[Copy]] = {}

    def remember(self, game_id: str, user_id: int, copy: Copy) -> list[Copy]:
        """Keep `copy` (replacing what was kept for its message); the copies it pushes out, oldest first."""
        kept = [c for c in self._copies.get((game_id, user_id), []) if c.message_id != copy.message_id]
        kept.append(copy)
        self._copies[game_id, user_id] = kept[-self.most :]
        return kept[: -self.most]

    def of(self, game_id: str, user_id: int) -> list[Copy]:
        """The player's copies in this game, oldest first."""
        return list(self._copies.get((game_id, user_id), []))

    def latest(self, game_id: str, user_id: int, round: int) -> Copy | None:
        """The player's newest copy of this round that can still be edited."""
        copies = [c for c in self._copies.get((game_id, user_id), []) if c.round == round and c.valid]
        return copies[-1] if copies else None

    def drop(self, game_id: str, user_id: int, copy: Copy) -> None:
        kept = self._copies.get((game_id, user_id), [])
        if copy in kept:
            kept.remove(copy)

    def drop_message(self, game_id: str, user_id: int, message_id: int) -> None:
        """Let go of the copy in `message_id` (a click has already retired it)."""
        for copy in self.of(game_id, user_id):
            if copy.message_id == message_id:
                self.drop(game_id, user_id, copy)

    def players(self, game_id: str) -> list[int]:
        return [user for game, user in self._copies if game == game_id]

    def forget(self, game_id: str) -> None:
        for key in [key for key in self._copies if key[0] == game_id]:
            del self._copies[key]
