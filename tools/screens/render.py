"""Messages as Discord's client draws them, to HTML: author line, text, embeds, attachments, classic
components and Components V2, ephemeral answers.

`draw_messages` draws a list of message payloads (the API's message objects, as the stand-in holds
them) the way a channel shows them, grouping a run of one author's messages under one header.
`page` turns a snapshot file (see `capture`) into a self-contained HTML page.
"""

from __future__ import annotations

import datetime
import html
import json
import re
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import _twemoji, theme
from .markdown import Context, custom_emoji, plain, render, unicode_emoji

IS_COMPONENTS_V2 = 1 << 15
EPHEMERAL = 1 << 6
# Discord shows a run of one author's messages under one header while each follows the last within 7 minutes.
GROUP_SECONDS = 7 * 60
# The default avatars' colours, picked by (user id >> 22) % 6 (Discord's default avatar index).
_AVATAR_COLOURS = ("#5865F2", "#757E8A", "#3BA55C", "#FAA61A", "#ED4245", "#EB459E")
_BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium"}
_IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}


@dataclass
class Message:
    """A message to draw: its payload, its attachments' bytes by file name, and how it came."""

    data: dict[str, Any]
    files: Mapping[str, bytes] = field(default_factory=dict)
    interaction: Mapping[str, Any] | None = None  # {"type": 2, "name": "wizard start", "user_id": "…"}
    focus: bool = False

    @property
    def id(self) -> str:
        return str(self.data.get("id", ""))

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def when(self) -> datetime.datetime | None:
        raw = self.data.get("timestamp")
        return datetime.datetime.fromisoformat(raw) if raw else None


# -- a channel's messages ---------------------------------------------------------------------------
def draw_messages(messages: Sequence[Message], ctx: Context) -> str:
    """Messages in channel order, each run of one author's messages under one header."""
    out = []
    previous: Message | None = None
    for message in messages:
        out.append(draw_message(message, ctx, continued=_continues(previous, message)))
        previous = message
    return "".join(out)


def _continues(previous: Message | None, message: Message) -> bool:
    if previous is None or _command(message) is not None:
        return False
    if previous.data.get("author", {}).get("id") != message.data.get("author", {}).get("id"):
        return False
    if previous.when is None or message.when is None:
        return True
    return (message.when - previous.when).total_seconds() < GROUP_SECONDS


def _command(message: Message) -> Mapping[str, Any] | None:
    """The slash command a message answers ("Alice used /wizard start" above it), if any."""
    if int(message.data.get("type") or 0) != 20 or not message.interaction:
        return None
    return message.interaction


def draw_message(message: Message, ctx: Context, *, continued: bool = False) -> str:
    """One message: header (unless `continued`), text, attachments, embeds, components."""
    data = message.data
    author = data.get("author") or {}
    classes = ["msg", "group-start" if not continued else "continued"]
    if message.ephemeral:
        classes.append("ephemeral")
    if ctx.viewer and any(str(m.get("id")) == ctx.viewer for m in data.get("mentions") or []):
        classes.append("mentioned")
    parts: list[str] = []
    command = _command(message)
    if command is not None:
        classes.append("has-command")
        user_id = str(command.get("user_id", ""))
        who = ctx.users.get(user_id, "someone")
        name = html.escape(str(command.get("name")))
        parts.append(
            f'<div class="command-line">{_avatar(user_id, css="mini-avatar")}'
            f'<span class="who">{plain(who, ctx)}</span> used <span class="cmd">/{name}</span></div>'
        )
    if not continued:
        parts.append(_avatar(str(author.get("id", "")), css="avatar"))
        name = author.get("global_name") or author.get("username") or "?"
        tag = '<span class="app-tag">App</span>' if author.get("bot") else ""
        parts.append(
            f'<h3 class="header"><span class="username">{plain(str(name), ctx)}</span>{tag}'
            f'<time class="time" datetime="{html.escape(str(data.get("timestamp", "")))}">'
            f"{html.escape(_when(message.when, ctx.now))}</time></h3>"
        )
    v2 = bool(message.flags & IS_COMPONENTS_V2)
    content = str(data.get("content") or "")
    if content and not v2:
        edited = '<span class="edited">(edited)</span>' if data.get("edited_timestamp") else ""
        parts.append(f'<div class="content markup">{render(content, ctx, jumbo=True)}{edited}</div>')
    parts.append(f'<div class="accessories">{_accessories(message, ctx, v2)}</div>')
    if message.ephemeral:
        parts.append(
            f'<div class="ephemeral-note">{_EYE}<span>Only you can see this</span><span>•</span>'
            '<span class="dismiss">Dismiss message</span></div>'
        )
    focus = ' data-focus="true"' if message.focus else ""
    return f'<li class="{" ".join(classes)}" data-message-id="{message.id}"{focus}>{"".join(parts)}</li>'


