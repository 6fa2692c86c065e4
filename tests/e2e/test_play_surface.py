"""Everything a player needs, where they play (issue 27): the hand alone decides, copies never lie,
cards read at a glance, and a refusal says whose turn it is."""

from __future__ import annotations

import datetime
import importlib
import random
from pathlib import Path

import pytest

from bot.engine import Observation, Phase
from bot.manager import Table
from cogs.wizard import _ids
from tests.e2e._play import (
    Recorder,
    action_buttons,
    enabled_ids,
    latest_hand,
    legal_ids,
    reply_text,
    start_game,
    table_message,
)
from tests.e2e._reading import Face, Reading, read
from tests.e2e.conftest import World, open_world
from tests.e2e.standin import DiscordStandin, StoredMessage, User
from tests.e2e.standin.emojis import MAX_EMOJIS, ApplicationEmoji


def user_of(world: World, table: Table, seat: int) -> User:
    return next(user for user in world.people if user.id == table.players[seat].user_id)


def shows_the_game(reading: Reading, table: Table, observation: Observation) -> list[str]:
    """Where a reading of a seat's hand differs from the game (empty: it shows the game as it is)."""
    wrong = []
    game = table.game
    if reading.round != observation.round_position:
        wrong.append(f"round {reading.round}, not {observation.round_position}")
    if observation.phase is not Phase.CHOOSE_TRUMP and reading.trump != observation.trump:
        wrong.append(f"trump {reading.trump}, not {observation.trump}")
    mine = observation.seat in game.waiting_for()
    if reading.your_move != mine:
        wrong.append(f"'your move' is {reading.your_move}, not {mine}")
    to_move = observation.to_move
    if not mine and to_move is not None and reading.mover != table.players[to_move].name:
        wrong.append(f"the mover is {reading.mover}, not {table.players[to_move].name}")
    played = []
    if observation.phase is Phase.PLAY:
        n = observation.players
        played = [
            (table.players[(observation.trick_leader + k) % n].name, Face.of(c))
            for k, c in enumerate(observation.trick)
        ]
    if reading.trick != played:
        wrong.append(f"the trick is {reading.trick}, not {played}")
    bids = [(s.bid, s.won) for s in reading.seats]
    truth = [
        (bid, won if bid is not None else None)
        for bid, won in zip(observation.bids, observation.tricks_won, strict=True)
    ]
    if bids != truth:
        wrong.append(f"bids and tricks {bids}, not {truth}")
    return wrong


def at_move(world: World, table: Table, user: User, seat: int) -> StoredMessage | None:
    """The user's DM hand, once it offers exactly the moves the rules allow the seat now."""
    hand = latest_hand(world, user)
    return hand if hand is not None and enabled_ids(hand) == legal_ids(table, seat) else None


async def test_a_player_reading_only_the_dm_hand_plays_a_whole_game(world: World) -> None:
    """Each person decides from their DM alone: it names the trump, the trick so far and who played
    what, every bid and trick taken, and whose move it is; it offers the moves the rules allow."""
    seats = world.people[:3]
    table = await start_game(world, seats, rounds=4)
    rng = random.Random(27)
    decisions = 0
    while not table.game.is_over:
        seat = table.game.to_move
        assert seat is not None
        user = user_of(world, table, seat)
        observation = table.game.observation(seat)

        def at_move(user: User = user, seat: int = seat) -> StoredMessage | None:
            hand = latest_hand(world, user)
            if hand is None or enabled_ids(hand) != legal_ids(table, seat):
                return None
            return hand if not shows_the_game(read(hand), table, table.game.observation(seat)) else None

        try:
            hand = await world.standin.wait_for(at_move, 5, f"{user.name}'s DM at their move")
        except TimeoutError:
            shown = latest_hand(world, user)
            wrong = shows_the_game(read(shown), table, observation) if shown is not None else ["no hand"]
            raise AssertionError(f"{user.name}'s DM does not show the game: {wrong}") from None
        # Whose move it is, the others read in their own DMs.
        for other in seats:
            if other is not user:
                other_seat = table.seat_of(other.id)
                assert other_seat is not None

                def waits(other: User = other, other_seat: int = other_seat) -> bool:
                    shown = latest_hand(world, other)
                    reading = read(shown) if shown is not None else None
                    obs = table.game.observation(other_seat)
                    return reading is not None and not shows_the_game(reading, table, obs)

                await world.standin.wait_for(waits, 5, f"{other.name}'s DM while {user.name} moves")
        record = await world.driver.click(user, hand, rng.choice(sorted(enabled_ids(hand))))
        await record.wait_acked(3)
        decisions += 1
    assert decisions == len(table.game.log)  # every bid, card and trump choice of the four rounds


