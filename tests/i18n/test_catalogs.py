"""The message catalogs: complete, in step with English, with each language's plural forms, all renderable."""

from __future__ import annotations

import string
from collections.abc import Iterator

import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message

from bot import i18n
from bot.engine import Card, Suit
from cogs.wizard._faces import TEXT, TEXT_SUIT

REQUIRED = ("en", "cs", "pl", "ru", "ko", "el")
LANGUAGES = i18n.LANGUAGES  # every catalog in bot/locales, so a new language is checked as soon as it exists
TRANSLATED = [language for language in LANGUAGES if language != i18n.ENGLISH]
# Numbers whose plural form differs somewhere: 1/21/101 (one), 2–4/22–24/102 (few), 11–14/111–112 (many in
# Polish and Russian), 5–20/25/100/105/125 (many or other).
SAMPLES = [*range(31), 100, 101, 102, 104, 105, 111, 112, 114, 121, 122, 125, 1000, 1001, 1002, 1011, 1021]
CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")
# Texts shown on a button (Discord allows 80 characters) or as an embed title (256).
# Words that are the same as in English and are correct as they are.
SAME_AS_ENGLISH = {"pl": {"lobby.start"}}
BUTTON_LABELS = [
    "lobby.join", "lobby.leave", "lobby.start", "lobby.cancel", "table.my_hand", "board.previous", "board.next",
    "suit.S", "suit.H", "suit.D", "suit.C", "card.wizard", "card.jester",
]  # fmt: skip


def key_of(message: Message) -> str:
    return str(message.id[0]) if message.pluralizable else str(message.id)


def messages(catalog: Catalog) -> dict[str, Message]:
    return {key_of(message): message for message in catalog if message.id}


def forms(message: Message) -> list[str]:
    return [str(form) for form in message.string] if message.pluralizable else [str(message.string)]


def fields(text: str) -> set[tuple[str, str | None, str | None]]:
    """The placeholders of a text: name, format spec and conversion, as str.format reads them."""
    return {
        (name, spec, conversion) for _, name, spec, conversion in string.Formatter().parse(text) if name is not None
    }


ENGLISH = messages(i18n.read_catalog(i18n.ENGLISH))


def english_fields(key: str) -> set[tuple[str, str | None, str | None]]:
    return set().union(*(fields(form) for form in forms(ENGLISH[key])))


def problems(english: dict[str, Message], catalog: Catalog) -> Iterator[str]:
    """Every way `catalog` falls short of the English one; nothing when it is complete and consistent."""
    found = messages(catalog)
    for key in sorted(english.keys() - found.keys()):
        yield f"{key}: missing (every English message needs a translation)"
    for key in sorted(found.keys() - english.keys()):
        yield f"{key}: not in the English catalog"
    for key in sorted(english.keys() & found.keys()):
        message, source = found[key], english[key]
        if message.pluralizable != source.pluralizable:
            yield f"{key}: plural in one catalog and not in the other"
            continue
        if message.fuzzy:
            yield f"{key}: marked fuzzy (a fuzzy translation is not used)"
        texts = forms(message)
        if message.pluralizable and len(texts) != catalog.num_plurals:
            yield f"{key}: {len(texts)} plural forms, the header says {catalog.num_plurals}"
        if any(not text for text in texts):
            yield f"{key}: empty translation"
        wanted = set().union(*(fields(form) for form in forms(source)))
        for text in texts:
            if fields(text) != wanted:
                yield f"{key}: placeholders {sorted(map(str, fields(text)))} instead of {sorted(map(str, wanted))}"


def sample(spec: str | None) -> object:
    """A value of the type a placeholder's format spec needs: {points:+d} an int, {rate:.0%} a float."""
    if spec and spec[-1] in "d":
        return 3
    if spec and spec[-1] in "f%":
        return 0.375
    return 7


def test_the_six_languages_have_catalogs() -> None:
    assert set(REQUIRED) <= set(LANGUAGES)
    assert LANGUAGES[0] == i18n.ENGLISH


def test_the_english_catalog_is_complete() -> None:
    assert len(ENGLISH) > 100
    assert list(problems(ENGLISH, i18n.read_catalog(i18n.ENGLISH))) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalog_has_every_english_message_and_no_other(language: str) -> None:
    assert list(problems(ENGLISH, i18n.read_catalog(language))) == []


