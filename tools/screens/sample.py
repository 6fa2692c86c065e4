"""A sample of everything the renderer draws, built with discord.py's own objects, as one snapshot.

``python -m tools.screens sample`` draws and shoots it, to judge the renderer itself against
Discord's client; the tests (tests/tools/) check its drawing against these payloads.
"""

from __future__ import annotations

import datetime
import json
import struct
import zlib
from pathlib import Path
from typing import Any

import discord
from discord import ui

BOT_ID = "1300000000000000001"
ALICE_ID = "1300000000000000002"
BOB_ID = "1300000000000000003"
CHANNEL_ID = "1300000000000000010"
GUILD_ID = "1300000000000000020"
SPADE_EMOJI_ID = "1300000000000000100"  # an application emoji the "stand-in" holds
UNKNOWN_EMOJI_ID = "1300000000000000101"  # one it does not: drawn as :name:
TAKEN_AT = datetime.datetime(2026, 12, 1, 21, 0, tzinfo=datetime.UTC)

MARKDOWN = "\n".join(
    [
        "# Heading one",
        "## Heading two",
        "### Heading three",
        "**bold** *italic* _also italic_ __underline__ ~~strike~~ `inline code` ||spoiler|| snake_case_stays",
        "-# subtext, small and muted",
        "- a list item",
        "  - a nested item",
        "1. first",
        "2. second",
        "> a quoted line",
        f"<@{ALICE_ID}> <#{CHANNEL_ID}> <t:{int(TAKEN_AT.timestamp()) + 150}:R> [a masked link](https://example.org/)",
        f"Cards: ♠10 ♣8 ♥Q ♦A 🧙 🃏 custom <:spade:{SPADE_EMOJI_ID}> unknown <:gone:{UNKNOWN_EMOJI_ID}>",
        "```",
        "   Bid Took Points Total",
        "Alice  1    1    +30    30",
        "```",
    ]
)


def png(width: int, height: int, colour: tuple[int, int, int]) -> bytes:
    """A PNG of one colour (8-bit RGB, no filter), written with the standard library."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    row = b"\0" + bytes(colour) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


class _Buttons(ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        spade = discord.PartialEmoji(name="spade", id=int(SPADE_EMOJI_ID))
        self.add_item(ui.Button(label="Primary", style=discord.ButtonStyle.primary, custom_id="s:1", emoji="🎲"))
        self.add_item(ui.Button(label="Secondary", style=discord.ButtonStyle.secondary, custom_id="s:2"))
        self.add_item(ui.Button(label="Success", style=discord.ButtonStyle.success, custom_id="s:3"))
        self.add_item(ui.Button(label="Danger", style=discord.ButtonStyle.danger, custom_id="s:4"))
        self.add_item(ui.Button(label="Link", url="https://example.org/"))
        self.add_item(ui.Button(label="10", emoji="♠️", custom_id="s:5", row=1))
        self.add_item(ui.Button(label="8", emoji=spade, custom_id="s:6", row=1))
        self.add_item(ui.Button(label="Disabled", custom_id="s:7", disabled=True, row=1))
        self.add_item(ui.Button(emoji="♣", custom_id="s:8", row=1))
        select: ui.Select[_Buttons] = ui.Select(custom_id="s:9", placeholder="Choose a card", row=2)
        select.add_option(label="♥ Queen", value="HQ")
        self.add_item(select)


class _Layout(ui.LayoutView):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(
            ui.Container(
                ui.TextDisplay("## Round 3 of 20\nTrump: ♥ Hearts"),
                ui.Section(
                    ui.TextDisplay("**Alice** leads ♠10"), accessory=ui.Button(label="My hand", custom_id="v:1")
                ),
                ui.Separator(spacing=discord.SeparatorSpacing.large),
                ui.Section(
                    ui.TextDisplay("A section with a thumbnail"), accessory=ui.Thumbnail("attachment://card.png")
                ),
                ui.Separator(visible=False),
                ui.MediaGallery(discord.MediaGalleryItem("attachment://chart.png")),
                ui.File("attachment://record.json"),
                accent_colour=discord.Colour(0x3BA55C),
            )
        )
        self.add_item(ui.ActionRow(ui.Button(label="Rematch", style=discord.ButtonStyle.success, custom_id="v:2")))


def messages() -> list[dict[str, Any]]:
    """The sample's messages: (payload, files) as the stand-in would hold them."""
    author = {"id": BOT_ID, "username": "WizardBot", "global_name": None, "bot": True}
    stamp = TAKEN_AT.isoformat()

    def message(index: int, **fields: Any) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(1400000000000000000 + index),
            "channel_id": CHANNEL_ID,
            "author": author,
            "content": "",
            "timestamp": stamp,
            "edited_timestamp": None,
            "mentions": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "type": 0,
            "flags": 0,
        }
        data.update(fields)
        return data

    embed = discord.Embed(
        title="Wizard — round 2 of 3",
        url="https://example.org/",
        description="Dealer: Bob · Trump: ♥ Hearts\n▶ **Alice** — bid 1 · tricks 0",
        colour=discord.Colour(0x9B59B6),
        timestamp=TAKEN_AT,
    )
    embed.set_author(name="WizardBot tables")
    embed.add_field(name="Alice", value="bid 1", inline=True)
    embed.add_field(name="Bob", value="bid 0", inline=True)
    embed.add_field(name="Carol", value="bid 2", inline=True)
    embed.add_field(name="Current trick", value="Carol 🧙 Wizard · Alice ♠10", inline=False)
    embed.set_thumbnail(url="attachment://card.png")
    embed.set_image(url="attachment://chart.png")
    embed.set_footer(text="Alice is to play.")
    chart, card, record = png(1200, 750, (240, 240, 240)), png(64, 90, (88, 101, 242)), b'{"game": 1}'
    return [
        {
            "data": message(1, content=MARKDOWN, type=20),
            "files": {},
            "interaction": {"type": 2, "name": "wizard start", "user_id": ALICE_ID},
        },
        {
            "data": message(
                2,
                embeds=[embed.to_dict()],
                components=_Buttons().to_components(),
                attachments=[_attachment("chart.png", chart), _attachment("card.png", card)],
            ),
            "files": {"chart.png": chart, "card.png": card},
        },
        {
            "data": message(
                3,
                flags=1 << 15,
                components=_Layout().to_components(),  # type: ignore[no-untyped-call]  # discord.py leaves it untyped
                attachments=[
                    _attachment("chart.png", chart),
                    _attachment("card.png", card),
                    _attachment("record.json", record),
                ],
            ),
            "files": {"chart.png": chart, "card.png": card, "record.json": record},
        },
        {"data": message(4, content="It's not your turn.", flags=1 << 6), "files": {}, "ephemeral_to": ALICE_ID},
        {"data": message(5, content="🧙‍♂️ ♠"), "files": {}},
    ]


