"""Numbers are written the reader's way (Babel, CLDR): decimals, percentages, and a real minus sign."""

from __future__ import annotations

import pytest

from bot import i18n


@pytest.mark.parametrize(
    ("locale", "value", "spec", "expected"),
    [
        # Decimals: a comma in Czech, Russian, Polish and Greek.
        ("en-US", 1.4, ".1f", "1.4"),
        ("cs", 1.4, ".1f", "1,4"),
        ("ru", 1.4, ".1f", "1,4"),
        ("pl", 1.4, ".1f", "1,4"),
        ("el", 1.4, ".1f", "1,4"),
        ("ko", 1.4, ".1f", "1.4"),
        ("cs", 1234.5, ".0f", "1\xa0234"),
        ("el", 1234.5, ".0f", "1.234"),
        # Percentages as each language writes them.
        ("en-US", 1 / 3, ".0%", "33%"),
        ("cs", 1 / 3, ".0%", "33\xa0%"),
        ("ru", 1 / 3, ".0%", "33\xa0%"),
        ("pl", 1 / 3, ".0%", "33%"),
        ("ko", 1 / 3, ".0%", "33%"),
        ("cs", 0.125, ".1%", "12,5\xa0%"),
        # A minus sign, not a hyphen; signed points.
        ("en-US", -60, "", "−60"),
        ("cs", -1.25, ".1f", "−1,2"),
        ("en-US", -10, "+d", "−10"),
        ("el", 30, "+d", "+30"),
        # Integers otherwise as they are: a mention's id must not be grouped.
        ("cs", 123456789012345678, "", "123456789012345678"),
    ],
)
def test_a_number_is_written_the_readers_way(locale: str, value: float, spec: str, expected: str) -> None:
    assert i18n.number(locale, value, spec) == expected


@pytest.mark.parametrize(
    ("locale", "key", "params", "expected"),
    [
        ("cs", "board.value.rating", {"value": 1.4}, "hodnocení 1,4"),
        ("en-US", "board.value.rating", {"value": -2.0}, "rating −2.0"),
        ("cs", "board.value.exact_rate", {"value": 1 / 3}, "33\xa0% přesně"),
        ("cs", "hand.where", {"channel": 123456789012345678}, "Hra v kanálu <#123456789012345678>"),
    ],
)
def test_the_texts_write_their_numbers_the_readers_way(
    locale: str, key: str, params: dict[str, object], expected: str
) -> None:
    assert i18n.t(locale, key, **params) == expected


def test_a_number_format_the_catalogs_do_not_use_is_refused() -> None:
    with pytest.raises(ValueError, match="not one of the catalogs'"):
        i18n.number("en-US", 1.5, ">8")


def test_a_plain_integer_loads_no_locale_data() -> None:
    """CLDR's data is megabytes a language: a text whose numbers are plain integers (counts, ids,
    the turn timer's choices at start-up) must not load it (55 → 66 MiB at rest when it did)."""
    i18n._babel_locale.cache_clear()
    assert i18n.number("cs", 5) == "5"
    assert i18n.number("cs", -60) == "−60"
    assert i18n._babel_locale.cache_info().currsize == 0