def test_a_message_added_only_to_english_is_reported_missing() -> None:
    doctored = dict(ENGLISH)
    doctored["lobby.brand_new"] = Message("lobby.brand_new", "A brand new text")
    for language in TRANSLATED:
        assert list(problems(doctored, i18n.read_catalog(language))) == [
            "lobby.brand_new: missing (every English message needs a translation)"
        ]


def test_a_wrong_placeholder_is_reported() -> None:
    catalog = i18n.read_catalog("cs")
    catalog["mover.play"].string = "Na tahu je **{jmeno}**"
    assert [problem for problem in problems(ENGLISH, catalog) if problem.startswith("mover.play")] == [
        "mover.play: placeholders [\"('jmeno', '', None)\"] instead of [\"('name', '', None)\"]"
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalog_declares_its_language_and_cldr_plural_rules(language: str) -> None:
    catalog = i18n.read_catalog(language)
    assert str(catalog.locale) == language
    cldr = Locale.parse(language).plural_form
    # The categories whole numbers fall in, in CLDR's order, are gettext's plural indexes (Czech: one, few,
    # other; Polish and Russian: one, few, many; Korean: other).
    categories = [category for category in CLDR_ORDER if any(cldr(n) == category for n in range(2000))]
    assert catalog.num_plurals == len(categories)
    plural = i18n.translations(language).plural  # the formula compiled from the catalog's header
    assert [plural(n) for n in SAMPLES] == [categories.index(cldr(n)) for n in SAMPLES]


@pytest.mark.parametrize(
    ("locale", "key", "expected"),
    [
        ("cs", "stats.rounds", {1: "1 kolo", 2: "2 kola", 4: "4 kola", 5: "5 kol", 21: "21 kol", 0: "0 kol"}),
        ("cs", "time.minutes", {1: "1 minuta", 2: "2 minuty", 5: "5 minut"}),
        (
            "pl",
            "board.games",
            {1: "1 gra", 2: "2 gry", 5: "5 gier", 12: "12 gier", 22: "22 gry", 25: "25 gier", 0: "0 gier"},
        ),
        ("pl", "stats.cards", {1: "1 karta", 2: "2 karty", 5: "5 kart", 22: "22 karty", 25: "25 kart"}),
        (
            "ru",
            "board.value.wins",
            {1: "1 победа", 2: "2 победы", 5: "5 побед", 11: "11 побед", 21: "21 победа", 22: "22 победы"}
            | {25: "25 побед", 111: "111 побед", 101: "101 победа"},
        ),
        ("ru", "time.hours", {1: "1 час", 2: "2 часа", 5: "5 часов", 21: "21 час", 22: "22 часа", 25: "25 часов"}),
        ("ko", "stats.cards", {1: "1장", 2: "2장", 5: "5장"}),
        ("el", "board.games", {1: "1 παιχνίδι", 2: "2 παιχνίδια", 0: "0 παιχνίδια"}),
        ("en-US", "board.games", {1: "1 game", 2: "2 games", 0: "0 games", 21: "21 games"}),
    ],
)
def test_plural_forms_spot_checks(locale: str, key: str, expected: dict[int, str]) -> None:
    assert {n: i18n.tn(locale, key, n) for n in expected} == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_renders_in_every_language(language: str) -> None:
    for key, message in ENGLISH.items():
        params = {name: sample(spec) for name, spec, _ in english_fields(key)}
        if message.pluralizable:
            params.pop("n", None)  # a plural text may leave its count unsaid: "grant it" / "grant them"
            texts = [i18n.tn(language, key, n, **params) for n in SAMPLES]
        else:
            texts = [i18n.t(language, key, **params)]
        for text in texts:
            assert text.strip(), key
            assert "{" not in text, f"{language} {key}: {text!r}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_texts_are_translated_not_copied_from_english(language: str) -> None:
    translated = messages(i18n.read_catalog(language))
    copied = {
        key
        for key, message in ENGLISH.items()
        if key in translated and forms(translated[key]) == forms(message) and any(map(str.isalpha, _words(message)))
    }
    assert copied == SAME_AS_ENGLISH.get(language, set())


def _words(message: Message) -> str:
    """The text of a message without its placeholders."""
    return "".join(literal for text in forms(message) for literal, *_ in string.Formatter().parse(text))


@pytest.mark.parametrize("language", LANGUAGES)
def test_texts_fit_discord_limits(language: str) -> None:
    assert len(i18n.t(language, "rules.text")) <= 4096  # an embed's description
    for key in BUTTON_LABELS:
        assert 0 < len(i18n.t(language, key)) <= 80, key
    for key in ("rules.title", "lobby.title", "final.title"):
        assert len(i18n.t(language, key)) <= 256


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("en-US", "en"),
        ("en-GB", "en"),
        ("cs", "cs"),
        ("pl", "pl"),
        ("ru", "ru"),
        ("ko", "ko"),
        ("el", "el"),
        ("de", "en"),
        ("pt-BR", "en"),
        ("zh-TW", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_discord_locales_map_to_catalogs(locale: str | None, language: str) -> None:
    assert i18n.language_of(locale) == language


def test_every_discord_locale_has_a_catalog_or_english() -> None:
    import discord

    for locale in discord.Locale:
        assert i18n.language_of(str(locale)) in LANGUAGES
    assert {i18n.language_of(str(locale)) for locale in discord.Locale} >= set(REQUIRED)


def test_cards_are_named_in_each_language() -> None:
    wizard, jester, heart = Card.parse("W1"), Card.parse("J1"), Card.parse("H7")
    locales = ("en-US", "cs", "pl", "ru", "ko", "el")
    assert [TEXT.card(locale, wizard) for locale in locales] == [
        "🧙 Wizard", "🧙 Čaroděj", "🧙 Czarodziej", "🧙 Волшебник", "🧙 마법사", "🧙 Μάγος",
    ]  # fmt: skip
    assert [TEXT.card(locale, jester) for locale in locales] == [
        "🃏 Jester", "🃏 Šašek", "🃏 Błazen", "🃏 Шут", "🃏 광대", "🃏 Γελωτοποιός",
    ]  # fmt: skip
    assert {TEXT.card(locale, heart) for locale in locales} == {"♥️7"}


@pytest.mark.parametrize(
    ("locale", "names"),
    [
        ("en-US", ["Spades", "Hearts", "Diamonds", "Clubs"]),
        ("cs", ["Piky", "Srdce", "Kára", "Kříže"]),
        ("pl", ["Piki", "Kiery", "Karo", "Trefle"]),
        ("ru", ["Пики", "Червы", "Бубны", "Трефы"]),
        ("ko", ["스페이드", "하트", "다이아몬드", "클럽"]),
        ("el", ["Μπαστούνια", "Κούπες", "Καρό", "Σπαθιά"]),  # ♠ Μπαστούνια, ♣ Σπαθιά
    ],
)
def test_suits_have_their_card_game_names(locale: str, names: list[str]) -> None:
    suits = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    assert [TEXT.suit_named(locale, suit) for suit in suits] == [
        f"{TEXT_SUIT[suit]} {name}" for suit, name in zip(suits, names, strict=True)
    ]


def test_durations_use_the_largest_whole_units_in_each_language() -> None:
    assert [i18n.duration("cs", seconds) for seconds in (30, 90, 120, 150, 300, 3600, 5400, 7200, 86400)] == [
        "30 sekund",
        "1 minuta 30 sekund",
        "2 minuty",
        "2 minuty 30 sekund",
        "5 minut",
        "1 hodina",
        "1 hodina 30 minut",
        "2 hodiny",
        "24 hodin",
    ]
    assert i18n.duration("ru", 60) == "1 минута"
    assert i18n.duration(None, 43200) == "12 hours"
    # Half of the default five-minute timer, and of fifteen minutes: never "150 seconds".
    assert [i18n.duration(None, seconds) for seconds in (150, 450)] == ["2 minutes 30 seconds", "7 minutes 30 seconds"]
    assert i18n.duration("el", 150) == "2 λεπτά και 30 δευτερόλεπτα"
    assert i18n.duration("ko", 3661) == "1시간 1분 1초"


def test_the_api_refuses_unknown_keys_and_the_wrong_function() -> None:
    with pytest.raises(KeyError):
        i18n.t("cs", "no.such.key")
    with pytest.raises(TypeError, match="use tn"):
        i18n.t("cs", "board.games")
    with pytest.raises(TypeError, match="use t"):
        i18n.tn("cs", "table.title", 2)


def test_a_text_without_parameters_is_returned_as_written() -> None:
    assert i18n.t("en-US", "round.trump.none") == "no trump"
    assert i18n.t("el", "stop.done") == "Το παιχνίδι σταμάτησε."
