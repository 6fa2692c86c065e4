"""Scripted players: find whose move it is from what each person sees, and click for them."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Action, Play, Suit
from bot.engine.rules import legal_cards
from bot.manager import Table
from cogs.wizard import _ids
from tests.e2e._reading import read
from tests.e2e.conftest import World
from tests.e2e.standin import Channel, DiscordStandin, Driver, InteractionRecord, StoredMessage, User


def action_buttons(message: StoredMessage) -> list[dict[str, object]]:
    """The enabled move buttons (bid, card, trump) on a message."""
    buttons = []
    for component in message.all_components():
        custom_id = str(component.get("custom_id", ""))
        if component.get("disabled") or not custom_id.startswith(_ids.PREFIX):
            continue
        if isinstance(_ids.parse(custom_id), _ids.ActionId):
            buttons.append(component)
    return buttons


def legal_ids(table: Table, seat: int) -> set[str]:
    """The custom_ids of the moves the rules allow the seat now (`table.game` is read afresh each
    time: the manager may replace it)."""
    game = table.game
    return {
        _ids.build(_ids.ActionId(table.id, game.round, table.next_trick(seat), action))
        for action in game.legal_actions_for(seat)
    }


def enabled_ids(message: StoredMessage) -> set[str]:
    """The custom_ids of a message's enabled move buttons."""
    return {str(button["custom_id"]) for button in action_buttons(message)}


def latest_hand(world: World, user: User) -> StoredMessage | None:
    """The user's newest DM from the bot that shows a hand."""
    messages = [m for m in world.driver.dm_view(user) if "Your hand" in m.text()]
    return messages[-1] if messages else None


def has_hand_button(message: StoredMessage) -> bool:
    """Whether a message carries an enabled "My hand" button (the live table does)."""
    return any(
        str(c.get("custom_id", "")).startswith(f"{_ids.PREFIX}hand:") and not c.get("disabled")
        for c in message.all_components()
    )


def table_message(world: World) -> StoredMessage | None:
    """The live table: the newest public message of the channel with a "My hand" button."""
    tables = [m for m in world.driver.channel_view(world.channel) if has_hand_button(m)]
    return tables[-1] if tables else None


def shown_round(message: StoredMessage) -> int | None:
    """The round a table or hand message shows, from its title ("… round 3 of 20")."""
    return read(message).round


# What a hand says first at its player's move (English), from `_hand.status_text`.
TURN_FORM = "▶ Your move"
# How a turn ping begins (English `ping.text`).
TURN_PING = "🔔 Your move in Wizard"


def turn_pings(driver: Driver, person: User) -> list[StoredMessage]:
    """The turn pings a person's DMs hold now."""
    return [m for m in driver.dm_view(person) if m.text().startswith(TURN_PING)]


@dataclass(frozen=True)
class TableTurn:
    """Who the table says is to move, and the suit to follow: what a person reads off it."""

    names: tuple[str, ...]  # the players marked ▶, as the table shows their names
    led: Suit | None


def read_turn(table: StoredMessage) -> TableTurn:
    reading = read(table)
    return TableTurn(tuple(seat.name for seat in reading.seats if seat.to_move), reading.follow)


def moves_a_person_would_make(hand: StoredMessage, led: Suit | None) -> list[str]:
    """The enabled move buttons of a DM hand that the rules allow now, given the suit led.

    At its player's move the hand offers only the moves the rules allow; a person checks the suit.
    """
    ids = [str(button["custom_id"]) for button in action_buttons(hand)]
    cards = {}
    for custom_id in ids:
        parsed = _ids.parse(custom_id)
        if isinstance(parsed, _ids.ActionId) and isinstance(parsed.action, Play):
            cards[parsed.action.card] = custom_id
    if not cards:
        return ids  # bids, trump, or the blind round's face-down card
    return [cards[card] for card in legal_cards(list(cards), led)]


