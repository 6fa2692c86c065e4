"""The table and the hand: what they show, read the way a person reads them, in the order they look."""

from __future__ import annotations

import random
import re
from typing import Any

import discord
import pytest

from bot import i18n
from bot.engine import Bid, Card, ChooseTrump, Deal, Game, Kind, Options, Phase, Play, Suit, deal_hands
from bot.guild_settings import TURN_TIMERS
from bot.manager import Player, Table
from cogs.wizard import _faces, _hand, _ids, _round, _table
from cogs.wizard._look import Look
from tests.e2e._reading import Face, read
from tests.e2e.standin import StoredMessage, message_body_errors

PLAYERS = [Player(1, "Ann"), Player(2, "Bo_b*"), Player(3, "Cy"), Player(4, "Di"), Player(5, "Ed"), Player(6, "Flo")]
LOOK = Look("en-US")
# The bot's own emojis, as `_faces.load` makes them from what Discord lists.
DRAWN = _faces.Faces(
    {kind: discord.PartialEmoji(name=_faces.PREFIX + kind, id=900 + k) for k, kind in enumerate(_faces.KINDS)}
)
LOOKS = [pytest.param(LOOK, id="text faces"), pytest.param(Look("en-US", DRAWN), id="drawn faces")]


HAND_OF_SEVEN = ["H13", "H11", "H9", "H7", "H5", "H2", "W1"]


def make_table(game: Game) -> Table:
    return Table("00ab", 10, 20, 1, 300, PLAYERS[: game.players], game)


def three_player_round_two(turned_up: str = "D5", **options: bool) -> Table:
    """Round 2 for three seats, seat 0 dealing: seat 1 bids first."""
    hands = deal_hands([["H1", "S7"], ["H9", "W1"], ["J1", "C3"]])
    deals = {2: Deal(hands, Card.parse(turned_up))}
    return make_table(Game(3, 0, Options(**options), deals=deals, first_dealer=0, start_round=2))


def message(view: discord.ui.LayoutView) -> StoredMessage:
    """The view as Discord would store the message it makes."""
    return StoredMessage(
        {"id": "1", "channel_id": "1", "author": {"id": "1"}, "components": view.to_components(), "flags": 1 << 15}
    )


def rows(view: discord.ui.LayoutView) -> list[list[dict[str, Any]]]:
    """The buttons of each action row, in order."""
    found = []
    for component in message(view).all_components():
        if component.get("type") == 1:
            found.append(list(component["components"]))
    return found


def moves(view: discord.ui.LayoutView) -> list[_ids.ButtonId | None]:
    return [_ids.parse(str(b["custom_id"])) for row in rows(view) for b in row if str(b["custom_id"]).startswith("wz:")]


def texts(view: discord.ui.LayoutView) -> list[str]:
    return [c["content"] for c in message(view).all_components() if c.get("type") == 10]


# -- the table ---------------------------------------------------------------------------------


def test_the_table_says_first_the_round_and_trump_then_whose_move_it_is() -> None:
    table = three_player_round_two()
    table.game.apply(Bid(1))
    first, second, *_ = texts(_table.table_view(table, LOOK))
    assert first == "### Wizard — round 2 of 20 · trump ♦️ Diamonds"
    assert second == "▶ **Cy** is bidding."


def test_the_table_names_the_trump_suit_once() -> None:
    text = message(_table.table_view(three_player_round_two(), LOOK)).text()
    assert text.count("Diamonds") == 1
    assert "-# Dealer: Ann · turned up: ♦️5" in text


def test_the_table_shows_each_players_bid_tricks_taken_what_they_still_need_and_score() -> None:
    table = three_player_round_two()
    for action in (Bid(1), Bid(0), Bid(2), Play(Card.parse("W1")), Play(Card.parse("C3")), Play(Card.parse("H1"))):
        table.game.apply(action)
    lines = texts(_table.table_view(table, LOOK))[2].splitlines()
    assert lines == [
        "**Ann** — 2/0 (needs 2) · 0 points",
        "▶ **Bo\\_b\\*** — 1/1 ✓ · 0 points",
        "**Cy** — 0/0 ✓ · 0 points",
    ]