def _accessories(message: Message, ctx: Context, v2: bool) -> str:
    data = message.data
    media = _Media(message, ctx)
    out: list[str] = []
    if v2:
        out.append(f'<div class="v2">{"".join(_v2(c, media, ctx) for c in data.get("components") or [])}</div>')
        return "".join(out)
    embeds = [e for e in data.get("embeds") or [] if isinstance(e, dict)]
    for embed in embeds:  # an attachment an embed shows is not shown again below the text
        for key in ("image", "thumbnail"):
            url = str((embed.get(key) or {}).get("url", ""))
            if url.startswith("attachment://"):
                media.used.add(url.removeprefix("attachment://"))
    for attachment in data.get("attachments") or []:
        if attachment.get("filename") not in media.used:
            out.append(media.attachment(attachment))
    out.extend(draw_embed(embed, media, ctx) for embed in embeds)
    rows = data.get("components") or []
    if rows:
        out.append(f'<div class="components">{"".join(_classic(row, ctx) for row in rows)}</div>')
    return "".join(out)


# -- embeds -----------------------------------------------------------------------------------------
def draw_embed(embed: Mapping[str, Any], media: _Media | None, ctx: Context) -> str:
    """An embed: colour bar, author, title, description, fields, image, thumbnail, footer."""
    media = media or _Media(Message({}), ctx)
    style = f' style="border-left-color: #{int(embed["color"]):06x}"' if embed.get("color") is not None else ""
    thumbnail = (embed.get("thumbnail") or {}).get("url")
    parts: list[str] = []
    author = embed.get("author") or {}
    if author.get("name"):
        icon = media.image_tag(str(author["icon_url"]), css="") if author.get("icon_url") else ""
        parts.append(f'<div class="embed-author">{icon}<span>{plain(str(author["name"]), ctx)}</span></div>')
    if embed.get("title"):
        title = render(str(embed["title"]), ctx, blocks=False)
        if embed.get("url"):
            title = f'<a href="{html.escape(str(embed["url"]))}">{title}</a>'
        parts.append(f'<div class="embed-title markup">{title}</div>')
    if embed.get("description"):
        parts.append(f'<div class="embed-description markup">{render(str(embed["description"]), ctx)}</div>')
    fields = [f for f in embed.get("fields") or [] if isinstance(f, dict)]
    if fields:
        parts.append(f'<div class="embed-fields">{_fields(fields, bool(thumbnail), ctx)}</div>')
    if (embed.get("image") or {}).get("url"):
        parts.append(f'<div class="embed-image">{media.image_tag(str(embed["image"]["url"]), css="")}</div>')
    if thumbnail:
        parts.append(media.image_tag(str(thumbnail), css="embed-thumbnail"))
    footer = embed.get("footer") or {}
    stamp = embed.get("timestamp")
    if footer.get("text") or stamp:
        icon = media.image_tag(str(footer["icon_url"]), css="icon") if footer.get("icon_url") else ""
        text = plain(str(footer.get("text", "")), ctx)
        if stamp:
            when = _when(datetime.datetime.fromisoformat(str(stamp)), ctx.now)
            text = f"{text}<span> • </span>{html.escape(when)}" if text else html.escape(when)
        parts.append(f'<div class="embed-footer">{icon}<span>{text}</span></div>')
    grid = "embed-grid has-thumbnail" if thumbnail else "embed-grid"
    return f'<article class="embed"{style}><div class="{grid}">{"".join(parts)}</div></article>'