def mover_on_table(
    table: StoredMessage, hands: Sequence[tuple[str, StoredMessage | None]]
) -> tuple[int, list[str]] | None:
    """Which of these people (name, newest DM hand) the table says is to move, and the moves a
    person would make from that hand; None until the table names one whose hand is of its round."""
    turn = read_turn(table)
    for index, (name, hand) in enumerate(hands):
        if hand is not None and name in turn.names and shown_round(hand) == shown_round(table):
            moves = moves_a_person_would_make(hand, turn.led)
            return (index, moves) if moves else None
    return None


def versions(message: StoredMessage) -> list[StoredMessage]:
    """Every version a message has had, oldest first, the current one last."""
    return [StoredMessage(data) for data in message.history] + [message]


def custom_ids_ever(message: StoredMessage) -> set[str]:
    """Every custom_id any version of a message has carried."""
    return {str(c["custom_id"]) for v in versions(message) for c in v.all_components() if "custom_id" in c}


def final_line(name: str, score: int) -> str:
    """How the final standings (in English) show a player's score: with a real minus sign."""
    return f"**{name}**: {str(score).replace('-', '−')} points"


async def reply_text(record: InteractionRecord, user: User) -> str:
    """The text of the private message that answered an interaction (asserting it was private to `user`)."""
    reply = await record.wait_response()
    assert record.callback_types == [4], f"{record.name!r} was answered with callbacks {record.callback_types}"
    assert reply.ephemeral, f"the answer to {record.name!r} is public: {reply.text()!r}"
    assert reply.ephemeral_to == user.id
    return reply.text()


async def host_panel(world: World, host: User, lobby: StoredMessage) -> StoredMessage:
    """The host's private settings panel (computer players, house rules), opened from the lobby."""
    panel = await (await world.driver.click(host, lobby, "Host settings")).wait_response()
    assert panel.ephemeral_to == host.id, "the host's panel is not private"
    return panel


async def start_game(world: World, seats: list[User], **options: Any) -> Table:
    """seats[0] opens a game in the channel, the others join in order, the host starts it.

    Returns the bot's table once the first table message is posted.
    """
    host, *others = seats
    record = await world.driver.slash(host, world.channel, "wizard start", options=options or None)
    lobby = await record.wait_response()
    for person in others:
        joined = await world.driver.click(person, lobby, "Join")
        await joined.wait_acked(3)
    started = await world.driver.click(host, lobby, "Start")
    await started.wait_acked(3)
    table = world.bot.manager.in_channel(world.channel.id)
    assert isinstance(table, Table)
    await world.standin.wait_for(
        lambda: table.table_message_id is not None and table_message(world), 5, "the first table message"
    )
    return table


