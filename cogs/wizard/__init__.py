"""Wizard games in server channels: /wizard start, the lobby, the table and the players' hands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._buttons import WizardButton
from ._cog import WizardCog
from ._settings import SettingsCog
from ._stats import StatsCog

if TYPE_CHECKING:
    from bot.client import WizardBot


async def setup(bot: WizardBot) -> None:
    bot.add_dynamic_items(WizardButton)
    await bot.add_cog(WizardCog(bot))
    await bot.add_cog(StatsCog(bot))
    await bot.add_cog(SettingsCog(bot))  # after WizardCog: it adds /wizard settings to its group


async def teardown(bot: WizardBot) -> None:
    bot.remove_dynamic_items(WizardButton)
