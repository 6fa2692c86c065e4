"""Every text a person reads comes from here, looked up by key for a Discord locale.

The texts live in gettext catalogs, one per language: ``bot/locales/<lang>/LC_MESSAGES/messages.po``.
The message ids are the keys used in the code (``"table.title"``); English is a catalog like the
others, so its wording can change without touching any other catalog. Each catalog is read with
Babel and compiled in memory the first time its language is needed (no ``.mo`` files are kept),
and plural texts are chosen with the plural formula in each catalog's header, so Czech, Polish and
Russian get their three forms (1 lew, 2 lewy, 5 lew). Anything a catalog lacks falls back to English.

Numbers in a text are written the reader's way (Babel, from CLDR): ``{value:.1f}`` in a catalog is
"1.4" in English and "1,4" in Czech, ``{rate:.0%}`` is "33%" or "33 %", and a negative number has a
real minus sign ("−60", not a hyphen), as has ``{points:+d}`` ("+30", "−10"); see `number`.

Slash commands are localised too: `command_text` marks a command's text for discord.py, and
`CatalogTranslator` gives Discord that text in each language when the commands are synced.
"""

from __future__ import annotations

import functools
import re
from io import BytesIO
from pathlib import Path

from babel import Locale as BabelLocale
from babel import numbers
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from discord import Locale, app_commands

DEFAULT_LOCALE = "en-US"
ENGLISH = "en"
LOCALES_DIR = Path(__file__).with_name("locales")
DOMAIN = "messages"


def catalog_path(language: str) -> Path:
    """Where the catalog of `language` (``"cs"``, or ``"pt_BR"`` for a regional one) lives."""
    return LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(language: str) -> Catalog:
    with catalog_path(language).open("rb") as po:
        return read_po(po, domain=DOMAIN)  # the language and plural formula come from its header


def _compile(catalog: Catalog) -> Translations:
    """The catalog as gettext translations, compiled in memory. Fuzzy and empty entries are left out."""
    mo = BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return Translations(mo, domain=DOMAIN)


# The catalogs found, English first. Each is read and compiled the first time a text of its language
# is needed: parsing all six at start-up was a tenth of the time it took to import the bot.
LANGUAGES = (
    ENGLISH,
    *sorted(
        path.parent.parent.name
        for path in LOCALES_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")
        if path.parent.parent.name != ENGLISH
    ),
)


@functools.cache
def _english() -> tuple[Translations, dict[str, bool]]:
    """The English catalog compiled, and which keys exist and which of them are plural texts."""
    english = read_catalog(ENGLISH)
    kinds: dict[str, bool] = {}
    for message in english:
        if message.id:
            kinds[str(message.id[0] if message.pluralizable else message.id)] = message.pluralizable
    return _compile(english), kinds


@functools.cache
def _translations(language: str) -> Translations:
    """A language's catalog compiled, falling back to English for anything it lacks."""
    fallback, _ = _english()
    if language == ENGLISH:
        return fallback
    compiled = _compile(read_catalog(language))
    compiled.add_fallback(fallback)
    return compiled


@functools.lru_cache(maxsize=128)
def language_of(locale: str | None) -> str:
    """The catalog for a Discord locale: ``"cs"`` → cs, ``"pt-BR"`` → pt_BR or else pt; unknown → English."""
    if not locale:
        return ENGLISH
    tag = str(locale).replace("-", "_")
    if tag in LANGUAGES:
        return tag
    language = tag.split("_")[0].lower()
    return language if language in LANGUAGES else ENGLISH


def translations(locale: str | None) -> Translations:
    """The compiled catalog used for `locale` (its `plural` function is the catalog's formula)."""
    return _translations(language_of(locale))


# -- numbers -------------------------------------------------------------------------------

MINUS = "\u2212"  # the minus sign: a hyphen ("-60") reads as a dash beside "—" and looks short
_SPEC = re.compile(r"(?P<sign>\+)?(?:\.(?P<digits>\d+))?(?P<kind>[fd%]?)")


@functools.lru_cache(maxsize=32)
def _babel_locale(language: str) -> BabelLocale:
    return BabelLocale.parse(language)


def number(locale: str | None, value: float, spec: str = "") -> str:
    """`value` written for the reader of `locale` as the format `spec` of a catalog asks.

    The specs the catalogs use: ``""`` (an integer as it is, a float as the language writes it),
    ``".1f"`` (that many decimals), ``".0%"`` (a percentage, the language's way: "33 %" in Czech),
    ``"+d"`` (signed). The numbers follow the text's language (the catalog chosen for `locale`), so
    an English text never carries Czech decimals. Negative numbers get a real minus sign.
    """
    found = _SPEC.fullmatch(spec)
    if found is None:
        raise ValueError(f"a number's format {spec!r} is not one of the catalogs' ('', '.1f', '.0%', '+d')")
    digits = found["digits"]
    if found["kind"] != "%" and digits is None and isinstance(value, int):
        # Integers stay as they are (no grouping): ids in mentions (<#123…>) are integers too. No
        # locale data is needed for them (CLDR's is megabytes a language, loaded only for the rest).
        text = str(value)
    else:
        where = _babel_locale(language_of(locale))
        if found["kind"] == "%":
            pattern = where.percent_formats[None].pattern
            if digits and int(digits):
                pattern = re.sub(r"0(?=[^0#]*$)", "0." + "0" * int(digits), pattern, count=1)
            text = numbers.format_percent(value, pattern, locale=where)
        elif digits is not None:
            pattern = "#,##0." + "0" * int(digits) if int(digits) else "#,##0"
            text = numbers.format_decimal(value, pattern, locale=where)
        else:
            text = numbers.format_decimal(value, locale=where)
        text = text.replace(numbers.get_minus_sign_symbol(locale=where), MINUS)
    text = text.replace("-", MINUS)
    if found["sign"] and not text.startswith(MINUS):
        text = "+" + text
    return text