@dataclass
class Recorder:
    """Clicks through a game for the seated people and records each move as (user, action)."""

    world: World
    seats: list[User]
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    moves: list[tuple[User, Action]] = field(default_factory=list)
    # People who play from the ephemeral "My hand" message instead of DMs.
    via_table: set[int] = field(default_factory=set)
    # How many moves each via-table person made (they alternate "My hand" and /wizard hand).
    table_moves: int = 0
    # Each via-table person's latest private hand, which a later My hand may update in place.
    private: dict[int, StoredMessage] = field(default_factory=dict)

    def whose_turn(self) -> tuple[User, StoredMessage] | None:
        """A DM player the game waits for, once their DM shows this round's hand with a legal move
        (the bot's game says whose turn it is; the hand's buttons, what they may do)."""
        table = self.world.bot.manager.in_channel(self.world.channel.id)
        if not isinstance(table, Table):
            return None
        for seat in table.game.waiting_for():
            user = next((u for u in self.seats if u.id == table.players[seat].user_id), None)
            if user is None or user.id in self.via_table:
                continue
            message = latest_hand(self.world, user)
            if message is None:
                continue
            if self._split(table, seat, message)[0]:
                return user, message
        return None

    @staticmethod
    def _split(table: Table, seat: int, message: StoredMessage) -> tuple[list[str], list[str]]:
        """The enabled move buttons of a hand message for the seat's current turn: (legal, illegal)."""
        legal_now = table.game.legal_actions_for(seat)
        legal: list[str] = []
        illegal: list[str] = []
        for button in action_buttons(message):
            custom_id = str(button["custom_id"])
            parsed = _ids.parse(custom_id)
            assert isinstance(parsed, _ids.ActionId)
            if (parsed.round, parsed.trick) != (table.game.round, table.next_trick(seat)):
                continue  # an earlier round's message, not yet replaced
            if parsed.action is None:  # the blind round's face-down card: the only one held
                (legal if legal_now else illegal).append(custom_id)
            else:
                (legal if parsed.action in legal_now else illegal).append(custom_id)
        return legal, illegal

    def table_turn(self) -> tuple[User, StoredMessage] | None:
        """A via-table person whose turn it is (by the bot's state), with the current round's table message."""
        if not self.via_table:
            return None
        table = self.world.bot.manager.in_channel(self.world.channel.id)
        if not isinstance(table, Table):
            return None
        player = table.player_to_move()
        if player is None or player.user_id not in self.via_table:
            return None
        message = table_message(self.world)
        if message is None or shown_round(message) != table.game.round:
            return None
        user = next(u for u in self.seats if u.id == player.user_id)
        return user, message

    def finished(self) -> bool:
        return any("Final standings" in m.text() for m in self.world.driver.channel_view(self.world.channel))

    async def step(self) -> None:
        """Make the next move, whoever's it is; wait until it is someone's turn or the game ends."""
        found: tuple[User, StoredMessage] | bool = await self.world.standin.wait_for(
            lambda: self.whose_turn() or self.table_turn() or self.finished(), timeout=10, what="someone's turn"
        )
        if isinstance(found, bool):
            return
        user, message = found
        if user.id in self.via_table:
            message = await self._open_hand(user, message)
            buttons = [str(button["custom_id"]) for button in action_buttons(message)]
        else:
            table = self.world.bot.manager.in_channel(self.world.channel.id)
            assert isinstance(table, Table)
            seat = table.seat_of(user.id)
            assert seat is not None
            buttons, illegal = self._split(table, seat, message)
            assert not illegal, f"{user.name}'s hand offers moves the rules forbid now: {illegal}"
        assert buttons, f"it is {user.name}'s turn but their hand has no enabled move: {message.text()!r}"
        custom_id = self.rng.choice(buttons)
        parsed = _ids.parse(custom_id)
        assert isinstance(parsed, _ids.ActionId)
        action = parsed.action
        if action is None:  # the blind round's face-down card: which it is, only the bot knows
            table = self.world.bot.manager.in_channel(self.world.channel.id)
            assert isinstance(table, Table)
            seat = table.seat_of(user.id)
            assert seat is not None
            (card,) = table.game.hands[seat]
            action = Play(card)
        record = await self.world.driver.click(user, message, custom_id)
        await record.wait_acked(3)
        self.moves.append((user, action))

    async def _open_hand(self, user: User, table: StoredMessage) -> StoredMessage:
        """Show `user` their hand privately: alternately the table's "My hand" button and /wizard hand."""
        self.table_moves += 1
        earlier = self.private.get(user.id)
        edits = earlier.edits if earlier is not None else 0
        if self.table_moves % 2:
            record = await self.world.driver.click(user, table, "My hand")
        else:
            record = await self.world.driver.slash(user, self.world.channel, "wizard hand")
        await record.wait_acked(3)
        if record.callback_types == [6]:
            # Acknowledged without a message: the earlier private hand is updated in place (or, when
            # Discord refuses that, a new one follows).
            assert earlier is not None, "a first My hand was answered without a private hand"
            standin = self.world.standin

            def updated() -> StoredMessage | None:
                shown = standin.messages[record.followup_ids[0]] if record.followup_ids else earlier
                # Once it offers the move: the feed's edits of the copy may land around the press's own.
                return shown if (shown is not earlier or earlier.edits > edits) and action_buttons(shown) else None

            hand = await standin.wait_for(updated, 5, f"{user.name}'s private hand")
        else:
            hand = await record.wait_response()
        assert hand.ephemeral, f"{user.name}'s hand is not private"
        assert hand.ephemeral_to == user.id
        self.private[user.id] = hand
        return hand

    async def play_to_end(self, max_moves: int = 2000) -> None:
        for _ in range(max_moves):
            if self.finished():
                return
            await self.step()
        raise AssertionError("the game did not end")

    async def play_until(self, condition: Callable[[], object], max_moves: int = 2000) -> None:
        """Make moves until `condition()` holds (checked before each move)."""
        for _ in range(max_moves):
            if condition():
                return
            if self.finished():
                raise AssertionError("the game ended before the condition held")
            await self.step()
        raise AssertionError("the condition never held")


