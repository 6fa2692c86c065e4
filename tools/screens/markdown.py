"""Discord's markdown, drawn as Discord's client draws it, to HTML.

Discord's rules (support.discord.com "Markdown Text 101", and what its client does):
- blocks, at the start of a line: ``# ``, ``## ``, ``### `` headings; ``-# `` subtext (small, muted);
  ``- `` / ``* `` / ``1. `` lists (indented items nest); ``> `` quotes a line, ``>>> `` the rest;
  fenced code blocks (three backticks, an optional language on the first line);
- inline: ``**bold**``, ``*italic*`` / ``_italic_``, ``__underline__``, ``~~strike~~``,
  ``||spoiler||``, ``code`` in backticks, ``\\`` escapes, ``[text](url)`` masked links, bare and
  ``<url>`` links, ``<@id>`` users, ``<@&id>`` roles, ``<#id>`` channels, ``</name:id>`` commands,
  ``<t:unix:style>`` timestamps, ``<:name:id>`` / ``<a:name:id>`` custom emojis;
- every Unicode emoji becomes a Twemoji image (see `_twemoji`); a message of nothing but emoji
  (up to 30) shows them large ("jumbo").
Embed titles, field names and footers take less (see `Context.blocks`).
"""

from __future__ import annotations

import base64
import datetime
import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from . import _twemoji

JUMBO_LIMIT = 30  # "up to 30 emoji" show large in a message of nothing else


@dataclass
class Context:
    """What drawing a text needs to know besides the text."""

    users: Mapping[str, str] = field(default_factory=dict)  # user id -> display name
    channels: Mapping[str, str] = field(default_factory=dict)  # channel id -> name
    roles: Mapping[str, str] = field(default_factory=dict)  # role id -> name
    guild_id: str | None = None
    # Custom emoji id -> (MIME type, image bytes); an unknown one is drawn as ":name:".
    custom_emojis: Mapping[str, tuple[str, bytes]] = field(default_factory=dict)
    twemoji: _twemoji.Twemoji = field(default_factory=_twemoji.Twemoji)
    now: datetime.datetime = field(default_factory=lambda: datetime.datetime.now(datetime.UTC))
    viewer: str | None = None  # the id of the person looking (their own mentions are highlighted)
    # Discord's client draws a link to a message of a channel it knows as that channel's mention
    # ("# wizard › 💬") since its rich links of 2023; False draws the raw URL, as older clients did.
    message_links_as_mentions: bool = True
    # Cache of data URIs by key, so a page repeats each image's bytes as seldom as possible.
    _uris: dict[str, str] = field(default_factory=dict)

    def data_uri(self, key: str, mime: str, data: bytes) -> str:
        if key not in self._uris:
            self._uris[key] = f"data:{mime};base64,{base64.b64encode(data).decode()}"
        return self._uris[key]


# -- emoji ------------------------------------------------------------------------------------------
def unicode_emoji(sequence: str, ctx: Context, css: str = "emoji") -> str:
    svg = ctx.twemoji.svg(sequence)
    if svg is None:
        return f'<span class="emoji-text" data-emoji="{_attr(sequence)}">{html.escape(sequence)}</span>'
    uri = ctx.data_uri(f"tw:{_twemoji.file_name(sequence)}", "image/svg+xml", svg)
    name = _twemoji.file_name(sequence)
    return (
        f'<img class="{css}" data-emoji="{_attr(sequence)}" data-twemoji="{name}" alt="{_attr(sequence)}" '
        f'draggable="false" src="{uri}">'
    )


def custom_emoji(name: str, emoji_id: str, animated: bool, ctx: Context, css: str = "emoji") -> str:
    found = ctx.custom_emojis.get(emoji_id)
    if found is None:
        return f'<span class="emoji-text" data-emoji-id="{_attr(emoji_id)}">:{html.escape(name)}:</span>'
    mime, data = found
    uri = ctx.data_uri(f"custom:{emoji_id}", mime, data)
    return (
        f'<img class="{css} custom" data-emoji-id="{_attr(emoji_id)}" data-animated="{str(animated).lower()}" '
        f'alt=":{_attr(name)}:" draggable="false" src="{uri}">'
    )


def plain(text: str, ctx: Context) -> str:
    """Text without markdown (embed author and footer, button labels), its emoji drawn as images."""
    out = []
    for run, is_emoji in _twemoji.split(text):
        out.append(unicode_emoji(run, ctx) if is_emoji else html.escape(run))
    return "".join(out)