class _Number:
    """A number given to a text: formatting it with the catalog's spec writes it the reader's way."""

    __slots__ = ("locale", "value")

    def __init__(self, locale: str | None, value: float) -> None:
        self.locale = locale
        self.value = value

    def __format__(self, spec: str) -> str:
        return number(self.locale, self.value, spec)

    def __str__(self) -> str:  # "{value!s}" in a catalog
        return number(self.locale, self.value)


def _numbers(locale: str | None, params: dict[str, object]) -> dict[str, object]:
    """`params` with the numbers wrapped so that the text writes them in `locale`'s way."""
    return {
        name: _Number(locale, value) if isinstance(value, int | float) and not isinstance(value, bool) else value
        for name, value in params.items()
    }


def _check(key: str, plural: bool) -> None:
    kind = _english()[1].get(key)
    if kind is None:
        raise KeyError(f"{key} is not in the English catalog ({catalog_path(ENGLISH)})")
    if kind and not plural:
        raise TypeError(f"{key} is a plural text: use tn()")
    if plural and not kind:
        raise TypeError(f"{key} is not a plural text: use t()")


def t(locale: str | None, key: str, /, **params: object) -> str:
    """The text `key` in `locale` (a Discord locale such as ``en-US``), filled with `params`."""
    _check(key, plural=False)
    if "n" in params:
        # {n} is the count of a plural text: a number with a noun needs the language's plural forms.
        raise TypeError(f"{key} is given a count n: make it a plural text and use tn()")
    text = translations(locale).gettext(key)
    return text.format(**_numbers(locale, params)) if params else text


def tn(locale: str | None, key: str, n: int, /, **params: object) -> str:
    """The plural text `key` for the number `n` in `locale`, in the form that language uses for `n`."""
    _check(key, plural=True)
    # The plural form of a negative count is that of its size (CLDR): "−21 очко" like "21 очко".
    return translations(locale).ngettext(key, key, abs(n)).format(**_numbers(locale, {"n": n, **params}))


def is_plural(key: str) -> bool:
    """Whether `key` is a plural text (rendered with `tn`), as the English catalog says."""
    kinds = _english()[1]
    if key not in kinds:
        raise KeyError(f"{key} is not in the English catalog ({catalog_path(ENGLISH)})")
    return kinds[key]


def text(locale: str | None, key: str, /, **params: object) -> str:
    """The text `key` for a key chosen at run time (a refusal's reason): a plural text counts `params["n"]`."""
    if is_plural(key):
        count = params.pop("n")
        assert isinstance(count, int), f"{key}: the count n must be an int, not {count!r}"
        return tn(locale, key, count, **params)
    return t(locale, key, **params)


def _duration_unit(seconds: int) -> tuple[str, int]:
    """The largest whole unit of a duration that is one: 300 s is 5 minutes, 90 s stays seconds."""
    if seconds % 3600 == 0:
        return "time.hours", seconds // 3600
    if seconds % 60 == 0:
        return "time.minutes", seconds // 60
    return "time.seconds", seconds


def duration(locale: str | None, seconds: int) -> str:
    """A duration in hours, minutes and seconds, each part left out when it is none: 300 s is
    "5 minutes" and 150 s "2 minutes 30 seconds" (never "150 seconds"); 24 hours stay hours."""
    if seconds <= 0:
        return tn(locale, "time.seconds", 0)
    hours, rest = divmod(seconds, 3600)
    minutes, rest = divmod(rest, 60)
    parts = [
        tn(locale, key, n) for key, n in (("time.hours", hours), ("time.minutes", minutes), ("time.seconds", rest)) if n
    ]
    text = parts[0]
    for part in parts[1:]:
        text = t(locale, "time.compound", larger=text, smaller=part)
    return text


# -- slash commands ------------------------------------------------------------------------


def command_text(key: str, /, n: int | None = None) -> app_commands.locale_str:
    """A command's description or a choice's name: English from the catalog, the rest at sync.

    With `n` the key is a plural text (a choice such as "5 minutes").
    """
    english = t(DEFAULT_LOCALE, key) if n is None else tn(DEFAULT_LOCALE, key, n)
    return app_commands.locale_str(english, key=key, n=n)


def duration_text(seconds: int) -> app_commands.locale_str:
    """A duration of whole hours, minutes or seconds as a choice name for a command, localised like
    `duration` (a choice name is one text, so it cannot join two)."""
    key, n = _duration_unit(seconds)
    return command_text(key, n=n)


class CatalogTranslator(app_commands.Translator):
    """Gives Discord each command text made with `command_text` in every language we have.

    English is the commands' default text, so it needs no localisation; texts without a key
    (the command and option names, which stay English everywhere) are left alone.
    """

    async def translate(
        self, string: app_commands.locale_str, locale: Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        return self.text(string, locale)

    @staticmethod
    def text(string: app_commands.locale_str, locale: Locale | str) -> str | None:
        key = string.extras.get("key")
        language = language_of(str(locale))
        if not isinstance(key, str) or language == ENGLISH:
            return None
        n = string.extras.get("n")
        return tn(language, key, n) if isinstance(n, int) else t(language, key)
