"""A number with a noun that agrees with it ("1 round", "5 kol") is a plural text, rendered with `tn`.

Czech, Polish and Russian have three forms and English two, so a count in a plain text reads wrong for some
numbers ("Shorter game: 1 rounds", "3 kol"). The count of a plural text is its placeholder ``{n}``.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Message

from bot import i18n
from tests.i18n.test_catalogs import ENGLISH, LANGUAGES, fields, forms, messages

# The nouns the bot counts, as English writes them after a number.
COUNTED = ("round", "player", "trick", "card", "game", "win", "point", "second", "minute", "hour", "channel")
COUNT = re.compile(r"\{(\w+)[^}]*\}\)? (?:" + "|".join(COUNTED) + r")s?\b")


PEOPLE = {"name", "names"}  # "{names} wins!": a verb after a name, not a count


def counts(message: Message) -> list[str]:
    """The placeholders of an English message that a counted noun follows ("{n} rounds", "{most} players")."""
    found = [match.group(1) for text in forms(message) for match in COUNT.finditer(text)]
    return [name for name in found if name not in PEOPLE]


def test_every_english_text_with_a_count_is_a_plural_text_counting_n() -> None:
    wrong = {key: counts(message) for key, message in ENGLISH.items() if counts(message)}
    assert {key: names for key, names in wrong.items() if not ENGLISH[key].pluralizable or set(names) != {"n"}} == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_text_with_the_count_n_has_plural_forms_in_every_catalog(language: str) -> None:
    plain = [
        key
        for key, message in messages(i18n.read_catalog(language)).items()
        if not message.pluralizable and any(name == "n" for text in forms(message) for name, *_ in fields(text))
    ]
    assert plain == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Shorter game: {n} rounds", ["n"]),
        ("The game is full ({most} players).", ["most"]),
        ("{name} — bid {bid} · tricks {won} · {score} points", ["score"]),
        ("Wizard — round {round} of {rounds}", []),
        ("{name} is bidding.", []),
        ("{names} wins!", []),
    ],
)
def test_counts_are_found_where_a_noun_follows_a_number(text: str, found: list[str]) -> None:
    assert counts(Message("key", text)) == found


def test_a_count_given_to_t_is_refused() -> None:
    with pytest.raises(TypeError, match="use tn"):
        i18n.t("en-US", "lobby.players", n=3, joined=3, most=6)


@pytest.mark.parametrize(
    ("locale", "key", "n", "expected"),
    [
        ("en-US", "option.rounds", 1, "Shorter game: 1 round"),
        ("en-US", "length.first", 1, "1 round"),
        ("cs", "option.rounds", 3, "Kratší hra: 3 kola"),
        ("cs", "option.rounds", 5, "Kratší hra: 5 kol"),
        ("pl", "length.first", 3, "3 rundy"),
        ("ru", "length.first", 21, "21 раунд"),
        ("ru", "option.rounds", 21, "Короткая игра: 21 раунд"),
        ("el", "option.rounds", 1, "Σύντομο παιχνίδι: 1 γύρος"),
        ("ru", "error.too_many_rounds", 20, "При таком числе игроков можно сыграть не больше 20 раундов."),
    ],
)
def test_counts_take_the_form_of_their_number(locale: str, key: str, n: int, expected: str) -> None:
    assert i18n.tn(locale, key, n) == expected


@pytest.mark.parametrize(
    ("locale", "score", "expected"),
    [
        ("cs", 20, "1. **Jana**: 20 bodů"),
        ("cs", -10, "1. **Jana**: −10 bodů"),
        ("ru", 30, "1. **Jana**: 30 очков"),
        # A negative count takes the form of its size, with a real minus sign.
        ("ru", -21, "1. **Jana**: −21 очко"),
        ("en-US", -1, "1. **Jana**: −1 point"),
        ("el", 0, "1. **Jana**: 0 πόντοι"),
        ("en-US", 10, "1. **Jana**: 10 points"),
    ],
)
def test_a_score_counts_its_points(locale: str, score: int, expected: str) -> None:
    assert i18n.tn(locale, "final.line", score, place=1, name="Jana") == expected


@pytest.mark.parametrize(
    ("locale", "key", "params", "expected"),
    [
        ("cs", "error.lobby_full", {"n": 6}, "Hra je plná (6 hráčů)."),
        ("ru", "error.not_enough_players", {"n": 3}, "Чтобы начать, нужно не меньше 3 игроков."),
        ("en-US", "error.not_host", {}, "Only the host can do that."),
    ],
)
def test_a_key_chosen_at_run_time_is_counted_when_it_is_a_plural_text(
    locale: str, key: str, params: dict[str, int], expected: str
) -> None:
    assert i18n.text(locale, key, **params) == expected