# -- inline rules -----------------------------------------------------------------------------------
_URL = r"https?://[^\s<]+[^<.,:;\"'\]\s)]"
_INLINE: list[tuple[str, re.Pattern[str]]] = [
    ("escape", re.compile(r"\\([^0-9A-Za-z\s])")),
    ("code", re.compile(r"(`+)([\s\S]*?[^`])\1(?!`)")),
    ("spoiler", re.compile(r"\|\|([\s\S]+?)\|\|")),
    ("custom_emoji", re.compile(r"<(a?):(\w{2,32}):(\d{15,21})>")),
    ("timestamp", re.compile(r"<t:(-?\d{1,17})(?::([tTdDfFR]))?>")),
    ("user", re.compile(r"<@!?(\d{15,21})>")),
    ("role", re.compile(r"<@&(\d{15,21})>")),
    ("channel", re.compile(r"<#(\d{15,21})>")),
    ("command", re.compile(r"</([-_\w]{1,32}(?: [-_\w]{1,32}){0,2}):(\d{15,21})>")),
    ("everyone", re.compile(r"@(everyone|here)\b")),
    ("masked_link", re.compile(r"\[((?:\[[^\]]*\]|[^\[\]])+)\]\(\s*<?(" + _URL + r"?)>?(?:\s+\"([^\"]*)\")?\s*\)")),
    ("autolink", re.compile(r"<(" + _URL + r")>")),
    ("url", re.compile(_URL)),
    ("strong", re.compile(r"\*\*([\s\S]+?)\*\*(?!\*)")),
    ("underline", re.compile(r"__([\s\S]+?)__(?!_)")),
    ("em_star", re.compile(r"\*(?=\S)((?:\*\*|\\[\s\S]|[^\\*])+?)\*(?!\*)")),
    ("em_underscore", re.compile(r"_((?:__|\\[\s\S]|[^\\_])+?)_(?![A-Za-z0-9_])")),
    ("strike", re.compile(r"~~([\s\S]+?)~~")),
    ("newline", re.compile(r"\n")),
]
_TEXT = re.compile(r"[\s\S]+?(?=[\\`|<@\[*_~\n]|https?://|$)")
_MESSAGE_LINK = re.compile(r"https?://(?:\w+\.)?discord(?:app)?\.com/channels/(\d+|@me)/(\d+)(?:/(\d+))?/?$")


def inline(text: str, ctx: Context) -> str:
    """Inline markdown to HTML."""
    out: list[str] = []
    position = 0
    previous = ""
    while position < len(text):
        for name, pattern in _INLINE:
            match = pattern.match(text, position)
            if match is None:
                continue
            if name == "em_underscore" and previous[-1:].isalnum():
                continue  # snake_case_words stay as they are: _ emphasises only at a word's edge
            out.append(_RULES[name](match, ctx))
            previous = match[0]
            position = match.end()
            break
        else:
            match = _TEXT.match(text, position)
            chunk = match[0] if match else text[position]
            out.append(plain(chunk, ctx))
            previous = chunk
            position += len(chunk)
    return "".join(out)


def _code(match: re.Match[str], ctx: Context) -> str:
    body = match[2]
    if len(match[1]) > 1 and body.startswith(" ") and body.endswith(" "):
        body = body[1:-1]
    return f'<code class="inline">{html.escape(body)}</code>'


def _user(match: re.Match[str], ctx: Context) -> str:
    name = ctx.users.get(match[1])
    own = " own" if ctx.viewer == match[1] else ""
    shown = f"@{name}" if name is not None else "@unknown-user"
    return f'<span class="mention user{own}" data-user-id="{match[1]}">{html.escape(shown)}</span>'


def _channel(match: re.Match[str], ctx: Context) -> str:
    name = ctx.channels.get(match[1])
    shown = name if name is not None else "unknown"
    return f'<span class="mention channel" data-channel-id="{match[1]}">{_HASH}{html.escape(shown)}</span>'


def _link(url: str, label_html: str, ctx: Context) -> str:
    # Discord draws a link to a message or channel it knows as a mention: "# wizard › 💬".
    found = _MESSAGE_LINK.match(url)
    if found is not None and found[2] in ctx.channels and ctx.message_links_as_mentions:
        bubble = f' <span class="chevron">›</span> {_BUBBLE}' if found[3] else ""
        name = html.escape(ctx.channels[found[2]])
        return f'<span class="mention channel link" data-href="{_attr(url)}">{_HASH}{name}{bubble}</span>'
    return f'<a class="link" href="{_attr(url)}" title="{_attr(url)}">{label_html}</a>'


def _masked(match: re.Match[str], ctx: Context) -> str:
    return f'<a class="link" href="{_attr(match[2])}" title="{_attr(match[3] or match[2])}">{inline(match[1], ctx)}</a>'


