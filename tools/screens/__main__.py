"""``python -m tools.screens``: play a game against the stand-in, draw what each player sees as Discord
does, and take screenshots at phone and desktop widths in both themes. See docs/screens.md.

    python -m tools.screens setup            # Twemoji into ~/.cache/wizard-screens; checks Chromium, fonts
    python -m tools.screens                  # capture + draw + shoot, into /tmp/screens
    python -m tools.screens --rounds 3       # a shorter game (the default plays them all)
    python -m tools.screens draw --out DIR   # draw and shoot again from DIR's snapshots
    python -m tools.screens docs             # the chosen PNGs, optimised, into docs/screens/
    python -m tools.screens sample           # a sample of everything the renderer draws
"""

from __future__ import annotations

import argparse
import asyncio
import html
import importlib.util
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from . import _twemoji, capture, render, sample, theme
from .scenarios import SCENARIOS

DEFAULT_OUT = Path("/tmp/screens")
APT_PACKAGES = ("chromium", "fonts-noto-core", "fonts-noto-cjk")
# The screenshots docs/screens/ keeps (the README shows some of them): snapshot name, theme, kind.
DOCS_PICKS = (
    ("lobby", "dark", "phone-screen"),
    ("table-mid-trick", "dark", "phone-screen"),
    ("hand-your-move", "dark", "phone-screen"),
    ("my-hand", "dark", "phone-screen"),
    ("refusal-out-of-turn", "dark", "phone-screen"),
    ("final-standings", "dark", "phone-screen"),
    ("table-mid-trick", "light", "phone-screen"),
    ("hand-your-move-20-cards", "light", "phone-screen"),
    ("review-summary", "dark", "phone-screen"),  # from --scenario review
)
DOCS_FOLDER = Path(__file__).resolve().parents[2] / "docs" / "screens"
KINDS = ("desktop", "phone", "phone-screen")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.screens", description=__doc__.split("\n\n")[0])
    commands = ("all", "setup", "capture", "draw", "docs", "sample")
    parser.add_argument("command", nargs="?", default="all", choices=commands)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default /tmp/screens)")
    parser.add_argument(
        "--also", type=Path, action="append", default=[], help="docs: another output folder to pick from (repeatable)"
    )
    parser.add_argument("--scenario", default="tour", choices=sorted(SCENARIOS))
    parser.add_argument("--rounds", type=int, default=None, help="rounds to play (default: the whole game)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--locale", default="en-US", help="the players' and the server's language, e.g. ko")
    parser.add_argument("--themes", default="dark,light")
    parser.add_argument("--kinds", default=",".join(KINDS), help="desktop, phone (whole page), phone-screen")
    parser.add_argument("--scale", type=float, default=1.0, help="device pixels per CSS px in the PNGs")
    parser.add_argument(
        "--phone-width",
        type=int,
        default=theme.PHONE_WIDTH,
        help=f"CSS px of the whole-page phone shots (default {theme.PHONE_WIDTH}; 360 is a narrow Android phone)",
    )
    parser.add_argument("--no-shoot", action="store_true", help="draw the pages, take no screenshots")
    parser.add_argument("--apt", action="store_true", help="setup: also apt-get install what is missing")
    parser.add_argument(
        "--raw-links", action="store_true", help="draw links to messages as URLs, not as '#channel › 💬' mentions"
    )
    parser.add_argument(
        "--emojis",
        type=Path,
        default=None,
        help="a folder of custom emoji images named <id>.png (or <name>-<id>.png), for emojis the stand-in lacks",
    )
    args = parser.parse_args(argv)

    if args.command == "setup":
        return setup(apt=args.apt)
    if args.command == "docs":
        return docs([args.out, *args.also])
    themes = [t for t in args.themes.split(",") if t]
    kinds = [k for k in args.kinds.split(",") if k]
    if args.command == "sample":
        sample.write(args.out / "sample" / "snapshots")
        return draw(
            args.out / "sample",
            themes=themes,
            kinds=kinds,
            shoot=not args.no_shoot,
            scale=args.scale,
            emojis=args.emojis,
            raw_links=args.raw_links,
            phone_width=args.phone_width,
        )
    if args.command in ("all", "capture"):
        started = time.monotonic()
        folder = args.out / "snapshots"
        if folder.exists():
            shutil.rmtree(folder)
        print(f"capturing scenario {args.scenario!r} into {folder}", flush=True)
        asyncio.run(
            capture.run(
                SCENARIOS[args.scenario],
                folder,
                players=args.players,
                seed=args.seed,
                rounds=args.rounds,
                locale=args.locale,
            )
        )
        print(f"captured in {time.monotonic() - started:.1f} s", flush=True)
        if args.command == "capture":
            return 0
    return draw(
        args.out,
        themes=themes,
        kinds=kinds,
        shoot=not args.no_shoot,
        scale=args.scale,
        emojis=args.emojis,
        raw_links=args.raw_links,
        phone_width=args.phone_width,
    )