def test_a_player_past_their_bid_is_shown_over_it() -> None:
    table = three_player_round_two()
    for action in (Bid(0), Bid(1), Bid(1), Play(Card.parse("W1"))):
        table.game.apply(action)
    for action in (Play(Card.parse("C3")), Play(Card.parse("H1"))):
        table.game.apply(action)
    assert "**Bo\\_b\\*** — 0/1 (1 over)" in message(_table.table_view(table, LOOK)).text()


def test_the_table_shows_the_trick_in_play_and_the_suit_to_follow_near_the_top() -> None:
    table = three_player_round_two()
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("H9"))):
        table.game.apply(action)
    _, second, *_ = texts(_table.table_view(table, LOOK))
    assert second == "▶ **Cy** is to play · follow ♥️ Hearts.\nTrick 1 of 2: Bo\\_b\\* ♥️9"


def test_a_wizard_led_frees_the_trick() -> None:
    table = three_player_round_two()
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("W1"))):
        table.game.apply(action)
    assert texts(_table.table_view(table, LOOK))[1].startswith("▶ **Cy** is to play.\n")


def test_the_last_trick_is_small_with_its_winning_card_in_bold() -> None:
    table = three_player_round_two()
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("W1")), Play(Card.parse("C3")), Play(Card.parse("H1"))):
        table.game.apply(action)
    text = message(_table.table_view(table, LOOK)).text()
    assert "-# Last trick: **Bo\\_b\\* 🧙 Wizard** · Cy ♧3 · Ann ♥️1 — won by **Bo\\_b\\***" in text
    assert texts(_table.table_view(table, LOOK))[1] == "▶ **Bo\\_b\\*** leads the trick."


@pytest.mark.parametrize(
    ("turned_up", "heading", "small"),
    [
        ("W2", "trump: the dealer is choosing", "turned up: 🧙 Wizard"),
        ("J3", "no trump", "turned up: 🃏 Jester"),
    ],
)
def test_a_wizard_or_a_jester_turned_up(turned_up: str, heading: str, small: str) -> None:
    text = message(_table.table_view(three_player_round_two(turned_up=turned_up), LOOK)).text()
    assert text.splitlines()[0].endswith(heading)
    assert small in text


def test_the_dealer_chose_trump_after_a_wizard() -> None:
    table = three_player_round_two(turned_up="W2")
    table.game.apply(ChooseTrump(Suit.SPADES))
    assert texts(_table.table_view(table, LOOK))[0].endswith("trump ♤ Spades (chosen by Ann)")


def test_the_last_round_turns_up_nothing() -> None:
    text = message(_table.table_view(make_table(Game(6, 1, start_round=10)), LOOK)).text()
    assert "no trump" in text.splitlines()[0]
    assert "no card turned up (last round)" in text


def test_the_house_rules_are_on_the_first_table_only() -> None:
    game = Game(3, 1, Options(bids_may_not_add_up=True))
    table = make_table(game)
    assert "House rules: Bids may not add up" in message(_table.table_view(table, LOOK)).text()
    while game.round == 1:
        game.apply(game.legal_actions()[0])
    assert "House rules" not in message(_table.table_view(table, LOOK)).text()


@pytest.mark.parametrize(("rounds", "shown"), [(5, "Shorter game: 5 rounds"), (20, None)])
def test_a_length_that_is_the_whole_game_is_no_house_rule(rounds: int, shown: str | None) -> None:
    # Three players play 20 rounds: a length of 20 is the whole game, not a shorter one.
    text = message(_table.table_view(make_table(Game(3, 1, Options(rounds=rounds))), LOOK)).text()
    if shown is None:
        assert "House rules" not in text
        assert "Shorter game" not in text
    else:
        assert shown in text


def test_player_names_are_escaped_so_they_cannot_format_the_table() -> None:
    assert "Bo\\_b\\*" in message(_table.table_view(three_player_round_two(), LOOK)).text()


