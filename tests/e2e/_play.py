"""Scripted players: find whose move it is from what each person sees, and click for them."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.engine import Action
from cogs.wizard import _ids
from tests.e2e.conftest import World
from tests.e2e.standin import StoredMessage, User


def action_buttons(message: StoredMessage) -> list[dict[str, object]]:
    """The enabled move buttons (bid, card, trump) on a message."""
    buttons = []
    for component in message.all_components():
        custom_id = str(component.get("custom_id", ""))
        if component.get("disabled") or not custom_id.startswith(_ids.PREFIX):
            continue
        if isinstance(_ids.parse(custom_id), _ids.ActionId):
            buttons.append(component)
    return buttons


def latest_hand(world: World, user: User) -> StoredMessage | None:
    """The user's newest DM from the bot that shows a hand."""
    messages = [m for m in world.driver.dm_view(user) if "Your hand" in m.text()]
    return messages[-1] if messages else None


@dataclass
class Recorder:
    """Clicks through a game for the seated people and records each move as (user, action)."""

    world: World
    seats: list[User]
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    moves: list[tuple[User, Action]] = field(default_factory=list)
    # People who play from the ephemeral "My hand" message instead of DMs.
    via_table: set[int] = field(default_factory=set)

    def whose_turn(self) -> tuple[User, StoredMessage] | None:
        for user in self.seats:
            if user.id in self.via_table:
                continue
            message = latest_hand(self.world, user)
            if message is not None and action_buttons(message):
                return user, message
        return None

    def finished(self) -> bool:
        return any("Final standings" in m.text() for m in self.world.driver.channel_view(self.world.channel))

    async def step(self) -> None:
        """Make the next move, whoever's it is; wait until it is someone's turn or the game ends."""
        found = await self.world.standin.wait_for(
            lambda: self.whose_turn() or self.finished(), timeout=10, what="someone's turn"
        )
        if found is True:
            return
        user, message = found
        button = self.rng.choice(action_buttons(message))
        custom_id = str(button["custom_id"])
        record = await self.world.driver.click(user, message, custom_id)
        await record.wait_acked(3)
        parsed = _ids.parse(custom_id)
        assert isinstance(parsed, _ids.ActionId)
        self.moves.append((user, parsed.action))

    async def play_to_end(self, max_moves: int = 2000) -> None:
        for _ in range(max_moves):
            if self.finished():
                return
            await self.step()
        raise AssertionError("the game did not end")
