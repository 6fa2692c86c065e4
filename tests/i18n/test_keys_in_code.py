"""The catalogs hold exactly the keys the code uses: none unused, none missing, each with the right function.

The code is read, not run: every call of `t`, `tn`, `text` or `command_text` gives its key. A key built at
run time (``f"suit.{suit.value}"``) is enumerated from the code too: from the loop it sits in when that loop
runs over a constant (``for op in _ids.LOBBY_OPS``, a dict written out in the function), or else from the
enum, constant or call sites it comes from (`BUILT` below). A new pattern that neither explains fails the
test, so it cannot slip past as "dynamic".
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot import i18n
from bot.engine import Phase, Reason, Suit
from bot.guild_settings import Problem
from bot.manager import COMPUTER_LEVELS, PLACE_GONE, Refusal
from bot.storage import Sort
from cogs.wizard import _permissions
from tests.i18n.test_catalogs import ENGLISH, LANGUAGES, messages

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")])
MODULES = {path: ".".join(path.relative_to(ROOT).with_suffix("").parts) for path in SOURCES}
# Where each texts function takes its key, and whether the key is a plural text.
FUNCTIONS = {"t": (1, False), "tn": (1, True), "text": (1, None), "command_text": (0, None)}
KEY = re.compile(r"[a-z_]+(?:\.[a-z_0-9]+)+")


def _is_look_method(func: ast.expr) -> bool:
    """Whether a call is `Look.t` / `Look.tn` (`cogs/wizard/_look.py`): a method on a reader, whose
    key comes first, not after a locale."""
    return (
        isinstance(func, ast.Attribute)
        and func.attr in ("t", "tn")
        and not (isinstance(func.value, ast.Name) and func.value.id in ("i18n", "babel"))
    )


def _calls_to(module: Path, name: str) -> Iterator[ast.Call]:
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.Call) and _name(node.func) == name:
            yield node


def close_reasons() -> list[str]:
    """Why a lobby closes: the reasons the manager passes to `_close_lobby`."""
    return [
        call.args[1].value
        for call in _calls_to(ROOT / "bot" / "manager" / "_lobbies.py", "_close_lobby")
        if isinstance(call.args[1], ast.Constant)
    ]


def stand_in_causes() -> list[str]:
    """Why the computer moved for a person: the causes the manager keeps for the table (`Table.stand_in`)."""
    for node in ast.walk(ast.parse((ROOT / "bot" / "manager" / "_games.py").read_text())):
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Attribute) and target.attr == "stand_in" for target in node.targets
        ):
            tests = [sub for sub in ast.walk(node.value) if isinstance(sub, ast.Compare)]
            return [value for test in tests for value in ast.literal_eval(test.comparators[0])]
    raise AssertionError("the manager no longer sets Table.stand_in")


MOVING = [phase.value for phase in Phase if phase is not Phase.GAME_OVER]  # the table and hand name game over apart

# Keys built at run time from a value that is not a loop over a constant: the pattern (as written in the
# code) and where its values come from.
BUILT: dict[str, Callable[[], Iterable[str]]] = {
    "suit.{suit.value}": lambda: [suit.value for suit in Suit],
    "permission.{name}": lambda: [*_permissions.NEEDED, *_permissions.IN_THREAD.values()],
    "level.{player.computer}": lambda: COMPUTER_LEVELS,
    "level.{settings.computer_level}": lambda: COMPUTER_LEVELS,
    "language.{settings.language}": lambda: i18n.LANGUAGES,
    "language.{language_of(guild_locale)}": lambda: i18n.LANGUAGES,
    "settings.error.{error.problem.value}": lambda: [problem.value for problem in Problem],
    "error.{error.refusal.value}": lambda: [refusal.value for refusal in Refusal],
    "error.{error.reason.value}": lambda: [reason.value for reason in Reason],
    # Wins are a count, rendered with tn before this key is built for the other sorts.
    "board.value.{sort.value}": lambda: [sort.value for sort in Sort if sort is not Sort.WINS],
    "board.sort.{sort.value}": lambda: [sort.value for sort in Sort],
    "lobby.closed.{reason}": close_reasons,
    # Why a game's place is gone (`bot.manager.PLACE_GONE`), as its players are told.
    "gone.{reason}": lambda: sorted(PLACE_GONE),
    "table.stand_in.{by}": stand_in_causes,
    # Rendered only while someone is to move: game over has its own text.
    "mover.{observation.phase.value}": lambda: MOVING,
    "card.{kind}": lambda: ["wizard", "jester"],  # the two cards without a suit (`_faces`)
}


@dataclass(frozen=True)
class Use:
    """One key a call names: where, which function, and whether that function wants a plural text."""

    key: str
    where: str
    plural: bool | None


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _pattern(node: ast.JoinedStr) -> str:
    return "".join(
        str(part.value) if isinstance(part, ast.Constant) else "{" + ast.unparse(part.value) + "}"
        for part in node.values
        if isinstance(part, ast.Constant | ast.FormattedValue)
    )


def _loop_values(name: str, parents: list[ast.AST], module: str) -> list[str] | None:
    """The values `name` takes in the innermost loop that binds it, when that loop runs over a constant."""
    for node in reversed(parents):
        loops: list[tuple[ast.expr, ast.expr]] = []
        if isinstance(node, ast.For):
            loops = [(node.target, node.iter)]
        elif isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp | ast.DictComp):
            loops = [(generator.target, generator.iter) for generator in node.generators]
        for target, source in loops:
            names = [target] if isinstance(target, ast.Name) else getattr(target, "elts", [])
            if not names or not isinstance(names[0], ast.Name) or names[0].id != name:
                continue
            if isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) and source.func.attr == "items":
                source = source.func.value  # over a dict's items: its keys
            try:
                values = ast.literal_eval(source)
            except ValueError:
                values = _local_constant(source, parents) or _module_constant(source, module)
            if values is not None:
                return [str(getattr(value, "value", value)) for value in values]
    return None


def _local_constant(source: ast.expr, parents: list[ast.AST]) -> object:
    """A name assigned a literal (a dict or tuple written out) in the enclosing function."""
    if not isinstance(source, ast.Name):
        return None
    function = next((node for node in reversed(parents) if isinstance(node, ast.FunctionDef)), None)
    for node in ast.walk(function) if function else ():
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == source.id for target in node.targets
        ):
            if isinstance(node.value, ast.Dict):
                return [ast.literal_eval(key) for key in node.value.keys if key is not None]
            return ast.literal_eval(node.value)
    return None


def _module_constant(source: ast.expr, module: str) -> object:
    """A module-level constant or enum (``_ids.LOBBY_OPS``, ``COMPUTER_LEVELS``, ``Sort``)."""
    if module.endswith("__main__"):
        return None  # importing it would run it
    try:
        return eval(ast.unparse(source), vars(importlib.import_module(module)))  # a constant of our own module
    except NameError:
        return None


def uses() -> Iterator[Use]:
    """Every key the code names, with built keys expanded; a built key that cannot be enumerated fails."""
    for path in SOURCES:
        where = str(path.relative_to(ROOT))
        module = MODULES[path]
        tree = ast.parse(path.read_text())
        stack: list[tuple[ast.AST, list[ast.AST]]] = [(tree, [])]
        while stack:
            node, parents = stack.pop()
            stack.extend((child, [*parents, node]) for child in ast.iter_child_nodes(node))
            if not isinstance(node, ast.Call) or _name(node.func) not in FUNCTIONS:
                continue
            position, plural = FUNCTIONS[str(_name(node.func))]
            if _is_look_method(node.func):
                position -= 1  # look.t(key, ...): the reader's `Look` holds the locale
            if len(node.args) <= position:
                continue
            argument = node.args[position]
            # "settings.on" if on else "settings.off": both are keys.
            branches = [argument.body, argument.orelse] if isinstance(argument, ast.IfExp) else [argument]
            for branch in branches:
                if isinstance(branch, ast.Constant) and isinstance(branch.value, str):
                    yield Use(branch.value, f"{where}:{node.lineno}", plural)
                elif isinstance(branch, ast.JoinedStr):
                    yield from _built(branch, [*parents, node], module, f"{where}:{node.lineno}", plural)
                # A key in a variable is one of the constants below (`constants`), checked there.


def _built(node: ast.JoinedStr, parents: list[ast.AST], module: str, where: str, plural: bool | None) -> Iterator[Use]:
    pattern = _pattern(node)
    fields = [part for part in node.values if isinstance(part, ast.FormattedValue)]
    values = None
    if len(fields) == 1 and isinstance(fields[0].value, ast.Name):
        values = _loop_values(fields[0].value.id, parents, module)
    if values is None:
        assert pattern in BUILT, f"{where}: the key {pattern!r} is built at run time: enumerate its values in BUILT"
        values = list(BUILT[pattern]())
    assert values, f"{where}: {pattern!r} takes no values"
    prefix, suffix = re.split(r"\{[^}]*\}", pattern)
    for value in values:
        yield Use(f"{prefix}{value}{suffix}", where, plural)


def constants() -> set[str]:
    """Every string constant in the code that looks like a key of a catalog's namespace."""
    namespaces = {key.split(".")[0] for key in ENGLISH}
    found = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY.fullmatch(node.value):
                found.update({node.value} if node.value.split(".")[0] in namespaces else set())
    return found


