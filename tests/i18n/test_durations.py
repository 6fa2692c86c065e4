"""Every sentence that takes a duration reads right with it, in every language.

A duration comes as a noun phrase in the nominative ("1 minuta", "2 minuty", "5 minut"), so the
sentence around it must give it a place where the nominative is right: after a colon or a dash, as
the complement of "je to" / "to" / "это", never as an object ("Na tah máš tady 1 minuta" was wrong in
Czech, "zostało 1 minuta" in Polish). The turn reminder takes Discord's relative timestamp instead
(<t:…:R>), which each reader's client writes as a whole phrase ("za 2 minuty", "через 2 минуты"):
its sentence must read well with that phrase, shown here as CLDR writes it (Babel), as the client does.

These are the sentences a native speaker checked with `python -m tools.texts` (docs/translating.md),
for one, few and many (1, 2 and 5 minutes) and a duration of two units; a change to any of them is
checked again the same way, then written here.
"""

from __future__ import annotations

import datetime
import re

import pytest
from babel.dates import format_timedelta

from bot import i18n

# The texts that take a duration (`i18n.duration`), and its placeholders: the lobby's options, /wizard
# help, and the turn timer refused by /wizard start and by /wizard settings.
DURATION_TEXTS = {"option.timer": ("time",), "help.text": ("time",)}
LIMIT_TEXTS = ("error.bad_timer", "settings.error.timer")
SECONDS = (60, 120, 300, 5400)

EXPECTED = {
    "en": [
        "Turn timer: 1 minute", "Turn timer: 2 minutes", "Turn timer: 5 minutes", "Turn timer: 1 hour 30 minutes",
        "**Timers.** A move may take 1 minute here, unless the game was started with another timer.",
        "**Timers.** A move may take 2 minutes here, unless the game was started with another timer.",
        "**Timers.** A move may take 5 minutes here, unless the game was started with another timer.",
        "**Timers.** A move may take 1 hour 30 minutes here, unless the game was started with another timer.",
        "The turn timer must be between 1 minute and 2 hours.",
        "The turn timer must be at least 1 minute and at most 2 hours.",
        "⏰ <@7>, it's your move in Wizard: time runs out in 1 minute.",
        "⏰ <@7>, it's your move in Wizard: time runs out in 2 minutes.",
        "⏰ <@7>, it's your move in Wizard: time runs out in 5 minutes.",
    ],
    "cs": [
        "Čas na tah: 1 minuta", "Čas na tah: 2 minuty", "Čas na tah: 5 minut", "Čas na tah: 1 hodina 30 minut",
        "**Čas na tah.** Tady je to 1 minuta, pokud hra nezačala s jiným časem.",
        "**Čas na tah.** Tady je to 2 minuty, pokud hra nezačala s jiným časem.",
        "**Čas na tah.** Tady je to 5 minut, pokud hra nezačala s jiným časem.",
        "**Čas na tah.** Tady je to 1 hodina 30 minut, pokud hra nezačala s jiným časem.",
        "Čas na tah musí být nejméně 1 minuta a nejvýš 2 hodiny.",
        "Čas na tah musí být nejméně 1 minuta a nejvýš 2 hodiny.",
        "⏰ <@7>, jsi na tahu ve hře Wizard: čas vyprší za 1 minutu.",
        "⏰ <@7>, jsi na tahu ve hře Wizard: čas vyprší za 2 minuty.",
        "⏰ <@7>, jsi na tahu ve hře Wizard: čas vyprší za 5 minut.",
    ],
    "pl": [
        "Czas na ruch: 1 minuta", "Czas na ruch: 2 minuty", "Czas na ruch: 5 minut", "Czas na ruch: 1 godzina 30 minut",
        "**Czas na ruch.** Tutaj to 1 minuta, chyba że grę rozpoczęto z innym czasem.",
        "**Czas na ruch.** Tutaj to 2 minuty, chyba że grę rozpoczęto z innym czasem.",
        "**Czas na ruch.** Tutaj to 5 minut, chyba że grę rozpoczęto z innym czasem.",
        "**Czas na ruch.** Tutaj to 1 godzina 30 minut, chyba że grę rozpoczęto z innym czasem.",
        "Najkrótszy czas na ruch to 1 minuta, najdłuższy to 2 godziny.",
        "Najkrótszy czas na ruch to 1 minuta, najdłuższy to 2 godziny.",
        "⏰ <@7>, twój ruch w grze Wizard: czas minie za 1 minutę.",
        "⏰ <@7>, twój ruch w grze Wizard: czas minie za 2 minuty.",
        "⏰ <@7>, twój ruch w grze Wizard: czas minie za 5 minut.",
    ],
    "ru": [
        "Время на ход: 1 минута", "Время на ход: 2 минуты", "Время на ход: 5 минут", "Время на ход: 1 час 30 минут",
        "**Время на ход.** Здесь это 1 минута, если игру не начали с другим временем.",
        "**Время на ход.** Здесь это 2 минуты, если игру не начали с другим временем.",
        "**Время на ход.** Здесь это 5 минут, если игру не начали с другим временем.",
        "**Время на ход.** Здесь это 1 час 30 минут, если игру не начали с другим временем.",
        "Минимальное время на ход — 1 минута, максимальное — 2 часа.",
        "Минимальное время на ход — 1 минута, максимальное — 2 часа.",
        "⏰ <@7>, ваш ход в Wizard: время истечёт через 1 минуту.",
        "⏰ <@7>, ваш ход в Wizard: время истечёт через 2 минуты.",
        "⏰ <@7>, ваш ход в Wizard: время истечёт через 5 минут.",
    ],
    "el": [
        "Χρόνος ανά κίνηση: 1 λεπτό", "Χρόνος ανά κίνηση: 2 λεπτά", "Χρόνος ανά κίνηση: 5 λεπτά",
        "Χρόνος ανά κίνηση: 1 ώρα και 30 λεπτά",
        "**Χρόνος.** Εδώ κάθε κίνηση έχει 1 λεπτό, εκτός αν το παιχνίδι ξεκίνησε με άλλο χρόνο.",
        "**Χρόνος.** Εδώ κάθε κίνηση έχει 2 λεπτά, εκτός αν το παιχνίδι ξεκίνησε με άλλο χρόνο.",
        "**Χρόνος.** Εδώ κάθε κίνηση έχει 5 λεπτά, εκτός αν το παιχνίδι ξεκίνησε με άλλο χρόνο.",
        "**Χρόνος.** Εδώ κάθε κίνηση έχει 1 ώρα και 30 λεπτά, εκτός αν το παιχνίδι ξεκίνησε με άλλο χρόνο.",
        "Ο χρόνος ανά κίνηση πρέπει να είναι τουλάχιστον 1 λεπτό και το πολύ 2 ώρες.",
        "Ο χρόνος ανά κίνηση πρέπει να είναι τουλάχιστον 1 λεπτό και το πολύ 2 ώρες.",
        "⏰ <@7>, είναι η σειρά σου στο Wizard: ο χρόνος τελειώνει σε 1 λεπτό.",
        "⏰ <@7>, είναι η σειρά σου στο Wizard: ο χρόνος τελειώνει σε 2 λεπτά.",
        "⏰ <@7>, είναι η σειρά σου στο Wizard: ο χρόνος τελειώνει σε 5 λεπτά.",
    ],
    "ko": [
        "턴 제한 시간: 1분", "턴 제한 시간: 2분", "턴 제한 시간: 5분", "턴 제한 시간: 1시간 30분",
        "**제한 시간.** 이곳에서 한 차례의 제한 시간은 1분입니다(게임을 다른 제한 시간으로 시작한 경우는 제외).",
        "**제한 시간.** 이곳에서 한 차례의 제한 시간은 2분입니다(게임을 다른 제한 시간으로 시작한 경우는 제외).",
        "**제한 시간.** 이곳에서 한 차례의 제한 시간은 5분입니다(게임을 다른 제한 시간으로 시작한 경우는 제외).",
        "**제한 시간.** 이곳에서 한 차례의 제한 시간은 1시간 30분입니다(게임을 다른 제한 시간으로 시작한 경우는 제외).",
        "턴 제한 시간은 1분 이상 2시간 이하여야 합니다.",
        "턴 제한 시간은 1분 이상 2시간 이하여야 합니다.",
        "⏰ <@7> 님, 위저드에서 차례가 되었습니다: 1분 후 제한 시간이 끝납니다.",
        "⏰ <@7> 님, 위저드에서 차례가 되었습니다: 2분 후 제한 시간이 끝납니다.",
        "⏰ <@7> 님, 위저드에서 차례가 되었습니다: 5분 후 제한 시간이 끝납니다.",
    ],
}  # fmt: skip