def test_the_table_never_shows_a_card_in_a_hand() -> None:
    reading = read(message(_table.table_view(three_player_round_two(), LOOK)))
    assert reading.trick == []
    text = message(_table.table_view(three_player_round_two(), LOOK)).text()
    for card in ("♥️1", "♤7", "♥️9", "🧙", "🃏", "♧3"):
        assert card not in text


# -- the hand ----------------------------------------------------------------------------------


def test_a_hand_lists_only_the_players_own_cards_by_suit() -> None:
    table = three_player_round_two()
    text = message(_hand.hand_view(table, table.game.observation(0), LOOK)).text()
    assert "♤ 7\n♥️ 1" in text
    for other in ("♥️9", "🧙", "🃏", "♧3"):
        assert other not in text


def test_at_your_move_the_hand_says_so_first_and_offers_only_the_legal_cards() -> None:
    table = three_player_round_two()
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("H9")), Play(Card.parse("C3"))):
        table.game.apply(action)
    view = _hand.hand_view(table, table.game.observation(0), LOOK)
    assert texts(view)[1].startswith("**▶ Your move:** follow ♥️ Hearts, or play a Wizard or a Jester.")
    assert moves(view) == [_ids.ActionId("00ab", 2, 0, Play(Card.parse("H1")))]
    assert "-# Not playable now: ♤ 7" in message(view).text()


def test_a_player_without_the_suit_led_is_told_any_card_may_be_played() -> None:
    table = three_player_round_two()
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("H9"))):
        table.game.apply(action)
    view = _hand.hand_view(table, table.game.observation(2), LOOK)
    assert texts(view)[1].startswith("**▶ Your move:** you have no ♥️ Hearts: play any card.")


def test_a_waiting_hand_names_the_mover_and_how_many_moves_until_yours() -> None:
    table = make_table(Game(4, 7, start_round=3, first_dealer=0))
    game = table.game
    assert game.to_move == 1  # the seat after the dealer (seat 0) bids first
    text = message(_hand.hand_view(table, game.observation(3), LOOK)).text()
    assert "**Bo\\_b\\*** is bidding; you are next after Cy." in text
    game.apply(game.legal_actions()[0])
    assert "**Cy** is bidding; you are next." in message(_hand.hand_view(table, game.observation(3), LOOK)).text()
    assert moves(_hand.hand_view(table, game.observation(3), LOOK)) == []


def test_a_player_who_has_played_to_the_trick_is_told_so() -> None:
    table = three_player_round_two()
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("H9"))):
        table.game.apply(action)
    text = message(_hand.hand_view(table, table.game.observation(1), LOOK)).text()
    assert "**Cy** is to play; you have played to this trick." in text


def test_the_refusal_of_a_move_out_of_turn_says_whose_turn_it_is() -> None:
    table = make_table(Game(4, 7, start_round=3, first_dealer=0))
    observation = table.game.observation(3)
    assert _round.wait_text(LOOK, table, observation, 3) == "**Bo\\_b\\*** is bidding; you are next after Cy."


def test_the_dealer_gets_four_suit_buttons_after_a_turned_up_wizard() -> None:
    table = three_player_round_two(turned_up="W2")
    view = _hand.hand_view(table, table.game.observation(0), LOOK)
    assert [b["label"] for row in rows(view) for b in row] == ["♤ Spades", "♥️ Hearts", "♦️ Diamonds", "♧ Clubs"]
    assert "choose trump" in texts(view)[1]


def test_bid_buttons_go_from_zero_to_the_hand_size_and_the_forbidden_one_is_disabled_with_the_reason() -> None:
    table = three_player_round_two(bids_may_not_add_up=True)
    table.game.apply(Bid(1))
    table.game.apply(Bid(0))
    view = _hand.hand_view(table, table.game.observation(0), LOOK)
    assert [(b["label"], b.get("disabled", False)) for row in rows(view) for b in row] == [
        ("0", False),
        ("1", True),
        ("2", False),
    ]
    assert "Not 1: the bids may not add up to 2." in texts(view)[1]


