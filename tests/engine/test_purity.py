"""The engine is pure: standard library only, no Discord, no database, no event loop, no I/O."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import bot.engine

ENGINE = Path(bot.engine.__file__).parent
SOURCES = sorted(ENGINE.glob("*.py"))
FORBIDDEN_PACKAGES = ("discord", "aiosqlite", "asyncio", "aiohttp", "sqlite3", "dotenv")
# Standard-library modules that would mean I/O, concurrency or logging set-up inside the rules.
FORBIDDEN_STDLIB = {
    "asyncio", "io", "logging", "os", "pathlib", "shutil", "socket", "sqlite3", "subprocess", "sys",
    "tempfile", "threading", "time", "urllib",
}  # fmt: skip
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "breakpoint", "__import__"}


def imported_modules(path: Path) -> list[tuple[str, int]]:
    """The absolute module names `path` imports (relative imports resolved within bot.engine), with lines."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level and node.module:
                found.append((f"bot.engine.{node.module}", node.lineno))
            elif node.level:  # from . import rules
                found.extend((f"bot.engine.{alias.name}", node.lineno) for alias in node.names)
            else:
                found.append((node.module or "", node.lineno))
    return found


def loaded_by_importing_the_engine() -> tuple[list[str], list[str]]:
    """In a fresh interpreter: every module loaded after importing bot.engine, and those it added."""
    script = (
        "import json, sys\n"
        "before = set(sys.modules)\n"
        "import bot.engine\n"
        "json.dump([sorted(sys.modules), sorted(set(sys.modules) - before)], sys.stdout)\n"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    loaded, added = json.loads(ran.stdout)
    return loaded, added


def test_the_engine_sources_are_found() -> None:
    assert {path.name for path in SOURCES} >= {
        "__init__.py",
        "cards.py",
        "rules.py",
        "actions.py",
        "errors.py",
        "game.py",
    }


def test_importing_the_engine_loads_no_discord_database_or_event_loop() -> None:
    loaded, _ = loaded_by_importing_the_engine()
    assert "bot.engine" in loaded
    offending = [name for name in loaded if name.split(".")[0] in FORBIDDEN_PACKAGES]
    assert offending == []


def test_importing_the_engine_adds_only_standard_library_modules() -> None:
    _, added = loaded_by_importing_the_engine()
    assert "bot.engine.game" in added
    foreign = [
        name
        for name in added
        if name.split(".")[0] not in sys.stdlib_module_names and name != "bot" and not name.startswith("bot.engine")
    ]
    assert foreign == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_engine_module_imports_only_the_standard_library_or_the_engine(path: Path) -> None:
    outside = [
        (name, line)
        for name, line in imported_modules(path)
        if name.split(".")[0] not in sys.stdlib_module_names and not name.startswith("bot.engine")
    ]
    assert outside == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_engine_module_imports_nothing_for_io_concurrency_or_logging(path: Path) -> None:
    found = [(name, line) for name, line in imported_modules(path) if name.split(".")[0] in FORBIDDEN_STDLIB]
    assert found == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_engine_module_calls_no_io_builtins(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    calls = [
        (node.func.id, node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS
    ]
    assert calls == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_engine_module_draws_chance_only_from_seeded_generators(path: Path) -> None:
    # `random.random()`, `random.shuffle(...)` and the like use the shared global generator, which
    # would make games depend on more than their seed; only `random.Random(seed)` is allowed.
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module_level = [
        (node.attr, node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "random"
        and node.attr != "Random"
    ]
    from_random = [
        (alias.name, node.lineno)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "random"
        for alias in node.names
        if alias.name != "Random"
    ]
    assert module_level + from_random == []


def test_imported_modules_sees_absolute_and_relative_imports() -> None:
    names = {name for name, _ in imported_modules(ENGINE / "game.py")}
    assert {"random", "bot.engine.rules", "bot.engine.actions", "dataclasses"} <= names
