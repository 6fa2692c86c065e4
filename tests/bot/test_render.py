"""Rendering of the lobby, the table, a hand, the round summary and the final standings."""

from __future__ import annotations

import random

import discord
import pytest

from bot import i18n
from bot.engine import Bid, Card, ChooseTrump, Deal, Game, Options, Phase, Play, RoundResult, deal_hands
from bot.i18n import card_name
from bot.manager import Lobby, Player, Table
from cogs.wizard import _end, _hand, _ids, _lobby, _look, _table
from cogs.wizard._feed import fingerprint

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
    embed = _table.table_embed(table, LOCALE)
    text = f"{embed.title}\n{embed.description}\n{embed.footer.text}"
    assert "round 2 of 20" in text
    assert "Dealer: Ann" in text
    assert "Turned up: ♦️5" in text
    assert "Trump: ♦️ Diamonds" in text
    assert "Bids: 1 · tricks this round: 2" in text
    assert "▶ **Cy** — bid –" in text
    assert "Cy is bidding." in text


def test_player_names_are_escaped_so_they_cannot_format_the_table() -> None:
    embed = _table.table_embed(three_player_round_two(), LOCALE)
    assert "Bo\\_b\\*" in (embed.description or "")


def play_first_trick(table: Table) -> None:
    """Bids 1, 1, 0; seat 1 leads the Wizard and wins; Cy and Ann discard."""
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("W1")), Play(Card.parse("C3")), Play(Card.parse("H1"))):
        table.game.apply(action)


def test_the_table_shows_the_last_trick_with_its_winning_card_in_bold() -> None:
    table = three_player_round_two()
    play_first_trick(table)
    fields = {field.name: field.value for field in _table.table_embed(table, LOCALE).fields}
    assert fields["Last trick"] == "**Bo\\_b\\* 🧙 Wizard** · Cy ♣️3 · Ann ♥️1 — won by **Bo\\_b\\*** with 🧙 Wizard"
    assert fields["Current trick"] == "No card played yet."


def test_the_table_shows_the_trick_in_play() -> None:
    table = three_player_round_two()
    play_first_trick(table)
    table.game.apply(Play(Card.parse("H9")))
    fields = {field.name: field.value for field in _table.table_embed(table, LOCALE).fields}
    assert fields["Current trick"] == "Bo\\_b\\* ♥️9"


def test_the_table_says_the_dealer_is_choosing_when_a_wizard_is_turned_up() -> None:
    embed = _table.table_embed(three_player_round_two(turned_up="W2"), LOCALE)
    assert "Trump: the dealer is choosing" in (embed.description or "")
    assert embed.footer.text == "Ann is choosing trump."


def test_the_table_shows_no_trump_for_a_turned_up_jester() -> None:
    embed = _table.table_embed(three_player_round_two(turned_up="J3"), LOCALE)
    assert "No trump" in (embed.description or "")


def test_the_table_of_the_last_round_has_no_turned_up_card_and_no_trump() -> None:
    table = make_table(Game(6, 1, start_round=10))
    description = _table.table_embed(table, LOCALE).description or ""
    assert "No card turned up (last round)" in description
    assert "No trump" in description


def test_the_table_never_shows_a_card_in_a_hand() -> None:
    table = three_player_round_two()
    embed = _table.table_embed(table, LOCALE).to_dict()
    for name in ("♥️1", "♠️7", "♥️9", "🧙", "🃏", "♣️3"):
        assert name not in str(embed)


def test_a_hand_lists_only_the_players_own_cards() -> None:
    table = three_player_round_two()
    observation = table.game.observation(0)
    text = str(_hand.hand_embed(table, observation, LOCALE).to_dict())
    assert "♥️1" in text
    assert "♠️7" in text
    for other in ("♥️9", "🧙", "🃏", "♣️3"):
        assert other not in text


def test_the_dealer_gets_four_suit_buttons_after_a_turned_up_wizard() -> None:
    table = three_player_round_two(turned_up="W2")
    dealer = table.game.observation(0)
    labels = [button["label"] for button in buttons(_hand.hand_view(table, dealer, LOCALE))]
    assert labels == ["Spades", "Hearts", "Diamonds", "Clubs"]
    assert "choose trump" in (_hand.hand_embed(table, dealer, LOCALE).description or "")


