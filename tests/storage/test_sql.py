"""The statements the SQL backends share, in PostgreSQL's placeholder style."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields

import pytest

from bot.storage._sql import SQLITE, _number, numbered

PLACEHOLDERS = {
    "none": ("SELECT count(*) FROM games", "SELECT count(*) FROM games"),
    "numbered in order": ("UPDATE games SET seed = ? WHERE id = ?", "UPDATE games SET seed = $1 WHERE id = $2"),
    "quoted text left as it is": (
        "SELECT id FROM games WHERE status = '?' AND id = ? AND host_id = ?",
        "SELECT id FROM games WHERE status = '?' AND id = $1 AND host_id = $2",
    ),
}


@pytest.mark.parametrize(("sqlite", "postgres"), PLACEHOLDERS.values(), ids=PLACEHOLDERS.keys())
def test_question_marks_become_numbered_placeholders(sqlite: str, postgres: str) -> None:
    assert _number(sqlite) == postgres


def test_every_statement_and_every_leaderboard_order_is_numbered() -> None:
    statements = numbered(SQLITE)
    texts = [text for statement in fields(statements) for text in _texts(getattr(statements, statement.name))]
    assert texts
    assert [text for text in texts if "?" in text] == []


def _texts(value: str | Mapping[object, str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value.values())
