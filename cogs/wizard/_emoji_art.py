"""The bot's own card emojis, drawn here: a coloured badge with a white (or dark) symbol, 128×128.

Discord draws ♠ and ♣ as its own near-black emoji, which vanish on its dark theme, so the bot
uploads these as application emojis (see `_faces`). Each badge reads on dark and light themes
alike: the symbol carries the contrast (white on a saturated badge, dark on the gold Wizard), and
the near-black spade badge has a light rim so that its shape shows on a dark background too.
Suits differ by shape as well as colour (colour-blind players), and the Wizard and the Jester
have shapes no suit has. Drawn four times larger and scaled down, for smooth edges.
"""

from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw

SIZE = 128  # Discord's size for an emoji image
_SCALE = 4
_S = SIZE * _SCALE

WHITE = (255, 255, 255, 255)
DARK = (30, 31, 34, 255)

# kind: (badge colour, rim colour or None, symbol colour)
COLOURS: dict[str, tuple[tuple[int, int, int, int], tuple[int, int, int, int] | None, tuple[int, int, int, int]]] = {
    "spades": (DARK, (181, 186, 193, 255), WHITE),
    "hearts": ((218, 55, 60, 255), None, WHITE),
    "diamonds": ((37, 99, 235, 255), None, WHITE),
    "clubs": ((22, 135, 72, 255), None, WHITE),
    "wizard": ((240, 178, 50, 255), None, DARK),
    "jester": ((124, 58, 237, 255), None, WHITE),
}
KINDS = tuple(COLOURS)


def _u(value: float) -> float:
    """A coordinate given on the 128-unit emoji, on the larger canvas."""
    return value * _SCALE


def _circle(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: tuple[int, int, int, int]) -> None:
    draw.ellipse((_u(x - r), _u(y - r), _u(x + r), _u(y + r)), fill=fill)


def _polygon(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], fill: tuple[int, int, int, int]) -> None:
    draw.polygon([(_u(x), _u(y)) for x, y in points], fill=fill)


def _heart(draw: ImageDraw.ImageDraw, fill: tuple[int, int, int, int], *, flip: bool = False) -> None:
    """Two lobes and a point; `flip` turns it upside down (the spade's blade)."""

    def y(value: float) -> float:
        return 128 - value if flip else value

    r = 18.5
    _circle(draw, 46, y(50), r, fill)
    _circle(draw, 82, y(50), r, fill)
    _polygon(draw, [(28.6, y(56)), (99.4, y(56)), (64, y(100))], fill)
    _polygon(draw, [(46, y(42)), (82, y(42)), (99.4, y(56)), (28.6, y(56))], fill)


def _stem(draw: ImageDraw.ImageDraw, fill: tuple[int, int, int, int]) -> None:
    _polygon(draw, [(64, 70), (76, 102), (52, 102)], fill)


def _spade(draw: ImageDraw.ImageDraw, fill: tuple[int, int, int, int]) -> None:
    _heart(draw, fill, flip=True)
    _stem(draw, fill)


def _club(draw: ImageDraw.ImageDraw, fill: tuple[int, int, int, int]) -> None:
    r = 16
    _circle(draw, 64, 42, r, fill)
    _circle(draw, 45, 70, r, fill)
    _circle(draw, 83, 70, r, fill)
    _polygon(draw, [(64, 52), (72, 70), (56, 70)], fill)
    _stem(draw, fill)


def _diamond(draw: ImageDraw.ImageDraw, fill: tuple[int, int, int, int]) -> None:
    _polygon(draw, [(64, 22), (98, 64), (64, 106), (30, 64)], fill)


def _star(draw: ImageDraw.ImageDraw, fill: tuple[int, int, int, int]) -> None:
    """The Wizard: a five-pointed star, which takes every trick it can."""
    points = []
    for k in range(10):
        radius = 44 if k % 2 == 0 else 18
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((64 + radius * math.cos(angle), 67 + radius * math.sin(angle)))
    _polygon(draw, points, fill)


def _bezier(p0: tuple[float, float], p1: tuple[float, float], p2: tuple[float, float]) -> list[tuple[float, float]]:
    """Points along the quadratic curve from p0 to p2 drawn towards p1."""
    steps = 16
    return [
        (
            (1 - k / steps) ** 2 * p0[0] + 2 * (1 - k / steps) * (k / steps) * p1[0] + (k / steps) ** 2 * p2[0],
            (1 - k / steps) ** 2 * p0[1] + 2 * (1 - k / steps) * (k / steps) * p1[1] + (k / steps) ** 2 * p2[1],
        )
        for k in range(steps + 1)
    ]


def _cap(draw: ImageDraw.ImageDraw, fill: tuple[int, int, int, int]) -> None:
    """The Jester: a fool's cap, two horns flopping out and down to a bell each, one standing up."""
    for side in (-1, 1):
        outer = _bezier((64 + side * 30, 90), (64 + side * 46, 20), (64 + side * 50, 66))
        inner = _bezier((64 + side * 50, 66), (64 + side * 30, 34), (64 + side * 8, 88))
        _polygon(draw, outer + inner, fill)
        _circle(draw, 64 + side * 50, 72, 9, fill)
    _polygon(draw, [*_bezier((46, 90), (52, 50), (64, 24)), *_bezier((64, 24), (76, 50), (82, 90))], fill)
    _circle(draw, 64, 20, 9, fill)
    draw.rounded_rectangle((_u(30), _u(88), _u(98), _u(104)), radius=_u(6), fill=fill)


_SYMBOLS = {
    "spades": _spade,
    "hearts": _heart,
    "diamonds": _diamond,
    "clubs": _club,
    "wizard": _star,
    "jester": _cap,
}


def draw(kind: str) -> bytes:
    """The PNG of one emoji: a suit ("spades", …), "wizard" or "jester"."""
    badge, rim, symbol = COLOURS[kind]
    image = Image.new("RGBA", (_S, _S), (0, 0, 0, 0))
    canvas = ImageDraw.Draw(image)
    if rim is not None:
        canvas.rounded_rectangle((0, 0, _S - 1, _S - 1), radius=_u(28), fill=rim)
        canvas.rounded_rectangle((_u(7), _u(7), _S - 1 - _u(7), _S - 1 - _u(7)), radius=_u(22), fill=badge)
    else:
        canvas.rounded_rectangle((0, 0, _S - 1, _S - 1), radius=_u(28), fill=badge)
    _SYMBOLS[kind](canvas, symbol)
    out = io.BytesIO()
    image.resize((SIZE, SIZE), Image.Resampling.LANCZOS).save(out, "PNG", optimize=True)
    return out.getvalue()