def _fields(fields: list[dict[str, Any]], thumbnail: bool, ctx: Context) -> str:
    """Discord's field layout: consecutive inline fields share a row, 3 to a row (2 beside a
    thumbnail); any other field has a row of its own. A row's fields split the 12 columns."""
    per_row = 2 if thumbnail else 3
    rows: list[list[dict[str, Any]]] = []
    for item in fields:
        if item.get("inline") and rows and rows[-1][0].get("inline") and len(rows[-1]) < per_row:
            rows[-1].append(item)
        else:
            rows.append([item])
    out = []
    for row in rows:
        span = 12 // len(row)
        for index, item in enumerate(row):
            start = 1 + index * span
            out.append(
                f'<div class="embed-field" style="grid-column: {start} / {start + span}">'
                f'<div class="field-name markup">{render(str(item.get("name", "")), ctx, blocks=False)}</div>'
                f'<div class="field-value markup">{render(str(item.get("value", "")), ctx)}</div></div>'
            )
    return "".join(out)


# -- classic components -----------------------------------------------------------------------------
def _classic(row: Mapping[str, Any], ctx: Context) -> str:
    if row.get("type") != 1:
        return _unknown(row)
    return f'<div class="action-row">{"".join(_interactive(c, ctx) for c in row.get("components") or [])}</div>'


def _interactive(component: Mapping[str, Any], ctx: Context) -> str:
    kind = component.get("type")
    if kind == 2:
        return draw_button(component, ctx)
    if kind in (3, 5, 6, 7, 8):
        return draw_select(component, ctx)
    return _unknown(component)


def draw_button(button: Mapping[str, Any], ctx: Context) -> str:
    """A button in its style's colour; emoji, then label; a link's arrow; greyed out when disabled."""
    style = _BUTTON_STYLES.get(int(button.get("style") or 2), "secondary")
    disabled = bool(button.get("disabled"))
    classes = f"btn {style}{' disabled' if disabled else ''}"
    parts = []
    emoji = button.get("emoji")
    if emoji:
        parts.append(_component_emoji(emoji, ctx))
    if button.get("label"):
        parts.append(f'<span class="label">{plain(str(button["label"]), ctx)}</span>')
    if style == "link":
        parts.append(_LAUNCH)
    ident = button.get("custom_id") or button.get("url") or button.get("sku_id") or ""
    return (
        f'<div class="{classes}" role="button" data-custom-id="{html.escape(str(ident), quote=True)}" '
        f'data-disabled="{str(disabled).lower()}">{"".join(parts)}</div>'
    )


def draw_select(select: Mapping[str, Any], ctx: Context) -> str:
    """A select menu as it shows closed: the default options chosen, else the placeholder."""
    chosen = [o for o in select.get("options") or [] if o.get("default")]
    if chosen:
        text = ", ".join(
            (_component_emoji(o["emoji"], ctx) if o.get("emoji") else "") + plain(str(o.get("label", "")), ctx)
            for o in chosen
        )
    else:
        text = plain(str(select.get("placeholder") or "Make a selection"), ctx)
    disabled = " disabled" if select.get("disabled") else ""
    return (
        f'<div class="select{disabled}" data-custom-id="{html.escape(str(select.get("custom_id", "")), quote=True)}">'
        f'<span class="select-text">{text}</span>{_CHEVRON}</div>'
    )


def _component_emoji(emoji: Mapping[str, Any], ctx: Context) -> str:
    if emoji.get("id"):
        return custom_emoji(str(emoji.get("name") or "_"), str(emoji["id"]), bool(emoji.get("animated")), ctx)
    return unicode_emoji(str(emoji.get("name", "")), ctx) if emoji.get("name") else ""


