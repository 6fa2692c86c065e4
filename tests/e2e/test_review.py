"""The coach (issue 20, item 5): after a game each person opens a private review of their own play."""

from __future__ import annotations

import re

from bot.engine import Card, Game, Kind, Options, sort_key
from cogs.wizard import _ids
from tests.e2e._play import Recorder, start_game
from tests.e2e._reading import Face, faces
from tests.e2e.conftest import GAME_SEED, World
from tests.e2e.standin import InteractionRecord, StoredMessage, User

SHORT = {"rounds": 5}  # a whole game in a few dozen moves: pages of rounds to turn
REVIEW_SECONDS = 30  # the first review of a game is worked out then (about a second here)


def hands_dealt(recorder: Recorder, players: int) -> dict[int, list[tuple[Card, ...]]]:
    """Each person's hand of each round, by user id, from the game the recorder played."""
    seat = {user.id: index for index, user in enumerate(recorder.seats)}
    game = Game(players, GAME_SEED, Options(rounds=SHORT["rounds"]))
    hands: dict[int, list[tuple[Card, ...]]] = {user.id: [] for user in recorder.seats}
    for user, action in recorder.moves:
        if len(hands[user.id]) < game.round_position:  # the round's first move: every hand as dealt
            for other in recorder.seats:
                hands[other.id].append(tuple(sorted(game.hands[seat[other.id]], key=sort_key)))
        game.apply(action, by=seat[user.id])
    assert game.is_over
    return hands


async def private_answer(world: World, record: InteractionRecord, user: User) -> StoredMessage:
    """The private message that answers a deferred interaction, once it is filled in."""
    answer = await world.standin.wait_for(
        lambda: record.original if record.original is not None and not record.original.loading else None,
        REVIEW_SECONDS,
        "the review",
    )
    assert answer.ephemeral_to == user.id, f"the answer is not private to {user.name}: {answer.text()!r}"
    return answer


def number_cards_named(text: str) -> set[Face]:
    """The suited cards a text names, as a person reads them."""
    return {face for face in faces(text) if face.kind is Kind.NUMBER}


def page_buttons(message: StoredMessage) -> dict[int, str]:
    """The review's page buttons: the page each turns to, and its custom_id."""
    found = {}
    for component in message.all_components():
        try:
            button = _ids.parse(str(component.get("custom_id", "")))
        except ValueError:
            continue
        if isinstance(button, _ids.ReviewPageId):
            found[button.page] = str(component["custom_id"])
    return found


async def turn_to(world: World, user: User, review: StoredMessage, page: int) -> InteractionRecord:
    """Click the review's button to `page`; it answers by showing that page in the same message."""
    clicked = await world.driver.click(user, review, page_buttons(review)[page])
    await clicked.wait_acked(3)
    assert clicked.callback_types == [7], f"the page was not shown in place: {clicked.callback_types}"
    return clicked


async def every_page(world: World, user: User, review: StoredMessage) -> list[str]:
    """The text of each page of a review, turned to one after the other with its Next buttons."""
    pages = [review.text()]
    while len(pages) in page_buttons(review):
        await turn_to(world, user, review, len(pages))
        pages.append(review.text())
    return pages


def by_round(pages: list[str]) -> dict[int, list[str]]:
    """What the review's pages say of each round: its block on the pages of rounds, and its costliest
    decisions on the summary (each with its line of why)."""
    said: dict[int, list[str]] = {}
    lines = "\n".join(pages).splitlines()
    for index, line in enumerate(lines):
        if heading := re.match(r"\*\*Round (\d+)\*\* · ", line):
            block = lines[index : next((i for i in range(index + 1, len(lines)) if lines[i].startswith("**")), None)]
            said.setdefault(int(heading[1]), []).append("\n".join(block))
        elif costly := re.match(r"\*\*\d\.\*\* Round (\d+), ", line):
            said.setdefault(int(costly[1]), []).append(f"{line}\n{lines[index + 1]}")
    return said


async def shows_only_own_hands(
    world: World, user: User, review: StoredMessage, own: list[tuple[Card, ...]], others: list[list[tuple[Card, ...]]]
) -> None:
    """The review, page by page, shows each round's hand as `user` was dealt it, and names no card of
    that round but theirs (`others`: the other hands, round by round)."""
    pages = await every_page(world, user, review)
    assert "The coach's review" in pages[0]
    said = by_round(pages)
    assert sorted(said) == list(range(1, len(own) + 1))
    for place, texts in said.items():
        # The round's heading, then the hand as dealt (the review orders it by suit).
        [block] = [text for text in texts if text.startswith("**Round")]
        assert sorted(faces(block.splitlines()[1]), key=repr) == sorted(map(Face.of, own[place - 1]), key=repr)
        named = number_cards_named("\n".join(texts))
        assert named <= {Face.of(card) for card in own[place - 1]}
        assert not named & {Face.of(card) for hand in others[place - 1] for card in hand}


