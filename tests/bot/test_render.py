"""Rendering of the lobby, the table, a hand, the round summary and the final standings."""

from __future__ import annotations

import discord
import pytest

from bot.engine import Bid, Card, Deal, Game, Options, Phase, Play, RoundResult, deal_hands
from bot.manager import Lobby, Player, Table
from cogs.wizard import _ids, _render
from cogs.wizard._presenter import _shown

PLAYERS = [Player(1, "Ann"), Player(2, "Bo_b*"), Player(3, "Cy"), Player(4, "Di"), Player(5, "Ed"), Player(6, "Flo")]
LOCALE = "en-US"


def make_table(game: Game) -> Table:
    return Table("00ab", 10, 20, 1, 300, PLAYERS[: game.players], game)


def three_player_round_two(turned_up: str = "D5", **options: bool) -> Table:
    """Round 2 for three seats, seat 0 dealing: seat 1 bids first."""
    hands = deal_hands([["H1", "S7"], ["H9", "W1"], ["J1", "C3"]])
    deals = {2: Deal(hands, Card.parse(turned_up))}
    return make_table(Game(3, 0, Options(**options), deals=deals, first_dealer=0, start_round=2))


def buttons(view: discord.ui.View | None) -> list[dict[str, object]]:
    assert view is not None
    return [child for row in view.to_components() for child in row["components"]]


def test_the_table_shows_round_dealer_trump_bids_and_whose_turn() -> None:
    table = three_player_round_two()
    table.game.apply(Bid(1))
    embed = _render.table_embed(table, LOCALE)
    text = f"{embed.title}\n{embed.description}\n{embed.footer.text}"
    assert "round 2 of 20" in text
    assert "Dealer: Ann" in text
    assert "Turned up: ♦️5" in text
    assert "Trump: ♦️ Diamonds" in text
    assert "Bids: 1 of 2 tricks" in text
    assert "▶ **Cy** — bid –" in text
    assert "Cy is bidding." in text


def test_player_names_are_escaped_so_they_cannot_format_the_table() -> None:
    embed = _render.table_embed(three_player_round_two(), LOCALE)
    assert "Bo\\_b\\*" in (embed.description or "")


def play_first_trick(table: Table) -> None:
    """Bids 1, 1, 0; seat 1 leads the Wizard and wins; Cy and Ann discard."""
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("W1")), Play(Card.parse("C3")), Play(Card.parse("H1"))):
        table.game.apply(action)


def test_the_table_shows_the_last_trick_with_its_winning_card_in_bold() -> None:
    table = three_player_round_two()
    play_first_trick(table)
    fields = {field.name: field.value for field in _render.table_embed(table, LOCALE).fields}
    assert fields["Last trick"] == "**Bo\\_b\\* 🧙 Wizard** · Cy ♣️3 · Ann ♥️1 — won by **Bo\\_b\\*** with 🧙 Wizard"
    assert fields["Current trick"] == "No card played yet."


def test_the_table_shows_the_trick_in_play() -> None:
    table = three_player_round_two()
    play_first_trick(table)
    table.game.apply(Play(Card.parse("H9")))
    fields = {field.name: field.value for field in _render.table_embed(table, LOCALE).fields}
    assert fields["Current trick"] == "Bo\\_b\\* ♥️9"


def test_the_table_says_the_dealer_is_choosing_when_a_wizard_is_turned_up() -> None:
    embed = _render.table_embed(three_player_round_two(turned_up="W2"), LOCALE)
    assert "Trump: the dealer is choosing" in (embed.description or "")
    assert embed.footer.text == "Ann is choosing trump."


def test_the_table_shows_no_trump_for_a_turned_up_jester() -> None:
    embed = _render.table_embed(three_player_round_two(turned_up="J3"), LOCALE)
    assert "No trump" in (embed.description or "")


def test_the_table_of_the_last_round_has_no_turned_up_card_and_no_trump() -> None:
    table = make_table(Game(6, 1, start_round=10))
    description = _render.table_embed(table, LOCALE).description or ""
    assert "No card turned up (last round)" in description
    assert "No trump" in description