def _attachment(name: str, data: bytes) -> dict[str, Any]:
    return {"id": str(abs(hash(name)) % 10**18), "filename": name, "size": len(data), "url": f"https://cdn/{name}"}


def write(folder: Path) -> Path:
    """Write the sample as a snapshot (the capture's format) into `folder`; returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "files").mkdir(exist_ok=True)
    entries: dict[str, Any] = {}
    for item in messages():
        files = {}
        for name, data in item["files"].items():
            (folder / "files" / name).write_bytes(data)
            files[name] = f"files/{name}"
        interaction = item.get("interaction")
        entries[item["data"]["id"]] = {
            "data": item["data"],
            "ephemeral_to": item.get("ephemeral_to"),
            "edits": 0,
            "deleted": False,
            "interaction": interaction,
            "files": files,
        }
    (folder / "files" / "emoji-spade.png").write_bytes(png(32, 32, (230, 230, 230)))
    ids = list(entries)
    users = {
        BOT_ID: {"id": BOT_ID, "name": "WizardBot", "global_name": None, "bot": True},
        ALICE_ID: {"id": ALICE_ID, "name": "alice", "global_name": "Alice", "bot": False},
        BOB_ID: {"id": BOB_ID, "name": "bob", "global_name": "Bob", "bot": False},
    }
    document = {
        "format": 1,
        "name": "sample",
        "note": "every kind of thing the renderer draws",
        "taken_at": TAKEN_AT.isoformat(),
        "bot": users[BOT_ID],
        "guild": {"id": GUILD_ID, "name": "Wizard Guild"},
        "channel": {"id": CHANNEL_ID, "name": "wizard"},
        "users": users,
        "dm_channels": {},
        "focus": {"user": "alice", "place": "channel", "messages": ids},
        "views": {"alice": {"channel": ids, "dm": [], "ephemeral": [ids[3]]}},
        "messages": entries,
        "emojis": {SPADE_EMOJI_ID: {"name": "spade", "animated": False, "file": "files/emoji-spade.png"}},
    }
    path = folder / "01-sample.json"
    path.write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
    return path