_RULES: dict[str, Callable[[re.Match[str], Context], str]] = {
    "escape": lambda m, ctx: html.escape(m[1]),
    "code": _code,
    "spoiler": lambda m, ctx: f'<span class="spoiler">{inline(m[1], ctx)}</span>',
    "custom_emoji": lambda m, ctx: custom_emoji(m[2], m[3], bool(m[1]), ctx),
    "timestamp": lambda m, ctx: (
        f'<span class="timestamp" data-unix="{m[1]}">{html.escape(timestamp(int(m[1]), m[2] or "f", ctx.now))}</span>'
    ),
    "user": _user,
    "role": lambda m, ctx: f'<span class="mention role">@{html.escape(ctx.roles.get(m[1], "unknown-role"))}</span>',
    "channel": _channel,
    "command": lambda m, ctx: f'<span class="mention command">/{html.escape(m[1])}</span>',
    "everyone": lambda m, ctx: f'<span class="mention everyone">@{m[1]}</span>',
    "masked_link": _masked,
    "autolink": lambda m, ctx: _link(m[1], html.escape(m[1]), ctx),
    "url": lambda m, ctx: _link(m[0], html.escape(m[0]), ctx),
    "strong": lambda m, ctx: f"<strong>{inline(m[1], ctx)}</strong>",
    "underline": lambda m, ctx: f"<u>{inline(m[1], ctx)}</u>",
    "em_star": lambda m, ctx: f"<em>{inline(m[1], ctx)}</em>",
    "em_underscore": lambda m, ctx: f"<em>{inline(m[1], ctx)}</em>",
    "strike": lambda m, ctx: f"<s>{inline(m[1], ctx)}</s>",
    "newline": lambda m, ctx: "<br>",
}

_HASH = '<span class="hash">#</span>'
_BUBBLE = (
    '<svg class="bubble" viewBox="0 0 24 24" width="14" height="14" aria-label="message">'
    '<path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 '
    '2-2z"/></svg>'
)


# -- timestamps -------------------------------------------------------------------------------------
def timestamp(unix: int, style: str, now: datetime.datetime) -> str:
    """How Discord's client (English, here in UTC) shows ``<t:unix:style>``."""
    moment = datetime.datetime.fromtimestamp(unix, datetime.UTC)
    clock = f"{moment.hour % 12 or 12}:{moment:%M} {'AM' if moment.hour < 12 else 'PM'}"
    day = f"{moment:%B} {moment.day}, {moment.year}"
    if style == "t":
        return clock
    if style == "T":
        return f"{moment.hour % 12 or 12}:{moment:%M:%S} {'AM' if moment.hour < 12 else 'PM'}"
    if style == "d":
        return f"{moment:%m/%d/%Y}"
    if style == "D":
        return day
    if style == "F":
        return f"{moment:%A}, {day} {clock}"
    if style == "R":
        return relative(unix - now.timestamp())
    return f"{day} {clock}"


def relative(seconds: float) -> str:
    """Discord's relative time: "in 2 minutes", "5 hours ago"."""
    size = abs(seconds)
    unit, count = "year", 1
    for limit, name, length in (
        (45, "second", 1),
        (45 * 60, "minute", 60),
        (22 * 3600, "hour", 3600),
        (26 * 86400, "day", 86400),
        (320 * 86400, "month", 30 * 86400),
        (float("inf"), "year", 365 * 86400),
    ):
        if size < limit:
            unit, count = name, max(1, int(size / length + 0.5))  # halves round up, as Discord's do
            break
    amount = f"{count} {unit}{'s' if count != 1 else ''}"
    if count == 1:
        amount = f"{'an' if unit == 'hour' else 'a'} {unit}"
    return f"in {amount}" if seconds >= 0 else f"{amount} ago"


# -- blocks -----------------------------------------------------------------------------------------
_FENCE = re.compile(r"```(?:([\w+#.-]+)\n)?\n?([\s\S]*?)```")
_HEADING = re.compile(r"(#{1,3}) +(\S.*)")
_SUBTEXT = re.compile(r"-# +(\S.*)")
_ITEM = re.compile(r"( *)([-*]|\d{1,9}\.) +(\S.*)")


def render(text: str, ctx: Context, *, blocks: bool = True, jumbo: bool = False) -> str:
    """Markdown to HTML. `blocks`: headings, subtext, lists, quotes and code blocks too (message
    text, embed descriptions and field values, text displays), else inline rules only (embed titles
    and field names). `jumbo`: large emoji when the text is nothing but emoji (message content)."""
    text = text.strip("\n")  # Discord trims a message's text
    if jumbo:
        count = _twemoji.only_emoji(_CUSTOM_EMOJI.sub("\U0001f600", text))  # a custom one counts as one
        if count and count <= JUMBO_LIMIT:
            return f'<span class="jumbo">{_jumbo(text, ctx)}</span>'
    if not blocks:
        return inline(text, ctx)
    out: list[str] = []
    position = 0
    for fence in _FENCE.finditer(text):
        out.append(_blocks(text[position : fence.start()], ctx))
        language = f' data-language="{_attr(fence[1])}"' if fence[1] else ""
        out.append(f'<pre class="codeblock"{language}><code>{html.escape(fence[2].rstrip(chr(10)))}</code></pre>')
        position = fence.end()
        if text.startswith("\n", position):
            position += 1  # the line break after a code block is its own
    out.append(_blocks(text[position:], ctx))
    return "".join(out)


