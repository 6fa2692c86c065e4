"""``python -m tools.texts``: the bot's texts in every language, filled in the way the bot fills them, for
a native speaker to read (docs/translating.md).

    python -m tools.texts --since c27883b          # the texts whose English is new or changed since a commit
    python -m tools.texts --keys 'table.reminder,ping.*'
    python -m tools.texts --languages cs,pl --counts 1,2,5
    python -m tools.texts --buttons                # every button label and its width on a 360-px phone

Each text is filled for each count (by default 0, 1, 2, 3, 5, 11, 21, 22 and 25, which between them
take every plural form of the six languages): a plural text's count, and every other number in the
text, is that count. The other placeholders get what the bot puts there, made with the catalogs
and the screens' own code in the same language: a name ("Eva"), a suit ("♥️ Srdce"), cards, a whole
"**Eva** is to play" for {mover}, a duration of that many minutes, a permission or several. A Discord
timestamp is shown as Discord's client shows it to a reader of that language: "<t:…:R>" as "za 5
minut" (CLDR's relative time, from Babel), "<t:…:D>" as a long date. Texts that come out the same
for several counts are printed once, with those counts.
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import functools
import io
import re
import string
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from babel.dates import format_date, format_timedelta
from babel.messages.pofile import read_po

from bot import i18n
from bot.engine import Card, Options, Suit
from cogs.wizard import _faces, _look, _permissions

COUNTS = (0, 1, 2, 3, 5, 11, 21, 22, 25)
NAMES = ("Eva", "Kuba")  # a name's form never changes in the bot's texts: the sentences must not need it to


@dataclass(frozen=True, slots=True)
class Fill:
    """What a placeholder is given: the reader's language, the text's key, the count being shown."""

    language: str
    key: str
    count: int

    def t(self, key: str, **values: object) -> str:
        return i18n.t(self.language, key, **values)

    def tn(self, key: str, n: int, **values: object) -> str:
        return i18n.tn(self.language, key, n, **values)


def _relative(fill: Fill) -> str:
    """<t:…:R> as the reader's client writes it, that many minutes ahead."""
    delta = datetime.timedelta(minutes=fill.count)
    return format_timedelta(delta, granularity="minute", threshold=100, add_direction=True, locale=fill.language)


def _date(fill: Fill, days: int = 0) -> str:
    """<t:…:D> as the reader's client writes it: a long date."""
    day = datetime.date(2027, 3, 1) + datetime.timedelta(days=fill.count + days)
    return format_date(day, "long", locale=fill.language)


def _card(fill: Fill) -> str:
    return _faces.TEXT.card(fill.language, Card.parse("H7"))


def _cards(fill: Fill) -> str:
    """A trick's cards with who played them, as the table shows them."""
    cards = (Card.parse("H7"), Card.parse("W1"))
    return " · ".join(
        f"{name} {_faces.TEXT.card(fill.language, card)}" for name, card in zip(NAMES, cards, strict=True)
    )


def _suit(fill: Fill) -> str:
    return _faces.TEXT.suit_named(fill.language, Suit.HEARTS)


def _permissions_named(fill: Fill) -> str:
    # As many as the count says, of the four a game needs (a plural text counts them).
    lacking = _permissions.NEEDED[: max(1, min(fill.count, len(_permissions.NEEDED)))]
    return _permissions.names(fill.language, lacking)


def _house_rules(fill: Fill) -> str:
    options = Options(bids_may_not_add_up=True, bids_may_add_up_in_round_one=True, rounds=5)
    return " · ".join(_look.house_rules(options, fill.language))


