"""Invariants over many random legal games, and property tests with hypothesis."""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from collections import Counter, defaultdict
from itertools import accumulate

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    DECK,
    Bid,
    Card,
    ChooseTrump,
    Game,
    Options,
    Phase,
    Play,
    RuleError,
    Suit,
    TrickResult,
)
from bot.engine.rules import led_suit, legal_cards, trick_winner
from tests.engine.support import (
    Trace,
    apply_all,
    play_out,
    record_game,
    reference_bids,
    reference_playable,
    reference_points,
    reference_winner,
)

SEEDS = range(30)
GAMES = [
    pytest.param(players, variant, id=f"{players}p-{'variant' if variant else 'plain'}")
    for players in (3, 4, 5, 6)
    for variant in (False, True)
]
PROPERTY = settings(max_examples=25, deadline=None, derandomize=True, database=None)


@functools.cache
def traces(players: int, variant: bool) -> tuple[Trace, ...]:
    """One recorded random game per seed, shared by the invariant tests."""
    return tuple(record_game(players, seed, variant) for seed in SEEDS)


def tricks_by_round(trace: Trace) -> dict[int, list[TrickResult]]:
    found: dict[int, list[TrickResult]] = defaultdict(list)
    for step in trace.steps:
        if step.applied.trick is not None:
            found[step.applied.trick.round].append(step.applied.trick)
    return found


