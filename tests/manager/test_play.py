"""Running games: actions through the manager, refusals, concurrency, stopping and lookups."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable

import pytest

from bot.engine import Bid, Game, NotYourTurnError, Options, Phase, Play, Reason, RuleError, sort_key
from bot.manager import (
    ActionApplied,
    GameManager,
    GameRefused,
    GameStarted,
    GameStopped,
    LobbyClosed,
    Player,
    Refusal,
    Table,
)

from .support import (
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    PEOPLE,
    SEED,
    STRANGER,
    WAIT,
    Recorder,
    advance,
    current,
    flagged,
    mover,
    not_moving,
    open_with,
    start_with,
    step,
)

HOST = PEOPLE[0]


@pytest.fixture
async def table(manager: GameManager) -> Table:
    return await start_with(manager, 3)


def applied_events(recorder: Recorder) -> list[ActionApplied]:
    return recorder.of(ActionApplied)


# -- acting ----------------------------------------------------------------------------------


async def test_legal_action_is_applied_and_announced(manager: GameManager, table: Table, recorder: Recorder) -> None:
    player = mover(table)
    seat = table.seat_of(player.user_id)
    action = table.game.legal_actions()[0]
    applied = await manager.act(table.id, player.user_id, action, **current(table))
    assert (applied.seat, applied.action) == (seat, action)
    assert table.game.log == [(seat, action)]
    assert recorder.events == [ActionApplied(table, applied)]


async def test_action_from_a_non_player_is_refused(manager: GameManager, table: Table, recorder: Recorder) -> None:
    before = table.game.snapshot()
    with pytest.raises(GameRefused) as refused:
        await manager.act(table.id, STRANGER, table.game.legal_actions()[0], **current(table))
    assert refused.value.refusal is Refusal.NOT_IN_GAME
    assert table.game.snapshot() == before
    assert recorder.events == []


@pytest.mark.parametrize("others", [0, 1], ids=["next seat", "seat after next"])
async def test_action_out_of_turn_is_refused_by_the_rules(
    manager: GameManager, table: Table, recorder: Recorder, others: int
) -> None:
    before = table.game.snapshot()
    player = not_moving(table)[others]
    with pytest.raises(RuleError) as refused:
        await manager.act(table.id, player.user_id, table.game.legal_actions()[0], **current(table))
    assert isinstance(refused.value, NotYourTurnError)
    assert refused.value.reason is Reason.NOT_YOUR_TURN
    assert table.game.snapshot() == before
    assert recorder.events == []


@pytest.mark.parametrize(
    ("round_shift", "trick_shift"),
    [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, 1)],
    ids=["earlier round", "later round", "earlier trick", "later trick", "other round and trick"],
)
async def test_stale_button_is_refused(
    manager: GameManager, table: Table, recorder: Recorder, round_shift: int, trick_shift: int
) -> None:
    # In round 2 after its first trick, so that both an earlier round and an earlier trick exist.
    await advance(manager, table, lambda game: game.round == 2 and len(game.tricks) == 1, random.Random(1))
    before = table.game.snapshot()
    seen = len(recorder.events)
    where = current(table)
    with pytest.raises(GameRefused) as refused:
        await manager.act(
            table.id,
            mover(table).user_id,
            table.game.legal_actions()[0],
            round=where["round"] + round_shift,
            trick=where["trick"] + trick_shift,
        )
    assert refused.value.refusal is Refusal.STALE
    assert table.game.snapshot() == before
    assert len(recorder.events) == seen


def at_start(game: Game) -> bool:
    return True


def in_play(game: Game) -> bool:
    return game.phase is Phase.PLAY


def holding_an_unplayable_card(game: Game) -> bool:
    if game.phase is not Phase.PLAY:
        return False
    assert game.to_move is not None
    return bool(set(game.hands[game.to_move]) - set(game.playable_cards()))


def bid_above_the_hand(table: Table) -> Bid:
    return Bid(table.game.round + 1)


def a_card_while_bidding(table: Table) -> Play:
    assert table.game.to_move is not None
    return Play(table.game.hands[table.game.to_move][0])


def a_card_of_another_hand(table: Table) -> Play:
    other = table.seat_of(not_moving(table)[0].user_id)
    assert other is not None
    return Play(table.game.hands[other][0])


def a_card_not_following_suit(table: Table) -> Play:
    game = table.game
    assert game.to_move is not None
    return Play(sorted(set(game.hands[game.to_move]) - set(game.playable_cards()), key=sort_key)[0])


@pytest.mark.parametrize(
    ("position", "illegal", "reason"),
    [
        (at_start, bid_above_the_hand, Reason.BID_OUT_OF_RANGE),
        (at_start, a_card_while_bidding, Reason.WRONG_PHASE),
        (in_play, a_card_of_another_hand, Reason.CARD_NOT_IN_HAND),
        (holding_an_unplayable_card, a_card_not_following_suit, Reason.MUST_FOLLOW_SUIT),
    ],
    ids=["bid above the hand", "card while bidding", "card not in hand", "card not following suit"],
)
async def test_illegal_action_is_refused_by_the_rules(
    manager: GameManager,
    table: Table,
    recorder: Recorder,
    position: Callable[[Game], bool],
    illegal: Callable[[Table], Bid | Play],
    reason: Reason,
) -> None:
    await advance(manager, table, position, random.Random(2))
    before = table.game.snapshot()
    seen = len(recorder.events)
    with pytest.raises(RuleError) as refused:
        await manager.act(table.id, mover(table).user_id, illegal(table), **current(table))
    assert refused.value.reason is reason
    assert table.game.snapshot() == before
    assert len(recorder.events) == seen


@pytest.mark.parametrize(
    ("game_id", "refusal"),
    [("nosuchid", Refusal.NO_GAME), (None, Refusal.NOT_STARTED)],
    ids=["unknown id", "lobby id"],
)
async def test_action_on_no_running_game_is_refused(
    manager: GameManager, game_id: str | None, refusal: Refusal
) -> None:
    if game_id is None:
        game_id = (await open_with(manager, 3)).id
    with pytest.raises(GameRefused) as refused:
        await manager.act(game_id, HOST.user_id, Bid(0), round=1, trick=0)
    assert refused.value.refusal is refusal


# -- concurrent clicks -----------------------------------------------------------------------


def first_bid(game: Game) -> bool:
    return game.phase is Phase.BID


def first_card_of_a_trick(game: Game) -> bool:
    return game.phase is Phase.PLAY and not game.trick and game.round >= 2


def last_card_of_a_mid_round_trick(game: Game) -> bool:
    return _last_card_of_a_trick(game) and len(game.hands[game.to_move or 0]) > 1


def last_card_of_a_round(game: Game) -> bool:
    return _last_card_of_a_trick(game) and len(game.hands[game.to_move or 0]) == 1


def _last_card_of_a_trick(game: Game) -> bool:
    return game.phase is Phase.PLAY and len(game.trick) == game.players - 1


CLICK_MOMENTS = pytest.mark.parametrize(
    ("moment", "second"),
    [
        (first_bid, Reason.NOT_YOUR_TURN),
        # The second click's button is for a trick its player has already played to.
        (first_card_of_a_trick, Refusal.STALE),
        (last_card_of_a_mid_round_trick, Refusal.STALE),
        (last_card_of_a_round, Refusal.STALE),
    ],
    ids=["bid", "first card of a trick", "card completing a trick", "card completing a round"],
)


def refusal_of(error: BaseException) -> Reason | Refusal:
    if isinstance(error, RuleError):
        return error.reason
    assert isinstance(error, GameRefused), error
    return error.refusal


@CLICK_MOMENTS
async def test_two_identical_clicks_apply_once(
    manager: GameManager,
    table: Table,
    recorder: Recorder,
    moment: Callable[[Game], bool],
    second: Reason | Refusal,
) -> None:
    await advance(manager, table, moment, random.Random(3))
    logged = len(table.game.log)
    seen = len(applied_events(recorder))
    click = (table.id, mover(table).user_id, table.game.legal_actions()[0])
    where = current(table)
    results = await asyncio.gather(manager.act(*click, **where), manager.act(*click, **where), return_exceptions=True)
    applied = [result for result in results if not isinstance(result, BaseException)]
    refused = [result for result in results if isinstance(result, BaseException)]
    assert len(applied) == 1
    assert [refusal_of(error) for error in refused] == [second]
    assert len(table.game.log) == logged + 1
    assert len(applied_events(recorder)) == seen + 1


@CLICK_MOMENTS
async def test_clicks_queued_on_the_lock_apply_once(
    manager: GameManager,
    table: Table,
    recorder: Recorder,
    moment: Callable[[Game], bool],
    second: Reason | Refusal,
) -> None:
    await advance(manager, table, moment, random.Random(3))
    logged = len(table.game.log)
    click = (table.id, mover(table).user_id, table.game.legal_actions()[0])
    where = current(table)
    started = [asyncio.Event(), asyncio.Event()]
    async with table.lock:  # both clicks wait on the lock, then run one after the other
        tasks = [asyncio.create_task(flagged(flag, manager.act(*click, **where))) for flag in started]
        for flag in started:
            await asyncio.wait_for(flag.wait(), WAIT)
        assert table.game.log[logged:] == []
    results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), WAIT)
    assert not isinstance(results[0], BaseException)
    assert isinstance(results[1], BaseException)
    assert refusal_of(results[1]) == second
    assert len(table.game.log) == logged + 1


# -- whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize("options", [Options(), Options(bids_may_not_add_up=True)], ids=["standard", "no add-up"])
@pytest.mark.parametrize("count", [3, 6])
async def test_whole_game_played_through_the_manager(
    manager: GameManager, recorder: Recorder, count: int, options: Options
) -> None:
    table = await start_with(manager, count, options=options)
    rng = random.Random(count)
    while True:
        applied = await step(manager, table, rng)
        if applied.game_over:
            break
    game = table.game
    assert game.is_over
    assert game.round == game.rounds
    events = applied_events(recorder)
    assert len(events) == len(game.log)
    assert events[-1].applied is applied
    assert recorder.of(GameStopped) == []
    assert manager.tables() == []
    assert manager.in_channel(CHANNEL) is None
    with pytest.raises(GameRefused) as refused:
        manager.table(table.id)
    assert refused.value.refusal is Refusal.NO_GAME
    assert game.scores == Game.replay(count, SEED, options, game.log).scores
    assert applied.round is not None
    assert list(applied.round.totals) == game.scores
    await manager.open_lobby(GUILD, CHANNEL, HOST, Options())  # the channel is free again


async def test_finished_game_refuses_further_actions(manager: GameManager, table: Table) -> None:
    rng = random.Random(4)
    await advance(manager, table, lambda game: game.is_over, rng)
    with pytest.raises(GameRefused) as refused:
        await manager.act(table.id, HOST.user_id, Bid(0), **current(table))
    assert refused.value.refusal is Refusal.NO_GAME


# -- stopping --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("user_id", "is_moderator"),
    [(HOST.user_id, False), (HOST.user_id, True), (PEOPLE[1].user_id, True), (STRANGER, True)],
    ids=["host", "host who moderates", "player who moderates", "moderator not playing"],
)
async def test_stop_by_host_or_moderator_ends_the_game(
    manager: GameManager, table: Table, recorder: Recorder, user_id: int, is_moderator: bool
) -> None:
    await step(manager, table, random.Random(5))
    assert await manager.stop(table.id, user_id, is_moderator=is_moderator, name="Mod") is table
    assert table.stopped
    assert recorder.events[-1] == GameStopped(table, Player(user_id, "Mod"))
    assert manager.tables() == []
    assert manager.in_channel(CHANNEL) is None


@pytest.mark.parametrize("user_id", [PEOPLE[1].user_id, STRANGER], ids=["player", "stranger"])
async def test_stop_by_anyone_else_is_refused(
    manager: GameManager, table: Table, recorder: Recorder, user_id: int
) -> None:
    seen = len(recorder.events)
    with pytest.raises(GameRefused) as refused:
        await manager.stop(table.id, user_id, is_moderator=False)
    assert refused.value.refusal is Refusal.NOT_ALLOWED
    assert not table.stopped
    assert manager.in_channel(CHANNEL) is table
    assert len(recorder.events) == seen
    await step(manager, table, random.Random(6))  # the game goes on


async def test_stopped_game_refuses_further_actions(manager: GameManager, table: Table) -> None:
    await manager.stop(table.id, HOST.user_id, is_moderator=False)
    before = table.game.snapshot()
    with pytest.raises(GameRefused) as refused:
        await manager.act(table.id, mover(table).user_id, table.game.legal_actions()[0], **current(table))
    assert refused.value.refusal is Refusal.NO_GAME
    assert table.game.snapshot() == before


async def test_stopped_game_cannot_be_stopped_again(manager: GameManager, table: Table) -> None:
    await manager.stop(table.id, HOST.user_id, is_moderator=False)
    with pytest.raises(GameRefused) as refused:
        await manager.stop(table.id, HOST.user_id, is_moderator=False)
    assert refused.value.refusal is Refusal.NO_GAME


async def test_action_queued_behind_a_stop_is_refused(manager: GameManager, table: Table) -> None:
    before = table.game.snapshot()
    click = (table.id, mover(table).user_id, table.game.legal_actions()[0])
    started = [asyncio.Event(), asyncio.Event()]
    async with table.lock:
        stopping = asyncio.create_task(flagged(started[0], manager.stop(table.id, HOST.user_id, is_moderator=False)))
        acting = asyncio.create_task(flagged(started[1], manager.act(*click, **current(table))))
        for flag in started:
            await asyncio.wait_for(flag.wait(), WAIT)
    assert await asyncio.wait_for(stopping, WAIT) is table
    with pytest.raises(GameRefused) as refused:
        await asyncio.wait_for(acting, WAIT)
    assert refused.value.refusal is Refusal.NO_GAME
    assert table.game.snapshot() == before


# -- a player's view and finding their game --------------------------------------------------


@pytest.mark.parametrize("seat", range(4))
async def test_hand_shows_only_that_players_cards(manager: GameManager, seat: int) -> None:
    table = await start_with(manager, 4)
    await advance(manager, table, lambda game: game.round == 2, random.Random(7))
    found, observation = manager.hand(table.id, PEOPLE[seat].user_id)
    assert found is table
    assert observation.seat == seat
    assert observation.hand == tuple(table.game.hands[seat])
    assert observation.hand_sizes == (2, 2, 2, 2)
    shown = repr(observation)
    for other, hand in enumerate(table.game.hands):
        if other != seat:
            assert all(repr(card) not in shown for card in hand)


async def test_hand_lists_legal_actions_only_for_the_player_to_move(manager: GameManager, table: Table) -> None:
    for player in table.players:
        _, observation = manager.hand(table.id, player.user_id)
        expected = tuple(table.game.legal_actions()) if player is mover(table) else ()
        assert observation.legal == expected


@pytest.mark.parametrize(
    ("user_id", "game_id", "refusal"),
    [(STRANGER, None, Refusal.NOT_IN_GAME), (HOST.user_id, "nosuchid", Refusal.NO_GAME)],
    ids=["non-player", "unknown game"],
)
async def test_hand_is_refused_without_a_seat(
    manager: GameManager, table: Table, user_id: int, game_id: str | None, refusal: Refusal
) -> None:
    with pytest.raises(GameRefused) as refused:
        manager.hand(game_id or table.id, user_id)
    assert refused.value.refusal is refusal


async def test_hand_of_a_lobby_is_refused_as_not_started(manager: GameManager) -> None:
    lobby = await open_with(manager, 3)
    with pytest.raises(GameRefused) as refused:
        manager.hand(lobby.id, HOST.user_id)
    assert refused.value.refusal is Refusal.NOT_STARTED


THIRD_CHANNEL = 30
OTHER_GUILD = 2


@pytest.mark.parametrize(
    ("channel", "guild"),
    [(CHANNEL, GUILD), (OTHER_CHANNEL, GUILD), (THIRD_CHANNEL, GUILD), (555, None)],
    ids=["its channel", "a channel with someone else's game", "an empty channel", "direct messages"],
)
async def test_table_for_user_finds_their_only_game(manager: GameManager, channel: int, guild: int | None) -> None:
    theirs = await start_with(manager, 3)
    await start_with(manager, 3, channel=OTHER_CHANNEL, people=PEOPLE[3:6])
    assert manager.table_for_user(channel, guild, HOST.user_id) is theirs


@pytest.mark.parametrize("channel", [CHANNEL, OTHER_CHANNEL])
async def test_table_for_user_prefers_the_game_of_the_channel(manager: GameManager, channel: int) -> None:
    first = await start_with(manager, 3)
    second = await start_with(manager, 3, channel=OTHER_CHANNEL)
    expected = first if channel == CHANNEL else second
    assert manager.table_for_user(channel, GUILD, HOST.user_id) is expected


@pytest.mark.parametrize("guild", [GUILD, None], ids=["from a server channel", "from direct messages"])
async def test_table_for_user_refuses_when_they_have_two_games_elsewhere(
    manager: GameManager, guild: int | None
) -> None:
    await start_with(manager, 3)
    await start_with(manager, 3, channel=OTHER_CHANNEL)
    with pytest.raises(GameRefused) as refused:
        manager.table_for_user(THIRD_CHANNEL, guild, HOST.user_id)
    assert refused.value.refusal is Refusal.NO_GAME


@pytest.mark.parametrize(
    ("channel", "guild", "user_id", "refusal"),
    [
        (THIRD_CHANNEL, GUILD, HOST.user_id, Refusal.NO_GAME),
        (CHANNEL, GUILD, HOST.user_id, Refusal.NOT_IN_GAME),
        (THIRD_CHANNEL, OTHER_GUILD, PEOPLE[3].user_id, Refusal.NO_GAME),
    ],
    ids=["empty channel", "someone else's game", "another server"],
)
async def test_table_for_user_refuses_without_a_game_of_theirs(
    manager: GameManager, channel: int, guild: int, user_id: int, refusal: Refusal
) -> None:
    # The host has no game; player 3 has one, but in the first server.
    await start_with(manager, 3, people=PEOPLE[3:6])
    await start_with(manager, 3, channel=OTHER_CHANNEL, people=[PEOPLE[6], *PEOPLE[1:3]])
    with pytest.raises(GameRefused) as refused:
        manager.table_for_user(channel, guild, user_id)
    assert refused.value.refusal is refusal


async def test_table_for_user_ignores_a_lobby_they_are_in(manager: GameManager) -> None:
    await open_with(manager, 3)
    with pytest.raises(GameRefused) as refused:
        manager.table_for_user(CHANNEL, GUILD, HOST.user_id)
    assert refused.value.refusal is Refusal.NO_GAME


# -- message bookkeeping ---------------------------------------------------------------------


async def test_mark_dm_closed_is_true_only_the_first_time(manager: GameManager, table: Table) -> None:
    first, second = (player.user_id for player in table.players[:2])
    await manager.set_hand_message(table, first, 71, 72)
    await manager.set_hand_message(table, second, 81, 82)
    assert await manager.mark_dm_closed(table, first) is True
    assert await manager.mark_dm_closed(table, first) is False
    assert await manager.mark_dm_closed(table, second) is True
    assert table.hand_messages == {}
    assert table.dm_closed == {first, second}


async def test_message_ids_are_kept(manager: GameManager, table: Table) -> None:
    await manager.set_table_message(table, 61)
    await manager.set_hand_message(table, HOST.user_id, 71, 72)
    assert table.table_message_id == 61
    assert table.table_round == 1
    assert table.hand_messages == {HOST.user_id: (71, 72, 1)}


# -- listeners -------------------------------------------------------------------------------


async def do_start(manager: GameManager) -> type:
    await start_with(manager, 3)
    return GameStarted


async def do_act(manager: GameManager) -> type:
    table = await start_with(manager, 3)
    await step(manager, table, random.Random(8))
    return ActionApplied


async def do_stop(manager: GameManager) -> type:
    table = await start_with(manager, 3)
    await manager.stop(table.id, HOST.user_id, is_moderator=False)
    return GameStopped


async def do_cancel(manager: GameManager) -> type:
    lobby = await open_with(manager, 3)
    await manager.cancel(lobby.id, HOST.user_id)
    return LobbyClosed


@pytest.mark.parametrize("operation", [do_start, do_act, do_stop, do_cancel], ids=["start", "act", "stop", "cancel"])
async def test_a_failing_listener_does_not_break_the_manager(
    manager: GameManager,
    recorder: Recorder,
    caplog: pytest.LogCaptureFixture,
    operation: Callable[[GameManager], Awaitable[type]],
) -> None:
    def boom(event: object) -> None:
        raise RuntimeError("listener broke")

    later = Recorder()
    manager.subscribe(boom)
    manager.subscribe(later)
    with caplog.at_level(logging.ERROR, logger="bot.manager"):
        kind = await operation(manager)
    assert recorder.events == later.events
    assert recorder.of(kind)
    assert any("listener failed" in record.getMessage() for record in caplog.records)


async def test_action_applies_although_a_listener_fails(manager: GameManager, table: Table) -> None:
    def boom(event: object) -> None:
        raise RuntimeError("listener broke")

    later = Recorder()
    manager.subscribe(boom)
    manager.subscribe(later)
    applied = await step(manager, table, random.Random(9))
    assert len(table.game.log) == 1
    assert later.events == [ActionApplied(table, applied)]
