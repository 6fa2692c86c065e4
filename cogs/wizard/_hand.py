"""A player's hand: the DM kept for the round, and the private copies of My hand."""

from __future__ import annotations

import discord

from bot.engine import Bid, Card, ChooseTrump, Kind, Observation, Phase, Play, Suit, led_suit, sort_key
from bot.i18n import JESTER_EMOJI, SUIT_EMOJI, WIZARD_EMOJI, card_name, suit_name, t
from bot.manager import Table

from . import _ids
from ._buttons import WizardButton
from ._look import COLOUR, HAND_EMOJI, ROW_SIZE, SUIT_STYLE, TURN_COLOUR, button, player_name, position
from ._table import back_button

# # A hand is drawn two ways. The DM kept for the round is *steady*: it depends only on the
# player's own cards and bid, the trump and the stage of the round, never on whose turn it is,
# so playing a card costs the player's own click and one table edit, not an edit of the next
# player's DM too (Discord rate-limits edits; see "Performance" in the README). Its buttons are
# every move the player may make at some turn of the stage (all cards held, all bids), and the
# rules are checked on the click. The copy a player asks for ("My hand", /wizard hand) shows
# *this moment*: only the moves legal now, enabled only when it is their turn.
#
# When it is the player's move, both say so at the top and enable only the moves legal now (the
# suit to follow named): the DM takes this *turn form* for as long as the turn lasts, then returns
# to its steady form. Those two edits are the DM's only turn-dependent ones; the presenter sends
# them under the request budget (see `bot.budget`).


def is_turn(table: Table, observation: Observation) -> bool:
    """Whether the hand shows the turn form: the player may act now and plays for themselves."""
    return bool(observation.legal) and table.players[observation.seat].user_id not in table.away


def hand_embed(
    table: Table, observation: Observation, locale: str | None, *, steady: bool = False, turn: bool | None = None
) -> discord.Embed:
    """A player's private view: their cards, trump, their bid, and what they may do.

    `turn`: whether to draw the turn form (None: when it is the player's move; False: the steady
    form even then, for a DM whose turn edit waits for the budget)."""
    turn = is_turn(table, observation) if turn is None else turn and is_turn(table, observation)
    steady = steady and not turn
    cards = sorted(observation.hand, key=sort_key)
    lines = [t(locale, "hand.your_move")] if turn else []
    lines.append(t(locale, "hand.where", channel=table.channel_id))
    if observation.blind:
        # The blind first round: your own card is hidden from you, the others' are not. The
        # steady DM lists them as dealt (a card played is still named), so it does not change
        # as the one trick of the round is played.
        held = _dealt_to_others(observation) if steady else observation.others_cards
        lines.append(t(locale, "hand.blind"))
        lines += [
            f"{player_name(table.players[seat], locale)}: {' '.join(card_name(locale, card) for card in cards_)}"
            for seat, cards_ in enumerate(held)
            if cards_
        ]
    else:
        lines.append(" ".join(card_name(locale, card) for card in cards) or t(locale, "hand.empty"))
    lines.append("")
    if observation.phase is Phase.CHOOSE_TRUMP:
        lines.append(t(locale, "table.trump.pending"))
    elif observation.trump is None:
        lines.append(t(locale, "table.trump.none"))
    else:
        lines.append(t(locale, "hand.trump", suit=suit_name(locale, observation.trump)))
    bid = observation.bids[observation.seat]
    if bid is not None and steady:
        lines.append(t(locale, "hand.bid_made", bid=bid))  # tricks taken change with every trick: on the table
    elif bid is not None:
        lines.append(t(locale, "hand.your_bid", bid=bid, won=observation.tricks_won[observation.seat]))
    lines += ["", prompt_text(table, observation, locale, steady=steady)]
    return discord.Embed(
        title=t(locale, "hand.title", round=observation.round_position, rounds=observation.rounds),
        description="\n".join(lines),
        colour=TURN_COLOUR if turn else COLOUR,
    )


def _dealt_to_others(observation: Observation) -> list[tuple[Card, ...]]:
    """In a blind round, what each other seat was dealt: its cards held plus its card in the trick.

    A blind round is the first round, one card each, so its only trick holds every card played.
    """
    dealt = [list(held) for held in observation.others_cards]
    for offset, card in enumerate(observation.trick):
        seat = (observation.trick_leader + offset) % observation.players
        if seat != observation.seat:
            dealt[seat].append(card)
    return [tuple(cards) for cards in dealt]


def hand_over_embed(table: Table, round_number: int, locale: str | None) -> discord.Embed:
    """What a hand message becomes when its round is over."""
    return discord.Embed(
        title=t(locale, "hand.title", round=position(table, round_number), rounds=table.game.rounds),
        description=t(locale, "hand.prompt.over"),
    )