# -- legality --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_legal_actions_follow_the_rules(players: int, variant: bool) -> None:
    suits = [ChooseTrump(suit) for suit in Suit]
    for trace in traces(players, variant):
        for step in trace.steps:
            if step.phase is Phase.PLAY:
                offered: object = {action.card for action in step.legal}  # type: ignore[union-attr]
                expected: object = reference_playable(step.hand, step.trick)
            elif step.phase is Phase.BID:
                offered = [action.tricks for action in step.legal]  # type: ignore[union-attr]
                expected = reference_bids(step.round, step.bids, variant)
            else:
                offered, expected = step.legal, suits
            assert offered == expected, f"seed {trace.seed}, round {step.round}, {step.phase}"


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_every_action_is_applied_for_the_seat_to_move(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        for step in trace.steps:
            assert step.applied.seat == step.seat, f"seed {trace.seed}"
            assert step.applied.action == step.action, f"seed {trace.seed}"
        assert [(seat, action) for seat, action in trace.game.log] == [(s.seat, s.action) for s in trace.steps]


@pytest.mark.parametrize(("players", "variant"), [game for game in GAMES if game.values[1]])
def test_with_the_variant_the_bids_never_add_up(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        for result in trace.game.history:
            assert sum(result.bids) != result.round, f"seed {trace.seed}, round {result.round}"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_without_the_variant_the_bids_sometimes_add_up(players: int) -> None:
    added_up = [
        result.round
        for trace in traces(players, False)
        for result in trace.game.history
        if sum(result.bids) == result.round
    ]
    assert added_up


# -- tricks, dealing and turn order ----------------------------------------------------------


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_each_round_has_as_many_tricks_as_cards_dealt(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        by_round = tricks_by_round(trace)
        assert sorted(by_round) == list(range(1, trace.game.rounds + 1)), f"seed {trace.seed}"
        for number, tricks in by_round.items():
            assert [trick.number for trick in tricks] == list(range(1, number + 1)), f"seed {trace.seed}"
            assert all(len(trick.cards) == players for trick in tricks), f"seed {trace.seed}"


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_each_round_deals_distinct_cards(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        assert [start.round for start in trace.starts] == list(range(1, trace.game.rounds + 1))
        for start in trace.starts:
            where = f"seed {trace.seed}, round {start.round}"
            assert [len(hand) for hand in start.hands] == [start.round] * players, where
            dealt = [card for hand in start.hands for card in hand]
            if start.turned_up is not None:
                dealt.append(start.turned_up)
            assert len(set(dealt)) == len(dealt), where
            assert all(card in DECK for card in dealt), where
            assert (start.turned_up is None) == (start.round * players == 60), where


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_every_dealt_card_is_played_once_by_its_holder(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        played: dict[int, Counter[tuple[int, Card]]] = defaultdict(Counter)
        for step in trace.steps:
            if isinstance(step.action, Play):
                played[step.round][step.seat, step.action.card] += 1
        for start in trace.starts:
            dealt = Counter((seat, card) for seat, hand in enumerate(start.hands) for card in hand)
            assert played[start.round] == dealt, f"seed {trace.seed}, round {start.round}"


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_trump_comes_from_the_turned_up_card_or_the_dealers_choice(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        chosen = {step.round: step.action.suit for step in trace.steps if isinstance(step.action, ChooseTrump)}
        for start in trace.starts:
            where = f"seed {trace.seed}, round {start.round}"
            if start.turned_up is not None and start.turned_up.is_wizard:
                assert start.phase is Phase.CHOOSE_TRUMP, where
                assert start.to_move == start.dealer, where
                expected = chosen[start.round]
            else:
                assert start.phase is Phase.BID, where
                assert start.to_move == (start.dealer + 1) % players, where
                assert start.round not in chosen, where
                expected = start.turned_up.suit if start.turned_up is not None else None
            plays = [step for step in trace.steps if step.round == start.round and step.phase is Phase.PLAY]
            assert {step.trump for step in plays} == {expected}, where


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_trick_winners_follow_the_rules(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        for step in trace.steps:
            trick = step.applied.trick
            if trick is not None:
                expected = (trick.leader + reference_winner(trick.cards, step.trump)) % players
                assert trick.winner == expected, f"seed {trace.seed}, {trick}"


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_the_dealer_rotates_and_the_next_seat_leads_first(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        first = trace.game.first_dealer
        assert [start.dealer for start in trace.starts] == [(first + r) % players for r in range(trace.game.rounds)]
        for start in trace.starts:
            leads = tricks_by_round(trace)[start.round]
            assert leads[0].leader == (start.dealer + 1) % players, f"seed {trace.seed}, round {start.round}"


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_the_trick_winner_leads_the_next_trick(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        for number, tricks in tricks_by_round(trace).items():
            leaders = [trick.leader for trick in tricks[1:]]
            assert leaders == [trick.winner for trick in tricks[:-1]], f"seed {trace.seed}, round {number}"


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_applied_reports_completed_tricks_rounds_and_the_end(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        plays = 0
        for index, step in enumerate(trace.steps):
            if isinstance(step.action, Play):
                plays += 1
            completes_trick = isinstance(step.action, Play) and plays % players == 0
            completes_round = completes_trick and len(step.hand) == 1
            reported = (step.applied.trick is not None, step.applied.round is not None, step.applied.game_over)
            expected = (completes_trick, completes_round, index == len(trace.steps) - 1)
            assert reported == expected, f"seed {trace.seed}, step {index}"


# -- scores and the end ----------------------------------------------------------------------


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_round_results_record_the_bids_made(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        bids: dict[int, list[int]] = defaultdict(lambda: [-1] * players)
        for step in trace.steps:
            if isinstance(step.action, Bid):
                bids[step.round][step.seat] = step.action.tricks
        assert [list(result.bids) for result in trace.game.history] == [bids[r] for r in sorted(bids)]


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_round_results_record_the_tricks_won(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        by_round = tricks_by_round(trace)
        for result in trace.game.history:
            won = Counter(trick.winner for trick in by_round[result.round])
            assert list(result.tricks) == [won[seat] for seat in range(players)], f"seed {trace.seed}"


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_scores_follow_the_formula(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        history = trace.game.history
        for result in history:
            expected = [reference_points(bid, won) for bid, won in zip(result.bids, result.tricks, strict=True)]
            assert list(result.points) == expected, f"seed {trace.seed}, round {result.round}"
        for seat in range(players):
            running = list(accumulate(result.points[seat] for result in history))
            assert [result.totals[seat] for result in history] == running, f"seed {trace.seed}"
        assert trace.game.scores == list(history[-1].totals)


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_the_game_ends_after_every_round_with_the_best_totals_winning(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        game = trace.game
        assert game.phase is Phase.GAME_OVER
        assert [result.round for result in game.history] == list(range(1, game.rounds + 1))
        best = max(game.scores)
        assert game.winners() == [seat for seat in range(players) if game.scores[seat] == best]


# -- JSON, replay, copies and determinism ----------------------------------------------------


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_json_round_trip_at_random_points(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        for checkpoint in trace.checkpoints:
            restored = Game.from_json(json.loads(checkpoint.json_text))
            assert restored.snapshot() == checkpoint.snapshot, f"seed {trace.seed}, step {checkpoint.steps}"


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_json_restored_game_continues_identically(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        for checkpoint in trace.checkpoints:
            restored = Game.from_json(json.loads(checkpoint.json_text))
            apply_all(restored, trace.game.log[checkpoint.steps :])
            assert restored.snapshot() == trace.game.snapshot(), f"seed {trace.seed}, step {checkpoint.steps}"


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_replay_reproduces_the_state(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        game = trace.game
        assert Game.replay(players, trace.seed, trace.options, game.log).snapshot() == game.snapshot()
        for checkpoint in trace.checkpoints:
            replayed = Game.replay(players, trace.seed, trace.options, game.log[: checkpoint.steps])
            assert replayed.snapshot() == checkpoint.snapshot, f"seed {trace.seed}, step {checkpoint.steps}"


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_copy_is_independent_and_continues_identically(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        for checkpoint in trace.checkpoints[:1]:
            game = Game.replay(players, trace.seed, trace.options, trace.game.log[: checkpoint.steps])
            copy = game.copy()
            done = play_out(copy, random.Random(trace.seed))
            assert game.snapshot() == checkpoint.snapshot, f"seed {trace.seed}, step {checkpoint.steps}"
            apply_all(game, done)
            assert game.snapshot() == copy.snapshot(), f"seed {trace.seed}, step {checkpoint.steps}"


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_same_seed_and_choices_give_the_same_game(players: int, variant: bool) -> None:
    for trace in traces(players, variant)[:5]:
        again = record_game(players, trace.seed, variant)
        assert again.game.snapshot() == trace.game.snapshot(), f"seed {trace.seed}"


def test_same_seed_and_choices_give_the_same_game_in_another_process() -> None:
    script = (
        "import json, random, sys\n"
        "from bot.engine import Game, Options\n"
        "out = []\n"
        "for players in range(3, 7):\n"
        "    for variant in (False, True):\n"
        "        game = Game(players, seed=players, options=Options(bids_may_not_add_up=variant))\n"
        "        rng = random.Random(players)\n"
        "        while not game.is_over:\n"
        "            game.apply(rng.choice(game.legal_actions()))\n"
        "        out.append(game.snapshot())\n"
        "json.dump(out, sys.stdout)\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env)
    here = []
    for players in range(3, 7):
        for variant in (False, True):
            game = Game(players, seed=players, options=Options(bids_may_not_add_up=variant))
            play_out(game, random.Random(players))
            here.append(game.snapshot())
    assert json.loads(ran.stdout) == json.loads(json.dumps(here))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_different_seeds_deal_differently(players: int) -> None:
    deals = set()
    for seed in SEEDS:
        game = Game(players, seed)
        deals.add((game.first_dealer, tuple(tuple(hand) for hand in game.hands), game.turned_up))
    assert len(deals) == len(SEEDS)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_different_seeds_deal_differently_in_later_rounds(players: int) -> None:
    later = {trace.starts[-2].hands for trace in traces(players, False)}
    assert len(later) == len(SEEDS)


# -- property tests --------------------------------------------------------------------------

seeds = st.integers(0, 2**32)
player_counts = st.integers(3, 6)


def by_index(card: Card) -> int:
    return card.index


@PROPERTY
@given(seed=seeds, players=player_counts, variant=st.booleans(), choices=st.randoms(use_true_random=False))
def test_random_games_take_only_legal_actions_and_conserve_cards(
    seed: int, players: int, variant: bool, choices: random.Random
) -> None:
    game = Game(players, seed, Options(bids_may_not_add_up=variant))
    while not game.is_over:
        number = game.round
        dealt = [card for hand in game.hands for card in hand]
        assert len(dealt) == players * number
        assert len({*dealt, game.turned_up}) == len(dealt) + 1
        assert (game.turned_up is None) == (number == game.rounds)
        played: list[Card] = []
        while game.round == number and not game.is_over:
            seat = game.to_move
            assert seat is not None
            legal = game.legal_actions()
            action = choices.choice(legal)
            if game.phase is Phase.PLAY:
                assert {play.card for play in legal} == reference_playable(game.hands[seat], game.trick)  # type: ignore[union-attr]
                played.append(action.card)  # type: ignore[union-attr]
            elif game.phase is Phase.BID:
                assert [bid.tricks for bid in legal] == reference_bids(number, game.bids, variant)  # type: ignore[union-attr]
            game.apply(action, by=seat)
        assert sorted(played, key=by_index) == sorted(dealt, key=by_index)


def candidate_actions(game: Game) -> list[object]:
    """Every action of every kind that could be offered, legal or not."""
    bids: list[object] = [Bid(n) for n in range(-1, game.round + 2)]
    return [*bids, *(Play(card) for card in DECK), *(ChooseTrump(suit) for suit in Suit)]


@settings(PROPERTY, max_examples=15)
@given(seed=seeds, players=player_counts, variant=st.booleans(), choices=st.randoms(use_true_random=False))
def test_apply_accepts_exactly_the_legal_actions(
    seed: int, players: int, variant: bool, choices: random.Random
) -> None:
    game = Game(players, seed, Options(bids_may_not_add_up=variant), start_round=choices.randint(1, 3))
    for _ in range(40):
        if game.is_over:
            break
        legal = game.legal_actions()
        before = game.snapshot()
        for action in candidate_actions(game):
            if action in legal:
                game.copy().apply(action, by=game.to_move)  # type: ignore[arg-type]
            else:
                with pytest.raises(RuleError):
                    game.apply(action, by=game.to_move)  # type: ignore[arg-type]
        assert game.snapshot() == before
        game.apply(choices.choice(legal), by=game.to_move)


tricks = st.lists(st.sampled_from(DECK), min_size=1, max_size=6, unique=True)
# Wizards, Jesters and the three lowest cards of each suit: tricks where the special cards meet.
special_heavy_tricks = st.lists(
    st.sampled_from([*DECK[52:], *DECK[0:3], *DECK[13:16], *DECK[26:29], *DECK[39:42]]),
    min_size=1,
    max_size=6,
    unique=True,
)
trumps = st.sampled_from([None, *Suit])


@settings(PROPERTY, max_examples=400)
@given(trick=st.one_of(tricks, special_heavy_tricks), trump=trumps)
def test_trick_winner_agrees_with_the_reference(trick: list[Card], trump: Suit | None) -> None:
    assert trick_winner(trick, trump) == reference_winner(trick, trump)


@settings(PROPERTY, max_examples=300)
@given(cards=st.lists(st.sampled_from(DECK), min_size=1, max_size=16, unique=True), split=st.integers(0, 15))
def test_legal_cards_agree_with_the_reference(cards: list[Card], split: int) -> None:
    trick, hand = cards[: split % len(cards)], cards[split % len(cards) :]
    playable = legal_cards(hand, led_suit(trick))
    assert set(playable) == reference_playable(hand, trick)
    assert playable == [card for card in hand if card in playable]  # in hand order, no repeats


@pytest.mark.parametrize(
    ("codes", "trump", "winner"),
    [
        ("J1 W1 H13", Suit.HEARTS, 1),
        ("J1 J2 J3", None, 0),
        ("H13 S1 H12", Suit.SPADES, 1),
        ("J1 H5 H9 S13", None, 2),
        ("H2 S13 D13", Suit.CLUBS, 0),
        ("H2 W3 W1", None, 1),
    ],
)
def test_reference_winner_matches_hand_worked_tricks(codes: str, trump: Suit | None, winner: int) -> None:
    assert reference_winner([Card.parse(code) for code in codes.split()], trump) == winner


@pytest.mark.parametrize(("players", "variant"), GAMES)
def test_legal_actions_are_never_offered_twice(players: int, variant: bool) -> None:
    for trace in traces(players, variant):
        for step in trace.steps:
            assert len(set(step.legal)) == len(step.legal), f"seed {trace.seed}"
