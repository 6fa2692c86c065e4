"""Discord's look, as CSS: the dark and light themes' colours, the sizes, the phone's frame.

Sources and assumptions (docs/screens.md says the same):
- Colours are the client's CSS variables of Discord's 2023 palette, which the dark theme still
  uses ("Dark"; the 2025 refresh calls it "Ash" and adds darker ones): chat #313338, embeds and
  containers #2B2D31, text #DBDEE1, muted #949BA4, headers #F2F3F5, links #00A8FC; light: chat
  #FFFFFF, embeds #F2F3F5, text #313338, muted #5C5E66, headers #060607, links #006CE7. Buttons:
  primary #5865F2, secondary #4E5058 (light #6D6F78), success #248046, danger #DA373C.
- Sizes: message text 16 px (line 22 px), embed text 14 px (line 18 px), embed title 16 px,
  footers 12 px, -# subtext 13 px, headings 24/20/16 px; avatar 40 px in a 72 px gutter; buttons
  32 px tall with 8 px corners; embeds at most 516 px wide and images at most 550 x 350 px on a
  desktop, the whole width of the message on a phone.
- The font is Noto Sans (Discord's gg sans is not free to use), Noto Sans CJK for Korean, Japanese
  and Chinese, Noto Sans Mono / DejaVu Sans Mono for code.
- The phone is 390 x 844 CSS px (an iPhone 12 to 15). Discord's own chrome takes 103 px at the
  top (status bar 47, channel header 56) and 90 px at the bottom (message box 56, home bar 34),
  leaving 651 px of messages: one "phone screen".
"""

from __future__ import annotations

from pathlib import Path

PHONE_WIDTH = 390
PHONE_HEIGHT = 844
PHONE_TOP = 103
PHONE_BOTTOM = 90
PHONE_CHAT = PHONE_HEIGHT - PHONE_TOP - PHONE_BOTTOM  # 651 px of messages on one phone screen
DESKTOP_WIDTH = 1000
#: Below this width the page lays out as Discord's phone app does.
PHONE_BREAK = 600

THEMES = ("dark", "light")

#: The stylesheet of the pages (discord.css beside this file).
CSS = (Path(__file__).parent / "discord.css").read_text(encoding="utf-8")