async def test_each_person_opens_a_review_of_their_own_hands_by_button_or_command(world: World) -> None:
    seats = world.people[:3]
    await start_game(world, seats, **SHORT)
    recorder = Recorder(world, seats)
    await recorder.play_to_end()
    hands = hands_dealt(recorder, len(seats))
    final = next(m for m in world.driver.channel_view(world.channel) if "Final standings" in m.text())
    bob, carol = seats[1], seats[2]

    def others(user: User) -> list[list[tuple[Card, ...]]]:
        return [[hs[place] for u, hs in hands.items() if u != user.id] for place in range(SHORT["rounds"])]

    clicked = await world.driver.click(bob, final, "My review")
    by_button = await private_answer(world, clicked, bob)
    await shows_only_own_hands(world, bob, by_button, hands[bob.id], others(bob))

    asked = await world.driver.slash(carol, world.channel, "wizard review")
    by_command = await private_answer(world, asked, carol)
    await shows_only_own_hands(world, carol, by_command, hands[carol.id], others(carol))


async def test_a_person_who_did_not_play_is_refused_privately(world: World) -> None:
    seats = world.people[:3]
    await start_game(world, seats, rounds=1)
    await Recorder(world, seats).play_to_end()
    final = next(m for m in world.driver.channel_view(world.channel) if "Final standings" in m.text())
    olga = world.outsider

    clicked = await world.driver.click(olga, final, "My review")
    refusal = await private_answer(world, clicked, olga)
    assert (
        refusal.text() == "Only the people who played this game can review it: a review shows the reviewer's own cards."
    )
    asked = await world.driver.slash(olga, world.channel, "wizard review")
    refusal = await private_answer(world, asked, olga)
    assert refusal.text() == "You have no finished game on this server to review yet."


async def finished_review(world: World, rounds: int = 5) -> tuple[StoredMessage, StoredMessage]:
    """A finished game's final standings, and Bob's review opened from them."""
    seats = world.people[:3]
    await start_game(world, seats, rounds=rounds)
    await Recorder(world, seats).play_to_end()
    final = next(m for m in world.driver.channel_view(world.channel) if "Final standings" in m.text())
    review = await private_answer(world, await world.driver.click(seats[1], final, "My review"), seats[1])
    return final, review


async def test_the_pages_turn_in_place_back_and_forth_and_back_to_the_summary(world: World) -> None:
    _, review = await finished_review(world)
    bob = world.people[1]
    summary = review.text()
    assert "The costliest of your decisions" in summary or "would have made your choices" in summary
    await turn_to(world, bob, review, 1)
    first = review.text()
    assert first.startswith("-# Page 1 of ")
    assert first != summary
    await turn_to(world, bob, review, 2)
    await turn_to(world, bob, review, 1)
    assert review.text() == first
    await turn_to(world, bob, review, 0)
    assert review.text() == summary
    assert [m.id for m in world.standin.ephemeral_messages(bob)] == [review.id]  # one message, turned


async def test_a_page_click_of_someone_who_did_not_play_is_refused(world: World) -> None:
    _, review = await finished_review(world)
    olga = world.outsider
    forged = await world.driver.click_custom_id(olga, review, page_buttons(review)[1])
    refusal = await forged.wait_response()
    assert refusal.ephemeral_to == olga.id
    assert refusal.text() == (
        "Only the people who played this game can review it: a review shows the reviewer's own cards."
    )
    assert "The coach's review" in review.text()  # Bob's review is as it was


async def test_a_page_the_review_does_not_have_gets_a_clear_answer(world: World) -> None:
    _, review = await finished_review(world)
    bob = world.people[1]
    shown = review.text()
    game = _ids.parse(page_buttons(review)[1]).game  # type: ignore[union-attr]
    forged = await world.driver.click_custom_id(bob, review, _ids.build(_ids.ReviewPageId(game, 99)))
    answer = await forged.wait_response()
    assert answer.id != review.id
    assert answer.ephemeral_to == bob.id
    assert answer.text().startswith("That page is not in your review of this game")
    assert review.text() == shown


async def test_a_page_forged_onto_a_public_message_comes_privately(world: World) -> None:
    final, review = await finished_review(world)
    bob = world.people[1]
    standings = final.text()
    forged = await world.driver.click_custom_id(bob, final, page_buttons(review)[1])
    answer = await forged.wait_response()
    assert answer.id != final.id
    assert answer.ephemeral_to == bob.id
    assert answer.text().startswith("-# Page 1 of ")
    assert final.text() == standings  # the channel's standings are not replaced by a private review


async def test_a_page_of_a_review_stored_in_an_older_form_is_worked_out_again(world: World) -> None:
    _, review = await finished_review(world)
    bob = world.people[1]
    game = _ids.parse(page_buttons(review)[1]).game  # type: ignore[union-attr]
    repository = world.bot.repository
    assert repository is not None
    # As if the bot had been upgraded since Bob opened his review: what is stored is of an older form.
    await repository.save_review(game, 1, {"version": 1, "game": game, "seat": 1, "rounds": []})
    clicked = await world.driver.click(bob, review, page_buttons(review)[1])
    turned = await clicked.wait_response(REVIEW_SECONDS)
    assert clicked.callback_types == [6]  # worked out again, which takes seconds: the click is deferred
    assert turned.id == review.id
    assert review.text().startswith("-# Page 1 of ")
    stored = await repository.review(game, 1)
    assert stored is not None
    assert stored["version"] != 1