def test_the_table_never_shows_a_card_in_a_hand() -> None:
    table = three_player_round_two()
    embed = _render.table_embed(table, LOCALE).to_dict()
    for name in ("♥️1", "♠️7", "♥️9", "🧙", "🃏", "♣️3"):
        assert name not in str(embed)


def test_a_hand_lists_only_the_players_own_cards() -> None:
    table = three_player_round_two()
    observation = table.game.observation(0)
    text = str(_render.hand_embed(table, observation, LOCALE).to_dict())
    assert "♥️1" in text
    assert "♠️7" in text
    for other in ("♥️9", "🧙", "🃏", "♣️3"):
        assert other not in text


def test_the_dealer_gets_four_suit_buttons_after_a_turned_up_wizard() -> None:
    table = three_player_round_two(turned_up="W2")
    dealer = table.game.observation(0)
    labels = [button["label"] for button in buttons(_render.hand_view(table, dealer, LOCALE))]
    assert labels == ["Spades", "Hearts", "Diamonds", "Clubs"]
    assert "choose trump" in (_render.hand_embed(table, dealer, LOCALE).description or "")


def test_bid_buttons_go_from_zero_to_the_hand_size() -> None:
    table = three_player_round_two()
    view = _render.hand_view(table, table.game.observation(1), LOCALE)
    assert [(b["label"], b.get("disabled", False)) for b in buttons(view)] == [("0", False), ("1", False), ("2", False)]


def test_the_forbidden_bid_is_disabled_with_the_reason_shown() -> None:
    table = three_player_round_two(bids_may_not_add_up=True)
    table.game.apply(Bid(1))
    table.game.apply(Bid(0))
    last = table.game.observation(0)
    states = {b["label"]: b.get("disabled", False) for b in buttons(_render.hand_view(table, last, LOCALE))}
    assert states == {"0": False, "1": True, "2": False}
    assert "You may not bid 1: the bids may not add up to 2." in (
        _render.hand_embed(table, last, LOCALE).description or ""
    )


def test_only_legal_cards_are_enabled_and_cards_are_sorted() -> None:
    table = three_player_round_two()
    for bid in (Bid(1), Bid(1), Bid(0)):
        table.game.apply(bid)
    table.game.apply(Play(Card.parse("H9")))  # hearts led: seat 2 holds no heart, seat 0 must follow
    table.game.apply(Play(Card.parse("C3")))
    view = _render.hand_view(table, table.game.observation(0), LOCALE)
    # Spades come before hearts in the display order.
    assert [(b["label"], b.get("disabled", False)) for b in buttons(view)] == [("7", True), ("1", False)]


def test_a_waiting_player_sees_their_cards_disabled_and_a_hand_that_does_not_change_with_the_turn() -> None:
    table = three_player_round_two()
    for bid in (Bid(1), Bid(1), Bid(0)):
        table.game.apply(bid)
    observation = table.game.observation(2)
    assert all(b.get("disabled") for b in buttons(_render.hand_view(table, observation, LOCALE)))
    assert "Not your turn yet" in str(_render.hand_embed(table, observation, LOCALE).to_dict())


def shown(table: Table, seat: int) -> object:
    observation = table.game.observation(seat)
    return _shown(_render.hand_embed(table, observation, LOCALE), _render.hand_view(table, observation, LOCALE))


def test_a_waiting_hand_is_not_edited_when_someone_else_plays() -> None:
    table = three_player_round_two()
    for bid in (Bid(1), Bid(1), Bid(0)):
        table.game.apply(bid)
    before = shown(table, 0)
    table.game.apply(Play(Card.parse("H9")))  # seat 1 leads; seat 0 still waits
    assert shown(table, 0) == before
    table.game.apply(Play(Card.parse("J1")))  # now it is seat 0's turn: its hand changes
    assert shown(table, 0) != before


def test_buttons_carry_the_round_and_trick_they_were_drawn_for() -> None:
    table = three_player_round_two()
    play_first_trick(table)
    view = _render.hand_view(table, table.game.observation(1), LOCALE)
    parsed = [_ids.parse(str(b["custom_id"])) for b in buttons(view)]
    assert parsed == [_ids.ActionId("00ab", 2, 1, Play(Card.parse("H9")))]


