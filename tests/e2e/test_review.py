"""The coach (issue 20, item 5): after a game each person opens a private review of their own play."""

from __future__ import annotations

from bot.engine import Card, Game, Kind, Options, sort_key
from tests.e2e._play import Recorder, start_game
from tests.e2e._reading import Face, faces
from tests.e2e.conftest import GAME_SEED, World
from tests.e2e.standin import InteractionRecord, StoredMessage, User

SHORT = {"rounds": 2}  # a whole game in a dozen moves; the review weighs its bids and cards
REVIEW_SECONDS = 30  # the first review of a game is worked out then (well under a second here)


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


def shows_only_own_hands(review: StoredMessage, own: list[tuple[Card, ...]], others: list[tuple[Card, ...]]) -> None:
    [embed] = review.embeds
    fields = embed["fields"]
    # A field per round, headed by the reviewer's hand of that round as dealt.
    assert [faces(field["name"]) for field in fields] == [[Face.of(card) for card in hand] for hand in own]
    assert [field["name"].split(":")[0] for field in fields] == [f"Round {place}" for place in range(1, len(own) + 1)]
    named = number_cards_named(review.text())
    mine = {Face.of(card) for hand in own for card in hand if card.suit is not None}
    theirs = {Face.of(card) for hand in others for card in hand if card.suit is not None}
    assert named <= mine
    assert not named & theirs


async def test_each_person_opens_a_review_of_their_own_hands_by_button_or_command(world: World) -> None:
    seats = world.people[:3]
    await start_game(world, seats, **SHORT)
    recorder = Recorder(world, seats)
    await recorder.play_to_end()
    hands = hands_dealt(recorder, len(seats))
    final = next(m for m in world.driver.channel_view(world.channel) if "Final standings" in m.text())
    bob, carol = seats[1], seats[2]

    clicked = await world.driver.click(bob, final, "My review")
    by_button = await private_answer(world, clicked, bob)
    assert "reviewed by the coach" in by_button.text()
    shows_only_own_hands(by_button, hands[bob.id], [h for u, hs in hands.items() if u != bob.id for h in hs])

    asked = await world.driver.slash(carol, world.channel, "wizard review")
    by_command = await private_answer(world, asked, carol)
    shows_only_own_hands(by_command, hands[carol.id], [h for u, hs in hands.items() if u != carol.id for h in hs])


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
