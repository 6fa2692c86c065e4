"""tools/texts.py: every text rendered for every count in every language, filled as the bot fills it."""

from __future__ import annotations

import io

import pytest
from babel.messages.pofile import write_po

from bot import i18n
from tools import texts


def test_every_placeholder_is_filled_the_way_the_bot_fills_it() -> None:
    # A placeholder the script does not know would be read as ‹name›, not as what players see.
    assert {key: texts.unsampled(key) for key in texts.every_key() if texts.unsampled(key)} == {}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_text_renders_for_every_count(language: str) -> None:
    for key in texts.every_key():
        for count in texts.COUNTS:
            rendered = texts.render(language, key, count)
            assert rendered.strip(), (key, count)
            assert "{" not in rendered, (key, count, rendered)
            assert "‹" not in rendered, (key, count, rendered)


def test_placeholders_get_what_the_bot_puts_there() -> None:
    assert texts.render("cs", "turn.follow", 2) == "▶ Na tahu je **Eva** · přiznává se barva ♥️ Srdce."
    assert texts.render("ru", "table.reminder", 2) == "⏰ <@123>, ваш ход в Wizard: время истечёт через 2 минуты."
    assert texts.render("pl", "board.line", 22) == "22. **Eva** — 22 wygrane · 22 gry"
    assert texts.render("en", "permissions.cannot_start", 2).count("**") == 4  # two permissions named


def test_a_text_is_shown_once_for_the_counts_it_reads_the_same() -> None:
    lines = list(texts.report(["time.minutes"], ["cs"], texts.COUNTS))
    assert lines == [
        "== time.minutes (plural text) ==",
        "cs  0 minut  [0]",
        "cs  1 minuta  [1]",
        "cs  2 minuty  [2]",
        "cs  3 minuty  [3]",
        "cs  5 minut  [5]",
        "cs  11 minut  [11]",
        "cs  21 minut  [21]",
        "cs  22 minut  [22]",
        "cs  25 minut  [25]",
        "",
    ]
    permissions = list(texts.report(["permissions.cannot_start"], ["en"], texts.COUNTS))[1:-1]
    # The four permissions a game needs, however many more the count asks for.
    assert [line.rsplit("  ", 1)[1] for line in permissions] == ["[0]", "[1]", "[2]", "[3]", "[5, 11, 21, 22, 25]"]
    assert "grant them" in permissions[0]  # zero is plural in English
    assert "grant it" in permissions[1]


def test_a_long_text_shows_only_the_sentence_a_count_changes() -> None:
    lines = list(texts.report(["help.text"], ["pl"], (1, 2)))
    assert lines[-3:] == [
        "    [1]",
        "pl  **Czas na ruch.** Tutaj to 2 minuty, chyba że grę rozpoczęto z innym czasem.  [2]",
        "",
    ]


def test_since_finds_the_texts_whose_english_changed() -> None:
    # An older English catalog, made from today's: one text changed, one added since.
    catalog = i18n.read_catalog(i18n.ENGLISH)
    catalog["lobby.join"].string = "Sit down"
    del catalog["length.first"]
    older = io.BytesIO()
    write_po(older, catalog)
    assert texts.changed_from(older.getvalue()) == sorted(["lobby.join", "length.first"], key=texts.every_key().index)
    current = io.BytesIO()
    write_po(current, i18n.read_catalog(i18n.ENGLISH))
    assert texts.changed_from(current.getvalue()) == []


def test_the_buttons_report_names_every_label_and_its_room() -> None:
    lines = list(texts.buttons_report(["ko"]))
    assert lines[0] == "== buttons in ko (px of text / px a 360-px phone shows) =="
    assert any(line.endswith("가려진 카드  (a hand)") for line in lines)
    assert not any(line.endswith("CUT") for line in lines)