async def test_my_hand_copies_follow_every_move_and_none_keeps_live_buttons_after_its_round(world: World) -> None:
    seats = world.people[:3]
    table = await start_game(world, seats)
    await Recorder(world, seats).play_until(lambda: table.game.round == 2)
    alice, bob = seats[0], seats[1]
    copies: list[tuple[User, StoredMessage]] = []
    for user, how in ((alice, "wizard hand"), (alice, "wizard hand"), (bob, "My hand")):
        if how == "My hand":
            live = await world.standin.wait_for(lambda: table_message(world), 5, "round 2's table")
            record = await world.driver.click(user, live, "My hand")
        else:
            record = await world.driver.slash(user, world.channel, how)
        copies.append((user, await record.wait_response()))
    assert len({copy.id for _, copy in copies}) == 3
    rng = random.Random(3)
    while table.game.round == 2:
        seat = table.game.to_move
        assert seat is not None
        mover = user_of(world, table, seat)
        hand = await world.standin.wait_for(
            lambda m=mover, s=seat: (
                (h := latest_hand(world, m)) is not None and enabled_ids(h) == legal_ids(table, s) and h
            ),
            5,
            f"{mover.name}'s move",
        )
        assert isinstance(hand, StoredMessage)
        record = await world.driver.click(mover, hand, rng.choice(sorted(enabled_ids(hand))))
        await record.wait_acked(3)
        for user, copy in copies:
            copy_seat = table.seat_of(user.id)
            assert copy_seat is not None

            def current(copy: StoredMessage = copy, copy_seat: int = copy_seat) -> bool:
                shown = world.standin.messages[copy.id]
                if table.game.round != 2:
                    return not action_buttons(shown)
                obs = table.game.observation(copy_seat)
                live_buttons = enabled_ids(shown) == (
                    legal_ids(table, copy_seat) if copy_seat in table.game.waiting_for() else set()
                )
                return live_buttons and not shows_the_game(read(shown), table, obs)

            await world.standin.wait_for(current, 5, f"{user.name}'s copy {copy.id} after a move")
    for _, copy in copies:
        shown = world.standin.messages[copy.id]
        assert not action_buttons(shown), "a copy keeps live buttons after its round"
        assert shown.text().startswith("Round 2: bid ")  # how the round went for its player