@pytest.mark.parametrize(("players", "round_number"), [(3, 20), (6, 10)])
def test_the_largest_hands_and_bids_fit_discords_button_limits(players: int, round_number: int) -> None:
    table = make_table(Game(players, 3, start_round=round_number))
    bidder = table.game.observation(table.game.to_move or 0)
    for view in (_render.hand_view(table, bidder, LOCALE),):
        rows = view.to_components() if view else []
        assert len(rows) <= 5
        assert all(len(row["components"]) <= 5 for row in rows)
        assert sum(len(row["components"]) for row in rows) == round_number + 1
    while table.game.phase is not Phase.PLAY:
        table.game.apply(table.game.legal_actions()[0])
    player = table.game.observation(table.game.to_move or 0)
    rows = _render.hand_view(table, player, LOCALE).to_components()  # type: ignore[union-attr]
    assert sum(len(row["components"]) for row in rows) == round_number


def test_the_score_pad_aligns_bid_took_points_and_total_and_marks_exact_bids() -> None:
    result = RoundResult(2, bids=(1, 0, 2), tricks=(1, 1, 0), points=(30, -10, -20), totals=(50, -10, 0))
    pad = _render.score_pad(make_table(Game(3, 0)), result, LOCALE)
    assert pad.splitlines() == [
        "```",
        "Player            Bid   Took Points  Total",
        "Ann                 1      1    +30     50 ✓",
        "Bo_b*               0      1    -10    -10",
        "Cy                  2      0    -20      0",
        "```",
    ]


LONG_NAMES = ["Maximilian the Magnificent", "`tick`", "한국어이름이름", "Ψ" * 30, "Zoë", "Ed"]


@pytest.mark.parametrize("players", [3, 6])
def test_the_score_pad_keeps_columns_aligned_with_long_names_and_negative_scores(players: int) -> None:
    table = Table(
        "00ab", 10, 20, 1, 300, [Player(i, name) for i, name in enumerate(LONG_NAMES[:players])], Game(players, 0)
    )
    result = RoundResult(
        7, bids=(7,) * players, tricks=(0,) * players, points=(-70,) * players, totals=(-1230,) * players
    )
    rows = _render.score_pad(table, result, LOCALE).splitlines()[2:-1]
    assert len(rows) == players
    # Every row puts the numbers in the same columns, whatever the name (wide Korean letters count twice).
    assert {_render._width(row) for row in rows} == {_render._width(rows[0])}
    assert all(row.endswith("   -70  -1230") for row in rows)
    assert "`" not in "".join(rows)  # a backtick in a name would end the code block


def test_final_standings_share_places_and_the_win_on_a_tie() -> None:
    table = make_table(Game(4, 0))
    table.game.scores[:] = [120, 150, 150, -30]
    text = _render.final_embed(table, LOCALE).description or ""
    assert text.splitlines() == [
        "1. **Bo\\_b\\*** — 150 points",
        "1. **Cy** — 150 points",
        "3. **Ann** — 120 points",
        "4. **Di** — -30 points",
        "",
        "🏆 Bo\\_b\\*, Cy share the win!",
    ]


def test_the_lobby_lists_host_players_and_options() -> None:
    lobby = Lobby("00ab", 10, 20, 1, Options(bids_may_not_add_up=True), 120, PLAYERS[:2])
    embed = _render.lobby_embed(lobby, LOCALE)
    fields = {field.name: field.value for field in embed.fields}
    assert fields["Host"] == "Ann"
    assert fields["Players (2/6)"] == "1. Ann\n2. Bo\\_b\\*"
    assert fields["Options"] == "Bids may not add up to the number of tricks\nTurn timer: 2 minutes"
    ids = [_ids.parse(str(b["custom_id"])) for b in buttons(_render.lobby_view(lobby, LOCALE))]
    assert ids == [_ids.LobbyId("00ab", op) for op in _ids.LOBBY_OPS + _ids.RULE_OPS]