def sentence(text: str, duration: str) -> str:
    """The sentence of `text` that holds `duration` (with the bold heading of its paragraph, if it is the first)."""
    for part in re.split(r"(?<=[.!?)])\s+(?=\S)|\n", text):
        if duration in part:
            return part
    raise AssertionError(f"{duration!r} is not in {text!r}")


def in_minutes(language: str, minutes: int) -> str:
    """<t:…:R> for a moment `minutes` ahead, as the reader's client writes it."""
    delta = datetime.timedelta(minutes=minutes)
    return format_timedelta(delta, granularity="minute", threshold=100, add_direction=True, locale=language)


def rendered(language: str) -> list[str]:
    lines = [i18n.t(language, "option.timer", time=i18n.duration(language, seconds)) for seconds in SECONDS]
    for seconds in SECONDS:
        time = i18n.duration(language, seconds)
        lines.append(sentence(i18n.t(language, "help.text", time=time), time))
    low, high = i18n.duration(language, 60), i18n.duration(language, 7200)
    lines += [i18n.t(language, key, low=low, high=high) for key in LIMIT_TEXTS]
    lines += [i18n.t(language, "table.reminder", user=7, when=in_minutes(language, m)) for m in (1, 2, 5)]
    return lines


def test_every_language_is_checked() -> None:
    assert set(EXPECTED) == set(i18n.LANGUAGES)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_a_duration_reads_right_in_every_sentence_that_takes_one(language: str) -> None:
    assert rendered(language) == EXPECTED[language]


def test_the_texts_named_here_are_those_that_take_a_duration() -> None:
    # Each takes its duration in a placeholder of that name; the limits take two.
    for key, names in DURATION_TEXTS.items():
        assert {name for name, *_ in i18n_fields(key)} >= set(names), key
    for key in LIMIT_TEXTS:
        assert {name for name, *_ in i18n_fields(key)} == {"low", "high"}, key


def i18n_fields(key: str) -> set[tuple[str, str | None, str | None]]:
    from tests.i18n.test_catalogs import english_fields

    return english_fields(key)
