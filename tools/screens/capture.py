"""Play a game against the Discord stand-in and save, at named moments, what each person sees.

A *scenario* is an async function taking a :class:`Capture`: it drives the game with the stand-in's
:class:`Driver` (or :meth:`Capture.play_until`, which clicks for whoever is to move) and calls
``await capture.snap("name", who=user, place="channel" | "dm")`` at each moment worth drawing. Each
snapshot is one JSON file (format in docs/screens.md): every message each person can see then, as
the stand-in holds it (author, timestamps, embeds, components, flags), and the attachments' bytes
written beside it.

The bot runs in this process, as in the end-to-end tests (tests/e2e/conftest.py): the real
discord.py client of the real bot, logged in to the stand-in, with a fixed seed.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import hashlib
import json
import random
import re
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from bot.client import WizardBot
from bot.manager import GameManager, Table
from bot.settings import Settings
from cogs.wizard import _ids
from tests.e2e._play import Recorder, action_buttons, latest_hand, table_message
from tests.e2e.conftest import World
from tests.e2e.standin import DiscordStandin, Driver, InteractionRecord, StoredMessage, User, run_bot

#: The format of a snapshot file; a change that a reader must know about bumps it.
FORMAT = 1

Scenario = Callable[["Capture"], Awaitable[None]]


@dataclass
class Capture:
    """A running game whose moments a scenario saves with :meth:`snap`."""

    world: World
    out: Path  # where the snapshot files go
    rounds: int | None  # the game's length as the scenario asks for it (None: the whole game)
    seed: int
    snapshots: list[Path] = field(default_factory=list)
    moves: int = 0  # the moves play_until made
    _started: float = field(default_factory=time.monotonic)
    _rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    # -- what a scenario uses -------------------------------------------------------------------
    @property
    def people(self) -> list[User]:
        return self.world.people

    @property
    def seats(self) -> list[User]:
        """The people at the table, in the order they joined (people[0] opened the game)."""
        return self.world.people

    @property
    def driver(self) -> Driver:
        return self.world.driver

    @property
    def standin(self) -> DiscordStandin:
        return self.world.standin

    @property
    def channel(self) -> Any:
        return self.world.channel

    def table(self) -> Table | None:
        """The bot's running game in the channel (None before the start and after the end)."""
        found = self.world.bot.manager.in_channel(self.world.channel.id)
        return found if isinstance(found, Table) else None

    def table_message(self) -> StoredMessage | None:
        """The live table: the newest channel message with an enabled "My hand" button."""
        return table_message(self.world)

    def hand(self, user: User) -> StoredMessage | None:
        """The user's DM hand of the running round (as the bot tracks it), else their newest DM hand."""
        table = self.table()
        where = table.hand_messages.get(user.id) if table is not None else None
        if where is not None and where[1] in self.standin.messages:
            return self.standin.messages[where[1]]
        return latest_hand(self.world, user)

    def seat_user(self, seat: int) -> User:
        table = self.table()
        assert table is not None, "no game is running"
        user_id = table.players[seat].user_id
        return next(u for u in self.people if u.id == user_id)

    def mover(self) -> User | None:
        """The person the game waits for now (the first of them, with hidden bids)."""
        table = self.table()
        if table is None or not table.game.waiting_for():
            return None
        return self.seat_user(table.game.waiting_for()[0])

    async def press(self, user: User, message: StoredMessage, what: str) -> InteractionRecord:
        """`user` clicks a button of the bot's by what it does, whatever the language: a lobby
        operation ("join", "start", "settings", ...) or "hand" (the table's My hand)."""
        for component in message.all_components():
            custom_id = str(component.get("custom_id", ""))
            try:
                parsed = _ids.parse(custom_id)
            except ValueError:
                continue  # not one of the bot's buttons
            if (isinstance(parsed, _ids.LobbyId) and parsed.op == what) or (
                isinstance(parsed, _ids.HandId) and what == "hand"
            ):
                return await self.driver.click(user, message, custom_id)
        raise AssertionError(f"message {message.id} has no enabled {what!r} button")

    async def final_message(self, timeout_seconds: float = 15.0) -> StoredMessage:
        """The game's final standings once the channel shows them: the newest public message with
        the end's buttons (Rematch, Game record), whatever their wording."""

        def ending(message: StoredMessage) -> bool:
            for component in message.all_components():
                try:
                    parsed = _ids.parse(str(component.get("custom_id", "")))
                except ValueError:
                    continue
                if isinstance(parsed, _ids.RematchId | _ids.RecordId):
                    return True
            return False

        def shown() -> StoredMessage | None:
            found = [m for m in self.driver.channel_view(self.channel) if ending(m)]
            return found[-1] if found else None

        return await self.standin.wait_for(shown, timeout_seconds, "the final standings")

    def move_buttons(self, message: StoredMessage) -> list[str]:
        """The custom_ids of the enabled move buttons (bid, card, trump) on a message."""
        return [str(button["custom_id"]) for button in action_buttons(message)]

    async def play_until(self, condition: Callable[[], object], max_moves: int = 2000) -> None:
        """Make moves for whoever is to move (random legal ones, seeded) until `condition()` holds."""
        for _ in range(max_moves):
            if condition():
                return
            if not await self.step():
                raise AssertionError("the game ended before the condition held")
        raise AssertionError(f"the condition did not hold after {max_moves} moves")

    async def play_to_end(self, max_moves: int = 2000) -> None:
        """Make moves until the game is over."""
        for _ in range(max_moves):
            if not await self.step():
                return
        raise AssertionError(f"the game did not end in {max_moves} moves")

    async def step(self) -> bool:
        """Click a legal move on the DM hand of a person the game waits for; False once it is over.

        Who is to move and what is legal come from the bot's game, the button from the DM the bot
        keeps for that player: nothing depends on the screens' wording or language.
        """

        def ready() -> tuple[User, StoredMessage, list[str]] | str | None:
            table = self.table()
            if table is None or table.game.is_over:
                return "over"
            for seat in table.game.waiting_for():
                if table.plays_itself(seat):
                    continue  # the computer moves for it
                user = next((u for u in self.people if u.id == table.players[seat].user_id), None)
                hand = self.hand(user) if user is not None else None
                if user is None or hand is None:
                    continue
                legal, _ = Recorder._split(table, seat, hand)  # the tests' one reading of a hand's buttons
                if legal:
                    return user, hand, legal
            return None

        found: tuple[User, StoredMessage, list[str]] | str = await self.standin.wait_for(ready, 10, "a person's move")
        if isinstance(found, str):
            return False
        user, hand, legal = found
        record = await self.driver.click(user, hand, self._rng.choice(sorted(legal)))
        await record.wait_acked(3)
        self.moves += 1
        return True

    async def settle(self, quiet: float = 0.4, limit: float = 15.0) -> None:
        """Wait until the bot has sent nothing for `quiet` seconds and every interaction is answered.

        A move edits several messages (the table, two DMs), one after the other and paced by the
        request budget: a snapshot taken at the first answer would catch the channel half updated.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while loop.time() < deadline:
            self.standin.raise_if_failed()
            calls = self.standin.rest_log
            last = calls[-1].at if calls else 0.0
            if time.monotonic() - last >= quiet and not self.standin.unacknowledged():
                return
            await asyncio.sleep(0.05)  # a tool, not a test: polling for quiet is what it waits for
        raise TimeoutError(f"the bot was still sending after {limit} s")

    async def snap(
        self,
        name: str,
        *,
        who: User,
        place: str = "channel",
        focus: Iterable[StoredMessage] | None = None,
        note: str = "",
    ) -> Path:
        """Save what everyone sees now, and which messages of whose view to draw.

        `place` is "channel" (the game's channel as `who` sees it, their ephemeral answers included)
        or "dm" (`who`'s DM with the bot). `focus` are the messages the drawing shows; by default the
        newest one there. The drawing of the phone's screen shows the conversation up to the last of them.
        """
        if place not in ("channel", "dm"):
            raise ValueError(f"place must be 'channel' or 'dm', not {place!r}")
        await self.settle()
        view = self._view(who, place)
        focused = ([view[-1].id] if view else []) if focus is None else [m.id for m in focus]
        missing = [i for i in focused if i not in {m.id for m in view}]
        if missing:
            raise ValueError(f"{name}: {who.name} cannot see messages {missing} in the {place}")
        path = self.out / f"{len(self.snapshots) + 1:02d}-{_slug(name)}.json"
        document = self._document(name, who, place, focused, note)
        path.write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
        self.snapshots.append(path)
        print(f"  snapshot {path.name}: {place} of {who.name}, {len(focused)} message(s) in focus", flush=True)
        return path

    # -- writing ----------------------------------------------------------------------------------
    def _view(self, user: User, place: str) -> list[StoredMessage]:
        if place == "channel":
            return self.driver.visible(user, self.channel)
        dm = self.standin.dm_channels.get(user.id)
        return [] if dm is None else self.standin.visible_to(user, dm)

    def _document(self, name: str, who: User, place: str, focus: list[int], note: str) -> dict[str, Any]:
        st = self.standin
        shown: dict[int, StoredMessage] = {}
        views: dict[str, dict[str, list[str]]] = {}
        for person in self.people:
            channel = self._view(person, "channel")
            dm = self._view(person, "dm")
            ephemeral = st.ephemeral_messages(person)
            for message in [*channel, *dm, *ephemeral]:
                shown[message.id] = message
            views[person.name] = {
                "channel": [str(m.id) for m in channel],
                "dm": [str(m.id) for m in dm],
                "ephemeral": [str(m.id) for m in ephemeral],
            }
        everyone = st.channel_messages(self.channel)
        for message in everyone:
            shown[message.id] = message
        users = {str(u.id): _user(u) for u in st.users.values()}
        return {
            "format": FORMAT,
            "name": name,
            "note": note,
            "taken_at": datetime.datetime.now(datetime.UTC).isoformat(),
            "seconds_into_game": round(time.monotonic() - self._started, 1),
            "seed": self.seed,
            "bot": _user(st.bot_user),
            "guild": {"id": str(self.world.guild.id), "name": self.world.guild.name},
            "channel": {"id": str(self.channel.id), "name": self.channel.name},
            "users": users,
            "dm_channels": {str(uid): str(cid) for uid, cid in st.dm_channels.items()},
            "focus": {"user": who.name, "place": place, "messages": [str(i) for i in focus]},
            "views": views | {"everyone": {"channel": [str(m.id) for m in everyone], "dm": [], "ephemeral": []}},
            "messages": {str(mid): self._message(message) for mid, message in sorted(shown.items())},
            "emojis": self._emojis(),
        }

    def _message(self, message: StoredMessage) -> dict[str, Any]:
        record = self.standin.interactions.get(message.interaction_id or 0)
        interaction = None
        if record is not None:
            interaction = {"type": record.type, "name": record.name, "user_id": str(record.user_id)}
        files = {name: self._file(name, data) for name, data in message.files.items()}
        return {
            "data": message.data,
            "ephemeral_to": str(message.ephemeral_to) if message.ephemeral_to is not None else None,
            "edits": message.edits,
            "deleted": message.deleted,
            "interaction": interaction,
            "files": files,
        }

    def _file(self, name: str, data: bytes) -> str:
        """Write an attachment once (named by its content) and return its path relative to `out`."""
        digest = hashlib.sha256(data).hexdigest()[:12]
        relative = Path("files") / f"{digest}-{_slug(name, keep_dots=True)}"
        target = self.out / relative
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        return relative.as_posix()

    def _emojis(self) -> dict[str, dict[str, Any]]:
        """The custom emojis the stand-in holds (id -> name, animated, image path), for drawing them."""
        found: dict[str, dict[str, Any]] = {}
        for emoji_id, (name, animated, data) in held_emojis(self.standin).items():
            found[emoji_id] = {"name": name, "animated": animated, "file": self._file(f"emoji-{emoji_id}", data)}
        return found


def held_emojis(standin: Any) -> dict[str, tuple[str, bool, bytes]]:
    """The application emojis the stand-in holds (tests/e2e/standin/emojis.py): id -> (name,
    animated, image bytes), as the bot uploaded them."""
    return {
        str(emoji.id): (emoji.name, emoji.mime == "image/gif", emoji.image)
        for emoji in standin.app_emojis.emojis.values()
    }


def _user(user: User) -> dict[str, Any]:
    return {"id": str(user.id), "name": user.name, "global_name": user.global_name, "bot": user.bot}


def _slug(text: str, *, keep_dots: bool = False) -> str:
    allowed = r"[^A-Za-z0-9_.-]" if keep_dots else r"[^A-Za-z0-9_-]"
    return re.sub(allowed, "-", text).strip("-") or "x"


# -- the world --------------------------------------------------------------------------------------
PEOPLE = ("alice", "bob", "carol", "dave", "erin", "frank")


@contextlib.asynccontextmanager
async def session(
    out: Path, *, players: int = 3, seed: int = 20261129, rounds: int | None = None, locale: str = "en-US"
) -> AsyncIterator[Capture]:
    """A server with a #wizard channel and `players` people, the real bot logged in to the stand-in."""
    if not 3 <= players <= len(PEOPLE):
        raise ValueError(f"a game of Wizard seats 3 to {len(PEOPLE)} people, not {players}")
    out.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240 - before the game starts, nothing waits on it
    with tempfile.TemporaryDirectory(prefix="wizard-screens-") as folder:
        async with DiscordStandin() as standin:
            guild = standin.create_guild("Wizard Guild", locale=locale)
            channel = standin.create_text_channel(guild, "wizard")
            admins = standin.create_role(guild, "Admins", discord.Permissions(manage_guild=True))
            people = [standin.create_user(name, locale=locale) for name in PEOPLE[:players]]
            standin.add_member(guild, people[0], roles=[admins])
            for person in people[1:]:
                standin.add_member(guild, person)
            # World wants these two; the scenarios leave them out of the game.
            closed = standin.create_user("gina", dms_closed=True)
            outsider = standin.create_user("olga")
            settings = Settings(token=standin.token, database_path=Path(folder) / "wizard.db")
            bot = WizardBot(settings, sync_commands=True)
            # A fixed seed, so the deal is the same every run; computer players move at once.
            bot.manager = GameManager(seed_source=lambda: seed, computer_pace=0.0)
            async with run_bot(standin, bot, capture_loggers=("discord", "bot", "cogs")) as runner:
                driver = Driver(standin, require_synced=True)
                world = World(standin, driver, bot, runner, guild, channel, people, closed, outsider)
                yield Capture(world, out, rounds, seed)
            if standin.failures:
                raise RuntimeError(f"the stand-in recorded failures: {standin.failures}")


async def run(scenario: Scenario, out: Path, **options: Any) -> list[Path]:
    """Run one scenario in a fresh world; returns the snapshot files, in order."""
    async with session(out, **options) as capture:
        await scenario(capture)
        return list(capture.snapshots)


def snapshot_files(folder: Path) -> Sequence[Path]:
    """The snapshot files of a capture folder, in the order they were taken."""
    return sorted(folder.glob("[0-9][0-9]-*.json"))
