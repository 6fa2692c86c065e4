"""The lock files pin every dependency pyproject.toml declares, at a version it allows (else: run .ci/lock)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s;]+)", re.MULTILINE)


def declared(*extras: str) -> list[Requirement]:
    lines = PROJECT["dependencies"] + [line for extra in extras for line in PROJECT["optional-dependencies"][extra]]
    return [req for req in map(Requirement, lines) if canonicalize_name(req.name) != canonicalize_name(PROJECT["name"])]


def pinned(lock: str) -> dict[str, list[str]]:
    versions: dict[str, list[str]] = {}
    for name, version in PIN.findall((ROOT / lock).read_text()):
        versions.setdefault(canonicalize_name(name), []).append(version)
    return versions


@pytest.mark.parametrize(
    ("lock", "extras"),
    [("requirements.txt", ("postgres",)), ("requirements-dev.txt", ("postgres", "dev"))],
)
def test_the_lock_pins_every_declared_dependency_at_an_allowed_version(lock: str, extras: tuple[str, ...]) -> None:
    versions = pinned(lock)
    stale = [
        str(req)
        for req in declared(*extras)
        if not versions.get(canonicalize_name(req.name))
        or not all(req.specifier.contains(version) for version in versions[canonicalize_name(req.name)])
    ]
    assert stale == [], f"{lock} is out of date with pyproject.toml: run .ci/lock"
