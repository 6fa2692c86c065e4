"""The stand-in refuses the message bodies, modals and command syncs Discord refuses, with Discord's answer.

The first half checks the rules one by one against tables of accepted and refused bodies; the
second drives each route over HTTP to show the route applies them.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from tests.e2e.standin import (
    ALL_PERMISSIONS,
    Channel,
    DiscordError,
    DiscordStandin,
    InteractionRecord,
    StoredMessage,
    User,
    command_errors,
    is_discord_emoji,
    message_body_errors,
    modal_errors,
    validate_message_body,
)
from tests.e2e.standin.state import snowflake_time
from tests.e2e.standin.validation import ATTACHMENT_SIZE_LIMIT

MAX_LENGTH = "BASE_TYPE_MAX_LENGTH"
MIN_LENGTH = "BASE_TYPE_MIN_LENGTH"
BAD_LENGTH = "BASE_TYPE_BAD_LENGTH"
REQUIRED = "BASE_TYPE_REQUIRED"
CHOICES = "BASE_TYPE_CHOICES"
INVALID_EMOJI = "BUTTON_COMPONENT_INVALID_EMOJI"
DUPLICATED = "COMPONENT_CUSTOM_ID_DUPLICATED"
UNION_TYPE = "UNION_TYPE_CHOICES"
PLAYING_CARD_BACK = "\U0001f0a0"  # 🂠: looks like a symbol, is not in Unicode's emoji list


# ---------------------------------------------------------------------- body builders
def button(custom_id: str = "b", label: str | None = "Play", **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"type": 2, "style": 1, "custom_id": custom_id, **extra}
    if label is not None:
        body["label"] = label
    return body


def link(**extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 5, "label": "Rules", "url": "https://example.org/wizard", **extra}


def option(i: int, **extra: Any) -> dict[str, Any]:
    return {"label": f"Option {i}", "value": f"v{i}", **extra}


def select(custom_id: str = "s", n: int = 3, **extra: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "options": [option(i) for i in range(n)], **extra}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def rows(n: int) -> list[dict[str, Any]]:
    return [row(*(button(f"b{r}.{c}") for c in range(5))) for r in range(n)]


def with_buttons(*buttons: dict[str, Any]) -> dict[str, Any]:
    return {"content": "x", "components": [row(*buttons)]}


def emoji(name: str) -> dict[str, Any]:
    return with_buttons(button(emoji={"id": None, "name": name}))


def embed(**fields: Any) -> dict[str, Any]:
    return {"content": "x", "embeds": [fields]}


def fields(n: int) -> list[dict[str, str]]:
    return [{"name": f"n{i}", "value": "v"} for i in range(n)]


def container(n: int) -> dict[str, Any]:
    """A components-v2 message: a container holding ``n`` text displays (``n + 1`` components)."""
    texts = [{"type": 10, "content": f"line {i}"} for i in range(n)]
    return {"flags": 1 << 15, "components": [{"type": 17, "components": texts}]}


def v2(*components: dict[str, Any]) -> dict[str, Any]:
    return {"flags": 1 << 15, "components": list(components)}


def leaves(tree: dict[str, Any], path: tuple[str, ...] = ()) -> dict[tuple[str, ...], list[str]]:
    """Every field an errors tree names, with the codes Discord gave it."""
    found: dict[tuple[str, ...], list[str]] = {}
    for key, node in tree.items():
        if key == "_errors":
            found[path] = [e["code"] for e in node]
        else:
            found.update(leaves(node, (*path, key)))
    return found


def at(*path: str | int) -> tuple[str, ...]:
    return tuple(str(key) for key in path)


def refusal(call: Callable[[], None]) -> DiscordError:
    with pytest.raises(DiscordError) as info:
        call()
    return info.value


# ---------------------------------------------------------------------- emojis
@pytest.mark.parametrize(
    "name",
    ["🃏", "🎴", "♠️", "♠", "♥️", "♥", "🧙", "🤖", "👋", "📜", "🔁", "👍🏽", "🧙\u200d♂️", "🇩🇪", "1️⃣"],
)
def test_unicode_emoji_is_accepted_with_or_without_vs16(name: str) -> None:
    assert is_discord_emoji(name)
    assert is_discord_emoji(name.replace("\ufe0f", ""))


@pytest.mark.parametrize(
    "name",
    [PLAYING_CARD_BACK, "\U0001f0a1", "★", "✓", "A", "spades", ":spades:", "🎴🎴", ""],
    ids=["card-back", "ace-of-spades-card", "star", "check", "letter", "word", "shortcode", "two", "empty"],
)
def test_what_only_looks_like_an_emoji_is_refused(name: str) -> None:
    assert not is_discord_emoji(name)


def test_refusal_has_discords_status_code_and_errors_tree() -> None:
    body = with_buttons(button("a"), button("b", emoji={"id": None, "name": PLAYING_CARD_BACK}))
    err = refusal(lambda: validate_message_body(body, creating=True))
    assert (err.status, err.code, err.message) == (400, 50035, "Invalid Form Body")
    invalid = {"_errors": [{"code": INVALID_EMOJI, "message": "Invalid emoji"}]}
    assert err.errors == {"components": {"0": {"components": {"1": {"emoji": {"name": invalid}}}}}}


def test_interaction_callback_nests_the_tree_under_data() -> None:
    err = refusal(lambda: validate_message_body({"content": "x" * 2001}, creating=True, path=("data",)))
    assert err.errors == {
        "data": {"content": {"_errors": [{"code": MAX_LENGTH, "message": "Must be 2000 or fewer in length."}]}}
    }


# ---------------------------------------------------------------------- message bodies
ACCEPTED: list[Any] = [
    pytest.param({"content": "x" * 2000}, id="content-2000"),
    pytest.param({"embeds": [{"title": "t"}] * 10}, id="10-embeds"),
    pytest.param(embed(title="t" * 256, description="d" * 4096), id="embed-title-and-description-at-limits"),
    pytest.param(embed(title=" " + "t" * 256 + "\n"), id="embed-whitespace-is-trimmed"),
    pytest.param(embed(fields=fields(25)), id="25-fields"),
    pytest.param(embed(fields=[{"name": "n" * 256, "value": "v" * 1024}]), id="field-at-limits"),
    pytest.param(embed(footer={"text": "f" * 2048}, author={"name": "a" * 256}), id="footer-and-author-at-limits"),
    pytest.param({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2000}]}, id="embeds-total-6000"),
    pytest.param({"content": "x", "components": rows(5)}, id="5-rows-of-5-buttons"),
    pytest.param(with_buttons(button(custom_id="c" * 100, label="l" * 80)), id="custom-id-100-label-80"),
    pytest.param(with_buttons(button(label=None, emoji={"id": None, "name": "🎴"})), id="emoji-only-button"),
    pytest.param(with_buttons(link()), id="link-button"),
    pytest.param(with_buttons(button(emoji={"id": "1234567890123", "name": "card_back"})), id="custom-emoji"),
    pytest.param(emoji("🃏"), id="joker-emoji"),
    pytest.param(emoji("♠"), id="spade-without-vs16"),
    pytest.param(
        {"components": [row(select(n=25, placeholder="p" * 150, min_values=0, max_values=25))]},
        id="select-at-limits",
    ),
    pytest.param(
        {"components": [row(select(options=[option(0, label="l" * 100, value="v" * 100, description="d" * 100)]))]},
        id="select-option-at-limits",
    ),
    pytest.param(
        {"components": [row(select(options=[option(0, emoji={"id": None, "name": "♥️"})]))]}, id="option-emoji"
    ),
    pytest.param(container(39), id="v2-40-components"),
    pytest.param({"content": "", "attachments": [{"id": 0, "filename": "a.png"}]}, id="attachment-only"),
]


# The one custom emoji the bodies above may use: the application's own.
APPLICATION_EMOJI = 1234567890123


@pytest.mark.parametrize("body", ACCEPTED)
def test_message_body_discord_accepts(body: dict[str, Any]) -> None:
    assert message_body_errors(body, known_emoji=lambda emoji_id: emoji_id == APPLICATION_EMOJI) == {}


REFUSED: list[Any] = [
    pytest.param({"content": "x" * 2001}, at("content"), MAX_LENGTH, id="content-2001"),
    pytest.param({"embeds": [{"title": "t"}] * 11}, at("embeds"), MAX_LENGTH, id="11-embeds"),
    pytest.param(embed(title="t" * 257), at("embeds", 0, "title"), MAX_LENGTH, id="title-257"),
    pytest.param(embed(description="d" * 4097), at("embeds", 0, "description"), MAX_LENGTH, id="description-4097"),
    pytest.param(embed(fields=fields(26)), at("embeds", 0, "fields"), MAX_LENGTH, id="26-fields"),
    pytest.param(
        embed(fields=[{"name": "n" * 257, "value": "v"}]), at("embeds", 0, "fields", 0, "name"), MAX_LENGTH,
        id="field-name-257",
    ),
    pytest.param(
        embed(fields=[{"name": " ", "value": "v"}]), at("embeds", 0, "fields", 0, "name"), REQUIRED,
        id="field-name-blank",
    ),
    pytest.param(
        embed(fields=[{"name": "n", "value": "v" * 1025}]), at("embeds", 0, "fields", 0, "value"), MAX_LENGTH,
        id="field-value-1025",
    ),
    pytest.param(
        embed(fields=[{"name": "n", "value": ""}]), at("embeds", 0, "fields", 0, "value"), REQUIRED,
        id="field-value-empty",
    ),
    pytest.param(embed(footer={"text": "f" * 2049}), at("embeds", 0, "footer", "text"), MAX_LENGTH, id="footer-2049"),
    pytest.param(embed(author={"name": "a" * 257}), at("embeds", 0, "author", "name"), MAX_LENGTH, id="author-257"),
    pytest.param(
        {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, at("embeds"),
        "MAX_EMBED_SIZE_EXCEEDED", id="embeds-total-6001",
    ),
    pytest.param(
        {"embeds": [{"title": "t" * 200, "fields": fields(25), "footer": {"text": "f" * 2000}, "author": {"name": "a"}}]
         * 3},
        at("embeds"), "MAX_EMBED_SIZE_EXCEEDED", id="embeds-total-counts-fields-footer-author",
    ),
    pytest.param({"content": "x", "components": rows(6)}, at("components"), MAX_LENGTH, id="6-rows"),
    pytest.param(
        with_buttons(*(button(f"b{i}") for i in range(6))), at("components", 0, "components"), BAD_LENGTH,
        id="6-buttons-in-a-row",
    ),
    pytest.param(
        {"content": "x", "components": [row()]}, at("components", 0, "components"), BAD_LENGTH, id="empty-row"
    ),
    pytest.param(
        {"components": [row(select(), button())]}, at("components", 0, "components", 1),
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED", id="select-shares-a-row",
    ),
    pytest.param(
        with_buttons(button(custom_id="")), at("components", 0, "components", 0, "custom_id"), BAD_LENGTH,
        id="custom-id-empty",
    ),
    pytest.param(
        with_buttons(button(custom_id="c" * 101)), at("components", 0, "components", 0, "custom_id"), BAD_LENGTH,
        id="custom-id-101",
    ),
    pytest.param(
        {"content": "x", "components": [row(button("same")), row(button("other"), button("same", disabled=True))]},
        at("components", 1, "components", 1, "custom_id"), DUPLICATED, id="custom-id-duplicated",
    ),
    pytest.param(
        {"components": [row(button("same")), row(select("same"))]},
        at("components", 1, "components", 0, "custom_id"), DUPLICATED, id="custom-id-duplicated-by-select",
    ),
    pytest.param(
        with_buttons(button(label="l" * 81)), at("components", 0, "components", 0, "label"), MAX_LENGTH,
        id="label-81",
    ),
    pytest.param(
        with_buttons({"type": 2, "style": 1, "label": "Play"}), at("components", 0, "components", 0, "custom_id"),
        "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", id="button-without-custom-id",
    ),
    pytest.param(
        with_buttons(button(label=None)), at("components", 0, "components", 0, "label"), REQUIRED,
        id="button-without-label-or-emoji",
    ),
    pytest.param(
        with_buttons(button(label="")), at("components", 0, "components", 0, "label"), REQUIRED,
        id="button-with-empty-label",
    ),
    pytest.param(
        with_buttons(link(url=None)), at("components", 0, "components", 0, "url"), REQUIRED, id="link-without-url"
    ),
    pytest.param(
        with_buttons(link(custom_id="x")), at("components", 0, "components", 0, "custom_id"),
        "BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE", id="link-with-custom-id",
    ),
    pytest.param(
        with_buttons(button(url="https://example.org")), at("components", 0, "components", 0, "url"),
        "BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE", id="custom-id-button-with-url",
    ),
    pytest.param(
        emoji(PLAYING_CARD_BACK), at("components", 0, "components", 0, "emoji", "name"), INVALID_EMOJI,
        id="card-back-emoji",
    ),
    pytest.param(
        emoji("spades"), at("components", 0, "components", 0, "emoji", "name"), INVALID_EMOJI, id="emoji-by-name"
    ),
    pytest.param(
        with_buttons(button(emoji={})), at("components", 0, "components", 0, "emoji", "name"), INVALID_EMOJI,
        id="empty-emoji",
    ),
    pytest.param(
        with_buttons(button(emoji={"id": "card", "name": "card"})), at("components", 0, "components", 0, "emoji", "id"),
        "NUMBER_TYPE_COERCE", id="custom-emoji-id-not-a-snowflake",
    ),
    pytest.param(
        {"components": [row(select(options=[option(0, emoji={"id": None, "name": PLAYING_CARD_BACK})]))]},
        at("components", 0, "components", 0, "options", 0, "emoji", "name"), INVALID_EMOJI, id="option-emoji",
    ),
    pytest.param(
        {"components": [row(select(options=[]))]}, at("components", 0, "components", 0, "options"), REQUIRED,
        id="select-without-options",
    ),
    pytest.param(
        {"components": [row(select(n=26))]}, at("components", 0, "components", 0, "options"), BAD_LENGTH,
        id="select-26-options",
    ),
    pytest.param(
        {"components": [row(select(placeholder="p" * 151))]}, at("components", 0, "components", 0, "placeholder"),
        MAX_LENGTH, id="placeholder-151",
    ),
    pytest.param(
        {"components": [row(select(options=[option(0, label="l" * 101)]))]},
        at("components", 0, "components", 0, "options", 0, "label"), BAD_LENGTH, id="option-label-101",
    ),
    pytest.param(
        {"components": [row(select(options=[option(0, value="v" * 101)]))]},
        at("components", 0, "components", 0, "options", 0, "value"), BAD_LENGTH, id="option-value-101",
    ),
    pytest.param(
        {"components": [row(select(options=[option(0, description="d" * 101)]))]},
        at("components", 0, "components", 0, "options", 0, "description"), MAX_LENGTH, id="option-description-101",
    ),
    pytest.param(
        {"components": [row(select(options=[option(0), option(1, value="v0")]))]},
        at("components", 0, "components", 0, "options", 1, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
        id="option-value-duplicated",
    ),
    pytest.param(
        {"components": [row(select(min_values=3, max_values=2))]},
        at("components", 0, "components", 0, "min_values"), "NUMBER_TYPE_MAX", id="min-values-above-max-values",
    ),
    pytest.param(
        {"components": [row(select(n=25, max_values=26))]},
        at("components", 0, "components", 0, "max_values"), "NUMBER_TYPE_MAX", id="max-values-26",
    ),
    pytest.param(
        {"components": [row(select(n=2, max_values=3))]},
        at("components", 0, "components", 0, "options"), MIN_LENGTH, id="max-values-above-options",
    ),
    pytest.param(
        {**container(1), "content": "x"}, at("content"), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        id="v2-with-content",
    ),
    pytest.param(container(40), at("components"), MAX_LENGTH, id="v2-41-components"),
    pytest.param(
        v2({"type": 10, "content": "x" * 2000}, {"type": 10, "content": "y" * 2001}), at("components"), MAX_LENGTH,
        id="v2-text-4001",
    ),
    pytest.param(v2({"type": 10, "content": ""}), at("components", 0, "content"), BAD_LENGTH, id="v2-empty-text"),
    pytest.param(v2(button()), at("components", 0, "type"), UNION_TYPE, id="v2-button-at-top-level"),
    pytest.param(
        v2({"type": 17, "components": [{"type": 17, "components": []}]}), at("components", 0, "components", 0, "type"),
        UNION_TYPE, id="v2-container-in-container",
    ),
    pytest.param(
        v2({"type": 9, "components": [{"type": 10, "content": "x"}]}), at("components", 0, "accessory"), REQUIRED,
        id="v2-section-without-accessory",
    ),
    pytest.param(
        v2({"type": 9, "components": [{"type": 10, "content": "x"}] * 4, "accessory": button()}),
        at("components", 0, "components"), BAD_LENGTH, id="v2-section-of-4-texts",
    ),
    pytest.param(
        v2({"type": 9, "components": [{"type": 10, "content": "x"}], "accessory": {"type": 10, "content": "y"}}),
        at("components", 0, "accessory", "type"), UNION_TYPE, id="v2-section-text-accessory",
    ),
    pytest.param(v2({"type": 14, "spacing": 3}), at("components", 0, "spacing"), CHOICES, id="v2-separator-spacing-3"),
    pytest.param(
        {"content": "x", "components": [{"type": 10, "content": "y"}]}, at("components", 0, "type"), UNION_TYPE,
        id="text-display-without-v2",
    ),
    pytest.param(
        with_buttons(button(emoji={"id": "98765432109876", "name": "not_ours"})),
        at("components", 0, "components", 0, "emoji", "id"), INVALID_EMOJI, id="custom-emoji-not-the-applications",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("body", "path", "code"), REFUSED)
def test_message_body_discord_refuses(body: dict[str, Any], path: tuple[str, ...], code: str) -> None:
    err = refusal(lambda: validate_message_body(body, creating=True))
    assert (err.status, err.code) == (400, 50035)
    assert err.errors is not None
    assert leaves(err.errors) == {path: [code]}


@pytest.mark.parametrize(
    ("body", "existing", "files"),
    [
        pytest.param({}, None, 0, id="nothing"),
        pytest.param({"content": "  \n"}, None, 0, id="blank-content"),
        pytest.param({"content": "", "embeds": [], "components": []}, None, 0, id="empty-fields"),
        pytest.param({"content": ""}, {"content": "v1", "embeds": [], "components": []}, 0, id="edit-clears-all"),
        pytest.param({"attachments": []}, {"content": "", "attachments": [{"id": "1"}]}, 0, id="edit-drops-file"),
    ],
)
def test_empty_message_is_50006(body: dict[str, Any], existing: dict[str, Any] | None, files: int) -> None:
    err = refusal(lambda: validate_message_body(body, creating=existing is None, existing=existing))
    assert (err.status, err.code, err.message) == (400, 50006, "Cannot send an empty message")


@pytest.mark.parametrize(
    ("body", "existing", "has_files"),
    [
        pytest.param({}, None, True, id="file-only"),
        pytest.param({"content": ""}, {"content": "v1", "embeds": [{"title": "t"}]}, False, id="edit-keeps-embed"),
        pytest.param({}, {"content": "v1"}, False, id="edit-changes-nothing"),
        pytest.param({"content": ""}, {"content": "v1", "attachments": [{"id": "1"}]}, False, id="edit-keeps-file"),
    ],
)
def test_message_with_something_to_show_is_not_empty(
    body: dict[str, Any], existing: dict[str, Any] | None, has_files: bool
) -> None:
    validate_message_body(body, creating=existing is None, existing=existing, has_files=has_files)


@dataclass
class Blob:
    data: bytes


def test_attachment_over_the_size_limit_is_413_40005() -> None:
    big = {0: Blob(b"\0" * (ATTACHMENT_SIZE_LIMIT + 1))}
    err = refusal(lambda: validate_message_body({"content": "x"}, creating=True, files=big))
    assert (err.status, err.code, err.message) == (413, 40005, "Request entity too large")


def test_attachment_at_the_size_limit_is_accepted() -> None:
    validate_message_body({}, creating=True, files={0: Blob(b"\0" * ATTACHMENT_SIZE_LIMIT)})


def test_edit_of_a_components_v2_message_stays_v2() -> None:
    # "the IS_COMPONENTS_V2 flag can only be set": an edit without flags cannot bring content back.
    existing = {"flags": 1 << 15, "components": container(1)["components"]}
    assert leaves(message_body_errors({"content": "x"}, existing=existing)) == {
        at("content"): ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"]
    }


def test_a_components_v2_message_with_a_container_of_every_kind_is_accepted() -> None:
    body = v2(
        {
            "type": 17,
            "accent_color": 0x57F287,
            "components": [
                {"type": 10, "content": "## Round 3"},
                {"type": 14, "divider": True, "spacing": 2},
                {"type": 9, "components": [{"type": 10, "content": "x"}], "accessory": button("a")},
                row(button("b", emoji={"id": str(APPLICATION_EMOJI), "name": "wz1_hearts"})),
            ],
        },
        {"type": 10, "content": "-# below"},
    )
    assert message_body_errors(body, known_emoji=lambda emoji_id: emoji_id == APPLICATION_EMOJI) == {}


LEGACY = {"content": "old", "embeds": [{"title": "t"}], "components": []}


@pytest.mark.parametrize(
    ("reset", "refused"),
    [
        pytest.param({"content": None, "embeds": []}, [], id="both-reset"),
        pytest.param({"embeds": []}, [at("content")], id="content-kept"),
        pytest.param({"content": None}, [at("embeds")], id="embeds-kept"),
    ],
)
def test_an_edit_may_set_components_v2_only_resetting_content_and_embeds(
    reset: dict[str, Any], refused: list[tuple[str, ...]]
) -> None:
    # Edit Message: "When the IS_COMPONENTS_V2 flag is set, any of the used content, embeds ... fields
    # must have their values reset to empty. For content ... this is null. For embeds ... []."
    tree = message_body_errors({**container(1), **reset}, existing=LEGACY)
    assert leaves(tree) == {path: ["MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"] for path in refused}


# ---------------------------------------------------------------------- modals
def modal(**extra: Any) -> dict[str, Any]:
    text = {"type": 4, "style": 1, "label": "Bid", "custom_id": "bid", "required": True}
    return {"custom_id": "m", "title": "Your bid", "components": [row(text)], **extra}


def text_input(**extra: Any) -> dict[str, Any]:
    return modal(components=[row({"type": 4, "style": 1, "label": "Bid", "custom_id": "bid", **extra})])


def test_modal_discord_accepts() -> None:
    assert modal_errors(modal()) == {}


@pytest.mark.parametrize(
    ("data", "path", "code"),
    [
        pytest.param(modal(title="t" * 46), at("title"), BAD_LENGTH, id="title-46"),
        pytest.param(modal(custom_id=""), at("custom_id"), BAD_LENGTH, id="custom-id-empty"),
        pytest.param(modal(components=[]), at("components"), BAD_LENGTH, id="no-components"),
        pytest.param(
            modal(components=[row({"type": 4, "style": 1, "label": "L", "custom_id": f"i{i}"}) for i in range(6)]),
            at("components"), BAD_LENGTH, id="6-components",
        ),
        pytest.param(
            text_input(label="l" * 46), at("components", 0, "components", 0, "label"), BAD_LENGTH, id="label-46"
        ),
        pytest.param(
            text_input(value="v" * 4001), at("components", 0, "components", 0, "value"), MAX_LENGTH, id="value-4001"
        ),
        pytest.param(
            modal(components=[row({"type": 4, "style": 1, "label": "L", "custom_id": "same"})] * 2),
            at("components", 1, "components", 0, "custom_id"), DUPLICATED, id="custom-id-duplicated",
        ),
    ],
)  # fmt: skip
def test_modal_discord_refuses(data: dict[str, Any], path: tuple[str, ...], code: str) -> None:
    assert leaves(modal_errors(data)) == {path: [code]}


# ---------------------------------------------------------------------- command syncs
def command(**extra: Any) -> dict[str, Any]:
    return {"type": 1, "name": "wizard", "description": "Play Wizard", **extra}


def opt(name: str = "rounds", otype: int = 4, **extra: Any) -> dict[str, Any]:
    return {"type": otype, "name": name, "description": "How many", **extra}


def sub(name: str = "start", **extra: Any) -> dict[str, Any]:
    return opt(name, 1, **extra)


def group(name: str = "admin", **extra: Any) -> dict[str, Any]:
    return opt(name, 2, **extra)


def choices(n: int, make: Callable[[int], Any] = lambda i: i) -> list[dict[str, Any]]:
    return [{"name": f"c{i}", "value": make(i)} for i in range(n)]


@pytest.mark.parametrize(
    "commands",
    [
        pytest.param([command()], id="plain"),
        pytest.param([command(name="खेल"), command(name="เกม"), command(name="zauber-spiel_2")], id="scripts"),
        pytest.param([command(name="n" * 32, description="d" * 100)], id="name-32-description-100"),
        pytest.param([command(name_localizations={"de": "zauberer", "pt-BR": "mago"})], id="localized-name"),
        pytest.param([command(description_localizations={"de": "Spiel Wizard", "zh-TW": "巫師"})], id="localized"),
        pytest.param([command(options=[opt(choices=choices(25))])], id="25-choices"),
        pytest.param([command(options=[opt(f"o{i}") for i in range(25)])], id="25-options"),
        pytest.param([command(options=[opt("a", required=True), opt("b")])], id="required-first"),
        pytest.param([command(options=[opt(min_value=1, max_value=20)])], id="min-max"),
        pytest.param([command(options=[opt(otype=10, choices=choices(2, lambda i: i + 0.5))])], id="number-choices"),
        pytest.param([command(options=[opt(otype=3, min_length=1, max_length=6000)])], id="string-length"),
        pytest.param([command(options=[sub(options=[opt()]), group(options=[sub(options=[opt()])])])], id="nesting"),
        pytest.param([command(name=f"c{i}") for i in range(100)], id="100-commands"),
        pytest.param([command(), {"type": 2, "name": "Show Hand", "description": ""}], id="user-command"),
    ],
)
def test_command_sync_discord_accepts(commands: list[dict[str, Any]]) -> None:
    assert command_errors(commands) == {}


COMMANDS_REFUSED: list[Any] = [
    pytest.param([command(name="Wizard")], at(0, "name"), "APPLICATION_COMMAND_INVALID_NAME", id="uppercase"),
    pytest.param([command(name="wizard game")], at(0, "name"), "STRING_TYPE_REGEX", id="space"),
    pytest.param([command(name="wizard!")], at(0, "name"), "STRING_TYPE_REGEX", id="punctuation"),
    pytest.param([command(name="n" * 33)], at(0, "name"), BAD_LENGTH, id="name-33"),
    pytest.param([command(name="")], at(0, "name"), BAD_LENGTH, id="name-empty"),
    pytest.param([command(description="")], at(0, "description"), BAD_LENGTH, id="description-empty"),
    pytest.param([command(description="d" * 101)], at(0, "description"), BAD_LENGTH, id="description-101"),
    pytest.param(
        [command(name_localizations={"de": "Zauberer"})], at(0, "name_localizations"),
        "APPLICATION_COMMAND_INVALID_NAME", id="localized-name-uppercase",
    ),
    pytest.param(
        [command(description_localizations={"de": "d" * 101})], at(0, "description_localizations", "de"),
        BAD_LENGTH, id="localized-description-101",
    ),
    pytest.param(
        [command(description_localizations={"de-DE": "Spiel"})], at(0, "description_localizations", "de-DE"),
        CHOICES, id="unknown-locale",
    ),
    pytest.param(
        [command(options=[opt(name_localizations={"pt-BR": "Rodadas"})])],
        at(0, "options", 0, "name_localizations", "pt-BR"), "APPLICATION_COMMAND_INVALID_NAME",
        id="option-localized-name-uppercase",
    ),
    pytest.param([command(options=[opt(name="Rounds")])], at(0, "options", 0, "name"),
                 "APPLICATION_COMMAND_INVALID_NAME", id="option-name-uppercase"),
    pytest.param([command(options=[opt(description="")])], at(0, "options", 0, "description"), BAD_LENGTH,
                 id="option-description-empty"),
    pytest.param([command(options=[opt(f"o{i}") for i in range(26)])], at(0, "options"), MAX_LENGTH, id="26-options"),
    pytest.param([command(options=[opt(choices=choices(26))])], at(0, "options", 0, "choices"), MAX_LENGTH,
                 id="26-choices"),
    pytest.param(
        [command(options=[opt(choices=[{"name": "n" * 101, "value": 1}])])],
        at(0, "options", 0, "choices", 0, "name"), BAD_LENGTH, id="choice-name-101",
    ),
    pytest.param(
        [command(options=[opt(choices=[{"name": "", "value": 1}])])],
        at(0, "options", 0, "choices", 0, "name"), BAD_LENGTH, id="choice-name-empty",
    ),
    pytest.param(
        [command(options=[opt(choices=[{"name": "one", "value": "1"}])])],
        at(0, "options", 0, "choices", 0, "value"), "NUMBER_TYPE_COERCE", id="integer-choice-is-a-string",
    ),
    pytest.param(
        [command(options=[opt(choices=[{"name": "half", "value": 0.5}])])],
        at(0, "options", 0, "choices", 0, "value"), "NUMBER_TYPE_COERCE", id="integer-choice-is-a-float",
    ),
    pytest.param(
        [command(options=[opt(otype=3, choices=[{"name": "one", "value": 1}])])],
        at(0, "options", 0, "choices", 0, "value"), "STRING_TYPE_CONVERT", id="string-choice-is-a-number",
    ),
    pytest.param(
        [command(options=[opt(otype=3, choices=[{"name": "long", "value": "v" * 101}])])],
        at(0, "options", 0, "choices", 0, "value"), BAD_LENGTH, id="string-choice-101",
    ),
    pytest.param(
        [command(options=[opt("a"), opt("b", required=True)])], at(0, "options", 1),
        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", id="required-after-optional",
    ),
    pytest.param(
        [command(options=[sub(options=[opt("a"), opt("b", required=True)])])], at(0, "options", 0, "options", 1),
        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", id="required-after-optional-in-subcommand",
    ),
    pytest.param([command(options=[opt(min_value=5, max_value=1)])], at(0, "options", 0, "min_value"),
                 "NUMBER_TYPE_MAX", id="min-above-max"),
    pytest.param([command(options=[opt(otype=3, max_length=6001)])], at(0, "options", 0, "max_length"),
                 "NUMBER_TYPE_MAX", id="max-length-6001"),
    pytest.param(
        [command(options=[sub(), opt()])], at(0, "options", 1, "type"), CHOICES, id="subcommand-beside-option"
    ),
    pytest.param(
        [command(options=[sub(options=[sub()])])], at(0, "options", 0, "options", 0, "type"), CHOICES,
        id="subcommand-in-subcommand",
    ),
    pytest.param(
        [command(options=[group(options=[group(options=[sub()])])])], at(0, "options", 0, "options", 0, "type"),
        CHOICES, id="group-in-group",
    ),
    pytest.param(
        [command(options=[group(options=[opt()])])], at(0, "options", 0, "options", 0, "type"), CHOICES,
        id="option-in-group",
    ),
    pytest.param([command(), command()], at(1), "APPLICATION_COMMANDS_DUPLICATE_NAME", id="duplicate-name"),
    pytest.param([command(name=f"c{i}") for i in range(101)], (), MAX_LENGTH, id="101-commands"),
    pytest.param(
        [command(options=[opt(f"o{i}", choices=[{"name": f"{j:03}" + "n" * 97, "value": j} for j in range(25)])
                          for i in range(4)])],
        at(0), "APPLICATION_COMMAND_TOO_LARGE", id="over-8000-characters",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("commands", "path", "code"), COMMANDS_REFUSED)
def test_command_sync_discord_refuses(commands: list[dict[str, Any]], path: tuple[str, ...], code: str) -> None:
    assert leaves(command_errors(commands)) == {path: [code]}


# ---------------------------------------------------------------------- the routes apply the rules
BAD_EMOJI_BODY = emoji(PLAYING_CARD_BACK)
BAD_EMOJI_PATH = ("components", "0", "components", "0", "emoji", "name")


@dataclass
class Site:
    standin: DiscordStandin
    http: aiohttp.ClientSession
    channel: Channel
    user: User

    async def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bot {self.standin.token}"}
        url = self.standin.base_url + path
        async with self.http.request(method, url, json=body, headers=headers) as response:
            return response.status, await response.json(content_type=None)

    async def upload(self, method: str, path: str, body: dict[str, Any], data: bytes) -> tuple[int, Any]:
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps(body), content_type="application/json")
        form.add_field("files[0]", data, filename="big.bin", content_type="application/octet-stream")
        headers = {"Authorization": f"Bot {self.standin.token}"}
        async with self.http.request(method, self.standin.base_url + path, data=form, headers=headers) as response:
            return response.status, await response.json(content_type=None)

    def bot_message(self, content: str = "v1", **extra: Any) -> StoredMessage:
        body = {"content": content, "components": [row(button("keep"))], **extra}
        return self.standin.create_message(self.channel, body, author=self.standin.bot_user)

    def interaction(self, *, source: StoredMessage | None = None) -> InteractionRecord:
        """An interaction as the driver dispatches it: a slash command, or a click on ``source``."""
        st = self.standin
        rec = InteractionRecord(
            id=st.snowflake(),
            token=secrets.token_urlsafe(32),
            type=2 if source is None else 3,
            user_id=self.user.id,
            channel_id=self.channel.id,
            guild_id=self.channel.guild_id,
            name="wizard start" if source is None else "keep",
            payload={},
            dispatched_at=time.monotonic(),
            source_message_id=None if source is None else source.id,
            _state=st,
        )
        st.interactions[rec.id] = rec
        st.interactions_by_token[rec.token] = rec
        return rec

    async def answered(self, *, callback: dict[str, Any] | None = None) -> InteractionRecord:
        """An interaction already answered (so its webhook routes are open)."""
        rec = self.interaction()
        answer = callback or {"type": 4, "data": {"content": "hello"}}
        status, _ = await self.call("POST", f"/interactions/{rec.id}/{rec.token}/callback", answer)
        assert status in (200, 204)
        return rec

    def webhook(self, rec: InteractionRecord) -> str:
        return f"/webhooks/{self.standin.application_id}/{rec.token}"


@pytest_asyncio.fixture
async def site() -> AsyncIterator[Site]:
    async with DiscordStandin() as standin:
        guild = standin.create_guild(bot_permissions=ALL_PERMISSIONS)
        channel = standin.create_text_channel(guild, "wizard")
        user = standin.create_user("alice")
        standin.add_member(guild, user)
        async with aiohttp.ClientSession() as http:
            yield Site(standin, http, channel, user)
        assert standin.unknown_routes == []
        assert standin.failures == []


def assert_refused(status: int, answer: Any, path: tuple[str, ...] = BAD_EMOJI_PATH, code: str = INVALID_EMOJI) -> None:
    assert (status, answer["code"], answer["message"]) == (400, 50035, "Invalid Form Body")
    assert leaves(answer["errors"]) == {path: [code]}


async def test_channel_message_create_applies_the_rules(site: Site) -> None:
    status, answer = await site.call("POST", f"/channels/{site.channel.id}/messages", BAD_EMOJI_BODY)
    assert_refused(status, answer)
    assert site.standin.channel_messages(site.channel) == []


async def test_channel_message_create_refuses_an_empty_message(site: Site) -> None:
    status, answer = await site.call("POST", f"/channels/{site.channel.id}/messages", {"content": ""})
    assert (status, answer) == (400, {"message": "Cannot send an empty message", "code": 50006})


async def test_channel_message_create_refuses_a_file_over_the_limit(site: Site) -> None:
    path = f"/channels/{site.channel.id}/messages"
    status, answer = await site.upload("POST", path, {"content": "chart"}, b"\0" * (ATTACHMENT_SIZE_LIMIT + 1))
    assert (status, answer) == (413, {"message": "Request entity too large", "code": 40005})
    assert site.standin.channel_messages(site.channel) == []


async def test_channel_message_edit_applies_the_rules(site: Site) -> None:
    msg = site.bot_message()
    status, answer = await site.call("PATCH", f"/channels/{site.channel.id}/messages/{msg.id}", BAD_EMOJI_BODY)
    assert_refused(status, answer)
    assert (msg.content, msg.edits) == ("v1", 0)


async def test_channel_message_edit_refuses_emptying_the_message(site: Site) -> None:
    msg = site.bot_message(components=[])
    status, answer = await site.call("PATCH", f"/channels/{site.channel.id}/messages/{msg.id}", {"content": ""})
    assert (status, answer["code"]) == (400, 50006)
    assert msg.content == "v1"


async def test_interaction_message_answer_applies_the_rules(site: Site) -> None:
    rec = site.interaction()
    answer_body = {"type": 4, "data": BAD_EMOJI_BODY}
    status, answer = await site.call("POST", f"/interactions/{rec.id}/{rec.token}/callback", answer_body)
    assert_refused(status, answer, ("data", *BAD_EMOJI_PATH))
    assert not rec.acknowledged  # a refused answer leaves the interaction to be answered


async def test_interaction_message_answer_refuses_a_file_over_the_limit(site: Site) -> None:
    rec = site.interaction()
    answer_body = {"type": 4, "data": {"content": "chart"}}
    path = f"/interactions/{rec.id}/{rec.token}/callback"
    status, answer = await site.upload("POST", path, answer_body, b"\0" * (ATTACHMENT_SIZE_LIMIT + 1))
    assert (status, answer["code"]) == (413, 40005)
    assert not rec.acknowledged


async def test_interaction_update_answer_applies_the_rules(site: Site) -> None:
    msg = site.bot_message()
    rec = site.interaction(source=msg)
    answer_body = {"type": 7, "data": BAD_EMOJI_BODY}
    status, answer = await site.call("POST", f"/interactions/{rec.id}/{rec.token}/callback", answer_body)
    assert_refused(status, answer, ("data", *BAD_EMOJI_PATH))
    assert (msg.content, msg.edits, rec.acknowledged) == ("v1", 0, False)


async def test_interaction_modal_answer_applies_the_rules(site: Site) -> None:
    rec = site.interaction()
    answer_body = {"type": 9, "data": modal(title="t" * 46)}
    status, answer = await site.call("POST", f"/interactions/{rec.id}/{rec.token}/callback", answer_body)
    assert_refused(status, answer, ("data", "title"), BAD_LENGTH)
    assert rec.modal is None


async def test_followup_applies_the_rules(site: Site) -> None:
    rec = await site.answered()
    status, answer = await site.call("POST", site.webhook(rec), BAD_EMOJI_BODY)
    assert_refused(status, answer)
    assert rec.followup_ids == []


async def test_followup_replacing_a_thinking_answer_applies_the_rules(site: Site) -> None:
    rec = await site.answered(callback={"type": 5, "data": {}})
    status, answer = await site.call("POST", site.webhook(rec), BAD_EMOJI_BODY)
    assert_refused(status, answer)
    assert rec.original is not None
    assert rec.original.loading


async def test_original_answer_edit_applies_the_rules(site: Site) -> None:
    rec = await site.answered()
    status, answer = await site.call("PATCH", site.webhook(rec) + "/messages/@original", BAD_EMOJI_BODY)
    assert_refused(status, answer)
    assert rec.original is not None
    assert rec.original.content == "hello"


async def test_followup_edit_applies_the_rules(site: Site) -> None:
    rec = await site.answered()
    status, sent = await site.call("POST", site.webhook(rec) + "?wait=true", {"content": "later"})
    assert status == 200
    status, answer = await site.call("PATCH", site.webhook(rec) + f"/messages/{sent['id']}", BAD_EMOJI_BODY)
    assert_refused(status, answer)
    assert site.standin.messages[int(sent["id"])].content == "later"


@pytest.mark.parametrize("scope", ["global", "guild"])
async def test_command_sync_applies_the_rules(site: Site, scope: str) -> None:
    st = site.standin
    path = f"/applications/{st.application_id}/commands"
    if scope == "guild":
        assert site.channel.guild_id is not None
        path = f"/applications/{st.application_id}/guilds/{site.channel.guild_id}/commands"
    status, answer = await site.call("PUT", path, [command(), command(name="Wizard Stats")])
    assert_refused(status, answer, ("1", "name"), "STRING_TYPE_REGEX")
    assert st.commands == {}


@pytest.mark.parametrize(
    ("method", "suffix"), [("POST", ""), ("PATCH", "/messages/@original"), ("GET", "/messages/@original")]
)
async def test_an_interaction_token_expires_after_fifteen_minutes(site: Site, method: str, suffix: str) -> None:
    rec = await site.answered()
    rec.dispatched_at -= site.standin.token_lifetime + 1  # as if the interaction came 15 minutes ago
    status, answer = await site.call(
        method, site.webhook(rec) + suffix, {"content": "late"} if method != "GET" else None
    )
    assert (status, answer["code"], answer["message"]) == (401, 50027, "Invalid Webhook Token")
    assert rec.original is not None
    assert rec.original.content == "hello"
    assert rec.followup_ids == []


async def test_when_the_clock_moves_a_day_tokens_expire_and_new_ids_are_a_day_later(site: Site) -> None:
    rec = await site.answered()
    before = site.standin.snowflake()
    site.standin.advance_clock(24 * 60 * 60)
    status, answer = await site.call("POST", site.webhook(rec), {"content": "late"})
    assert (status, answer["code"]) == (401, 50027)
    after = site.standin.snowflake()
    assert snowflake_time(after) - snowflake_time(before) == pytest.approx(24 * 60 * 60, abs=5)


async def test_an_enforced_nonce_is_forgotten_once_its_window_has_passed(site: Site) -> None:
    body = {"content": "once", "nonce": "w00abp4", "enforce_nonce": True}
    _, first = await site.call("POST", f"/channels/{site.channel.id}/messages", body)
    site.standin.advance_clock(site.standin.nonce_window + 1)
    _, again = await site.call("POST", f"/channels/{site.channel.id}/messages", body)
    assert again["id"] != first["id"]


async def test_a_create_with_an_enforced_nonce_returns_the_message_it_already_made(site: Site) -> None:
    body = {"content": "once", "nonce": "w00abp3", "enforce_nonce": True}
    first_status, first = await site.call("POST", f"/channels/{site.channel.id}/messages", body)
    again_status, again = await site.call("POST", f"/channels/{site.channel.id}/messages", body)
    assert (first_status, again_status) == (200, 200)
    assert again["id"] == first["id"]
    assert [m.content for m in site.standin.channel_messages(site.channel)] == ["once"]
    # Without enforce_nonce a nonce does not deduplicate.
    await site.call("POST", f"/channels/{site.channel.id}/messages", {"content": "once", "nonce": "w00abp3"})
    assert len(site.standin.channel_messages(site.channel)) == 2


async def test_a_nonce_longer_than_25_characters_is_refused(site: Site) -> None:
    body = {"content": "x", "nonce": "n" * 26, "enforce_nonce": True}
    status, answer = await site.call("POST", f"/channels/{site.channel.id}/messages", body)
    assert (status, answer["code"]) == (400, 50035)
    assert leaves(answer["errors"]) == {("nonce",): [MAX_LENGTH]}


@pytest.mark.parametrize(("kind", "refused"), [("a channel message edit", True), ("an interaction answer edit", False)])
async def test_the_global_limit_refuses_the_51st_request_in_a_second_except_interaction_ones(
    site: Site, kind: str, refused: bool
) -> None:
    """Discord: 50 requests a second per bot token; "Interaction endpoints are not bound to the bot's
    Global Rate Limit"."""
    st = site.standin
    rec = await site.answered()
    message = site.bot_message()
    path = (
        f"/channels/{site.channel.id}/messages/{message.id}"
        if kind == "a channel message edit"
        else site.webhook(rec) + "/messages/@original"
    )
    # The limit's second, filled as if 50 requests had just gone (a real burst could straddle two).
    st.global_window.extend([time.monotonic()] * 50)
    status, answer = await site.call("PATCH", path, {"content": "v2"})
    if refused:
        assert (status, answer["global"], st.global_refusals) == (429, True, 1)
        assert answer["retry_after"] > 0
    else:
        assert (status, st.global_refusals) == (200, 0)