def test_bid_buttons_go_from_zero_to_the_hand_size() -> None:
    table = three_player_round_two()
    view = _hand.hand_view(table, table.game.observation(1), LOCALE)
    assert [(b["label"], b.get("disabled", False)) for b in buttons(view)] == [("0", False), ("1", False), ("2", False)]


def test_the_forbidden_bid_is_disabled_with_the_reason_shown() -> None:
    table = three_player_round_two(bids_may_not_add_up=True)
    table.game.apply(Bid(1))
    table.game.apply(Bid(0))
    last = table.game.observation(0)
    states = {b["label"]: b.get("disabled", False) for b in buttons(_hand.hand_view(table, last, LOCALE))}
    assert states == {"0": False, "1": True, "2": False}
    assert "You may not bid 1: the bids may not add up to 2." in (
        _hand.hand_embed(table, last, LOCALE).description or ""
    )


def test_only_legal_cards_are_enabled_and_cards_are_sorted() -> None:
    table = three_player_round_two()
    for bid in (Bid(1), Bid(1), Bid(0)):
        table.game.apply(bid)
    table.game.apply(Play(Card.parse("H9")))  # hearts led: seat 2 holds no heart, seat 0 must follow
    table.game.apply(Play(Card.parse("C3")))
    view = _hand.hand_view(table, table.game.observation(0), LOCALE)
    # Spades come before hearts in the display order.
    assert [(b["label"], b.get("disabled", False)) for b in buttons(view)] == [("7", True), ("1", False)]


def test_a_waiting_player_sees_their_cards_disabled_and_a_hand_that_does_not_change_with_the_turn() -> None:
    table = three_player_round_two()
    for bid in (Bid(1), Bid(1), Bid(0)):
        table.game.apply(bid)
    observation = table.game.observation(2)
    assert all(b.get("disabled") for b in buttons(_hand.hand_view(table, observation, LOCALE)))
    assert "Not your turn yet" in str(_hand.hand_embed(table, observation, LOCALE).to_dict())


def shown(table: Table, seat: int) -> object:
    observation = table.game.observation(seat)
    return fingerprint(_hand.hand_embed(table, observation, LOCALE), _hand.hand_view(table, observation, LOCALE))


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
    view = _hand.hand_view(table, table.game.observation(1), LOCALE)
    parsed = [_ids.parse(str(b["custom_id"])) for b in buttons(view)]
    assert parsed == [_ids.ActionId("00ab", 2, 1, Play(Card.parse("H9")))]


@pytest.mark.parametrize(("players", "round_number"), [(3, 20), (6, 10)])
def test_the_largest_hands_and_bids_fit_discords_button_limits(players: int, round_number: int) -> None:
    table = make_table(Game(players, 3, start_round=round_number))
    bidder = table.game.observation(table.game.to_move or 0)
    for view in (_hand.hand_view(table, bidder, LOCALE),):
        rows = view.to_components() if view else []
        assert len(rows) <= 5
        assert all(len(row["components"]) <= 5 for row in rows)
        assert sum(len(row["components"]) for row in rows) == round_number + 1
    while table.game.phase is not Phase.PLAY:
        table.game.apply(table.game.legal_actions()[0])
    player = table.game.observation(table.game.to_move or 0)
    rows = _hand.hand_view(table, player, LOCALE).to_components()  # type: ignore[union-attr]
    assert sum(len(row["components"]) for row in rows) == round_number


def test_the_score_pad_aligns_bid_took_points_and_total_under_each_name_and_marks_exact_bids() -> None:
    result = RoundResult(2, bids=(1, 0, 2), tricks=(1, 1, 0), points=(30, -10, -20), totals=(50, -10, 0))
    pad = _end.score_pad(make_table(Game(3, 0)), result, LOCALE)
    assert pad.splitlines() == [
        "```",
        "  Bid Took Points Total",
        "Ann",
        "    1    1    +30    50 ✓",
        "Bo_b*",
        "    0    1    −10   −10",
        "Cy",
        "    2    0    −20     0",
        "```",
    ]


