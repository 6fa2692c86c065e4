"""Unicode emoji as Discord's client draws them: Twemoji images, found by codepoints.

Discord turns every emoji sequence in a message (the `emoji` package's list, which is Unicode's)
into a Twemoji image, text-presentation characters included: ♠ (U+2660) and ♣ (U+2663) without a
variation selector become the near-black Twemoji spade and club. The artwork is not in the
repository: `python -m tools.screens setup` installs the npm package @twemoji/svg into a cache
folder outside git (docs/screens.md).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import emoji

#: The npm package holding one SVG per emoji, named by codepoints ("2660.svg", "1f9d9-200d-2642-fe0f.svg").
NPM_PACKAGE = "@twemoji/svg@15.0.0"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "wizard-screens"
SVG_FOLDER = CACHE / "node_modules" / "@twemoji" / "svg"

# Discord's client leaves these as text although Unicode lists them as emoji (with no variation
# selector, they are typographic signs in ordinary writing).
_TEXT_SIGNS = frozenset({"©", "®", "™"})
_VS16 = "\ufe0f"
_ZWJ = "\u200d"


def file_name(sequence: str) -> str:
    """Twemoji's name for an emoji sequence: its codepoints in hex joined by "-", without U+FE0F
    unless the sequence has a zero-width joiner (the rule of twemoji's own parser)."""
    if _ZWJ not in sequence:
        sequence = sequence.replace(_VS16, "")
    return "-".join(f"{ord(char):x}" for char in sequence)


@dataclass
class Twemoji:
    """Twemoji SVGs by file name (without ".svg"): from a folder (the npm package) or a mapping."""

    images: Mapping[str, bytes] = field(default_factory=dict)
    folder: Path | None = None
    missing: set[str] = field(default_factory=set)  # sequences asked for and not found, to report

    @classmethod
    def installed(cls) -> Twemoji:
        """The SVGs of the installed npm package, or none when it is not installed (see `setup`)."""
        return cls(folder=SVG_FOLDER if SVG_FOLDER.is_dir() else None)

    @property
    def available(self) -> bool:
        return bool(self.images) or self.folder is not None

    def svg(self, sequence: str) -> bytes | None:
        """The SVG of an emoji sequence, or None (then it stays text)."""
        names = [file_name(sequence), "-".join(f"{ord(c):x}" for c in sequence.replace(_VS16, ""))]
        for name in names:
            if name in self.images:
                return self.images[name]
            if self.folder is not None:
                path = self.folder / f"{name}.svg"
                if path.is_file():
                    return path.read_bytes()
        self.missing.add(sequence)
        return None


def split(text: str) -> Iterator[tuple[str, bool]]:
    """`text` in runs of (text, False) and single emoji sequences (sequence, True), in order."""
    position = 0
    for found in emoji.emoji_list(text):
        start, end, sequence = found["match_start"], found["match_end"], found["emoji"]
        if sequence in _TEXT_SIGNS:
            continue
        if start > position:
            yield text[position:start], False
        yield sequence, True
        position = end
    if position < len(text):
        yield text[position:], False


def only_emoji(text: str) -> int | None:
    """How many emoji `text` consists of (whitespace aside), or None if it holds anything else."""
    count = 0
    for run, is_emoji in split(text):
        if is_emoji:
            count += 1
        elif run.strip():
            return None
    return count
