"""What Discord refuses in message bodies, modals and command syncs, answered the way Discord answers.

Discord refuses an invalid body with ``400`` and JSON code ``50035`` "Invalid Form Body", with an
``errors`` tree that nests the field path down to a list of ``{code, message}`` under ``_errors``
(https://discord.com/developers/docs/reference#error-messages). A button emoji it does not know::

    {"code": 50035, "message": "Invalid Form Body", "errors": {"components": {"0": {"components": {"1":
        {"emoji": {"name": {"_errors": [{"code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}]}}}}}}}}

An interaction callback nests the same tree under ``"data"``. Where a code below is quoted from a
response Discord really sent (in public bug reports), the comment says so; where Discord documents
the limit but no report shows its code, the code is a common Discord one (``BASE_TYPE_*``) and the
comment says that too.

Public helpers, for the stand-in's routes and for tests of what the bot renders:

- :func:`is_discord_emoji` — whether Discord accepts a Unicode emoji on a button or select option;
- :func:`message_body_errors` / :func:`validate_message_body` — a whole message body;
- :func:`modal_errors` — an interaction's modal (callback type 9);
- :func:`command_errors` / :func:`validate_commands` — a bulk command overwrite (``PUT .../commands``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import emoji as emoji_list

from .errors import DiscordError

Path = tuple[str | int, ...]

# "The file upload size limit applies to each file in a request. The default limit is 10 MiB"
# (reference#uploading-files); a bigger file is answered 413 / 40005 "Request entity too large".
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
IS_COMPONENTS_V2 = 1 << 15
VS16 = "\ufe0f"  # VARIATION SELECTOR-16: "show as emoji"; Discord takes emoji names with or without it

# resources/message: "content: up to 2000 characters", "Up to 10 rich embeds"; "Embed Limits".
CONTENT_MAX = 2000
NONCE_MAX = 25
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
# components/reference.
ACTION_ROWS_MAX = 5  # "Legacy messages allow up to 5 action rows as top-level components"
ROW_WIDTH = 5  # "Up to 5 interactive button components or a single select component"
V2_COMPONENTS_MAX = 40  # "Messages allow up to 40 total components"
CUSTOM_ID_MAX = 100  # "custom_id: 1-100 characters"
BUTTON_LABEL_MAX = 80
BUTTON_URL_MAX = 512
SELECT_OPTIONS_MAX = 25
SELECT_PLACEHOLDER_MAX = 150
SELECT_VALUES_MAX = 25
OPTION_TEXT_MAX = 100  # select option label, value and description
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
LABEL_MAX = 45  # a Label's (and a legacy text input's) label
LABEL_DESCRIPTION_MAX = 100
TEXT_INPUT_VALUE_MAX = 4000
TEXT_INPUT_PLACEHOLDER_MAX = 100

BUTTON, ACTION_ROW, STRING_SELECT, TEXT_INPUT, LABEL = 2, 1, 3, 4, 18
SELECTS = frozenset({3, 5, 6, 7, 8})  # string, user, role, mentionable, channel
LINK, PREMIUM = 5, 6
# Components v2 (components/reference): layout and content components.
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = 9, 10, 11, 12, 13, 14, 17
# "Messages allow up to 40 total components"; the text of all text displays together is limited to
# 4000 characters (discord.py's LayoutView: "a maximum of 4000 display characters across all its items").
V2_TEXT_MAX = 4000
# What may stand where in a message. Top level: legacy messages hold action rows only; v2 ones hold
# the layout and content components ("Text display components are top level"). A container holds
# rows, text displays, sections, galleries, separators and files; a section one to three text
# displays and a button or a thumbnail as its accessory.
LEGACY_TOP = frozenset({ACTION_ROW})
V2_TOP = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
IN_CONTAINER = frozenset({ACTION_ROW, TEXT_DISPLAY, SECTION, MEDIA_GALLERY, SEPARATOR, FILE})
SECTION_ACCESSORIES = frozenset({BUTTON, THUMBNAIL})
SECTION_CHILDREN_MAX = 3


class FormErrors:
    """An ``errors`` tree being built: every refused field gets Discord's code and message at its path."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def __bool__(self) -> bool:
        return bool(self.tree)

    def add(self, path: Path, error: tuple[str, str]) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        code, message = error
        node.setdefault("_errors", []).append({"code": code, "message": message})