# What the bot puts in each placeholder, by its name; a text whose placeholder of that name holds
# something else says so in `BY_KEY`. A placeholder not named in either is given the count.
BY_NAME: dict[str, Callable[[Fill], object]] = {
    "name": lambda fill: NAMES[0],
    "rival": lambda fill: NAMES[1],
    "names": lambda fill: ", ".join(NAMES),
    "mover": lambda fill: fill.t("mover.play", name=NAMES[0]),
    "marker": lambda fill: "▶ ",
    "suit": _suit,
    "card": _card,
    "cards": _cards,
    "hand": lambda fill: " ".join(_faces.TEXT.card(fill.language, Card.parse(c)) for c in ("H7", "W1", "S12")),
    "theirs": _card,
    "hard": _card,
    "time": lambda fill: i18n.duration(fill.language, 60 * fill.count),
    "low": lambda fill: i18n.duration(fill.language, 30),
    "high": lambda fill: i18n.duration(fill.language, 24 * 3600),
    "when": _relative,
    "start": _date,
    "end": lambda fill: _date(fill, days=30),
    "date": _date,
    "channels": lambda fill: "<#101>, <#102>",
    "permissions": _permissions_named,
    "link": lambda fill: "https://discord.com/channels/1/2/3",
    "join": lambda fill: fill.t("lobby.join"),
    "language": lambda fill: fill.t(f"language.{fill.language}"),
    "length": lambda fill: fill.tn("length.first", fill.count),
    "level": lambda fill: fill.t("level.hard"),
    "lead": lambda fill: fill.tn("review.points_signed", fill.count),
    "about": lambda fill: fill.tn("review.about", fill.count),
    "trump": lambda fill: fill.t("round.trump", suit=_suit(fill)),
    "what": lambda fill: fill.t("review.summary"),
    "option": lambda fill: "turn_timer",
    "rules": _house_rules,
    "server": lambda fill: "Wizard Club",
    "sort": lambda fill: fill.t("board.sort.rating"),
    "game": lambda fill: "0042ab",
    "larger": lambda fill: fill.tn("time.minutes", fill.count),
    "smaller": lambda fill: fill.tn("time.seconds", 30),
    "user": lambda fill: 123,
    "channel": lambda fill: 456,
}
BY_KEY: dict[tuple[str, str], Callable[[Fill], object]] = {
    ("board.line", "value"): lambda fill: fill.tn("board.value.wins", fill.count),
    ("board.line", "games"): lambda fill: fill.tn("board.games", fill.count),
    ("season.over.period", "games"): lambda fill: fill.tn("board.games", fill.count),
    ("stats.by_size.line", "cards"): lambda fill: fill.tn("stats.cards", fill.count),
    ("stats.by_size.line", "rounds"): lambda fill: fill.tn("stats.rounds", fill.count),
    ("stats.bids.value", "rounds"): lambda fill: fill.tn("stats.rounds", fill.count),
    ("hand.not_playable", "cards"): lambda fill: "♠️3 ♠️9",
    ("player.line", "tricks"): lambda fill: fill.tn("tricks.needs", 1, bid=fill.count + 1, won=fill.count),
    ("stats.versus.places", "level"): lambda fill: fill.count,
    ("review.top_bid", "theirs"): lambda fill: fill.count,
    ("review.why_bid", "theirs"): lambda fill: fill.count,
    ("review.why_bid", "hard"): lambda fill: fill.count + 1,
    ("review.hard_bid", "hard"): lambda fill: fill.count + 1,
    ("review.hard_bid_close", "hard"): lambda fill: fill.count + 1,
    ("review.split", "cards"): lambda fill: fill.tn("review.points_signed", fill.count),
    ("review.split", "play"): lambda fill: fill.tn("review.points_signed", -fill.count),
    ("error.option_range", "low"): lambda fill: 0,
    ("error.option_range", "high"): lambda fill: 5,
    ("error.bad_option", "value"): lambda fill: "7 hours",
    ("settings.seasons.length", "length"): lambda fill: fill.t("season.length.monthly"),
    ("settings.seasons.channel", "channel"): lambda fill: "<#456>",
    ("season.over.champion", "names"): lambda fill: f"**{NAMES[0]}**",
    ("season.over.champions", "names"): lambda fill: f"**{NAMES[0]}**, **{NAMES[1]}**",
    ("final.winner", "names"): lambda fill: NAMES[0],
    ("rematch.invite", "join"): lambda fill: fill.t("lobby.join"),
    **{
        (f"settings.rule.{rule}", "value"): (lambda fill: fill.t("settings.on"))
        for rule in ("bids_may_not_add_up", "bids_may_add_up_in_round_one", "hidden_bids", "even_rounds")
    },
    ("settings.rule.blind_first_round", "value"): lambda fill: fill.t("settings.off"),
}


