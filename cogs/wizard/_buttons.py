"""The bot's one kind of button: a DynamicItem, so every button still works after a restart."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

import discord

from . import _ids


def custom_ids(components: Sequence[Any]) -> Iterator[str]:
    """The custom_ids of a message's components, nested ones included (a V2 message nests its rows
    in containers, and a section holds its button as an accessory)."""
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            yield str(custom_id)
        yield from custom_ids(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from custom_ids((accessory,))


class ButtonHandler(Protocol):
    """The cog that answers the clicks (registered under the name "Wizard")."""

    async def on_button(self, interaction: discord.Interaction[Any], button: _ids.ButtonId | None, /) -> None: ...


class WizardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=re.escape(_ids.PREFIX) + r".*"):
    """Any button whose custom_id starts with the scheme's prefix (see `_ids`).

    The template accepts every such id, damaged ones included, so that a forged or corrupted
    click still reaches the cog and gets an answer instead of silently failing.
    """

    def __init__(self, item: discord.ui.Button[Any], *, row: int | None = None) -> None:
        super().__init__(item, row=row)
        try:
            self.button_id: _ids.ButtonId | None = _ids.parse(item.custom_id or "")
        except ValueError:
            self.button_id = None

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> WizardButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog: ButtonHandler | None = interaction.client.get_cog("Wizard")
        if cog is not None:
            await cog.on_button(interaction, self.button_id)