def test_a_suits_cards_fill_rows_as_even_as_five_a_row_allows() -> None:
    # Round 7, seat 1 leads: six hearts and a Wizard. Six hearts are 3 + 3, not 5 and a lone card.
    hands = deal_hands([["S1", "S2", "S3", "S4", "S5", "S6", "S7"], HAND_OF_SEVEN, [f"C{r}" for r in range(1, 8)]])
    table = make_table(Game(3, 0, deals={7: Deal(hands, Card.parse("D9"))}, first_dealer=0, start_round=7))
    for _ in range(3):
        table.game.apply(Bid(0))
    view = _hand.hand_view(table, table.game.observation(1), LOOK)
    assert [[str(b["label"]) for b in row] for row in rows(view)] == [
        ["♥️ 13", "♥️ 11", "♥️ 9"],
        ["♥️ 7", "♥️ 5", "♥️ 2"],
        ["Wizard"],
    ]


def test_a_player_the_computer_plays_for_is_not_told_it_is_their_move() -> None:
    table = three_player_round_two()
    table.away.add(PLAYERS[1].user_id)
    view = _hand.hand_view(table, table.game.observation(1), LOOK)
    assert "Your move" not in message(view).text()
    assert [b["label"] for row in rows(view) for b in row] == ["I'm back"]


def test_a_dm_hand_offers_the_bell_that_says_which_way_it_switches() -> None:
    table = three_player_round_two()
    off = _hand.hand_view(table, table.game.observation(2), LOOK, in_dm=True, ping=False)
    on = _hand.hand_view(table, table.game.observation(2), LOOK, in_dm=True, ping=True)
    assert [(b["label"], b["emoji"]["name"]) for b in rows(off)[-1]] == [("Ping my turns", "🔔")]
    assert [(b["label"], b["emoji"]["name"]) for b in rows(on)[-1]] == [("Stop pings", "🔕")]
    # Each says what it sets, so a second click, or one on an older message, sets the same.
    assert (moves(off)[-1], moves(on)[-1]) == (_ids.PingId("00ab", True), _ids.PingId("00ab", False))
    # A copy from My hand, in the channel, has no bell: the choice is made where the pings arrive.
    assert not [m for m in moves(_hand.hand_view(table, table.game.observation(2), LOOK)) if isinstance(m, _ids.PingId)]


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("timer", TURN_TIMERS)
def test_a_reminder_leaves_the_time_to_discords_countdown_in_every_language(language: str, timer: int) -> None:
    # The reminder comes at half the turn's time; Discord writes what is left in whole units, in
    # the reader's language ("in 3 minutes", "za 8 minut"), and counts down.
    deadline = 1_800_000_000.7 + timer / 2
    text = _table.reminder_text(Look(language), 123, deadline)
    assert "<@123>" in text
    timestamp = f"<t:{int(deadline)}:R>"
    assert timestamp in text
    # No other number: the time left is the timestamp's to write, in the reader's words.
    assert re.findall(r"\d+", text.replace("<@123>", "").replace(timestamp, "")) == []


def test_buttons_carry_the_round_and_trick_they_were_drawn_for() -> None:
    table = three_player_round_two()
    for action in (Bid(1), Bid(1), Bid(0), Play(Card.parse("W1")), Play(Card.parse("C3")), Play(Card.parse("H1"))):
        table.game.apply(action)
    assert moves(_hand.hand_view(table, table.game.observation(1), LOOK)) == [
        _ids.ActionId("00ab", 2, 1, Play(Card.parse("H9")))
    ]


def test_the_blind_round_shows_the_others_cards_and_a_face_down_button() -> None:
    table = make_table(Game(3, 4, Options(blind_first_round=True)))
    game = table.game
    while game.phase is not Phase.PLAY:
        game.apply(game.legal_actions()[0])
    leader = game.to_move
    assert leader is not None
    view = _hand.hand_view(table, game.observation(leader), LOOK)
    assert "Blind round" in message(view).text()
    assert moves(view) == [_ids.ActionId("00ab", 1, 0, None)]
    assert [b["label"] for row in rows(view) for b in row] == ["Your card"]


