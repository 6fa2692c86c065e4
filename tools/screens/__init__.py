"""Screens anyone can look at: what each player sees, drawn as Discord's client draws it.

- `capture`: plays a game against the Discord stand-in (tests/e2e/standin/) with the real bot and
  saves, at moments a scenario names with ``await capture.snap(...)``, every message each person
  can see, as JSON beside the attachments' bytes;
- `render`: draws those payloads as HTML with Discord's dark and light themes (`theme`,
  discord.css), its markdown (`markdown`) and its Twemoji (`_twemoji`);
- `shoot`: takes screenshots of the pages with headless Chromium at phone and desktop widths.

``python -m tools.screens`` does all three; docs/screens.md tells how to install what it needs and
how to add a scenario.
"""

from .capture import Capture, Scenario, run, session
from .render import Message, draw_message, draw_messages, page

__all__ = ["Capture", "Message", "Scenario", "draw_message", "draw_messages", "page", "run", "session"]
