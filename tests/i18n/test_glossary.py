"""Each catalog against its glossary (``bot/locales/<lang>/glossary.toml``): one word per game term and
per house rule, the rejected synonyms nowhere, and the language's form of address and gender rules kept."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.catalog import Catalog

from bot import i18n
from tests.i18n.test_catalogs import ENGLISH, LANGUAGES, forms, messages

# What every glossary decides: the game's terms, each house rule's name and the computer levels.
CONCEPTS = {
    "wizard", "jester", "trump", "trick", "bid", "dealer", "lead", "follow_suit", "round", "host",
    "rule.add_up", "rule.round_one", "rule.hidden", "rule.blind", "rule.even", "rule.shorter",
    "level.easy", "level.normal", "level.hard", "spades", "clubs",
}  # fmt: skip


def glossary(language: str) -> dict[str, Any]:
    with (i18n.LOCALES_DIR / language / "glossary.toml").open("rb") as file:
        return tomllib.load(file)


def text(catalog_message: Any) -> str:
    """The message's forms without placeholders: {tricks} is not a word for a trick."""
    return re.sub(r"\{[^}]*\}", "…", "\n".join(forms(catalog_message)))


def problems(terms: dict[str, Any], catalog: Catalog) -> Iterator[str]:
    """Where `catalog` departs from its glossary `terms`; nothing when it keeps every decision.

    A term may name a short form for buttons (``[term.button]``: its keys and the form they use),
    where the full name would not fit a phone's button (tests/i18n/test_button_labels.py)."""
    found = messages(catalog)
    for term in terms.get("term", []):
        english = re.compile(term["english"], re.M)
        button = term.get("button", {})
        for key, message in ENGLISH.items():
            wanted = button["chosen"] if key in button.get("keys", ()) else term["chosen"]
            if key in found and english.search(text(message)) and not re.search(wanted, text(found[key]), re.I | re.M):
                yield f"{key}: says {term['concept']} without “{wanted}”"
    rejected = [(term["concept"], pattern) for term in terms.get("term", []) for pattern in term["rejected"]]
    rejected += [(rule["why"], rule["pattern"]) for rule in terms.get("forbidden", [])]
    for key, message in found.items():
        for why, pattern in rejected:
            if re.search(pattern, text(message), re.I | re.M):
                yield f"{key}: uses “{pattern}” ({why})"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_has_a_glossary_that_decides_every_term(language: str) -> None:
    terms = glossary(language)
    assert terms["language"] == language
    assert all(terms[part].strip() for part in ("edition", "address", "gender"))
    assert {term["concept"] for term in terms["term"]} == CONCEPTS
    for term in terms["term"]:
        if "button" in term:  # a short form for some buttons: named keys, and why
            assert set(term["button"]["keys"]) <= ENGLISH.keys()
            assert term["button"]["why"].strip()


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalog_keeps_its_glossary(language: str) -> None:
    assert list(problems(glossary(language), i18n.read_catalog(language))) == []


@pytest.mark.parametrize(
    ("language", "key", "wrong", "expected"),
    [
        # Each of these was in the catalogs once.
        ("el", "suit.S", "Σπαθιά", "suit.S: says spades without “Μπαστούνια”"),
        ("el", "level.normal", "μέτριος", "level.normal: uses “μέτρι” (level.normal)"),
        ("ru", "error.not_your_turn", "Сейчас не твой ход.", "error.not_your_turn: uses"),
        ("ru", "table.back", "Я вернулся", "table.back: uses"),
        ("pl", "error.already_bid", "W tej rundzie już zadeklarowałeś.", "error.already_bid: uses"),
        ("cs", "lobby.rule_add_up", "Součet odhadů omezen", "lobby.rule_add_up: says rule.add_up without"),
        # The button's short name is for the button only: an option line keeps the rule's full name.
        ("cs", "option.variant.on", "Součet odhadů nesmí vyjít", "option.variant.on: says rule.add_up without"),
        # The calque the blind round had; Czech says "naslepo".
        ("cs", "lobby.rule_blind", "Slepé první kolo", "lobby.rule_blind: says rule.blind without"),
        ("ru", "lobby.rule_blind", "Слепой первый раунд", "lobby.rule_blind: uses"),
        ("el", "command.wizard.review", "Ανάλυση του παιχνιδιού σου σε αυτόν τον server.", "command.wizard.review:"),
        ("el", "command.wizard.settings.rounds", "Πόσοι γύροι παίζονται εξ ορισμού", "command.wizard.settings.rounds:"),
        (
            "ko",
            "table.stand_in.timeout",
            "{name} 님의 시간이 초과되어 컴퓨터가 대신 두었습니다.",
            "table.stand_in.timeout:",
        ),
        ("ko", "settings.rule.hidden_bids", "숨긴 예측: {value}", "settings.rule.hidden_bids: uses “숨긴 예측”"),
        ("ko", "table.reminder", "⏰ <@{user}> 님, Wizard에서 차례입니다 — {when} 끝납니다.", "table.reminder: uses"),
    ],
)
def test_a_departure_from_the_glossary_is_reported(language: str, key: str, wrong: str, expected: str) -> None:
    catalog = i18n.read_catalog(language)
    catalog[key].string = wrong
    assert [problem for problem in problems(glossary(language), catalog) if problem.startswith(expected)] != []
