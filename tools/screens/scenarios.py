"""Scenarios: games played against the stand-in, with the moments to snapshot.

Add one by writing an async function of a :class:`~tools.screens.capture.Capture` and naming it in
`SCENARIOS`; docs/screens.md shows an example.
"""

from __future__ import annotations

from bot.engine import Phase, Play
from cogs.wizard import _ids
from tests.e2e.standin import StoredMessage, User

from .capture import Capture, Scenario


async def tour(capture: Capture) -> None:
    """Every screen of a game, at the moments a player meets them: lobby, host settings, table and
    hands while bidding and mid-trick, My hand, a refused click, the longest hand, the final standings,
    and the whole channel and DM at the end. The game's length is `--rounds` (default: all)."""
    host, *others = capture.seats
    watcher = others[0]  # a player who is not the host: what most of the table sees
    options = {"rounds": capture.rounds} if capture.rounds else None
    lobby = await (await capture.driver.slash(host, capture.channel, "wizard start", options)).wait_response()
    for person in others:
        await (await capture.press(person, lobby, "join")).wait_acked(3)
    await capture.snap("lobby", who=watcher, focus=[lobby])
    panel = await (await capture.press(host, lobby, "settings")).wait_response()
    await capture.snap("lobby-host-settings", who=host, focus=[panel])
    await (await capture.press(host, lobby, "start")).wait_acked(3)
    await capture.standin.wait_for(lambda: capture.table_message(), 5, "the first table")

    await capture.snap("table-bidding", who=watcher, focus=[_table(capture)])
    bidder = _mover(capture)
    await capture.snap("hand-bidding-your-move", who=bidder, place="dm", focus=[_hand(capture, bidder)])

    table = capture.table()
    assert table is not None
    last = table.game.round_numbers[-1] if capture.rounds is None else table.game.round_numbers[capture.rounds - 1]
    middle = next((n for n in table.game.round_numbers if n >= 2), last)  # a round with a trick to follow
    await _mid_trick(capture, middle, suffix="")
    if last != middle:
        await _mid_trick(capture, last, suffix=f"-{last}-cards")

    await capture.play_to_end()
    final = await capture.final_message()
    await capture.snap("final-standings", who=watcher, focus=[final])
    everything = capture.driver.channel_view(capture.channel)
    await capture.snap("channel-whole-game", who=watcher, focus=everything, note="every public message of the game")
    await capture.snap("dm-whole-game", who=watcher, place="dm", focus=capture.driver.dm_view(watcher))


async def _mid_trick(capture: Capture, round_number: int, *, suffix: str) -> None:
    """The moments of a trick with one card down in round `round_number`: the table, the mover's DM,
    a waiting player's DM, their My hand, and their click out of turn refused."""

    def one_card_down() -> bool:
        table = capture.table()
        game = table.game if table is not None else None
        return game is not None and game.round == round_number and game.phase is Phase.PLAY and len(game.trick) == 1

    await capture.play_until(one_card_down)
    mover = _mover(capture)
    table = capture.table()
    assert table is not None
    leader = capture.seat_user(table.game.trick_leader)
    waiting = next(u for u in capture.seats if u not in (mover, leader))
    await capture.snap(f"table-mid-trick{suffix}", who=waiting, focus=[_table(capture)])
    await capture.snap(f"hand-your-move{suffix}", who=mover, place="dm", focus=[_hand(capture, mover)])
    await capture.snap(f"hand-not-your-move{suffix}", who=waiting, place="dm", focus=[_hand(capture, waiting)])

    record = await capture.press(waiting, _table(capture), "hand")
    private = await record.wait_response()
    await capture.snap(f"my-hand{suffix}", who=waiting, focus=[private])

    if suffix:
        return  # one refusal is enough
    # A person clicks a card while another is to play: their hand offers no move then, so the click
    # comes from a button of an older message (a stale copy, a tampered client), as Discord lets it.
    hand = _hand(capture, waiting)
    seat = table.seat_of(waiting.id)
    assert seat is not None
    card = table.game.hands[seat][0]
    forged = _ids.build(_ids.ActionId(table.id, table.game.round, table.next_trick(seat), Play(card)))
    record = await capture.driver.click_custom_id(waiting, hand, forged)
    await record.wait_acked(3)
    await capture.settle()
    place = "dm"
    answers = [m for m in record.messages if m.id != hand.id]
    if not answers:
        raise AssertionError(f"the click out of turn was answered with callbacks {record.callback_types}")
    await capture.snap("refusal-out-of-turn", who=waiting, place=place, focus=answers)


async def review(capture: Capture) -> None:
    """The coach's review of a whole game (or `--rounds`), as a player opens it from the final
    standings: its summary, then its pages turned one by one, the first and the last saved."""
    host, *others = capture.seats
    watcher = others[0]
    options = {"rounds": capture.rounds} if capture.rounds else None
    lobby = await (await capture.driver.slash(host, capture.channel, "wizard start", options)).wait_response()
    for person in others:
        await (await capture.press(person, lobby, "join")).wait_acked(3)
    await (await capture.press(host, lobby, "start")).wait_acked(3)
    await capture.standin.wait_for(lambda: capture.table_message(), 5, "the first table")
    await capture.play_to_end()
    final = await capture.final_message()
    [opening] = [c for c in final.all_components() if isinstance(_button(c), _ids.ReviewId)]
    # The first opening works the review out with the hard player's whole search: seconds.
    answer = await (await capture.driver.click(watcher, final, str(opening["custom_id"]))).wait_response(120)
    await capture.snap("review-summary", who=watcher, focus=[answer])
    page = 0
    while True:
        forward = [c for c in answer.all_components() if _page(c) == page + 1]
        if not forward:
            break
        await (await capture.driver.click(watcher, answer, str(forward[0]["custom_id"]))).wait_acked(3)
        page += 1
        if page == 1:
            await capture.snap("review-rounds-first", who=watcher, focus=[answer])
    await capture.snap("review-rounds-last", who=watcher, focus=[answer], note=f"page {page} of the rounds")


def _button(component: dict[str, object]) -> _ids.ButtonId | None:
    try:
        return _ids.parse(str(component.get("custom_id", "")))
    except ValueError:
        return None


def _page(component: dict[str, object]) -> int | None:
    """The page a review's page button turns to (None for any other component)."""
    button = _button(component)
    return button.page if isinstance(button, _ids.ReviewPageId) else None


def _table(capture: Capture) -> StoredMessage:
    message = capture.table_message()
    assert message is not None, "the channel shows no live table"
    return message


def _hand(capture: Capture, user: User) -> StoredMessage:
    message = capture.hand(user)
    assert message is not None, f"{user.name} has no DM hand"
    return message


def _mover(capture: Capture) -> User:
    user = capture.mover()
    assert user is not None, "the game waits for nobody"
    return user


SCENARIOS: dict[str, Scenario] = {"tour": tour, "review": review}