# -- drawing and shooting ---------------------------------------------------------------------------
def draw(
    out: Path,
    *,
    themes: list[str],
    kinds: list[str],
    shoot: bool,
    scale: float,
    emojis: Path | None = None,
    raw_links: bool = False,
    phone_width: int = theme.PHONE_WIDTH,
) -> int:
    snapshots = capture.snapshot_files(out / "snapshots")
    if not snapshots:
        print(f"no snapshots in {out / 'snapshots'}: run the capture first", file=sys.stderr)
        return 1
    twemoji = _twemoji.Twemoji.installed()
    if not twemoji.available:
        print("Twemoji is not installed (python -m tools.screens setup): emoji stay text", file=sys.stderr)
    _copy_fonts(out / "fonts")
    images = custom_emojis(emojis) if emojis is not None else {}
    pages = []
    for path in snapshots:
        snapshot = render.load(path)
        target = out / "html" / f"{path.stem}.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render.page(snapshot, path.parent, twemoji, images, raw_links=raw_links), encoding="utf-8")
        pages.append((path, snapshot, target))
    print(f"drew {len(pages)} pages into {out / 'html'}", flush=True)
    if twemoji.missing:
        print(f"emoji without a Twemoji image (drawn as text): {sorted(twemoji.missing)}", file=sys.stderr)
    results: list[dict[str, Any]] = []
    if shoot:
        from .shoot import Browser  # drawing alone needs no browser

        started = time.monotonic()
        with Browser() as browser:
            for path, snapshot, page in pages:
                results.append(_shoot_page(browser, out, path, snapshot, page, themes, kinds, scale, phone_width))
        print(f"took {sum(len(r['shots']) for r in results)} screenshots in {time.monotonic() - started:.1f} s")
    _report(out, pages, results)
    return 0


def _shoot_page(
    browser: Any,
    out: Path,
    path: Path,
    snapshot: dict[str, Any],
    page: Path,
    themes: list[str],
    kinds: list[str],
    scale: float,
    phone_width: int = theme.PHONE_WIDTH,
) -> dict[str, Any]:
    entry: dict[str, Any] = {"snapshot": path.stem, "name": snapshot["name"], "focus": snapshot["focus"], "shots": []}
    for theme_name in themes:
        for kind in kinds:
            # A phone's screen is always the 390 x 844 frame; a whole-page phone shot may be narrower.
            width = {"desktop": theme.DESKTOP_WIDTH, "phone": phone_width}.get(kind, theme.PHONE_WIDTH)
            target = out / "png" / f"{path.stem}.{theme_name}.{kind}.png"
            screen = kind == "phone-screen"
            shot = browser.shoot(page, target, width=width, theme_name=theme_name, screen=screen, scale=scale)
            entry["shots"].append(
                {
                    "theme": theme_name,
                    "kind": kind,
                    "file": target.relative_to(out).as_posix(),
                    "width": shot.width,
                    "height": shot.height,
                    "bytes": target.stat().st_size,
                    "measured": shot.measured,
                }
            )
    return entry


