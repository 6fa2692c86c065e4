"""Running the backend-neutral tests of tests/storage against PostgreSQL."""

from __future__ import annotations

from types import ModuleType
from typing import Any


def backend_neutral(module: ModuleType) -> dict[str, Any]:
    """A test module's names, less its tests marked `sqlite_only`: its tests then run here as well.

    Fixtures and helpers come along; `repository` and `site` are this directory's (PostgreSQL).
    """
    names = {}
    for name, value in vars(module).items():
        if name.startswith("__"):
            continue
        marks = getattr(value, "pytestmark", [])
        if name.startswith("test_") and any(mark.name == "sqlite_only" for mark in marks):
            continue
        names[name] = value
    return names