@pytest.mark.parametrize("look", LOOKS)
def test_a_twenty_card_hand_groups_its_buttons_by_suit_with_wizards_and_jesters_apart(look: Look) -> None:
    table = make_table(Game(3, 11, start_round=20))
    game = table.game
    while game.phase is not Phase.PLAY:
        game.apply(game.legal_actions()[0])
    seat = game.to_move
    assert seat is not None
    view = _hand.hand_view(table, game.observation(seat), look)
    groups = []
    for row in rows(view):
        cards = [_ids.parse(str(b["custom_id"])) for b in row]
        kinds = {(c.action.card.suit if c.action.card.kind is Kind.NUMBER else "WJ") for c in cards}  # type: ignore[union-attr]
        assert len(kinds) == 1, f"a row mixes suits: {cards}"
        groups.append(kinds.pop())
    # Each group's rows follow one another, and each group is shown once.
    assert len([g for k, g in enumerate(groups) if k == 0 or groups[k - 1] != g]) == len(set(groups))
    assert sum(len(row) for row in rows(view)) == 20  # leading: every card may be played
    errors = message_body_errors({"flags": 1 << 15, "components": view.to_components()}, known_emoji=lambda i: i >= 900)
    assert errors == {}


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize(
    ("look", "options"),
    [
        pytest.param(LOOK, Options(), id="standard"),
        pytest.param(Look("en-US", DRAWN), Options(), id="standard, drawn faces"),
        pytest.param(LOOK, Options(bids_may_not_add_up=True), id="may not add up"),
        pytest.param(LOOK, Options(hidden_bids=True), id="hidden bids"),
        pytest.param(LOOK, Options(blind_first_round=True), id="blind first round"),
    ],
)
def test_every_hand_of_a_whole_game_tells_what_a_decision_needs_and_discord_accepts_it(
    look: Look, players: int, options: Options
) -> None:
    """At every decision of every seat: the trump, the trick (who played what), each player's bid and
    tricks taken, and whose move it is, read off the hand alone as a person reads it, are the game's."""
    rng = random.Random(players * 7 + len(repr(options)))
    table = make_table(Game(players, rng.randrange(2**32), options))
    game = table.game
    while not game.is_over:
        for seat in range(players):
            observation = game.observation(seat)
            view = _hand.hand_view(table, observation, look, in_dm=True)
            errors = message_body_errors(
                {"flags": 1 << 15, "components": view.to_components()}, known_emoji=lambda i: i >= 900
            )
            assert errors == {}
            reading = read(message(view))
            trick = observation.round - observation.hand_sizes[seat]
            offered = {_ids.parse(str(b["custom_id"])) for row in rows(view) for b in row if not b.get("disabled")} - {
                _ids.BackId("00ab")
            }
            if observation.legal and PLAYERS[seat].user_id not in table.away:
                # At the seat's move, its hand offers exactly the moves the rules allow (a blind
                # round's card face down).
                legal = {
                    _ids.ActionId(
                        "00ab", observation.round, trick, None if observation.blind and isinstance(a, Play) else a
                    )
                    for a in observation.legal
                }
                assert offered == legal
            else:
                assert offered == set()
            assert reading.round == observation.round_position
            assert reading.trump == (observation.trump if observation.phase is not Phase.CHOOSE_TRUMP else None)
            assert reading.your_move == (seat in game.waiting_for())
            if observation.phase is Phase.PLAY and observation.trick:
                played = [
                    (PLAYERS[(observation.trick_leader + k) % players].name, Face.of(card))
                    for k, card in enumerate(observation.trick)
                ]
                assert reading.trick == played
            assert [shown.name for shown in reading.seats] == [p.name for p in PLAYERS[:players]]
            hidden = observation.phase is Phase.BID and options.hidden_bids
            for other, shown in enumerate(reading.seats):
                if hidden and other != seat:
                    assert shown.bid is None
                else:
                    assert shown.bid == observation.bids[other]
                    assert shown.won == (observation.tricks_won[other] if observation.bids[other] is not None else None)
                assert shown.score == observation.scores[other]
            if not reading.your_move and observation.to_move is not None and not hidden:
                assert reading.mover == PLAYERS[observation.to_move].name
        game.apply(rng.choice(game.legal_actions()))
