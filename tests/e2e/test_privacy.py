"""No one ever sees a card another player still holds: not in the channel, their DMs or their private replies."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.manager import Table
from cogs.wizard import _ids
from tests.e2e._play import Recorder, shown_round, start_game, table_message, versions
from tests.e2e._reading import Face, faces
from tests.e2e.conftest import World
from tests.e2e.standin import StoredMessage, User


@dataclass
class PrivacyWatch:
    """Checks every version of every message each person can see against the hands at that moment.

    A message version that shows the current round may name no suited card, and carry no card
    button, of a hand other than the viewer's. Hands only shrink during a round, so a card held
    now was held whenever a version of this round was drawn. Versions are checked once, when
    first seen; card buttons name their round, so they are checked against that round's deal.
    """

    world: World
    table: Table
    seats: list[User]
    viewers: list[User]
    dealt: dict[int, list[set[str]]] = field(default_factory=dict)  # round -> each seat's cards
    checked: dict[tuple[int, int], int] = field(default_factory=dict)  # (viewer, message) -> versions seen
    versions_checked: int = 0

    def seen_by(self, viewer: User) -> list[StoredMessage]:
        driver = self.world.driver
        messages = {m.id: m for m in driver.visible(viewer, self.world.channel)}
        messages.update((m.id, m) for m in driver.dm_view(viewer))
        messages.update((m.id, m) for m in driver.ephemeral_view(viewer))
        return list(messages.values())

    def check(self) -> None:
        game = self.table.game
        held = [list(hand) for hand in game.hands]
        dealt = [{card.code for card in hand} for hand in held]
        for trick in game.tricks:
            for seat, card in trick.by_seat():
                dealt[seat].add(card.code)
        for seat, card in game.current_trick():
            dealt[seat].add(card.code)
        self.dealt[game.round] = dealt
        for viewer in self.viewers:
            seat = next((i for i, user in enumerate(self.seats) if user.id == viewer.id), None)
            others = [card for i, hand in enumerate(held) if i != seat for card in hand]
            hidden = {Face.of(card) for card in others if card.suit is not None}
            for message in self.seen_by(viewer):
                all_versions = versions(message)
                start = self.checked.get((viewer.id, message.id), 0)
                for version in all_versions[start:]:
                    self.check_version(viewer, seat, version, game.round, hidden)
                self.checked[viewer.id, message.id] = len(all_versions)

    def check_version(
        self,
        viewer: User,
        seat: int | None,
        version: StoredMessage,
        current_round: int,
        hidden: set[Face],
    ) -> None:
        self.versions_checked += 1
        shown = shown_round(version)
        if shown is None or shown == current_round:
            text = version.text()
            seen = hidden.intersection(faces(text))
            assert not seen, f"{viewer.name} sees {seen}, held by another player, in message {version.id}: {text!r}"
        for component in version.all_components():
            custom_id = str(component.get("custom_id", ""))
            if not custom_id.startswith(_ids.PREFIX):
                continue
            try:
                button = _ids.parse(custom_id)
            except ValueError:
                continue
            if not isinstance(button, _ids.ActionId) or not custom_id.startswith(f"{_ids.PREFIX}play:"):
                continue
            assert seat is not None, f"{viewer.name}, not playing, sees the card button {custom_id}"
            own = self.dealt.get(button.round, [set()] * len(self.seats))[seat]
            code = custom_id.rsplit(":", 1)[1]
            assert code in own, f"{viewer.name} sees the button {custom_id} for a card not theirs (theirs: {own})"


@dataclass
class WatchedRecorder(Recorder):
    """Checks privacy before every move; at each new round one player also looks at "My hand"."""

    watch: PrivacyWatch | None = None
    last_round: int = 0

    async def step(self) -> None:
        assert self.watch is not None
        self.watch.check()
        game = self.watch.table.game
        if game.round != self.last_round and not game.is_over:
            self.last_round = game.round
            looker = self.seats[game.round % len(self.seats)]
            message = await self.world.standin.wait_for(
                lambda: (m := table_message(self.world)) and shown_round(m) == game.round and m, 5, "the table"
            )
            record = await self.world.driver.click(looker, message, "My hand")
            hand = await record.wait_response()
            assert hand.ephemeral_to == looker.id
        await super().step()


async def test_no_one_ever_sees_a_card_another_player_holds(world: World) -> None:
    seats = world.people[:4]
    table = await start_game(world, seats)
    watch = PrivacyWatch(world, table, seats, viewers=[*seats, world.outsider])
    recorder = WatchedRecorder(world, seats, watch=watch)

    await recorder.play_to_end()
    watch.check()

    assert table.game.is_over
    assert len(watch.dealt) == table.game.rounds
    # Each player saw their own hand in DMs and, once a round for one of them, privately in the channel.
    assert watch.versions_checked > 1000
    assert {len(world.driver.ephemeral_view(user, world.channel)) for user in seats} != {0}
