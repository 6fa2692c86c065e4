"""What starting the bot imports: a restarted bot takes clicks sooner the less it has to load."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot import ai
from bot.manager import COMPUTER_LEVELS

# Each is imported the first time it is needed, in the module that needs it.
LATER = [
    "matplotlib",  # when the first game ends (half a second and tens of MiB)
    "openskill",  # when the first game is rated
    "bot.ai",  # when a computer player first moves
    "importlib.resources",  # when the first chart looks for its fonts (the migrations are read as files)
]


@pytest.mark.parametrize("module", LATER)
def test_starting_the_bot_does_not_import(module: str) -> None:
    code = f"import sys, bot.__main__, bot.client, cogs.wizard; print({module!r} in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_the_manager_names_every_computer_level() -> None:
    assert tuple(level.value for level in ai.Level) == COMPUTER_LEVELS