# The longest names a pad shows: a Discord display name is 32 characters at most, wide Korean ones
# count twice; and every computer player, whose name is longest in Greek.
LONG_NAMES = ["Maximilian the Magnificent Third", "`tick`", "한국어이름이름", "Ψ" * 32]
COMPUTERS = [Player(-1, "", computer="easy"), Player(-2, "", computer="normal"), Player(-3, "", computer="hard")]


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("names", [LONG_NAMES[:3], LONG_NAMES[3:]], ids=["3 players", "4 players"])
def test_the_score_pad_fits_a_phone_in_every_language_with_full_computer_names(language: str, names: list[str]) -> None:
    players = [*(Player(i, name) for i, name in enumerate(names, 1)), *COMPUTERS]
    table = Table("00ab", 10, 20, 1, 300, players, Game(len(players), 0))
    seats = len(players)
    # The widest values: a bid of 20 missed by 20 (−200), and a four-digit negative total.
    result = RoundResult(20, bids=(20,) * seats, tricks=(0,) * seats, points=(-200,) * seats, totals=(-1230,) * seats)

    lines = _end.score_pad(table, result, language).splitlines()[1:-1]

    # 34 columns is what a phone 360 pixels wide shows of a code block before it wraps a line.
    assert max(map(_end._width, lines)) <= _end.PAD_WIDTH
    names_shown, numbers = lines[1::2], lines[2::2]
    assert names_shown == [_look.plain_name(player, language) for player in players]
    # Every row puts the numbers in the same columns, under the headings.
    assert {_end._width(row) for row in numbers} == {_end._width(lines[0])}
    assert all(row.split() == ["20", "0", "−200", "−1230"] for row in numbers)


def test_a_name_too_wide_for_a_phone_is_cut_and_a_backtick_cannot_end_the_block() -> None:
    players = [Player(1, "가" * 32), Player(2, "`tick`"), Player(3, "Cy")]
    result = RoundResult(1, bids=(0, 0, 0), tricks=(0, 0, 1), points=(20, 20, -10), totals=(20, 20, -10))

    lines = _end.score_pad(Table("00ab", 10, 20, 1, 300, players, Game(3, 0)), result, LOCALE).splitlines()

    assert lines[2] == "가" * 16 + "…"
    assert "`" not in "".join(lines[1:-1])


def test_final_standings_share_places_and_the_win_on_a_tie() -> None:
    table = make_table(Game(4, 0))
    table.game.scores[:] = [120, 150, 150, -30]
    text = _end.final_embed(table, LOCALE).description or ""
    assert text.splitlines() == [
        "1. **Bo\\_b\\***: 150 points",
        "1. **Cy**: 150 points",
        "3. **Ann**: 120 points",
        "4. **Di**: −30 points",
        "",
        "🏆 Bo\\_b\\*, Cy share the win!",
    ]


def test_the_lobby_lists_host_players_and_options() -> None:
    lobby = Lobby("00ab", 10, 20, 1, Options(bids_may_not_add_up=True), 120, PLAYERS[:2])
    embed = _lobby.lobby_embed(lobby, LOCALE)
    fields = {field.name: field.value for field in embed.fields}
    assert fields["Host"] == "Ann"
    assert fields["Players (2/6)"] == "1. Ann\n2. Bo\\_b\\*"
    assert fields["Options"] == "Bids may not add up to the number of tricks\nTurn timer: 2 minutes"
    ids = [_ids.parse(str(b["custom_id"])) for b in buttons(_lobby.lobby_view(lobby, LOCALE))]
    assert ids == [_ids.LobbyId("00ab", op) for op in ("join", "leave", "start", "cancel", "settings")]


def panel_ops(lobby: Lobby) -> list[str]:
    ids = [_ids.parse(str(b["custom_id"])) for b in buttons(_lobby.host_panel_view(lobby, LOCALE))]
    return [button.op for button in ids if isinstance(button, _ids.LobbyId)]


EVERY_SWITCH = ["rule_add_up", "rule_round_one", "rule_hidden", "rule_blind", "rule_length"]
NO_EXCEPTION = ["rule_add_up", "rule_hidden", "rule_blind", "rule_length"]  # "…except round 1" left out
ADD = ["add_easy", "add_normal", "add_hard"]


