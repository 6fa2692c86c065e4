"""The screens tool draws each message with everything its payload says, in order, as Discord does."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import ui

from tests.tools.support import FIXTURE_SVGS, appears_in_order, expected_reading, parse, twemoji, walk
from tools.screens import render, sample
from tools.screens._twemoji import Twemoji, file_name, split
from tools.screens.markdown import Context, timestamp
from tools.screens.render import Message, draw_message, draw_messages

NOW = sample.TAKEN_AT
NAMES = {sample.ALICE_ID: "Alice", sample.BOB_ID: "Bob", sample.CHANNEL_ID: "wizard"}


def context(**overrides: Any) -> Context:
    values: dict[str, Any] = {
        "users": {sample.ALICE_ID: "Alice", sample.BOB_ID: "Bob"},
        "channels": {sample.CHANNEL_ID: "wizard"},
        "twemoji": twemoji(),
        "now": NOW,
        "viewer": sample.ALICE_ID,
        "custom_emojis": {sample.SPADE_EMOJI_ID: ("image/png", sample.png(8, 8, (0, 0, 0)))},
    }
    values.update(overrides)
    return Context(**values)


def sample_messages() -> list[Message]:
    return [Message(m["data"], m["files"], m.get("interaction")) for m in sample.messages()]


def payload(**fields: Any) -> dict[str, Any]:
    data = {
        "id": "1400000000000000099",
        "channel_id": sample.CHANNEL_ID,
        "author": {"id": sample.BOT_ID, "username": "WizardBot", "bot": True},
        "content": "",
        "timestamp": NOW.isoformat(),
        "embeds": [],
        "components": [],
        "attachments": [],
        "flags": 0,
    }
    data.update(fields)
    return data


# -- every field, in order ------------------------------------------------------------------------
@pytest.mark.parametrize("index", range(len(sample.messages())))
def test_every_text_of_a_message_is_drawn_in_order(index: int) -> None:
    message = sample_messages()[index]
    drawn = parse(draw_message(message, context()))
    missing = appears_in_order(drawn.reading(), expected_reading(message.data, NAMES))
    assert missing == [], f"not drawn in order: {missing}"


def test_each_embed_field_sits_in_its_embed_with_its_name_over_its_value() -> None:
    embed = discord.Embed(title="Scores")
    embed.add_field(name="Alice", value="40 points", inline=True)
    embed.add_field(name="Bob", value="−10 points", inline=True)
    embed.add_field(name="Last trick", value="won by **Bob**", inline=False)
    drawn = parse(draw_message(Message(payload(embeds=[embed.to_dict()])), context()))
    fields = drawn.find_all("embed-field")
    assert [(f.find_all("field-name")[0].reading(), f.find_all("field-value")[0].reading()) for f in fields] == [
        ("Alice", "40 points"),
        ("Bob", "−10 points"),
        ("Last trick", "won by Bob"),
    ]
    # two inline fields share a row (six of twelve columns each); the other has a row of its own
    assert [f.attrs["style"] for f in fields] == ["grid-column: 1 / 7", "grid-column: 7 / 13", "grid-column: 1 / 13"]


def test_the_embed_colour_is_its_left_bar() -> None:
    embed = discord.Embed(description="x", colour=discord.Colour(0x3BA55C))
    (article,) = parse(draw_message(Message(payload(embeds=[embed.to_dict()])), context())).find_all("embed")
    assert article.attrs["style"] == "border-left-color: #3ba55c"


def test_every_button_shows_its_label_emoji_style_and_disabled_state_in_order() -> None:
    message = sample_messages()[1]
    drawn = parse(draw_message(message, context()))
    buttons = [c for c in walk(message.data["components"]) if c.get("type") == 2]
    shown = drawn.find_all("btn")
    assert len(shown) == len(buttons)
    styles = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link"}
    for button, node in zip(buttons, shown, strict=True):
        assert styles[button["style"]] in node.classes()
        assert ("disabled" in node.classes()) == bool(button.get("disabled"))
        assert node.attrs["data-disabled"] == str(bool(button.get("disabled"))).lower()
        labels = node.find_all("label")
        assert [label.reading() for label in labels] == ([button["label"]] if button.get("label") else [])
        emoji = button.get("emoji")
        images = [n for n in node.walk() if "data-emoji" in n.attrs or "data-emoji-id" in n.attrs]
        if not emoji:
            assert images == []
        elif emoji.get("id"):
            assert [n.attrs["data-emoji-id"] for n in images] == [str(emoji["id"])]
        else:
            assert [n.attrs["data-emoji"] for n in images] == [emoji["name"]]


def test_a_select_shows_its_placeholder() -> None:
    drawn = parse(draw_message(sample_messages()[1], context()))
    (select,) = drawn.find_all("select")
    assert select.reading().strip() == "Choose a card"


def test_components_v2_draw_every_text_display_and_the_container_accent() -> None:
    message = sample_messages()[2]
    drawn = parse(draw_message(message, context()))
    texts = [str(c["content"]) for c in walk(message.data["components"]) if c.get("type") == 10]
    shown = [node.reading() for node in drawn.find_all("text-display")]
    assert len(shown) == len(texts)
    (container,) = drawn.find_all("container")
    assert "accent" in container.classes()
    assert container.attrs["style"] == "--accent: #3ba55c"
    (section,) = [s for s in drawn.find_all("section") if "with-button" in s.classes()]
    assert section.find_all("btn")[0].reading() == "My hand"
    assert [s.classes() - {"separator"} for s in drawn.find_all("separator")] == [{"large", "divider"}, {"small"}]
    (gallery,) = drawn.find_all("gallery")
    assert [n.attrs["data-filename"] for n in gallery.walk() if n.tag == "img"] == ["chart.png"]
    assert [n.attrs["data-filename"] for n in drawn.find_all("file")] == ["record.json"]
    # with the flag, the attachments show only where a component shows them
    assert drawn.find_all("attachment-image") == []


def test_a_v2_message_without_a_container_draws_its_parts_at_top_level() -> None:
    class Layout(ui.LayoutView):
        text: ui.TextDisplay[Layout] = ui.TextDisplay("**Round 2**: Alice leads")
        row: ui.ActionRow[Layout] = ui.ActionRow(ui.Button(label="Play ♠10", custom_id="x"))

    components = Layout().to_components()  # type: ignore[no-untyped-call]  # discord.py leaves it untyped
    message = Message(payload(flags=1 << 15, components=components, content=""))
    drawn = parse(draw_message(message, context()))
    assert appears_in_order(drawn.reading(), ["Round 2: Alice leads", "Play ♠10"]) == []
    assert drawn.find_all("container") == []


# -- emoji ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "name"), [("♠", "2660"), ("♣️", "2663"), ("♥", "2665"), ("♦", "2666")])
def test_a_suit_becomes_its_twemoji_image_with_or_without_a_variation_selector(text: str, name: str) -> None:
    drawn = parse(draw_message(Message(payload(content=f"{text}10")), context(twemoji=Twemoji(images=FIXTURE_SVGS))))
    (image,) = [n for n in drawn.walk() if n.tag == "img" and "emoji" in n.classes()]
    assert image.attrs["data-twemoji"] == name
    assert image.attrs["src"].startswith("data:image/svg+xml;base64,")


def test_the_installed_or_fixture_twemoji_draws_the_spade() -> None:
    drawn = parse(draw_message(Message(payload(content="♠10 ♣8")), context()))
    names = [n.attrs.get("data-twemoji") for n in drawn.walk() if n.tag == "img" and "emoji" in n.classes()]
    assert names == ["2660", "2663"]


def test_emoji_in_code_and_typographic_signs_stay_text() -> None:
    drawn = parse(draw_message(Message(payload(content="`♠10` © ™ ✓")), context()))
    assert [n for n in drawn.walk() if n.tag == "img" and "emoji" in n.classes()] == []
    assert "♠10" in drawn.reading()


def test_a_custom_emoji_is_an_image_of_its_id_and_an_unknown_one_its_name() -> None:
    content = f"<:spade:{sample.SPADE_EMOJI_ID}> and <a:gone:{sample.UNKNOWN_EMOJI_ID}>"
    drawn = parse(draw_message(Message(payload(content=content)), context()))
    (image,) = [n for n in drawn.walk() if n.tag == "img"]
    assert image.attrs["data-emoji-id"] == sample.SPADE_EMOJI_ID
    assert image.attrs["src"].startswith("data:image/png;base64,")
    assert ":gone:" in drawn.reading()


def test_a_message_of_nothing_but_emoji_shows_them_large() -> None:
    drawn = parse(draw_message(Message(payload(content="🧙 ♠")), context()))
    assert drawn.find_all("jumbo")
    drawn = parse(draw_message(Message(payload(content="🧙 wins")), context()))
    assert drawn.find_all("jumbo") == []


def test_twemoji_names_its_files_without_the_variation_selector_unless_joined() -> None:
    assert file_name("♠️") == "2660"
    assert file_name("🧙‍♂️") == "1f9d9-200d-2642-fe0f"
    assert list(split("♠10")) == [("♠", True), ("10", False)]


# -- markdown -------------------------------------------------------------------------------------
def test_markdown_blocks_and_inline_rules_become_their_elements() -> None:
    drawn = parse(draw_message(sample_messages()[0], context()))
    tags = [n.tag for n in drawn.walk()]
    for tag in ("h1", "h2", "h3", "strong", "em", "u", "s", "ul", "ol", "pre"):
        assert tag in tags, tag
    assert drawn.find_all("subtext")[0].reading() == "subtext, small and muted"
    assert drawn.find_all("blockquote")[0].reading() == "a quoted line"
    assert drawn.find_all("spoiler")[0].reading() == "spoiler"
    (link,) = [n for n in drawn.walk() if n.tag == "a" and "link" in n.classes()]
    assert (link.attrs["href"], link.reading()) == ("https://example.org/", "a masked link")
    mentions = {n.reading() for n in drawn.find_all("mention")}
    assert {"@Alice", "#wizard"} <= mentions
    assert drawn.find_all("own")  # the viewer's own mention stands out
    assert drawn.find_all("timestamp")[0].reading() == "in 3 minutes"
    assert "snake_case_stays" in drawn.reading()


@pytest.mark.parametrize(
    ("style", "shown"),
    [("t", "9:02 PM"), ("d", "12/01/2026"), ("D", "December 1, 2026"), ("R", "in 2 minutes")],
)
def test_timestamps_read_as_discord_writes_them(style: str, shown: str) -> None:
    assert timestamp(int(NOW.timestamp()) + 120, style, NOW) == shown


def test_a_link_to_a_message_of_a_known_channel_is_drawn_as_its_mention() -> None:
    url = f"https://discord.com/channels/{sample.GUILD_ID}/{sample.CHANNEL_ID}/1400000000000000001"
    drawn = parse(draw_message(Message(payload(content=f"The table: {url}")), context()))
    (mention,) = drawn.find_all("mention")
    assert mention.reading().strip() == "#wizard ›"


# -- messages in a channel ------------------------------------------------------------------------
def test_a_run_of_one_authors_messages_has_one_header_until_seven_minutes_pass() -> None:
    later = (NOW + datetime.timedelta(minutes=8)).isoformat()
    messages = [
        Message(payload(id="1", content="one")),
        Message(payload(id="2", content="two")),
        Message(payload(id="3", content="three", timestamp=later)),
    ]
    drawn = parse(draw_messages(messages, context()))
    assert [("group-start" in n.classes()) for n in drawn.find_all("msg")] == [True, False, True]
    assert len(drawn.find_all("app-tag")) == 2


def test_a_command_answer_says_who_used_which_command() -> None:
    drawn = parse(draw_message(sample_messages()[0], context()))
    (line,) = drawn.find_all("command-line")
    assert line.reading() == "Alice used /wizard start"


def test_an_ephemeral_answer_says_only_you_can_see_it() -> None:
    drawn = parse(draw_message(sample_messages()[3], context()))
    assert "Only you can see this" in drawn.find_all("ephemeral-note")[0].reading()
    assert parse(draw_message(sample_messages()[1], context())).find_all("ephemeral-note") == []


def test_an_image_attachment_shows_at_its_size_and_a_file_as_a_box() -> None:
    chart = sample.png(1200, 750, (255, 255, 255))
    data = payload(
        attachments=[
            {"id": "1", "filename": "totals.png", "size": len(chart)},
            {"id": "2", "filename": "game.json", "size": 2048},
        ]
    )
    drawn = parse(draw_message(Message(data, {"totals.png": chart, "game.json": b"{}"}), context()))
    (image,) = drawn.find_all("attachment-image")
    assert (image.attrs["width"], image.attrs["height"]) == ("1200", "750")
    (box,) = drawn.find_all("file")
    assert box.find_all("file-name")[0].reading() == "game.json"
    assert box.find_all("file-size")[0].reading() == "2.00 KB"


def test_a_page_holds_its_snapshot_alone_with_no_address_outside_it(tmp_path: Path) -> None:
    path = sample.write(tmp_path)
    document = render.page(render.load(path), path.parent, twemoji())
    tree = parse(document)
    (focused, with_context) = [n for n in tree.walk() if "messages" in n.classes()]
    assert len(focused.find_all("msg")) == len(sample.messages())
    assert all(n.attrs.get("data-focus") == "true" for n in focused.find_all("msg"))
    assert len(with_context.find_all("msg")) == len(sample.messages())
    sources = [n.attrs["src"] for n in tree.walk() if "src" in n.attrs]
    assert sources
    assert all(s.startswith("data:") for s in sources)
    assert "theme-dark" in document
    assert "--bg-primary: #313338" in document
    assert "--bg-primary: #FFFFFF" in document