# -- components v2 ----------------------------------------------------------------------------------
def _v2(component: Mapping[str, Any], media: _Media, ctx: Context) -> str:
    kind = component.get("type")
    if kind == 1:
        return _classic(component, ctx)
    if kind == 10:
        return f'<div class="text-display markup">{render(str(component.get("content", "")), ctx)}</div>'
    if kind == 9:
        texts = "".join(_v2(c, media, ctx) for c in component.get("components") or [])
        accessory = component.get("accessory") or {}
        kind_of = "with-button" if accessory.get("type") == 2 else "with-thumbnail"
        side = _interactive(accessory, ctx) if accessory.get("type") == 2 else _v2(accessory, media, ctx)
        return (
            f'<div class="section {kind_of}"><div class="section-texts">{texts}</div>'
            f'<div class="section-accessory">{side}</div></div>'
        )
    if kind == 11:
        url = str((component.get("media") or {}).get("url", ""))
        return f'<div class="thumbnail">{media.image_tag(url, css="")}</div>'
    if kind == 12:
        items = [i for i in component.get("items") or [] if isinstance(i, dict)]
        size = {1: "n1", 2: "n2", 4: "n4"}.get(len(items), "many")
        pictures = "".join(media.image_tag(str((i.get("media") or {}).get("url", "")), css="") for i in items)
        return f'<div class="gallery {size}">{pictures}</div>'
    if kind == 13:
        url = str((component.get("file") or {}).get("url", ""))
        return media.file_box(url.removeprefix("attachment://"))
    if kind == 14:
        spacing = "large" if int(component.get("spacing") or 1) == 2 else "small"
        divider = " divider" if component.get("divider", True) else ""
        return f'<div class="separator {spacing}{divider}"></div>'
    if kind == 17:
        inner = "".join(_v2(c, media, ctx) for c in component.get("components") or [])
        accent = component.get("accent_color")
        style = f' style="--accent: #{int(accent):06x}"' if accent is not None else ""
        return f'<div class="container{" accent" if accent is not None else ""}"{style}>{inner}</div>'
    return _unknown(component)


def _unknown(component: Mapping[str, Any]) -> str:
    return f'<div class="unknown-component">component type {html.escape(str(component.get("type")))}</div>'


# -- attachments and images -------------------------------------------------------------------------
class _Media:
    """A message's files: the images and boxes that show them, by attachment name or URL."""

    def __init__(self, message: Message, ctx: Context) -> None:
        self.message = message
        self.ctx = ctx
        self.used: set[str] = set()

    def _name_of(self, url: str) -> str | None:
        if url.startswith("attachment://"):
            return url.removeprefix("attachment://")
        for attachment in self.message.data.get("attachments") or []:
            if url in (attachment.get("url"), attachment.get("proxy_url")):
                return str(attachment.get("filename"))
        return None

    def image_tag(self, url: str, css: str) -> str:
        name = self._name_of(url)
        data = self.message.files.get(name) if name is not None else None
        if data is None:
            return (
                f'<div class="{css} missing-image" style="width:160px;height:90px;display:flex;align-items:center;'
                f'justify-content:center;background:var(--bg-tertiary);color:var(--text-muted);font-size:12px">'
                f"image not held: {html.escape(url[:60])}</div>"
            )
        self.used.add(str(name))
        return _img(name or "image", data, css, self.ctx)

    def attachment(self, attachment: Mapping[str, Any]) -> str:
        name = str(attachment.get("filename", ""))
        data = self.message.files.get(name)
        if data is not None and Path(name).suffix.lower() in _IMAGE_TYPES:
            self.used.add(name)
            return _img(name, data, "attachment-image", self.ctx)
        return self.file_box(name, size=attachment.get("size"))

    def file_box(self, name: str, size: object = None) -> str:
        data = self.message.files.get(name)
        if size is None and data is not None:
            size = len(data)
        self.used.add(name)
        shown = _size(int(size)) if isinstance(size, int) else ""
        return (
            f'<div class="file" data-filename="{html.escape(name, quote=True)}">{_FILE_ICON}'
            f'<div><div class="file-name">{html.escape(name)}</div><div class="file-size">{shown}</div></div></div>'
        )