class Players:
    """Three people playing a short game against the bot process, reading the table as people do."""

    def __init__(self, standin: DiscordStandin, driver: Driver, channel: Channel, people: list[User]) -> None:
        self.standin, self.driver, self.channel, self.people = standin, driver, channel, people
        self.seen: tuple[int, int] | None = None
        self.cards = 0  # cards played so far

    def finished(self) -> bool:
        return bool(messages_of(self.driver, self.channel, "Final standings"))

    def next_move(self) -> tuple[User, StoredMessage, str, bool] | None:
        """Whose move the table shows (once it changed since the last click), their hand, a move, and
        whether it is a card."""
        tables = [m for m in self.driver.channel_view(self.channel) if has_hand_button(m)]
        if not tables or (tables[-1].id, tables[-1].edits) == self.seen:
            return None
        hands: list[StoredMessage | None] = []
        for person in self.people:
            shown = [m for m in self.driver.dm_view(person) if "Your hand" in m.text()]
            hands.append(shown[-1] if shown else None)
        named = [(u.global_name or u.name, h) for u, h in zip(self.people, hands, strict=True)]
        found = mover_on_table(tables[-1], named)
        if found is None:
            return None
        index, moves = found
        hand = hands[index]
        assert hand is not None
        button = _ids.parse(moves[0])
        assert isinstance(button, _ids.ActionId)
        return self.people[index], hand, moves[0], isinstance(button.action, Play) or button.action is None

    async def move(self, *, before_card: int | None = None, answered: bool = True) -> bool:
        """Make the next move; False, with nothing clicked, once the game is over or the next move is
        card number `before_card`. Unless `answered` is False, wait for the bot's answer."""
        found = await self.standin.wait_for(lambda: self.next_move() or self.finished(), 30, "a move")
        if not isinstance(found, tuple):
            return False  # the game is over
        user, hand, custom_id, is_card = found
        if is_card and self.cards + 1 == before_card:
            return False
        tables = [m for m in self.driver.channel_view(self.channel) if has_hand_button(m)]
        self.seen = (tables[-1].id, tables[-1].edits)
        record = await self.driver.click(user, hand, custom_id)
        self.cards += is_card
        if answered:
            await record.wait_acked(10)
        return True


def messages_of(driver: Driver, channel: Channel, text: str) -> list[StoredMessage]:
    return [m for m in driver.channel_view(channel) if text in m.text()]


def three_people(standin: DiscordStandin, guild_name: str = "Wizard Guild") -> tuple[Channel, list[User]]:
    """A server with a channel "wizard" and three members: alice, bob and carol."""
    guild = standin.create_guild(guild_name)
    channel = standin.create_text_channel(guild, "wizard")
    people = [standin.create_user(name) for name in ("alice", "bob", "carol")]
    for person in people:
        standin.add_member(guild, person)
    return channel, people


async def open_game(driver: Driver, channel: Channel, people: list[User], **options: Any) -> None:
    """people[0] opens a game in the channel, the others join, the host starts it (for a bot in
    another process, whose manager a test cannot see: see `start_game` for one it can)."""
    lobby = await (await driver.slash(people[0], channel, "wizard start", options or None)).wait_response()
    for person in people[1:]:
        await (await driver.click(person, lobby, "Join")).wait_acked(3)
    await (await driver.click(people[0], lobby, "Start")).wait_acked(3)
