"""The translators' files are current: the .pot template and the English comments in each .po.

They are made by ``python -m bot.i18n_tools``; this is the same check as ``--check``, run by the tests so
that CI fails when someone changes a catalog and forgets to run the command.
"""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot import i18n, i18n_tools
from tests.i18n.test_catalogs import ENGLISH, TRANSLATED, key_of, messages


def test_the_template_and_the_catalogs_are_what_the_command_writes() -> None:
    assert i18n_tools.stale() == [], f"run {i18n_tools.COMMAND}"


def test_the_template_has_every_english_key_untranslated_with_its_english_text() -> None:
    with i18n_tools.TEMPLATE.open("rb") as pot:
        template = messages(read_po(pot))
    assert list(template) == list(ENGLISH)
    for key, message in template.items():
        assert not any(message.string), key
        assert message.auto_comments == i18n_tools.english_comments(ENGLISH[key])


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_translation_carries_the_english_text_as_a_comment(language: str) -> None:
    for message in i18n.read_catalog(language):
        if message.id:
            assert message.auto_comments == i18n_tools.english_comments(ENGLISH[key_of(message)]), key_of(message)


def test_a_changed_english_text_makes_the_files_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    def doctored(language: str) -> Catalog:
        catalog = i18n.read_catalog(language)
        if language == i18n.ENGLISH:
            catalog["lobby.host"].string = "Game host"
        return catalog

    monkeypatch.setattr(i18n_tools, "read_catalog", doctored)
    assert set(i18n_tools.stale()) == set(i18n_tools.outputs())


def test_the_plural_english_forms_are_both_in_the_comment() -> None:
    assert i18n_tools.english_comments(ENGLISH["stats.rounds"]) == [
        "English (one): {n} round",
        "English (other): {n} rounds",
    ]
