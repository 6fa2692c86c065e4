"""The end-of-game chart is a PNG that a phone shows well."""

from __future__ import annotations

import struct
import subprocess
import sys

import pytest

from bot.engine import RoundResult
from cogs.wizard._chart import totals_chart


def history(players: int, rounds: int) -> list[RoundResult]:
    zeros = (0,) * players
    return [
        RoundResult(r, zeros, zeros, zeros, tuple((seat - 2) * 15 * r for seat in range(players)))
        for r in range(1, rounds + 1)
    ]


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (6, 10), (4, 1)])
def test_the_chart_is_a_png_of_phone_size(players: int, rounds: int) -> None:
    png = totals_chart([f"Player {seat} with a long name" for seat in range(players)], history(players, rounds))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (1200, 750)
    assert 10_000 < len(png) < 400_000


def test_starting_the_bot_does_not_import_matplotlib() -> None:
    # It is imported when the first game ends: half a second and tens of MiB that start-up does not need.
    code = "import sys, bot.__main__, bot.client, cogs.wizard; print('matplotlib' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