@pytest.mark.parametrize(
    ("options", "players", "offered"),
    [
        (Options(), PLAYERS[:2], [*ADD, "rule_add_up", "rule_hidden", "rule_blind", "rule_length"]),
        (Options(bids_may_not_add_up=True), PLAYERS[:2], [*ADD, *EVERY_SWITCH]),
        (
            Options(),
            [*PLAYERS[:2], Player(-1, "", "easy")],
            [*ADD, "remove_computer", *NO_EXCEPTION],
        ),
        (Options(), [*PLAYERS[:5], Player(-1, "", "easy")], ["remove_computer", *NO_EXCEPTION]),
        (Options(), PLAYERS, NO_EXCEPTION),
    ],
    ids=["rule off: no exception to it", "rule on", "a computer to remove", "full with a computer", "full"],
)
def test_the_host_panel_offers_only_switches_that_change_something(
    options: Options, players: list[Player], offered: list[str]
) -> None:
    assert panel_ops(Lobby("00ab", 10, 20, 1, options, 120, players)) == offered


def test_the_lobby_after_start_links_to_the_table() -> None:
    lobby = Lobby("00ab", 10, 20, 1, Options(), 120, PLAYERS[:3])
    embed = _lobby.lobby_started_embed(lobby, "https://discord.com/channels/10/20/30", LOCALE)
    assert embed.title == "Wizard — the game is on"
    assert embed.description == "The game is on. The table: https://discord.com/channels/10/20/30"
    assert "forming" not in str(embed.to_dict())


# -- the steady DM hand: what the player's DM shows all round, whoever's turn it is ---------


def steady(table: Table, seat: int) -> object:
    observation = table.game.observation(seat)
    return fingerprint(
        _hand.hand_embed(table, observation, LOCALE, steady=True),
        _hand.hand_view(table, observation, LOCALE, steady=True),
    )


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize(
    "options",
    [Options(), Options(bids_may_not_add_up=True), Options(hidden_bids=True), Options(blind_first_round=True)],
    ids=["standard", "may not add up", "hidden bids", "blind first round"],
)
def test_a_dm_hand_changes_only_with_its_own_players_moves_trump_and_the_forbidden_bid(
    players: int, options: Options
) -> None:
    """Playing a card costs no edit of a DM other than the mover's and the next mover's, over whole games.

    Another player's move changes a DM hand only when it chooses trump (every hand shows it), when
    it leaves the last bidder with a bid that may not be made (shown disabled, with why), or when it
    hands the seat its move (the turn form). The presenter relies on this: after a move it draws
    only the mover's and the next seats' hands.
    """
    rng = random.Random(players)
    for seed in range(2):
        table = make_table(Game(players, seed, options))
        game = table.game
        # Every hand as drawn now, carried from one move to the next: each is drawn once a move.
        shown = {seat: steady(table, seat) for seat in range(players)}
        while not game.is_over:
            mover = game.waiting_for()[0]
            round_before = game.round
            applied = game.apply(rng.choice(game.legal_actions_for(mover)), by=mover)
            if game.is_over:
                continue
            before, shown = shown, {seat: steady(table, seat) for seat in range(players)}
            if game.round != round_before:
                continue  # a new round deals new DMs
            for seat in range(players):
                if seat == mover or shown[seat] == before[seat]:
                    continue
                observation = game.observation(seat)
                chose_trump = isinstance(applied.action, ChooseTrump)
                forbidden_now = observation.phase is Phase.BID and _hand._forbidden(observation) is not None
                # The turn form comes with the seat's move (and goes with it, which is the mover's).
                turn_came = _hand.is_turn(table, observation)
                assert chose_trump or forbidden_now or turn_came, (seed, game.round, applied.action, seat)


def test_a_dm_hand_enables_every_card_held_while_the_others_play() -> None:
    table = three_player_round_two()
    for bid in (Bid(1), Bid(1), Bid(0)):
        table.game.apply(bid)
    table.game.apply(Play(Card.parse("H9")))  # hearts led: Cy is to play; Ann waits, her spade enabled too
    observation = table.game.observation(0)
    view = _hand.hand_view(table, observation, LOCALE, steady=True)
    assert [(b["label"], b.get("disabled", False)) for b in buttons(view)] == [("7", False), ("1", False)]
    text = _hand.hand_embed(table, observation, LOCALE, steady=True).description or ""
    assert "Your bid: 0" in text
    assert "tricks taken" not in text  # it changes with every trick: the table shows it
    assert "Follow suit if you can" in text
    assert "Your move" not in text


