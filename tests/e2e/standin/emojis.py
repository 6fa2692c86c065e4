"""Application-owned emojis, as Discord keeps and refuses them (resources/emoji, "Application-Owned Emoji").

"An application can own up to 2000 emojis that can only be used by that app", managed with the
bot token: List (``{"items": [...]}``), Get, Create (``name`` and ``image`` as a data URI, "the
128x128 emoji image"), Modify (``name``) and Delete (204) under
``/applications/{application.id}/emojis``. What Discord refuses, as the stand-in answers it:

- another application's id: 403 50001 Missing Access (as for its commands);
- a name of fewer than 2 or more than 32 characters, or with characters other than letters,
  digits and underscores (the portal's and the API's rule for emoji names): 400 50035 on ``name``;
- a name the application already uses: 400 50035 ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``;
- an image that is not a data URI of one of the documented formats (JPEG, PNG, GIF, WebP, AVIF),
  or whose bytes are not that format: 400 50035 on ``image``;
- an image over 256 KiB: 400 ("will fail and return 400 Bad Request and an error message, but
  not a JSON status code": the stand-in answers code 0 with the message bots report seeing);
- a 2001st emoji: 400 30008 Maximum number of emojis reached;
- an unknown emoji id: 404 10014 Unknown Emoji.

Only the application may use its emojis, and the validator (`validation.py`) refuses a
component emoji whose id is neither the application's nor a server's (``known_emoji``).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Any

from .errors import DiscordError

MAX_EMOJIS = 2000
MAX_IMAGE_BYTES = 256 * 1024
NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
# The formats Discord takes for an emoji, by their data-URI type and the bytes each file starts with.
FORMATS = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
    "image/webp": (b"RIFF",),
    "image/avif": (b"\x00\x00\x00",),
}


@dataclass
class ApplicationEmoji:
    id: int
    name: str
    image: bytes
    mime: str
    user: dict[str, Any]

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": self.user,
            "require_colons": True,
            "managed": False,
            "animated": self.mime == "image/gif",
            "available": True,
        }


def _form_error(field: str, code: str, message: str) -> DiscordError:
    return DiscordError(400, 50035, "Invalid Form Body", {field: {"_errors": [{"code": code, "message": message}]}})


def check_name(name: object, taken: set[str]) -> str:
    if not isinstance(name, str) or not 2 <= len(name) <= 32:
        raise _form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.")
    if not NAME.fullmatch(name):
        raise _form_error("name", "EMOJI_NAME_INVALID", "Invalid emoji name.")
    if name in taken:
        raise _form_error("name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name is already taken.")
    return name


def decode_image(image: object) -> tuple[bytes, str]:
    """The bytes and type of an image given as a data URI (``data:image/png;base64,...``)."""
    match = re.fullmatch(r"data:(image/[a-z]+);base64,(.*)", image, re.S) if isinstance(image, str) else None
    if match is None or match[1] not in FORMATS:
        raise _form_error("image", "IMAGE_INVALID", "Invalid image data")
    try:
        data = base64.b64decode(match[2], validate=True)
    except (binascii.Error, ValueError):
        raise _form_error("image", "IMAGE_INVALID", "Invalid image data") from None
    if len(data) > MAX_IMAGE_BYTES:
        raise DiscordError(400, 0, "Asset exceeds maximum size: 262144")
    if not data.startswith(FORMATS[match[1]]):
        raise _form_error("image", "IMAGE_INVALID", "Invalid image data")
    return data, match[1]


class EmojiStore:
    """An application's emojis (the stand-in holds one application)."""

    def __init__(self) -> None:
        self.emojis: dict[int, ApplicationEmoji] = {}
        self.created = 0  # uploads accepted, for tests that count them

    def list(self) -> dict[str, Any]:
        return {"items": [emoji.payload() for emoji in self.emojis.values()]}

    def get(self, emoji_id: int) -> ApplicationEmoji:
        emoji = self.emojis.get(emoji_id)
        if emoji is None:
            raise DiscordError(404, 10014, "Unknown Emoji")
        return emoji

    def create(self, emoji_id: int, body: object, user: dict[str, Any]) -> ApplicationEmoji:
        fields = body if isinstance(body, dict) else {}
        name = check_name(fields.get("name"), {emoji.name for emoji in self.emojis.values()})
        image, mime = decode_image(fields.get("image"))
        if len(self.emojis) >= MAX_EMOJIS:
            raise DiscordError(400, 30008, "Maximum number of emojis reached (2000)")
        emoji = self.emojis[emoji_id] = ApplicationEmoji(emoji_id, name, image, mime, user)
        self.created += 1
        return emoji

    def rename(self, emoji_id: int, body: object) -> ApplicationEmoji:
        emoji = self.get(emoji_id)
        fields = body if isinstance(body, dict) else {}
        if "name" in fields:
            others = {other.name for other in self.emojis.values() if other.id != emoji_id}
            emoji.name = check_name(fields["name"], others)
        return emoji

    def delete(self, emoji_id: int) -> None:
        self.get(emoji_id)
        del self.emojis[emoji_id]

    def known(self, emoji_id: int) -> bool:
        return emoji_id in self.emojis