# -- Discord's error codes and messages --------------------------------------------------------
# The BASE_TYPE_* ones are Discord's generic field errors; the shapes below are quoted from
# responses Discord sent (reference#error-messages and public bug reports).
REQUIRED = ("BASE_TYPE_REQUIRED", "This field is required")
INVALID_EMOJI = ("BUTTON_COMPONENT_INVALID_EMOJI", "Invalid emoji")  # buttons and select options alike
CUSTOM_ID_DUPLICATED = ("COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
CUSTOM_ID_REQUIRED = ("BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A custom id is required")
CUSTOM_ID_URL_EXCLUSIVE = (
    "BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE",
    "A custom id and url cannot both be specified",
)
WIDTH_EXCEEDED = ("COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
EMBED_SIZE_EXCEEDED = ("MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}")
OPTION_VALUE_DUPLICATED = ("SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "The specified option value is already used")
NOT_A_DICT = ("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
# Documented ("IS_COMPONENTS_V2 ... Providing content, embeds ... will fail with a 400"); the code is ours.
V2_LEGACY_FIELD = ("MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "Cannot use this field with IS_COMPONENTS_V2")


# A component of a type that may not stand there: Discord answers with the types it would take.
def type_one_of(types: Iterable[int]) -> tuple[str, str]:
    return ("UNION_TYPE_CHOICES", f'Value of field "type" must be one of {tuple(sorted(types))}.')


COMMAND_INVALID_NAME = ("APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
NAME_REGEX = ("STRING_TYPE_REGEX", "String value did not match validation regex.")
REQUIRED_FIRST = (
    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
    "Required options must be placed before non-required options",
)
COMMAND_TOO_LARGE = ("APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")
DUPLICATE_COMMAND = ("APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
# Documented rules whose answer no public report shows: the codes are ours.
DUPLICATE_OPTION = ("APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", "Option name already exists")
AUTOCOMPLETE_WITH_CHOICES = (
    "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES",
    "Autocomplete may not be set with choices",
)


def max_length(limit: int) -> tuple[str, str]:
    return ("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def min_length(limit: int) -> tuple[str, str]:
    return ("BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length.")


def bad_length(low: int, high: int) -> tuple[str, str]:
    return ("BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def one_of(choices: Iterable[object]) -> tuple[str, str]:
    shown = ", ".join(repr(c) if isinstance(c, str) else str(c) for c in choices)
    return ("BASE_TYPE_CHOICES", f"Value must be one of ({shown}).")


def number_min(low: float, kind: str = "int") -> tuple[str, str]:
    return ("NUMBER_TYPE_MIN", f"{kind} value should be greater than or equal to {low}.")


def number_max(high: float, kind: str = "int") -> tuple[str, str]:
    return ("NUMBER_TYPE_MAX", f"{kind} value should be less than or equal to {high}.")


def not_a(kind: str, value: object) -> tuple[str, str]:
    return ("NUMBER_TYPE_COERCE", f'Value "{value}" is not {kind}.')


# -- emojis ------------------------------------------------------------------------------------
def is_discord_emoji(name: str) -> bool:
    """Whether Discord accepts ``name`` as the Unicode emoji of a button or select option.

    Discord accepts the emojis of Unicode's emoji list (the ``emoji`` package keeps a copy of it),
    written with or without VS16; a character that only looks like one is "Invalid emoji" — the
    playing-card back U+1F0A0 and most of the playing-card block, while 🃏 U+1F0CF is an emoji.
    """
    if not isinstance(name, str) or not name:
        return False
    bare = name.replace(VS16, "")
    return any(emoji_list.is_emoji(form) for form in (name, bare, bare + VS16))


def is_snowflake(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 < value < 2**64
    return isinstance(value, str) and value.isascii() and value.isdigit() and 0 < int(value) < 2**64


def _emoji(errs: FormErrors, path: Path, value: object, known: Callable[[int], bool] | None) -> None:
    # A custom emoji is named by its id, and must be one the bot may use: its application's own
    # ("can only be used by that app") or a server's; anything else must be a Unicode emoji in `name`.
    if not isinstance(value, Mapping):
        errs.add(path, NOT_A_DICT)
        return
    emoji_id = value.get("id")
    if emoji_id is not None:
        if not is_snowflake(emoji_id):
            errs.add((*path, "id"), not_a("snowflake", emoji_id))
        elif known is None or not known(int(emoji_id)):
            errs.add((*path, "id"), INVALID_EMOJI)
        return
    if not is_discord_emoji(value.get("name") or ""):
        errs.add((*path, "name"), INVALID_EMOJI)


# -- message bodies ----------------------------------------------------------------------------
class _Upload(Protocol):
    data: bytes


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _check_length(errs: FormErrors, path: Path, value: object, limit: int, *, required: bool = False) -> None:
    text = _text(value)
    if required and not text:
        errs.add(path, REQUIRED)
    elif len(text) > limit:
        errs.add(path, max_length(limit))


def _check_bad_length(errs: FormErrors, path: Path, value: object, low: int, high: int) -> None:
    if not low <= len(_text(value)) <= high:
        errs.add(path, bad_length(low, high))


def _embeds(errs: FormErrors, embeds: Sequence[Any]) -> None:
    if len(embeds) > EMBEDS_MAX:
        errs.add(("embeds",), max_length(EMBEDS_MAX))
    total = 0
    for i, embed in enumerate(embeds):
        path: Path = ("embeds", i)
        if not isinstance(embed, Mapping):
            errs.add(path, NOT_A_DICT)
            continue
        # "Leading and trailing whitespace characters are not included (they are trimmed automatically)."
        title = _text(embed.get("title")).strip()
        description = _text(embed.get("description")).strip()
        _check_length(errs, (*path, "title"), title, EMBED_TITLE_MAX)
        _check_length(errs, (*path, "description"), description, EMBED_DESCRIPTION_MAX)
        total += len(title) + len(description)
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            errs.add((*path, "fields"), max_length(EMBED_FIELDS_MAX))
        for j, field in enumerate(fields):
            name, value = _text(field.get("name")).strip(), _text(field.get("value")).strip()
            _check_length(errs, (*path, "fields", j, "name"), name, EMBED_FIELD_NAME_MAX, required=True)
            _check_length(errs, (*path, "fields", j, "value"), value, EMBED_FIELD_VALUE_MAX, required=True)
            total += len(name) + len(value)
        for key, sub, limit in (("footer", "text", EMBED_FOOTER_MAX), ("author", "name", EMBED_AUTHOR_MAX)):
            part = embed.get(key)
            if part is None:
                continue
            text = _text(part.get(sub)).strip()
            _check_length(errs, (*path, key, sub), text, limit, required=True)
            total += len(text)
    # "the combined sum of characters in all title, description, field.name, field.value,
    # footer.text, and author.name fields across all embeds ... must not exceed 6000 characters"
    if total > EMBED_TOTAL_MAX:
        errs.add(("embeds",), EMBED_SIZE_EXCEEDED)


class _Components:
    """Walks a component tree, checking each component and that custom_ids are unique in the body."""

    def __init__(
        self, errs: FormErrors, known_emoji: Callable[[int], bool] | None = None, *, modal: bool = False
    ) -> None:
        self.errs = errs
        # A row of a message holds buttons or a select; a legacy modal's row, its text input.
        self.in_row = frozenset({BUTTON, *SELECTS, *((TEXT_INPUT,) if modal else ())})
        self.custom_ids: set[str] = set()
        self.count = 0
        self.text = 0  # characters in text displays, for v2's limit
        self.known_emoji = known_emoji

    def custom_id(self, path: Path, comp: Mapping[str, Any], *, required: bool) -> None:
        cid = comp.get("custom_id")
        if cid is None:
            if required:
                self.errs.add((*path, "custom_id"), REQUIRED)
            return
        _check_bad_length(self.errs, (*path, "custom_id"), cid, 1, CUSTOM_ID_MAX)
        # "Multiple components on the same message must not share the same custom_id" — disabled ones too.
        if cid in self.custom_ids:
            self.errs.add((*path, "custom_id"), CUSTOM_ID_DUPLICATED)
        self.custom_ids.add(cid)

    def walk(self, comps: Sequence[Any], path: Path, allowed: frozenset[int] | None = None) -> None:
        """Check each component; `allowed`: the types that may stand here (None: any, as in a modal)."""
        for k, comp in enumerate(comps):
            if allowed is not None and isinstance(comp, Mapping) and comp.get("type") not in allowed:
                self.errs.add((*path, k, "type"), type_one_of(allowed))
                continue
            self.component(comp, (*path, k))

    def component(self, comp: object, path: Path) -> None:
        if not isinstance(comp, Mapping):
            self.errs.add(path, NOT_A_DICT)
            return
        self.count += 1
        ctype = comp.get("type")
        if ctype == ACTION_ROW:
            self.action_row(comp, path)
        elif ctype == BUTTON:
            self.button(comp, path)
        elif ctype in SELECTS:
            self.select(comp, path)
        elif ctype == TEXT_INPUT:
            self.text_input(comp, path)
        elif ctype == LABEL:
            _check_bad_length(self.errs, (*path, "label"), comp.get("label"), 1, LABEL_MAX)
            _check_length(self.errs, (*path, "description"), comp.get("description"), LABEL_DESCRIPTION_MAX)
            if comp.get("component") is not None:
                self.component(comp["component"], (*path, "component"))
        elif ctype == CONTAINER:
            self.walk(comp.get("components") or [], (*path, "components"), IN_CONTAINER)
        elif ctype == SECTION:
            self.section(comp, path)
        elif ctype == TEXT_DISPLAY:
            content = comp.get("content")
            _check_bad_length(self.errs, (*path, "content"), content, 1, V2_TEXT_MAX)
            self.text += len(_text(content))
        elif ctype == SEPARATOR:
            if comp.get("spacing", 1) not in (1, 2):
                self.errs.add((*path, "spacing"), one_of((1, 2)))
        elif ctype in (THUMBNAIL, MEDIA_GALLERY, FILE):
            pass  # media: the bot sends none but the chart's attachment
        else:
            self.errs.add((*path, "type"), type_one_of({*V2_TOP, BUTTON, *SELECTS, TEXT_INPUT, LABEL, THUMBNAIL}))

    def section(self, section: Mapping[str, Any], path: Path) -> None:
        children = section.get("components") or []
        if not 1 <= len(children) <= SECTION_CHILDREN_MAX:
            self.errs.add((*path, "components"), bad_length(1, SECTION_CHILDREN_MAX))
        self.walk(children, (*path, "components"), frozenset({TEXT_DISPLAY}))
        accessory = section.get("accessory")
        if not isinstance(accessory, Mapping):
            self.errs.add((*path, "accessory"), REQUIRED)
        elif accessory.get("type") not in SECTION_ACCESSORIES:
            self.errs.add((*path, "accessory", "type"), type_one_of(SECTION_ACCESSORIES))
        else:
            self.component(accessory, (*path, "accessory"))

    def action_row(self, row: Mapping[str, Any], path: Path) -> None:
        children = row.get("components") or []
        if not 1 <= len(children) <= ROW_WIDTH:
            self.errs.add((*path, "components"), bad_length(1, ROW_WIDTH))
        else:
            # A button takes one fifth of a row, a select all of it.
            width = 0
            for k, child in enumerate(children):
                width += ROW_WIDTH if isinstance(child, Mapping) and child.get("type") in SELECTS else 1
                if width > ROW_WIDTH:
                    self.errs.add((*path, "components", k), WIDTH_EXCEEDED)
        self.walk(children, (*path, "components"), self.in_row)

    def button(self, button: Mapping[str, Any], path: Path) -> None:
        style = button.get("style")
        if style not in range(1, 7):
            self.errs.add((*path, "style"), one_of(range(1, 7)))
            return
        label = button.get("label")
        _check_length(self.errs, (*path, "label"), label, BUTTON_LABEL_MAX)
        if button.get("emoji") is not None:
            _emoji(self.errs, (*path, "emoji"), button["emoji"], self.known_emoji)
        if style == PREMIUM:
            # "Premium buttons must contain a sku_id, and cannot have a custom_id, label, url, or emoji."
            if not is_snowflake(button.get("sku_id")):
                self.errs.add((*path, "sku_id"), REQUIRED)
            return
        if not label and button.get("emoji") is None:
            self.errs.add((*path, "label"), REQUIRED)  # every other button shows a label or an emoji
        if style == LINK:
            # "Link buttons must have a url, and cannot have a custom_id"
            url = button.get("url")
            _check_length(self.errs, (*path, "url"), url, BUTTON_URL_MAX, required=True)
            if button.get("custom_id") is not None:
                self.errs.add((*path, "custom_id"), CUSTOM_ID_URL_EXCLUSIVE)
            return
        # "Non-link and non-premium buttons must have a custom_id, and cannot have a url or a sku_id."
        if button.get("custom_id") is None:
            self.errs.add((*path, "custom_id"), CUSTOM_ID_REQUIRED)
        else:
            self.custom_id(path, button, required=True)
        if button.get("url") is not None:
            self.errs.add((*path, "url"), CUSTOM_ID_URL_EXCLUSIVE)

    def select(self, select: Mapping[str, Any], path: Path) -> None:
        self.custom_id(path, select, required=True)
        _check_length(self.errs, (*path, "placeholder"), select.get("placeholder"), SELECT_PLACEHOLDER_MAX)
        low, high = select.get("min_values", 1), select.get("max_values", 1)
        if not 0 <= low <= SELECT_VALUES_MAX:
            self.errs.add((*path, "min_values"), number_min(0) if low < 0 else number_max(SELECT_VALUES_MAX))
        if not 1 <= high <= SELECT_VALUES_MAX:
            self.errs.add((*path, "max_values"), number_min(1) if high < 1 else number_max(SELECT_VALUES_MAX))
        if low > high:
            self.errs.add((*path, "min_values"), number_max(high))
        if select.get("type") != STRING_SELECT:
            return
        options = select.get("options")
        if not options:
            self.errs.add((*path, "options"), REQUIRED)
            return
        if len(options) > SELECT_OPTIONS_MAX:
            self.errs.add((*path, "options"), bad_length(1, SELECT_OPTIONS_MAX))
        elif low <= high <= SELECT_VALUES_MAX and high > len(options):
            self.errs.add((*path, "options"), min_length(high))  # as many options as can be chosen
        values: set[str] = set()
        for k, option in enumerate(options):
            opath: Path = (*path, "options", k)
            _check_bad_length(self.errs, (*opath, "label"), option.get("label"), 1, OPTION_TEXT_MAX)
            _check_bad_length(self.errs, (*opath, "value"), option.get("value"), 1, OPTION_TEXT_MAX)
            _check_length(self.errs, (*opath, "description"), option.get("description"), OPTION_TEXT_MAX)
            if option.get("emoji") is not None:
                _emoji(self.errs, (*opath, "emoji"), option["emoji"], self.known_emoji)
            if option.get("value") in values:
                self.errs.add((*opath, "value"), OPTION_VALUE_DUPLICATED)
            values.add(option.get("value"))

    def text_input(self, text_input: Mapping[str, Any], path: Path) -> None:
        # components/reference "Text Input": custom_id 1-100, style 1 or 2, min/max_length 0/1-4000,
        # value up to 4000, placeholder up to 100; a legacy text input in an action row has a label.
        self.custom_id(path, text_input, required=True)
        if text_input.get("style") not in (1, 2):
            self.errs.add((*path, "style"), one_of((1, 2)))
        if "label" in text_input:
            _check_bad_length(self.errs, (*path, "label"), text_input["label"], 1, LABEL_MAX)
        low, high = text_input.get("min_length"), text_input.get("max_length")
        if low is not None and not 0 <= low <= TEXT_INPUT_VALUE_MAX:
            self.errs.add((*path, "min_length"), number_max(TEXT_INPUT_VALUE_MAX) if low > 0 else number_min(0))
        if high is not None and not 1 <= high <= TEXT_INPUT_VALUE_MAX:
            self.errs.add((*path, "max_length"), number_max(TEXT_INPUT_VALUE_MAX) if high > 1 else number_min(1))
        _check_length(self.errs, (*path, "value"), text_input.get("value"), TEXT_INPUT_VALUE_MAX)
        _check_length(self.errs, (*path, "placeholder"), text_input.get("placeholder"), TEXT_INPUT_PLACEHOLDER_MAX)


def _flags(body: Mapping[str, Any], existing: Mapping[str, Any] | None) -> int:
    # "the IS_COMPONENTS_V2 flag can only be set": once on a message, its edits are v2 too.
    flags = int(body.get("flags") or 0)
    if existing is not None:
        flags |= int(existing.get("flags") or 0) & IS_COMPONENTS_V2
    return flags


def message_body_errors(
    body: Mapping[str, Any],
    *,
    existing: Mapping[str, Any] | None = None,
    known_emoji: Callable[[int], bool] | None = None,
) -> dict[str, Any]:
    """The ``errors`` tree Discord answers a message body with (``{}`` when it accepts the body).

    ``existing`` is the message an edit changes; ``known_emoji`` tells a custom emoji id the bot
    may use (None: none). An empty message (50006) and too large files (413 / 40005) are not form
    errors: :func:`validate_message_body` checks those as well.
    """
    errs = FormErrors()
    if not isinstance(body, Mapping):
        errs.add((), NOT_A_DICT)
        return errs.tree
    v2 = bool(_flags(body, existing) & IS_COMPONENTS_V2)
    content = body.get("content")
    _check_length(errs, ("content",), content, CONTENT_MAX)
    # resources/message, Create Message: "nonce: integer or string ... (up to 25 characters)".
    if body.get("nonce") is not None:
        _check_length(errs, ("nonce",), body["nonce"], NONCE_MAX)
    embeds = body.get("embeds") or []
    _embeds(errs, embeds)
    components = body.get("components") or []
    if v2:
        # "When the flag IS_COMPONENTS_V2 is set, the message can only contain components."
        if content:
            errs.add(("content",), V2_LEGACY_FIELD)
        if embeds:
            errs.add(("embeds",), V2_LEGACY_FIELD)
        # An edit that sets the flag on a message that had none: "any of the used content, embeds,
        # sticker_ids, or poll fields must have their values reset to empty. For content and poll
        # this is null. For embeds and sticker_ids this is []." (resources/message, Edit Message).
        if existing is not None and not int(existing.get("flags") or 0) & IS_COMPONENTS_V2:
            if existing.get("content") and body.get("content", existing["content"]) is not None:
                errs.add(("content",), V2_LEGACY_FIELD)
            if existing.get("embeds") and body.get("embeds", existing["embeds"]) != []:
                errs.add(("embeds",), V2_LEGACY_FIELD)
    elif len(components) > ACTION_ROWS_MAX:
        errs.add(("components",), max_length(ACTION_ROWS_MAX))
    walker = _Components(errs, known_emoji)
    walker.walk(components, ("components",), V2_TOP if v2 else LEGACY_TOP)
    if v2 and walker.count > V2_COMPONENTS_MAX:
        errs.add(("components",), max_length(V2_COMPONENTS_MAX))
    if v2 and walker.text > V2_TEXT_MAX:
        errs.add(("components",), ("BASE_TYPE_MAX_LENGTH", f"Must be {V2_TEXT_MAX} or fewer in length."))
    return errs.tree


def _is_empty(body: Mapping[str, Any], existing: Mapping[str, Any] | None, files: int) -> bool:
    """Whether the message (after an edit: the edited message) would show nothing at all."""
    merged: dict[str, Any] = dict(existing or {})
    merged.update({k: body[k] for k in ("content", "embeds", "components", "sticker_ids", "poll") if k in body})
    attachments = len(body["attachments"] or []) if "attachments" in body else len(merged.get("attachments") or [])
    shows = (
        _text(merged.get("content")).strip(),
        merged.get("embeds"),
        merged.get("components"),
        merged.get("sticker_ids") or merged.get("sticker_items"),
        merged.get("poll"),
        attachments,
        files,
    )
    return not any(shows)


def validate_message_body(
    body: Mapping[str, Any],
    *,
    creating: bool,
    has_files: bool = False,
    files: Mapping[int, _Upload] | None = None,
    existing: Mapping[str, Any] | None = None,
    path: Path = (),
    attachment_size_limit: int = ATTACHMENT_SIZE_LIMIT,
    known_emoji: Callable[[int], bool] | None = None,
) -> None:
    """Raise :class:`DiscordError` for a message body Discord refuses, with Discord's status, code and body.

    ``creating`` for a new message, else ``existing`` is the message being edited; ``files`` are
    the uploads of the request; ``path`` prefixes the errors tree (``("data",)`` in an interaction
    callback, whose message is the body's ``data``).
    """
    uploads = dict(files or {})
    # "The file upload size limit applies to each file in a request" — the edge answers 413.
    if any(len(upload.data) > attachment_size_limit for upload in uploads.values()):
        raise DiscordError(413, 40005, "Request entity too large")
    _raise_form_errors(message_body_errors(body, existing=existing, known_emoji=known_emoji), path)
    # "At least one of content, embeds, sticker_ids, components, files[n], poll ... is required";
    # an edit that would leave nothing is refused the same way.
    if (creating or existing is not None) and _is_empty(body, existing, len(uploads) or int(has_files)):
        raise DiscordError(400, 50006, "Cannot send an empty message")


def _raise_form_errors(tree: dict[str, Any], path: Path = ()) -> None:
    if tree:
        for key in reversed(path):
            tree = {str(key): tree}
        raise DiscordError(400, 50035, "Invalid Form Body", tree)


def modal_errors(data: Mapping[str, Any]) -> dict[str, Any]:
    """The ``errors`` tree Discord answers a modal (interaction callback type 9) with; ``{}`` if valid."""
    errs = FormErrors()
    # receiving-and-responding "Modal": custom_id 1-100, title max 45, "Between 1 and 5 components".
    _check_bad_length(errs, ("custom_id",), data.get("custom_id"), 1, CUSTOM_ID_MAX)
    _check_bad_length(errs, ("title",), data.get("title"), 1, MODAL_TITLE_MAX)
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
        errs.add(("components",), bad_length(1, MODAL_COMPONENTS_MAX))
    walker = _Components(errs, modal=True)
    walker.walk(components, ("components",))
    return errs.tree


def validate_modal(data: Mapping[str, Any], *, path: Path = ("data",)) -> None:
    """Raise :class:`DiscordError` (400 / 50035) for a modal Discord refuses; the callback nests it in ``data``."""
    _raise_form_errors(modal_errors(data), path)


# -- application commands ----------------------------------------------------------------------
# application-commands "Application Command Naming": CHAT_INPUT command and option names match
# ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ (unicode), lowercase where a letter has a lowercase.
# Python's \w is \p{L}\p{N} and "_"; the Devanagari and Thai blocks add those scripts' vowel signs.
# (The docs page once showed an ASCII apostrophe in the class; discord-api-docs PR #8567 corrected
# it to U+02BC, a letter, which \p{L} already covers.)
NAME_RE = re.compile(r"[-\w\u0900-\u097F\uA8E0-\uA8FF\u0E00-\u0E7F]{1,32}")
NAME_MAX = 32
DESCRIPTION_MAX = 100
OPTIONS_MAX = 25
CHOICES_MAX = 25
CHOICE_TEXT_MAX = 100
STRING_LENGTH_MAX = 6000
COMMAND_SIZE_MAX = 8000
# "An app can have ... 100 global CHAT_INPUT commands, 15 global USER commands, 15 global MESSAGE
# commands, 1 global PRIMARY_ENTRY_POINT command"; the same number per guild.
COMMANDS_MAX = {1: 100, 2: 15, 3: 15, 4: 1}
CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND, ENTRY_POINT = 1, 2, 3, 4
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, NUMBER = 3, 4, 10
OPTION_TYPES = range(1, 12)
SAFE_INTEGER = 2**53 - 1  # INTEGER: "Any integer between -2^53+1 and 2^53-1"
# reference "Locales".
LOCALES = (
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl",
    "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja",
    "zh-TW", "ko",
)  # fmt: skip


def _name(errs: FormErrors, path: Path, name: object, *, chat_input: bool) -> None:
    text = _text(name)
    if not 1 <= len(text) <= NAME_MAX:
        errs.add(path, bad_length(1, NAME_MAX))
    elif not chat_input:
        return  # "USER and MESSAGE commands may be mixed case and can include spaces"
    elif not NAME_RE.fullmatch(text):
        errs.add(path, NAME_REGEX)
    elif text != text.lower():
        errs.add(path, COMMAND_INVALID_NAME)


def _localizations(errs: FormErrors, path: Path, values: object, check: Any, *, per_locale: bool = True) -> list[str]:
    """Check a ``*_localizations`` dictionary: keys are Discord's locales, values like the default."""
    if values is None:
        return []
    if not isinstance(values, Mapping):
        errs.add(path, NOT_A_DICT)
        return []
    texts = []
    for locale, text in values.items():
        if locale not in LOCALES:
            errs.add((*path, locale), one_of(LOCALES))
            continue
        # A command's own name localizations are reported on the dictionary, an option's per
        # locale (the answers quoted in discord-api-docs issue #7712).
        check((*path, locale) if per_locale else path, text)
        texts.append(_text(text))
    return texts


def _choice_value(errs: FormErrors, path: Path, value: object, option_type: int) -> None:
    # "Type of value depends on the option type": a string up to 100, an integer, or a double.
    if option_type == STRING:
        if not isinstance(value, str):
            errs.add(path, ("STRING_TYPE_CONVERT", f'Could not interpret "{value}" as string.'))
        else:
            _check_bad_length(errs, path, value, 1, CHOICE_TEXT_MAX)
    elif option_type == INTEGER:
        if isinstance(value, bool) or not isinstance(value, int):
            errs.add(path, not_a("int", value))
        elif abs(value) > SAFE_INTEGER:
            errs.add(path, number_max(SAFE_INTEGER) if value > 0 else number_min(-SAFE_INTEGER))
    elif isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        errs.add(path, not_a("float", value))


class _Command:
    """Checks one command of a bulk overwrite, and counts its size (names, descriptions, values)."""

    def __init__(self, errs: FormErrors, path: Path) -> None:
        self.errs = errs
        self.path = path
        self.size = 0

    def text(self, default: object, localized: list[str]) -> None:
        # "only the longest localization for each field (including the default value) is counted"
        self.size += max([len(_text(default)), *(len(t) for t in localized)])

    def command(self, cmd: Mapping[str, Any]) -> None:
        path = self.path
        ctype = cmd.get("type", CHAT_INPUT)
        if ctype not in COMMANDS_MAX:
            self.errs.add((*path, "type"), one_of(COMMANDS_MAX))
            return
        chat_input = ctype == CHAT_INPUT
        _name(self.errs, (*path, "name"), cmd.get("name"), chat_input=chat_input)
        names = _localizations(
            self.errs,
            (*path, "name_localizations"),
            cmd.get("name_localizations"),
            lambda p, v: _name(self.errs, p, v, chat_input=chat_input),
            per_locale=False,
        )
        self.text(cmd.get("name"), names)
        if chat_input:
            self.description(path, cmd)
            self.options(path, cmd.get("options"), depth=0)
        elif cmd.get("options"):
            self.errs.add((*path, "options"), max_length(0))  # only CHAT_INPUT commands take options
        if self.size > COMMAND_SIZE_MAX:
            # "a maximum of 8000 characters for combined name, description, and value properties"
            self.errs.add(path, COMMAND_TOO_LARGE)

    def description(self, path: Path, item: Mapping[str, Any]) -> None:
        def check(p: Path, value: object) -> None:
            _check_bad_length(self.errs, p, value, 1, DESCRIPTION_MAX)

        check((*path, "description"), item.get("description"))
        texts = _localizations(
            self.errs, (*path, "description_localizations"), item.get("description_localizations"), check
        )
        self.text(item.get("description"), texts)

    def options(self, path: Path, options: object, *, depth: int) -> None:
        """``depth`` 0: the command's options; 1: a subcommand group's; 2: a subcommand's."""
        if not options:
            return
        if not isinstance(options, Sequence):
            self.errs.add((*path, "options"), NOT_A_DICT)
            return
        if len(options) > OPTIONS_MAX:
            self.errs.add((*path, "options"), max_length(OPTIONS_MAX))
        types = [o.get("type") if isinstance(o, Mapping) else None for o in options]
        # "We support nesting one level deep within a group ... That is the only kind of nesting
        # supported": a command holds subcommands and groups, or plain options; a group holds
        # subcommands; a subcommand holds plain options.
        nests = any(t in (SUB_COMMAND, SUB_COMMAND_GROUP) for t in types)
        if depth == 0 and nests:
            allowed: tuple[int, ...] = (SUB_COMMAND, SUB_COMMAND_GROUP)
        elif depth == 1:
            allowed = (SUB_COMMAND,)
        else:
            allowed = tuple(t for t in OPTION_TYPES if t > SUB_COMMAND_GROUP)
        seen: set[object] = set()
        optional_before = False
        for k, option in enumerate(options):
            opath: Path = (*path, "options", k)
            if not isinstance(option, Mapping):
                self.errs.add(opath, NOT_A_DICT)
                continue
            otype = option.get("type")
            if otype not in allowed:
                self.errs.add((*opath, "type"), one_of(allowed))
                continue
            _name(self.errs, (*opath, "name"), option.get("name"), chat_input=True)
            names = _localizations(
                self.errs,
                (*opath, "name_localizations"),
                option.get("name_localizations"),
                lambda p, v: _name(self.errs, p, v, chat_input=True),
            )
            self.text(option.get("name"), names)
            if option.get("name") in seen:  # "name must be unique within an array of options"
                self.errs.add((*opath, "name"), DUPLICATE_OPTION)
            seen.add(option.get("name"))
            self.description(opath, option)
            if otype in (SUB_COMMAND, SUB_COMMAND_GROUP):
                self.options(opath, option.get("options"), depth=depth + 1 if otype == SUB_COMMAND_GROUP else 2)
                continue
            # "Required options must be listed before optional options"
            if option.get("required"):
                if optional_before:
                    self.errs.add(opath, REQUIRED_FIRST)
            else:
                optional_before = True
            self.option_values(opath, option, otype)

    def option_values(self, path: Path, option: Mapping[str, Any], otype: int) -> None:
        choices = option.get("choices")
        if choices:
            if otype not in (STRING, INTEGER, NUMBER):
                self.errs.add((*path, "choices"), max_length(0))
            elif len(choices) > CHOICES_MAX:
                self.errs.add((*path, "choices"), max_length(CHOICES_MAX))
            if option.get("autocomplete"):  # "autocomplete may not be set to true if choices are present"
                self.errs.add((*path, "autocomplete"), AUTOCOMPLETE_WITH_CHOICES)
            for c, choice in enumerate(choices):
                cpath: Path = (*path, "choices", c)
                _check_bad_length(self.errs, (*cpath, "name"), choice.get("name"), 1, CHOICE_TEXT_MAX)
                texts = _localizations(
                    self.errs,
                    (*cpath, "name_localizations"),
                    choice.get("name_localizations"),
                    lambda p, v: _check_bad_length(self.errs, p, v, 1, CHOICE_TEXT_MAX),
                )
                self.text(choice.get("name"), texts)
                if otype in (STRING, INTEGER, NUMBER):
                    _choice_value(self.errs, (*cpath, "value"), choice.get("value"), otype)
                    self.size += len(_text(choice.get("value")))
        if otype in (INTEGER, NUMBER):
            low, high = option.get("min_value"), option.get("max_value")
            kind = "int" if otype == INTEGER else "float"
            for key, value in (("min_value", low), ("max_value", high)):
                if value is not None:
                    _choice_value(self.errs, (*path, key), value, otype)
            if isinstance(low, int | float) and isinstance(high, int | float) and low > high:
                self.errs.add((*path, "min_value"), number_max(high, kind))
        if otype == STRING:
            low, high = option.get("min_length"), option.get("max_length")
            if low is not None and not 0 <= low <= STRING_LENGTH_MAX:
                self.errs.add((*path, "min_length"), number_min(0) if low < 0 else number_max(STRING_LENGTH_MAX))
            if high is not None and not 1 <= high <= STRING_LENGTH_MAX:
                self.errs.add((*path, "max_length"), number_min(1) if high < 1 else number_max(STRING_LENGTH_MAX))
            if low is not None and high is not None and low > high:
                self.errs.add((*path, "min_length"), number_max(high))


def command_errors(commands: object) -> dict[str, Any]:
    """The ``errors`` tree Discord answers a bulk overwrite (``PUT .../commands``) with; ``{}`` if valid."""
    errs = FormErrors()
    if not isinstance(commands, Sequence) or isinstance(commands, str | bytes):
        errs.add((), ("BASE_TYPE_ARRAY", "This field must be an array."))
        return errs.tree
    per_type: dict[Any, int] = {}
    names: set[tuple[Any, Any]] = set()
    for i, cmd in enumerate(commands):
        if not isinstance(cmd, Mapping):
            errs.add((i,), NOT_A_DICT)
            continue
        ctype = cmd.get("type", CHAT_INPUT)
        per_type[ctype] = per_type.get(ctype, 0) + 1
        _Command(errs, (i,)).command(cmd)
        # "Command names are unique per application, per type, within each scope"
        if (ctype, cmd.get("name")) in names:
            errs.add((i,), DUPLICATE_COMMAND)
        names.add((ctype, cmd.get("name")))
    for ctype, count in per_type.items():
        limit = COMMANDS_MAX.get(ctype)
        if limit is not None and count > limit:
            # The documented limit; the code of this answer is not in any public report.
            errs.add((), max_length(limit))
    return errs.tree


def validate_commands(commands: object) -> None:
    """Raise :class:`DiscordError` (400 / 50035 with the errors tree) for a command list Discord refuses."""
    _raise_form_errors(command_errors(commands))