_CUSTOM_EMOJI = re.compile(r"<a?:\w{2,32}:\d{15,21}>")


def _jumbo(text: str, ctx: Context) -> str:
    out = []
    position = 0
    for found in _CUSTOM_EMOJI.finditer(text):
        out.append(_jumbo_unicode(text[position : found.start()], ctx))
        name, emoji_id = found[0].strip("<>").split(":")[1:3]
        out.append(custom_emoji(name, emoji_id, found[0].startswith("<a:"), ctx, css="emoji jumboable"))
        position = found.end()
    out.append(_jumbo_unicode(text[position:], ctx))
    return "".join(out)


def _jumbo_unicode(text: str, ctx: Context) -> str:
    return "".join(
        unicode_emoji(run, ctx, css="emoji jumboable") if is_emoji else html.escape(run)
        for run, is_emoji in _twemoji.split(text)
    )


def _blocks(text: str, ctx: Context, *, quoted: bool = False) -> str:
    if not text:
        return ""
    lines = text.split("\n")
    out: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            out.append(f'<span class="paragraph">{inline(chr(10).join(paragraph), ctx)}</span>')
            paragraph.clear()

    index = 0
    while index < len(lines):
        line = lines[index]
        if not quoted and line.startswith(">>> "):
            flush()
            rest = "\n".join([line[4:], *lines[index + 1 :]])
            out.append(f'<div class="blockquote">{_blocks(rest, ctx, quoted=True)}</div>')
            return "".join(out)
        if not quoted and (line.startswith("> ") or line == ">"):
            flush()
            quoted_lines = []
            while index < len(lines) and (lines[index].startswith("> ") or lines[index] == ">"):
                quoted_lines.append(lines[index][2:])
                index += 1
            out.append(f'<div class="blockquote">{_blocks(chr(10).join(quoted_lines), ctx, quoted=True)}</div>')
            continue
        heading = _HEADING.fullmatch(line)
        if heading is not None:
            flush()
            level = len(heading[1])
            out.append(f"<h{level}>{inline(heading[2], ctx)}</h{level}>")
            index += 1
            continue
        subtext = _SUBTEXT.fullmatch(line)
        if subtext is not None:
            flush()
            out.append(f'<small class="subtext">{inline(subtext[1], ctx)}</small>')
            index += 1
            continue
        if _ITEM.fullmatch(line):
            flush()
            items = []
            while index < len(lines) and _ITEM.fullmatch(lines[index]):
                items.append(_ITEM.fullmatch(lines[index]))
                index += 1
            out.extend(_lists([m for m in items if m is not None], ctx))
            continue
        paragraph.append(line)
        index += 1
    flush()
    return "".join(out)


def _lists(items: list[re.Match[str]], ctx: Context) -> list[str]:
    """A run of list lines as lists: a new list where a top-level item changes between - and 1."""
    base = len(items[0][1])
    runs: list[list[re.Match[str]]] = []
    for item in items:
        top = len(item[1]) <= base
        if top and runs and runs[-1][0][2][0].isdigit() != item[2][0].isdigit():
            runs.append([item])
        elif runs:
            runs[-1].append(item)
        else:
            runs.append([item])
    return [_list(run, ctx) for run in runs]


def _list(items: list[re.Match[str]], ctx: Context) -> str:
    """Items (indent, marker, text) as nested lists: deeper indentation nests under the item before."""
    ordered = items[0][2][0].isdigit()
    tag = "ol" if ordered else "ul"
    start = f' start="{int(items[0][2][:-1])}"' if ordered and items[0][2][:-1] != "1" else ""
    base = len(items[0][1])
    out = [f"<{tag}{start}>"]
    index = 0
    while index < len(items):
        item = items[index]
        children = []
        index += 1
        while index < len(items) and len(items[index][1]) > base:
            children.append(items[index])
            index += 1
        nested = _list(children, ctx) if children else ""
        out.append(f"<li>{inline(item[3], ctx)}{nested}</li>")
    out.append(f"</{tag}>")
    return "".join(out)


def _attr(value: str) -> str:
    return html.escape(value, quote=True)