def _img(name: str, data: bytes, css: str, ctx: Context) -> str:
    mime = _IMAGE_TYPES.get(Path(name).suffix.lower(), "image/png")
    uri = ctx.data_uri(f"file:{name}:{len(data)}:{hash(data)}", mime, data)
    size = image_size(data)
    dims = f' width="{size[0]}" height="{size[1]}"' if size else ""
    shown = html.escape(name, quote=True)
    return f'<img class="{css}" data-filename="{shown}" alt="{shown}"{dims} src="{uri}">'


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG, GIF or JPEG, from its header."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data[:6] in (b"GIF87a", b"GIF89a"):
        width, height = struct.unpack("<HH", data[6:10])
        return int(width), int(height)
    if data[:2] == b"\xff\xd8":
        index = 2
        while index + 9 < len(data):
            if data[index] != 0xFF:
                return None
            marker = data[index + 1]
            length = struct.unpack(">H", data[index + 2 : index + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                height, width = struct.unpack(">HH", data[index + 5 : index + 9])
                return int(width), int(height)
            index += 2 + length
    return None


def _size(size: int) -> str:
    for unit in ("bytes", "KB", "MB"):
        if size < 1024 or unit == "MB":
            return f"{size} {unit}" if unit == "bytes" else f"{size:.2f} {unit}"
        size /= 1024  # type: ignore[assignment]
    return ""


# -- small parts ------------------------------------------------------------------------------------
def _when(moment: datetime.datetime | None, now: datetime.datetime) -> str:
    """The author line's time, as Discord writes it: "Today at 9:01 PM"."""
    if moment is None:
        return ""
    clock = f"{moment.hour % 12 or 12}:{moment:%M} {'AM' if moment.hour < 12 else 'PM'}"
    days = (now.date() - moment.date()).days
    if days == 0:
        return f"Today at {clock}"
    if days == 1:
        return f"Yesterday at {clock}"
    return f"{moment:%m/%d/%Y} {clock}"


def _avatar(user_id: str, css: str) -> str:
    """A default avatar: a disc in one of Discord's six colours with a plain face (not Discord's artwork)."""
    index = (int(user_id) >> 22) % 6 if user_id.isdigit() else 0
    colour = _AVATAR_COLOURS[index]
    return (
        f'<svg class="{css}" viewBox="0 0 40 40" aria-hidden="true"><circle cx="20" cy="20" r="20" fill="{colour}"/>'
        '<rect x="10" y="13" width="20" height="15" rx="6" fill="#fff"/>'
        f'<circle cx="16" cy="20" r="2.2" fill="{colour}"/><circle cx="24" cy="20" r="2.2" fill="{colour}"/></svg>'
    )


_EYE = (
    '<svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" '
    'd="M12 5C5.6 5 2 12 2 12s3.6 7 10 7 10-7 10-7-3.6-7-10-7zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-7'
    'a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z"/></svg>'
)
_LAUNCH = (
    '<svg class="launch" width="16" height="16" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" '
    'd="M10 5V3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2v-5h-2v5H5V5h5zm4-2v2h3.6l-8.3 8.3 1.4 1.4L19 '
    '6.4V10h2V3h-7z"/></svg>'
)
_CHEVRON = (
    '<svg class="chevron" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" '
    'd="M7.4 8.6 12 13.2l4.6-4.6L18 10l-6 6-6-6z"/></svg>'
)
_FILE_ICON = (
    '<svg class="file-icon" width="30" height="40" viewBox="0 0 30 40" aria-hidden="true"><path fill="#5865F2" '
    'd="M2 0h18l10 10v28a2 2 0 0 1-2 2H2a2 2 0 0 1-2-2V2a2 2 0 0 1 2-2z"/><path fill="#fff" opacity=".5" '
    'd="M20 0v8a2 2 0 0 0 2 2h8z"/><rect x="6" y="18" width="18" height="2" fill="#fff"/><rect x="6" y="24" '
    'width="18" height="2" fill="#fff"/><rect x="6" y="30" width="12" height="2" fill="#fff"/></svg>'
)


# -- a snapshot as a page ---------------------------------------------------------------------------
CONTEXT_MESSAGES = 30  # enough earlier messages to fill a phone's screen above the newest


def load(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def context_for(
    snapshot: Mapping[str, Any],
    folder: Path,
    twemoji: _twemoji.Twemoji,
    emojis: Mapping[str, tuple[str, bytes]] | None = None,
    *,
    raw_links: bool = False,
) -> Context:
    """What drawing the snapshot's messages needs: names, the viewer, its time, the emoji images."""
    users = {uid: str(u.get("global_name") or u.get("name")) for uid, u in snapshot.get("users", {}).items()}
    channels = {str(snapshot["channel"]["id"]): str(snapshot["channel"]["name"])}
    held: dict[str, tuple[str, bytes]] = {}
    for emoji_id, item in (snapshot.get("emojis") or {}).items():
        path = folder / str(item["file"])
        if path.is_file():
            data = path.read_bytes()
            held[emoji_id] = ("image/gif" if item.get("animated") else _sniff(data), data)
    held.update(emojis or {})
    viewer_name = snapshot["focus"]["user"]
    viewer = next((uid for uid, u in snapshot.get("users", {}).items() if u.get("name") == viewer_name), None)
    now = datetime.datetime.fromisoformat(str(snapshot["taken_at"]))
    return Context(
        users=users,
        channels=channels,
        guild_id=str(snapshot["guild"]["id"]),
        custom_emojis=held,
        twemoji=twemoji,
        now=now,
        viewer=viewer,
        message_links_as_mentions=not raw_links,
    )


def _sniff(data: bytes) -> str:
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    if data[:3] == b"GIF":
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data.lstrip()[:4] in (b"<svg", b"<?xm"):
        return "image/svg+xml"
    return "image/jpeg"


def snapshot_messages(snapshot: Mapping[str, Any], folder: Path, ids: Iterable[str]) -> list[Message]:
    """The snapshot's messages of these ids, with their attachments' bytes, focus marked."""
    focus = set(snapshot["focus"]["messages"])
    out = []
    for message_id in ids:
        entry = snapshot["messages"][message_id]
        files = {name: (folder / rel).read_bytes() for name, rel in (entry.get("files") or {}).items()}
        out.append(Message(entry["data"], files, entry.get("interaction"), message_id in focus))
    return out


def page(
    snapshot: Mapping[str, Any],
    folder: Path,
    twemoji: _twemoji.Twemoji,
    emojis: Mapping[str, tuple[str, bytes]] | None = None,
    *,
    raw_links: bool = False,
) -> str:
    """A self-contained HTML page of a snapshot (fonts aside: ../fonts/ beside it).

    It draws the focus messages alone; with ``#frame=screen`` in its address it draws a phone's
    screen instead: the newest messages of that conversation under Discord's chrome. ``#theme=light``
    switches the theme (dark without it). A query (``?theme=light&frame=screen``) works the same.
    """
    ctx = context_for(snapshot, folder, twemoji, emojis, raw_links=raw_links)
    focus = snapshot["focus"]
    view = snapshot["views"][focus["user"]][focus["place"]]
    focused = draw_messages(snapshot_messages(snapshot, folder, focus["messages"]), ctx)
    context = draw_messages(snapshot_messages(snapshot, folder, view[-CONTEXT_MESSAGES:]), ctx)
    if focus["place"] == "dm":
        bot = snapshot["bot"]
        title, glyph, box = str(bot.get("global_name") or bot["name"]), "@", f"Message @{bot['name']}"
    else:
        title, glyph, box = str(snapshot["channel"]["name"]), "#", f"Message #{snapshot['channel']['name']}"
    meta = {
        "name": snapshot["name"],
        "focus": focus,
        "phone_chat_height": theme.PHONE_CHAT,
        "missing_emoji": sorted(twemoji.missing),
    }
    return _PAGE.format(
        title=html.escape(f"{snapshot['name']} — {focus['place']} of {focus['user']}"),
        css=theme.CSS,
        focused=focused,
        context=context,
        channel=html.escape(title),
        glyph=glyph,
        box=html.escape(box),
        meta=html.escape(json.dumps(meta, ensure_ascii=False), quote=False),
    )


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{css}</style>
</head>
<body class="theme-dark">
<div class="screen">
<div class="screen-top"><div class="status-bar"><span>9:41</span><span>▮▮▮ ▭</span></div>
<div class="channel-bar"><span class="glyph">{glyph}</span><span>{channel}</span></div></div>
<main class="chat">
<ol class="messages focus-only">{focused}</ol>
<ol class="messages with-context">{context}</ol>
</main>
<div class="screen-bottom"><div class="composer"><span class="plus">+</span><span class="box">{box}</span></div>
<div class="home-bar"><span></span></div></div>
</div>
<script type="application/json" id="meta">{meta}</script>
<script>
(function () {{
  var args = new URLSearchParams(location.search.slice(1) + "&" + location.hash.slice(1));
  var frame = args.get("frame") === "screen" ? " frame-screen" : "";
  document.body.className = "theme-" + (args.get("theme") || "dark") + frame;
}})();
</script>
</body></html>
"""


def plain_text(fragment: str) -> str:
    """The visible text of an HTML fragment, tags dropped (for tests and reports)."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))