@pytest.mark.parametrize("method", ["POST", "PATCH"])
async def test_a_channel_takes_five_sends_and_five_edits_in_five_seconds_and_announces_it(
    site: Site, method: str
) -> None:
    """Per-route limits, a bucket per channel: the sixth send (or edit) within the window is refused
    429 (not global), every answer says what is left, and another channel's bucket is its own."""
    st = site.standin
    st.route_time_scale = 1.0  # Discord's own windows: the six requests surely fall in one
    other = st.create_text_channel(st.create_guild(bot_permissions=ALL_PERMISSIONS), "elsewhere")
    targets = {
        channel.id: st.create_message(channel, {"content": "v1"}, author=st.bot_user)
        for channel in (site.channel, other)
    }

    def path(channel: Channel) -> str:
        messages = f"/api/v10/channels/{channel.id}/messages"
        return messages if method == "POST" else f"{messages}/{targets[channel.id].id}"

    async def once(channel: Channel) -> tuple[int, Any, Any]:
        headers = {"Authorization": f"Bot {st.token}"}
        url = st.base_url.removesuffix("/api/v10") + path(channel)
        async with site.http.request(method, url, json={"content": "v"}, headers=headers) as response:
            return response.status, response.headers, await response.json(content_type=None)

    answers = [await once(site.channel) for _ in range(6)]

    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    assert [headers["X-RateLimit-Remaining"] for _, headers, _ in answers[:5]] == ["4", "3", "2", "1", "0"]
    assert all(0 < float(headers["X-RateLimit-Reset-After"]) <= 5.0 for _, headers, _ in answers)
    _, headers, body = answers[5]
    assert (headers["X-RateLimit-Scope"], body["global"]) == ("user", False)
    assert 0 < body["retry_after"] <= 5.0
    assert st.route_refusals == [(method, path(site.channel))]
    assert (await once(other))[0] == 200