# The placeholders that are numbers: each is given the count (a spec such as {stake:.1f} makes it 5.4).
NUMBERS = frozenset(
    {
        "n", "ahead", "behind", "bid", "done", "joined", "last", "most", "number", "page", "pages", "place",
        "players", "rank", "round", "rounds", "took", "total", "trick", "tricks", "wins", "rival_wins", "won",
        "games", "value", "average", "rival_average", "expected", "rating", "stake", "exact", "over", "under",
        "rate", "points", "hard_tricks", "theirs_tricks", "first",
    }
)  # fmt: skip


def unsampled(key: str) -> list[str]:
    """The placeholders of `key` this script does not know how to fill as the bot does: add them to
    `BY_NAME`, `BY_KEY` or `NUMBERS` (they are shown as ‹name› meanwhile)."""
    return sorted(
        name
        for form in _english()[key]
        for _, name, _, _ in string.Formatter().parse(form)
        if name is not None and name not in NUMBERS and name not in BY_NAME and (key, name) not in BY_KEY
    )


def _number(spec: str | None, count: int) -> object:
    """A count for a number's placeholder: {stake:.1f} 5.4 for 5, {rate:.0%} 20 % for 5 (a count of 25 is 100 %)"""
    if spec and spec.endswith("%"):
        return count / 25
    if spec and spec.endswith("f"):
        return count + 0.4
    return count


@functools.cache
def _english() -> dict[str, tuple[str, ...]]:
    """Each key's English forms (one, or a plural text's two)."""
    forms: dict[str, tuple[str, ...]] = {}
    for message in i18n.read_catalog(i18n.ENGLISH):
        if message.id:
            string = message.string
            forms[_key(message)] = tuple(map(str, string)) if isinstance(string, tuple | list) else (str(string),)
    return forms


def values(language: str, key: str, count: int) -> dict[str, object]:
    """The placeholders of `key` filled for `count` in `language`, as the bot fills them."""
    fill = Fill(language, key, count)
    filled: dict[str, object] = {}
    for form in _english()[key]:
        for _, name, spec, _ in string.Formatter().parse(form):
            if name is None or name == "n" or name in filled:
                continue
            sampler = BY_KEY.get((key, name)) or BY_NAME.get(name)
            if sampler is None:
                filled[name] = _number(spec, count) if name in NUMBERS else f"‹{name}›"
                continue
            value = sampler(fill)
            filled[name] = _number(spec, value) if isinstance(value, int) and spec else value
    return filled


def render(language: str, key: str, count: int) -> str:
    """`key` in `language` for `count`, filled as the bot fills it."""
    filled = values(language, key, count)
    if i18n.is_plural(key):
        return i18n.tn(language, key, count, **filled)
    return i18n.t(language, key, **filled)


def changed_since(revision: str) -> list[str]:
    """The keys whose English text is new or different since `revision` (a git commit)."""
    path = i18n.catalog_path(i18n.ENGLISH).relative_to(i18n.LOCALES_DIR.parent.parent).as_posix()
    return changed_from(subprocess.run(["git", "show", f"{revision}:{path}"], capture_output=True, check=True).stdout)


def changed_from(old_catalog: bytes) -> list[str]:
    """The keys whose English text is new, or different from the one in `old_catalog` (a .po file)."""
    before = {_key(message): message.string for message in read_po(io.BytesIO(old_catalog)) if message.id}
    now = i18n.read_catalog(i18n.ENGLISH)
    return [_key(message) for message in now if message.id and before.get(_key(message)) != message.string]


def _key(message: object) -> str:
    ident = message.id  # type: ignore[attr-defined]
    return str(ident[0] if isinstance(ident, tuple) else ident)