USES = list(uses())
USED = {use.key for use in USES} | constants()


def test_every_key_the_code_uses_is_in_the_english_catalog() -> None:
    assert sorted(USED - ENGLISH.keys()) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_of_a_catalog_is_used_by_the_code(language: str) -> None:
    assert sorted(messages(i18n.read_catalog(language)).keys() - USED) == []


def test_each_call_uses_the_function_its_text_needs() -> None:
    """`t` for a plain text, `tn` for a text with a count (checked here for the calls no test runs)."""
    wrong = [
        f"{use.where}: {use.key}"
        for use in USES
        if use.key in ENGLISH and use.plural is not None and use.plural != ENGLISH[use.key].pluralizable
    ]
    assert wrong == []


def test_built_keys_are_enumerated() -> None:
    """The run-time keys expand to what the catalogs have: suits, levels, refusals, lobby buttons."""
    assert {"suit.S", "suit.C", "level.normal", "error.paused", "lobby.rule_blind", "lobby.closed.expired"} <= USED
    assert {"table.stand_in.timeout", "pad.total", "settings.rule.hidden_bids", "permission.embed_links"} <= USED


def test_an_unused_key_and_an_unknown_pattern_are_reported(tmp_path: Path) -> None:
    source = tmp_path / "made_up.py"
    source.write_text("def f(locale, x):\n    return t(locale, f'made.{x.up}')\n")
    call = next(_calls_to(source, "t"))
    with pytest.raises(AssertionError, match="enumerate its values in BUILT"):
        list(_built(call.args[1], [call], "made_up", "made_up.py", False))  # type: ignore[arg-type]
    doctored = {**messages(i18n.read_catalog("cs")), "lobby.never_shown": None}
    assert sorted(doctored.keys() - USED) == ["lobby.never_shown"]