def phone_screens(height: float) -> float:
    """How many phone screens a height of messages fills (see `theme.PHONE_CHAT`)."""
    return round(height / theme.PHONE_CHAT, 2)


def _report(out: Path, pages: list[tuple[Path, dict[str, Any], Path]], results: list[dict[str, Any]]) -> None:
    """report.json (every measure), report.md (a table to read) and index.html (to browse)."""
    (out / "report.json").write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
    lines = [
        "# Screens",
        "",
        f"Phone: {theme.PHONE_WIDTH} x {theme.PHONE_HEIGHT} CSS px, of which {theme.PHONE_CHAT} px show messages "
        f"(one phone screen); desktop: {theme.DESKTOP_WIDTH} px.",
        "",
        "| snapshot | view | phone height (px) | phone screens | desktop height (px) | phone screen shows |",
        "| --- | --- | ---: | ---: | ---: | --- |",
    ]
    for result in results:
        shots = {(s["theme"], s["kind"]): s for s in result["shots"]}
        phone = shots.get(("dark", "phone")) or next((s for s in result["shots"] if s["kind"] == "phone"), None)
        desktop = shots.get(("dark", "desktop")) or next((s for s in result["shots"] if s["kind"] == "desktop"), None)
        screen = shots.get(("dark", "phone-screen")) or next(
            (s for s in result["shots"] if s["kind"] == "phone-screen"), None
        )
        focus = result["focus"]
        phone_height = sum(m["height"] for m in phone["measured"]["messages"]) if phone else None
        shows = ""
        if screen is not None:
            visible = {m["id"]: m["whole"] for m in screen["measured"]["screen"]}
            states = [
                "whole" if visible.get(i) else ("cut at the top" if i in visible else "off screen")
                for i in focus["messages"]
            ]
            shows = "focus " + ", ".join(sorted(set(states))) if states else ""
        screens = phone_screens(phone_height) if phone_height else ""
        lines.append(
            f"| {result['snapshot']} | {focus['place']} of {focus['user']} | {phone_height or ''} | {screens} | "
            f"{desktop['height'] if desktop else ''} | {shows} |"
        )
    (out / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if results:
        print("\n".join(lines[4:]))
    cards = []
    for path, _, page in pages:
        links = " ".join(
            f'<a href="html/{page.name}#theme={t}">{t}</a> '
            f'<a href="html/{page.name}#theme={t}&frame=screen">{t} phone screen</a>'
            for t in theme.THEMES
        )
        pngs = " ".join(
            f'<a href="png/{p.name}"><img src="png/{p.name}" loading="lazy"></a>'
            for p in sorted((out / "png").glob(f"{path.stem}.*.phone-screen.png"))
        )
        cards.append(f"<section><h2>{html.escape(path.stem)}</h2><p>{links}</p>{pngs}</section>")
    (out / "index.html").write_text(
        "<!doctype html><meta charset=utf-8><title>Screens</title><style>body{font-family:sans-serif;margin:24px}"
        "img{width:195px;margin:4px;border:1px solid #ccc;vertical-align:top}</style><h1>Screens</h1>" + "".join(cards),
        encoding="utf-8",
    )
    print(f"report: {out / 'report.md'}; browse: {out / 'index.html'}")


def custom_emojis(folder: Path) -> dict[str, tuple[str, bytes]]:
    """Custom emoji images from a folder, by the id that ends each file's name ("spade-123….png")."""
    mimes = {
        ".png": "image/png",
        ".gif": "image/gif",
        ".webp": "image/webp",
        ".jpg": "image/jpeg",
        ".svg": "image/svg+xml",
    }
    found = {}
    for path in sorted(folder.iterdir()):
        emoji_id = path.stem.rsplit("-", 1)[-1]
        if emoji_id.isdigit() and path.suffix.lower() in mimes:
            found[emoji_id] = (mimes[path.suffix.lower()], path.read_bytes())
    return found


def _copy_fonts(folder: Path) -> None:
    """Noto Sans with every weight (a variable font, from the chart's font package) beside the pages.

    Debian's fonts-noto-core has only its regular and bold: Discord's medium (500) and semibold (600)
    names and buttons would come out regular and bold.
    """
    spec = importlib.util.find_spec("manimgx_fonts")
    if spec is None or spec.origin is None:
        return
    source = Path(spec.origin).parent
    folder.mkdir(parents=True, exist_ok=True)
    names = {"NotoSans[wght].ttf": "NotoSans-wght.ttf", "NotoSans-Italic[wght].ttf": "NotoSans-Italic-wght.ttf"}
    for name, target in names.items():
        if (source / name).is_file() and not (folder / target).exists():
            shutil.copyfile(source / name, folder / target)


# -- setup ------------------------------------------------------------------------------------------
def setup(*, apt: bool) -> int:
    """Install Twemoji's SVGs into the cache folder; check (or, with --apt, install) Chromium and fonts."""
    missing = []
    from .shoot import find_chromium

    if find_chromium() is None:
        missing.append("chromium")
    fonts = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True, check=False).stdout
    if "Noto Sans" not in fonts:
        missing.append("fonts-noto-core")
    if "Noto Sans CJK" not in fonts:
        missing.append("fonts-noto-cjk")
    if missing and apt:
        subprocess.run(["apt-get", "install", "-y", *missing], check=True)
        missing = []
    if missing:
        print(f"missing Debian packages: sudo apt-get install -y {' '.join(missing)}")
    if shutil.which("npm") is None:
        print("npm is missing (apt-get install -y npm): it installs the Twemoji artwork")
        return 1
    _twemoji.CACHE.mkdir(parents=True, exist_ok=True)
    npm = ["npm", "install", "--prefix", str(_twemoji.CACHE), "--no-save", "--no-audit", "--no-fund"]
    subprocess.run([*npm, _twemoji.NPM_PACKAGE], check=True)
    count = len(list(_twemoji.SVG_FOLDER.glob("*.svg")))
    print(f"Twemoji: {count} SVGs in {_twemoji.SVG_FOLDER}")
    return 0 if not missing else 1


