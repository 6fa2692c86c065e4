"""Every button label fits a phone's button in every language.

Discord cuts a label that would make its button wider than the message with "…" (tools/labels.py
says how wide that is on a 360-px phone, and how the label is measured). Discord's own limit, 80
characters, is checked with the rest of what Discord refuses (tests/bot/test_discord_limits.py);
this is the stricter one a player sees: the Czech lobby switch "Součet odhadů se nesmí rovnat
počtu štychů" (300 px) showed as "Součet odhadů se nesmí rovnat …".
"""

from __future__ import annotations

import pytest

from bot import i18n
from tools import labels


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_button_label_fits_a_phone_button(language: str) -> None:
    cut = [
        f"{label.where}: “{label.text}” is {label.width:.0f} px wide; a 360-px phone shows {label.room:.0f}"
        for label in labels.labels(language)
        if not label.fits
    ]
    assert cut == []


def test_the_labels_are_read_from_every_screen_with_buttons() -> None:
    found = {label.where for label in labels.labels("en")}
    assert found == {
        "the lobby",
        "the host's panel",
        "the table",
        "a hand",
        "a hand choosing trump",
        "an away player's hand",
        "the final standings",
        "a leaderboard page",
    }
    texts = {label.text for label in labels.labels("en")}
    # The switches in each state, each game length, the face-down card, a card, a suit, the bell both ways.
    assert {"Bids may not add up", "…except round 1", "Length: 5 rounds", "Length: even rounds"} <= texts
    assert {"Your card", "Wizard", "♥️ 7", "Hearts", "Ping my turns", "Stop pings", "I'm back", "Next"} <= texts


def test_a_label_is_measured_with_the_room_its_emoji_and_container_leave() -> None:
    # A bare button in a message is 272 − 32 px; an emoji takes 23.25 px more, a container 37.
    assert labels.room(emoji=False, contained=False) == 240
    assert labels.room(emoji=True, contained=True) == pytest.approx(240 - 23.25 - 37)
    in_hand = [label for label in labels.labels("en") if label.text == "Your card"]
    assert [(label.emoji, label.contained) for label in in_hand] == [(True, True)]


def test_the_label_that_was_cut_on_phones_is_reported() -> None:
    before = labels.Label("Součet odhadů se nesmí rovnat počtu štychů", True, False, "the host's panel")
    assert before.width == pytest.approx(300, abs=2)
    assert not before.fits
    assert labels.Label(i18n.t("cs", "lobby.rule_add_up"), True, False, "the host's panel").fits


def test_hangul_is_measured_about_twice_as_wide_as_latin() -> None:
    # A Hangul syllable is nearly an em (13 of 14 px); a Latin letter about half of it.
    assert 3 * 12 < labels.width("마법사") < 3 * 14
    assert 20 < labels.width("Wizard") < 50
    assert labels.width("♥️ 7") > labels.width("7") + 19  # an emoji is drawn 1.375 em wide


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_face_down_card_is_not_named_like_the_my_hand_button(language: str) -> None:
    # Both buttons carry 🎴; in Korean both said "내 카드", so the blind round's card read as My hand.
    assert i18n.t(language, "card.face_down") != i18n.t(language, "table.my_hand")