def every_key() -> list[str]:
    return list(_english())


def _counted(key: str) -> bool:
    """Whether the count changes anything in `key`: a plural text, or a number or duration in it."""
    return len({render(i18n.ENGLISH, key, count) for count in (1, 2)}) > 1


def report(keys: Sequence[str], languages: Sequence[str], counts: Sequence[int]) -> Iterable[str]:
    """Each key's texts, language by language. A text that comes out the same for several counts is
    shown once, with them; of a text of several lines, the lines that differ from the first count's."""
    for key in keys:
        kind = "plural text" if i18n.is_plural(key) else "text"
        yield f"== {key} ({kind}) =="
        if unsampled(key):
            yield f"   (not filled as the bot fills them: {', '.join(unsampled(key))}; see BY_NAME in tools/texts.py)"
        shown = counts if _counted(key) else counts[:1]
        for language in languages:
            by_text: dict[str, list[int]] = {}
            for count in shown:
                by_text.setdefault(render(language, key, count), []).append(count)
            first: list[str] | None = None
            for text, which in by_text.items():
                tag = "" if len(by_text) == 1 and len(shown) == 1 else f"  [{', '.join(map(str, which))}]"
                lines = text.split("\n")
                if first is None:
                    first = lines
                    yield f"{language:3} {lines[0]}{tag if len(lines) == 1 else ''}"
                    yield from (f"    {line}" for line in lines[1:])
                    if len(lines) > 1 and tag:
                        yield f"    {tag.strip()}"
                    continue
                different = [part for line in lines if line not in first for part in _new_sentences(line, first)]
                yield from (f"{language:3} {line}{tag}" for line in (different if len(lines) > 1 else lines))
        yield ""


def _new_sentences(line: str, first: Sequence[str]) -> list[str]:
    """The sentences of `line` that no line of `first` has: what a count changed in a long text."""
    known = {sentence for other in first for sentence in _SENTENCE.split(other)}
    return [sentence for sentence in _SENTENCE.split(line) if sentence not in known] or [line]


_SENTENCE = re.compile(r"(?<=[.!?;:。])\s+")


def buttons_report(languages: Sequence[str]) -> Iterable[str]:
    """Every button label, its width and the room a 360-px phone leaves it; the widest first."""
    from . import labels

    for language in languages:
        yield f"== buttons in {language} (px of text / px a 360-px phone shows) =="
        for label in sorted(labels.labels(language), key=lambda label: label.room - label.width):
            mark = "" if label.fits else "  CUT"
            yield f"{label.width:5.0f} / {label.room:3.0f}  {label.text}  ({label.where}){mark}"
        yield ""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.texts", description=__doc__.split("\n\n")[0])
    parser.add_argument("--since", help="only the texts whose English is new or changed since this git commit")
    parser.add_argument("--keys", help="only these keys, comma-separated; shell patterns such as 'ping.*' work")
    parser.add_argument("--languages", default=",".join(i18n.LANGUAGES), help="comma-separated (default: all)")
    parser.add_argument("--counts", default=",".join(map(str, COUNTS)), help="comma-separated")
    parser.add_argument("--buttons", action="store_true", help="the button labels and their widths on a phone")
    args = parser.parse_args(argv)
    languages = [language for language in args.languages.split(",") if language]
    unknown = set(languages) - set(i18n.LANGUAGES)
    if unknown:
        parser.error(f"no catalog for {', '.join(sorted(unknown))}; there are {', '.join(i18n.LANGUAGES)}")
    if args.buttons:
        lines: Iterable[str] = buttons_report(languages)
    else:
        keys = changed_since(args.since) if args.since else every_key()
        if args.keys:
            patterns = args.keys.split(",")
            keys = [key for key in keys if any(fnmatch.fnmatchcase(key, pattern) for pattern in patterns)]
            if not keys:
                parser.error(f"no key matches {args.keys}")
        lines = report(keys, languages, [int(count) for count in args.counts.split(",")])
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