async def test_a_copy_whose_token_runs_out_is_retired_before_it_can_lie(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord lets an interaction's token edit its message for 15 minutes; the test shortens that
    lifetime, on both sides, to seconds."""
    # The bot's own module: each bot loads its extension afresh (discord.py drops the modules of an
    # extension it unloads), so the module a test imported may be an earlier bot's.
    private = importlib.import_module("cogs.wizard._private")
    monkeypatch.setattr(private, "TOKEN_LIFETIME", datetime.timedelta(seconds=6))
    monkeypatch.setattr(private, "MARGIN", datetime.timedelta(seconds=2))
    world.standin.token_lifetime = 6.0
    table = await start_game(world, world.people[:3])
    carol = world.people[2]
    copy = await (await world.driver.slash(carol, world.channel, "wizard hand")).wait_response()
    retired = await world.standin.wait_for(
        lambda: "out of date" in (shown := world.standin.messages[copy.id]).text() and shown, 8, "the copy retired"
    )
    assert isinstance(retired, StoredMessage)
    assert retired.buttons() == []
    assert not table.game.is_over


async def test_a_click_out_of_turn_says_whose_turn_it_is_and_when_yours_comes(world: World) -> None:
    seats = world.people[:4]
    table = await start_game(world, seats)
    await Recorder(world, seats).play_until(lambda: table.game.phase is Phase.BID)  # a Wizard turned up: trump first
    mover = table.game.to_move
    assert mover is not None
    later = (mover + 2) % 4
    user = user_of(world, table, later)
    hand = await world.standin.wait_for(lambda: latest_hand(world, user), 5, f"{user.name}'s hand")
    forged = _ids.build(_ids.ActionId(table.id, 1, 0, table.game.legal_actions_for(mover)[0]))
    text = await reply_text(await world.driver.click_custom_id(user, hand, forged), user)
    between = user_of(world, table, (mover + 1) % 4)
    assert (
        text == f"**{table.players[mover].name}** is bidding; you are next after {between.global_name or between.name}."
    )


# -- the card faces ---------------------------------------------------------------------------


async def test_the_bot_uploads_its_card_emojis_once_and_writes_cards_with_them(world: World) -> None:
    emojis = world.standin.app_emojis
    assert sorted(e.name for e in emojis.emojis.values()) == sorted(
        f"wz1_{kind}" for kind in ("spades", "hearts", "diamonds", "clubs", "wizard", "jester")
    )
    table = await start_game(world, world.people[:3])
    live = table_message(world)
    assert live is not None
    assert "<:wz1_" in live.text()  # the trump on the table
    ids = {str(e.id) for e in emojis.emojis.values()}
    await Recorder(world, world.people[:3]).play_until(lambda: table.game.phase is Phase.PLAY)
    seat = table.game.to_move
    assert seat is not None
    user = user_of(world, table, seat)
    hand = await world.standin.wait_for(
        lambda: (h := latest_hand(world, user)) is not None and action_buttons(h) and h, 5, "a card to play"
    )
    assert isinstance(hand, StoredMessage)
    worn = {str((b.get("emoji") or {}).get("id")) for b in action_buttons(hand)}
    assert worn <= ids | {"None"}  # a suit card wears its suit's emoji; a Wizard or a Jester its own
    assert emojis.created == 6


async def test_a_restarted_bot_finds_its_emojis_and_uploads_none(tmp_path: Path) -> None:
    kept: dict[int, ApplicationEmoji] = {}

    def remember(standin: DiscordStandin) -> None:
        standin.app_emojis.emojis.update(kept)

    async with open_world(tmp_path / "first") as first:
        kept.update(first.standin.app_emojis.emojis)
    assert len(kept) == 6
    async with open_world(tmp_path / "second", prepare=remember) as second:
        assert second.standin.app_emojis.created == 0
        table = await start_game(second, second.people[:3])
        live = table_message(second)
        assert live is not None
        assert "<:wz1_" in live.text()
        assert not table.game.is_over


def full_of_emojis(standin: DiscordStandin) -> None:
    """The application already owns Discord's 2000 emojis, none of them the bot's: an upload is refused."""
    for k in range(MAX_EMOJIS):
        standin.app_emojis.emojis[k + 1] = ApplicationEmoji(k + 1, f"other_{k}", b"", "image/png", {})


async def test_when_discord_refuses_the_upload_the_game_is_played_in_text_faces(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with open_world(tmp_path, prepare=full_of_emojis) as world:
        seats = world.people[:3]
        table = await start_game(world, seats, rounds=2)
        await Recorder(world, seats).play_to_end()
        assert table.game.is_over
        dms = [m for user in seats for m in world.driver.dm_view(user)]
        texts = "\n".join([m.text() for m in world.driver.channel_view(world.channel)] + [m.text() for m in dms])
        assert "<:wz" not in texts
        assert any(mark in texts for mark in ("♤", "♥️", "♦️", "♧"))
    said = [r for r in caplog.records if "card emoji" in r.getMessage()]
    assert [r.levelname for r in said] == ["WARNING"]  # said once, and not as an error