def prompt_text(table: Table, observation: Observation, locale: str | None, *, steady: bool = False) -> str:
    if observation.round != table.game.round or observation.to_move is None:
        return t(locale, "hand.prompt.over")
    if table.players[observation.seat].user_id in table.away:
        return t(locale, "hand.prompt.away")
    if observation.phase is Phase.CHOOSE_TRUMP and not observation.legal:
        return t(locale, "hand.prompt.wait_trump")
    forbidden = _forbidden(observation)
    if forbidden is not None:
        return t(locale, "hand.prompt.bid_forbidden", value=forbidden, tricks=observation.round)
    if steady and observation.phase is not Phase.CHOOSE_TRUMP:
        bidding = observation.phase is Phase.BID and not observation.has_bid[observation.seat]
        return t(locale, "hand.prompt.bid_steady" if bidding else "hand.prompt.play_steady")
    if not observation.legal:
        if observation.phase is Phase.BID and observation.options.hidden_bids:
            return t(locale, "hand.prompt.wait_bids")
        # Who is to play is on the table: naming them here would change every waiting hand each move.
        return t(locale, "hand.prompt.waiting")
    led = led_suit(observation.trick) if observation.phase is Phase.PLAY else None
    if led is not None:
        return t(locale, "hand.prompt.play_follow", suit=suit_name(locale, led))
    return t(locale, f"hand.prompt.{observation.phase.value}")


def _forbidden(observation: Observation) -> int | None:
    """The bid value missing from the legal bids, if the variant forbids one (known on one's turn)."""
    if not observation.legal or observation.phase is not Phase.BID:
        return None
    legal = {action.tricks for action in observation.legal if isinstance(action, Bid)}
    missing = [n for n in range(observation.round + 1) if n not in legal]
    return missing[0] if missing else None


def hand_view(
    table: Table, observation: Observation, locale: str | None, *, steady: bool = False, turn: bool | None = None
) -> discord.ui.View | None:
    """The buttons: trump suits, bids, or the cards (steady: every one; else only the legal ones).

    A player the computer stands in for also gets the "I'm back" button. `turn` as for `hand_embed`.
    """
    turn = is_turn(table, observation) if turn is None else turn and is_turn(table, observation)
    view = _moves_view(table, observation, locale, steady and not turn)
    if table.players[observation.seat].user_id in table.away:
        view = view or discord.ui.View(timeout=None)
        view.add_item(back_button(table, locale))
    return view


def _moves_view(table: Table, observation: Observation, locale: str | None, steady: bool) -> discord.ui.View | None:
    # Usually only the player to move may act; under hidden bids everyone still to bid may.
    my_turn = bool(observation.legal)
    # The trick a button is for: the player's next one, which is the number of cards they have
    # played this round. It is the current trick whenever they may play, and a steady hand drawn
    # after their card stays good for their turn in the next trick. (Bids and trump: trick 0.)
    trick = observation.round - observation.hand_sizes[observation.seat]
    view = discord.ui.View(timeout=None)

    def action_id(action: ChooseTrump | Bid | Play | None) -> str:
        return _ids.build(_ids.ActionId(table.id, observation.round, trick, action))

    if observation.phase is Phase.CHOOSE_TRUMP and steady and not my_turn:
        return None  # nothing to do until the dealer has chosen trump; then the hand is redrawn
    if observation.phase is Phase.CHOOSE_TRUMP and my_turn:
        for suit in Suit:
            view.add_item(
                button(
                    action_id(ChooseTrump(suit)),
                    t(locale, f"suit.{suit.value}"),
                    style=SUIT_STYLE[suit],
                    emoji=SUIT_EMOJI[suit],
                )
            )
        return view
    bidding = observation.phase is Phase.BID and not observation.has_bid[observation.seat]
    if bidding and (my_turn or steady):
        forbidden = _forbidden(observation)
        for n in range(observation.round + 1):
            view.add_item(
                button(
                    action_id(Bid(n)),
                    str(n),
                    style=discord.ButtonStyle.primary,
                    disabled=n == forbidden,
                    row=n // ROW_SIZE,
                )
            )
        return view
    if steady:
        playable = set(observation.hand)
    elif my_turn:
        playable = {action.card for action in observation.legal if isinstance(action, Play)}
    else:
        playable = set()
    if observation.blind and observation.hand_sizes[observation.seat]:
        # One face-down card: its button does not say which card it is.
        view.add_item(
            button(
                action_id(None),
                t(locale, "card.face_down"),
                style=discord.ButtonStyle.secondary,
                emoji=HAND_EMOJI,
                disabled=not (steady or (my_turn and observation.phase is Phase.PLAY)),
            )
        )
        return view
    if not observation.hand:
        return None
    for index, card in enumerate(sorted(observation.hand, key=sort_key)):
        view.add_item(
            _card_button(action_id(Play(card)), card, locale, disabled=card not in playable, row=index // ROW_SIZE)
        )
    return view


def _card_button(custom_id: str, card: Card, locale: str | None, *, disabled: bool, row: int) -> WizardButton:
    if card.kind is Kind.WIZARD:
        return button(
            custom_id,
            t(locale, "card.wizard"),
            style=discord.ButtonStyle.primary,
            emoji=WIZARD_EMOJI,
            disabled=disabled,
            row=row,
        )
    if card.kind is Kind.JESTER:
        return button(
            custom_id,
            t(locale, "card.jester"),
            style=discord.ButtonStyle.secondary,
            emoji=JESTER_EMOJI,
            disabled=disabled,
            row=row,
        )
    assert card.suit is not None
    return button(
        custom_id, str(card.rank), style=SUIT_STYLE[card.suit], emoji=SUIT_EMOJI[card.suit], disabled=disabled, row=row
    )