@pytest.mark.parametrize("steady", [True, False], ids=["the DM", "My hand"])
def test_at_its_players_move_a_hand_says_so_first_names_the_suit_and_enables_only_the_legal_cards(
    steady: bool,
) -> None:
    table = three_player_round_two()
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("H9")), Play(Card.parse("C3"))):
        table.game.apply(action)
    observation = table.game.observation(0)  # Ann, to play: hearts led, she holds ♥1 and ♠7
    embed = _hand.hand_embed(table, observation, LOCALE, steady=steady)
    lines = (embed.description or "").split("\n")
    assert lines[0] == "▶ **Your move!**"
    assert lines[-1] == "Your turn: follow ♥️ Hearts if you can (a Wizard or a Jester may always be played)."
    view = _hand.hand_view(table, observation, LOCALE, steady=steady)
    assert [(b["label"], b.get("disabled", False)) for b in buttons(view)] == [("7", True), ("1", False)]


def test_a_player_the_computer_plays_for_is_not_told_it_is_their_move() -> None:
    table = three_player_round_two()
    table.away.add(PLAYERS[1].user_id)  # Bo, to bid first
    text = _hand.hand_embed(table, table.game.observation(1), LOCALE, steady=True).description or ""
    assert "Your move" not in text
    assert "The computer is playing for you" in text


def test_the_ephemeral_copy_still_enables_only_the_legal_cards() -> None:
    table = three_player_round_two()
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("H9")), Play(Card.parse("C3"))):
        table.game.apply(action)
    view = _hand.hand_view(table, table.game.observation(0), LOCALE)
    assert [(b["label"], b.get("disabled", False)) for b in buttons(view)] == [("7", True), ("1", False)]


def test_dm_bid_buttons_wait_enabled_and_the_last_bidder_sees_the_forbidden_one_on_their_turn() -> None:
    table = three_player_round_two(bids_may_not_add_up=True)
    waiting = _hand.hand_view(table, table.game.observation(0), LOCALE, steady=True)
    assert [b.get("disabled", False) for b in buttons(waiting)] == [False, False, False]
    table.game.apply(Bid(1))
    table.game.apply(Bid(0))
    last = table.game.observation(0)
    view = _hand.hand_view(table, last, LOCALE, steady=True)
    assert {b["label"]: b.get("disabled", False) for b in buttons(view)} == {"0": False, "1": True, "2": False}
    assert "You may not bid 1" in (_hand.hand_embed(table, last, LOCALE, steady=True).description or "")


def test_a_dm_button_is_for_its_players_next_trick() -> None:
    table = three_player_round_two()
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("W1"))):
        table.game.apply(action)
    # Seat 1 has played to trick 0, which is not over: its buttons are for trick 1.
    view = _hand.hand_view(table, table.game.observation(1), LOCALE, steady=True)
    assert [_ids.parse(str(b["custom_id"])) for b in buttons(view)] == [
        _ids.ActionId("00ab", 2, 1, Play(Card.parse("H9")))
    ]
    assert table.next_trick(1) == 1
    assert table.next_trick(2) == 0


def test_a_blind_dm_hand_names_the_others_cards_as_dealt_even_once_played() -> None:
    table = make_table(Game(3, 4, Options(blind_first_round=True)))
    game = table.game
    while game.phase is not Phase.PLAY:
        game.apply(game.legal_actions()[0])
    leader = game.to_move
    assert leader is not None
    watcher = (leader + 2) % 3  # not to move before or after the leader's card
    before = steady(table, watcher)
    dealt = game.hands[leader][0]
    game.apply(game.legal_actions()[0])
    assert steady(table, watcher) == before
    text = _hand.hand_embed(table, game.observation(watcher), LOCALE, steady=True).description or ""
    assert card_name(LOCALE, dealt) in text


def test_the_table_names_the_suit_to_follow() -> None:
    table = three_player_round_two()
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("H9"))):
        table.game.apply(action)
    assert _table.table_embed(table, LOCALE).footer.text == "Cy is to play · suit led: ♥️ Hearts"
    free = three_player_round_two()
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("W1"))):
        free.game.apply(action)
    assert _table.table_embed(free, LOCALE).footer.text == "Cy is to play."  # a Wizard led: any card


def test_the_bid_line_reads_right_in_round_one() -> None:
    """No "1 tricks": the line names the round's tricks as a count, not as a noun to pluralise."""
    table = make_table(Game(3, 0))
    text = _table.table_embed(table, LOCALE).description or ""
    assert "Bids: 0 · tricks this round: 1" in text