# -- docs -------------------------------------------------------------------------------------------
def docs(outs: list[Path]) -> int:
    """Copy the chosen phone screenshots into docs/screens/, optimised with pngquant and optipng.
    `outs`: the output folders to pick from (the review's screens come from a run of its own)."""
    DOCS_FOLDER.mkdir(parents=True, exist_ok=True)
    found = 0
    for name, theme_name, kind in DOCS_PICKS:
        matches = [
            match for out in outs for match in sorted((out / "png").glob(f"[0-9][0-9]-{name}.{theme_name}.{kind}.png"))
        ]
        if not matches:
            print(f"no {name} ({theme_name}, {kind}) in {', '.join(str(out / 'png') for out in outs)}", file=sys.stderr)
            continue
        target = DOCS_FOLDER / f"{name}.{theme_name}.png"
        shutil.copyfile(matches[0], target)
        if shutil.which("pngquant"):
            quantise = ["pngquant", "--force", "--skip-if-larger", "--output", str(target), "64", str(target)]
            subprocess.run(quantise, check=False)
        if shutil.which("optipng"):
            subprocess.run(["optipng", "-quiet", "-o5", str(target)], check=False)
        print(f"{target.relative_to(DOCS_FOLDER.parents[1])}: {target.stat().st_size / 1024:.0f} KB")
        found += 1
    return 0 if found == len(DOCS_PICKS) else 1


if __name__ == "__main__":
    raise SystemExit(main())
