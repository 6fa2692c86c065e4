"""Turn lobbies, tables and hands into Discord embeds and button views. Nothing here has effects."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Literal

import discord
from discord.utils import escape_markdown

from bot.engine import (
    Bid,
    Card,
    ChooseTrump,
    Kind,
    Observation,
    Options,
    Phase,
    Play,
    RoundResult,
    Suit,
    TrickResult,
    led_suit,
    sort_key,
)
from bot.engine.rules import MAX_PLAYERS
from bot.i18n import JESTER_EMOJI, SUIT_EMOJI, WIZARD_EMOJI, card_name, duration, number, suit_name, t, tn
from bot.manager import Lobby, Player, Table, placings

from . import _ids
from ._buttons import WizardButton

COLOUR = discord.Colour.dark_purple()
TURN_COLOUR = discord.Colour.green()  # a hand at its player's move: seen at a glance in the DM list
ROW_SIZE = 5

# The emojis on buttons. Discord accepts only emojis of Unicode's emoji list there (or custom
# ones): a symbol that merely looks like one, such as the playing-card back U+1F0A0, makes it
# refuse the whole message. tests/bot/test_emoji.py sends each through the strict stand-in.
HAND_EMOJI = "🎴"  # the My hand button, and the face-down card of the blind round
COMPUTER_EMOJI = "🤖"
BACK_EMOJI = "👋"
RECORD_EMOJI = "📜"
REMATCH_EMOJI = "🔁"
REVIEW_EMOJI = "🎓"  # the coach
SETTINGS_EMOJI = "⚙️"  # the lobby's button that opens the host's private panel

# Suits differ by emoji and name as well as colour, so colour-blind players can tell them apart.
_SUIT_STYLE = {
    Suit.HEARTS: discord.ButtonStyle.danger,
    Suit.DIAMONDS: discord.ButtonStyle.primary,
    Suit.CLUBS: discord.ButtonStyle.success,
    Suit.SPADES: discord.ButtonStyle.secondary,
}


def _name(player: Player, locale: str | None) -> str:
    """How a player is shown: their name, or a computer player's level in the reader's language."""
    if player.computer is not None:
        level = t(locale, f"level.{player.computer}")
        return t(locale, "computer.name", number=-player.user_id, level=level)
    return escape_markdown(player.name)


def _button(
    custom_id: str,
    label: str | None,
    *,
    style: discord.ButtonStyle,
    emoji: str | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> WizardButton:
    return WizardButton(
        discord.ui.Button(custom_id=custom_id, label=label, style=style, emoji=emoji, disabled=disabled), row=row
    )


# -- lobby ---------------------------------------------------------------------------------


def _players_and_options(embed: discord.Embed, lobby: Lobby, locale: str | None) -> None:
    """The fields every view of a lobby shows: who has joined, and the game's options."""
    embed.add_field(
        name=t(locale, "lobby.players", joined=len(lobby.players), most=MAX_PLAYERS),
        value="\n".join(f"{i}. {_name(p, locale)}" for i, p in enumerate(lobby.players, 1)),
        inline=False,
    )
    embed.add_field(name=t(locale, "lobby.options"), value=options_text(lobby, locale), inline=False)


def lobby_embed(lobby: Lobby, locale: str | None) -> discord.Embed:
    embed = discord.Embed(title=t(locale, "lobby.title"), colour=COLOUR)
    host = next((p for p in lobby.players if p.user_id == lobby.host_id), lobby.players[0])
    embed.add_field(name=t(locale, "lobby.host"), value=_name(host, locale), inline=False)
    _players_and_options(embed, lobby, locale)
    embed.set_footer(text=t(locale, "lobby.footer"))
    return embed


def position(table: Table, round_number: int) -> int:
    """Which round of the game deals `round_number` cards (they differ in a shortened game)."""
    return table.game.round_numbers.index(round_number) + 1


def house_rules(options: Options, locale: str | None) -> list[str]:
    """The variants in force, one line each; empty for the standard rules."""
    lines = []
    if options.bids_may_not_add_up:
        key = "option.variant.on_but_round_one" if options.bids_may_add_up_in_round_one else "option.variant.on"
        lines.append(t(locale, key))
    if options.hidden_bids:
        lines.append(t(locale, "option.hidden_bids"))
    if options.schedule == "even":
        lines.append(t(locale, "option.even_rounds"))
    if options.rounds is not None:
        lines.append(tn(locale, "option.rounds", options.rounds))
    if options.blind_first_round:
        lines.append(t(locale, "option.blind_first_round"))
    return lines


def options_text(lobby: Lobby | Table, locale: str | None) -> str:
    options = lobby.options if isinstance(lobby, Lobby) else lobby.game.options
    rules = house_rules(options, locale) or [t(locale, "option.standard")]
    return "\n".join([*rules, t(locale, "option.timer", time=duration(locale, round(lobby.turn_timer)))])


def lobby_view(lobby: Lobby, locale: str | None) -> discord.ui.View:
    """The buttons everyone sees: Join, Leave, and the host's Start, Cancel and settings panel."""
    view = discord.ui.View(timeout=None)
    styles = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
        "cancel": discord.ButtonStyle.danger,
        "settings": discord.ButtonStyle.secondary,
    }
    for op in _ids.PUBLIC_OPS:
        label = t(locale, f"lobby.{op}")
        emoji = SETTINGS_EMOJI if op == "settings" else None
        view.add_item(_button(_ids.build(_ids.LobbyId(lobby.id, op)), label, style=styles[op], emoji=emoji))
    return view


def host_panel_embed(lobby: Lobby, locale: str | None) -> discord.Embed:
    """The host's private panel: what it is for, and the lobby's players and options as they are."""
    embed = discord.Embed(title=t(locale, "panel.title"), description=t(locale, "panel.text"), colour=COLOUR)
    _players_and_options(embed, lobby, locale)
    return embed


def host_panel_view(lobby: Lobby, locale: str | None) -> discord.ui.View:
    """The host's settings: computer players, then the house-rule switches (green when on).

    Only what would change something is offered: no computer player to add to a full lobby or to
    remove when there is none, no "…except round 1" while bids may add up anyway.
    """
    view = discord.ui.View(timeout=None)
    full = len(lobby.players) >= MAX_PLAYERS
    has_computer = any(player.computer is not None for player in lobby.players)
    for op in _ids.COMPUTER_OPS:
        if (op == "remove_computer" and not has_computer) or (op != "remove_computer" and full):
            continue
        view.add_item(
            _button(
                _ids.build(_ids.LobbyId(lobby.id, op)),
                t(locale, f"lobby.{op}"),
                style=discord.ButtonStyle.secondary,
                emoji=COMPUTER_EMOJI,
                row=0,
            )
        )
    options = lobby.options
    switches = {
        "rule_add_up": options.bids_may_not_add_up,
        "rule_round_one": options.bids_may_add_up_in_round_one,
        "rule_hidden": options.hidden_bids,
        "rule_blind": options.blind_first_round,
        "rule_length": options.rounds is not None or options.schedule != "full",
    }
    for op, on in switches.items():
        if op == "rule_round_one" and not options.bids_may_not_add_up:
            continue  # an exception to a rule that is off changes nothing
        label = t(locale, f"lobby.{op}")
        if op == "rule_length":
            label = t(locale, "lobby.rule_length", length=length_text(options, locale))
        style = discord.ButtonStyle.success if on else discord.ButtonStyle.secondary
        view.add_item(_button(_ids.build(_ids.LobbyId(lobby.id, op)), label, style=style, row=1))
    return view


def lobby_started_embed(lobby: Lobby, link: str, locale: str | None) -> discord.Embed:
    """The lobby message once the game is on: who plays, and where the table is."""
    embed = discord.Embed(
        title=t(locale, "lobby.title.started"), description=t(locale, "lobby.started", link=link), colour=COLOUR
    )
    _players_and_options(embed, lobby, locale)
    return embed


# The game lengths the lobby's length switch steps through: (rounds, schedule).
LENGTHS: tuple[tuple[int | None, Literal["full", "even"]], ...] = (
    (None, "full"),
    (5, "full"),
    (10, "full"),
    (None, "even"),
)


def length_text(options: Options, locale: str | None) -> str:
    if options.schedule == "even":
        return t(locale, "length.even")
    if options.rounds is not None:
        return tn(locale, "length.first", options.rounds)
    return t(locale, "length.full")


def lobby_closed_embed(lobby: Lobby, reason: str, locale: str | None) -> discord.Embed:
    return discord.Embed(title=t(locale, "lobby.title"), description=t(locale, f"lobby.closed.{reason}"))


# -- the table -----------------------------------------------------------------------------


def trick_text(
    cards: Sequence[tuple[int, Card]], players: Sequence[Player], locale: str | None, winner: int | None = None
) -> str:
    """The cards of a trick with who played them; the winning card in bold."""
    parts = []
    for seat, card in cards:
        text = f"{_name(players[seat], locale)} {card_name(locale, card)}"
        parts.append(f"**{text}**" if seat == winner else text)
    return " · ".join(parts)


def _trump_line(observation: Observation, players: Sequence[Player], locale: str | None) -> str:
    turned = observation.turned_up
    parts = [t(locale, "table.dealer", name=_name(players[observation.dealer], locale))]
    if turned is None:
        parts.append(t(locale, "table.turned_up.none"))
    else:
        parts.append(t(locale, "table.turned_up", card=card_name(locale, turned)))
    if observation.phase is Phase.CHOOSE_TRUMP:
        parts.append(t(locale, "table.trump.pending"))
    elif observation.trump is None:
        parts.append(t(locale, "table.trump.none"))
    else:
        parts.append(t(locale, "table.trump", suit=suit_name(locale, observation.trump)))
    return " · ".join(parts)


def _turn_text(observation: Observation, players: Sequence[Player], locale: str | None) -> str:
    if observation.to_move is None:
        return t(locale, "table.game_over")
    if observation.phase is Phase.BID and observation.options.hidden_bids:
        return t(locale, "table.turn.hidden_bids")
    name = _name(players[observation.to_move], locale)
    led = led_suit(observation.trick) if observation.phase is Phase.PLAY else None
    if led is not None:
        # The DM hands enable every card, so the table is where the suit to follow is read.
        return t(locale, "table.turn.play_follow", name=name, suit=suit_name(locale, led))
    return t(locale, f"table.turn.{observation.phase.value}", name=name)


def table_embed(table: Table, locale: str | None) -> discord.Embed:
    """The live public table: round, trump, bids, the trick in play, the last trick, the scores."""
    game = table.game
    # The public part of any seat's observation is the same; seat 0's hand is never shown here.
    observation = game.observation(0)
    players = table.players
    # Hidden bids stay hidden until all are in: the table shows only who has bid (seat 0's
    # observation knows its own bid, which must not show here).
    hidden = observation.phase is Phase.BID and game.options.hidden_bids
    bids = [bid for bid in observation.bids if bid is not None]
    if hidden:
        bid_line = t(locale, "table.bids.hidden", done=sum(observation.has_bid), players=game.players)
    else:
        bid_line = t(locale, "table.bids", total=sum(bids), tricks=observation.round)
    lines = [_trump_line(observation, players, locale), bid_line, ""]
    waiting = set(game.waiting_for())
    for seat, player in enumerate(players):
        bid = observation.bids[seat]
        marker = "▶ " if seat in waiting else ""
        if hidden:
            shown: object = "✓" if observation.has_bid[seat] else t(locale, "table.bid.none")
        else:
            shown = t(locale, "table.bid.none") if bid is None else bid
        line = tn(
            locale,
            "table.player_line",
            observation.scores[seat],
            marker=marker,
            name=_name(player, locale),
            bid=shown,
            won=observation.tricks_won[seat],
        )
        if player.user_id in table.away:
            line += " " + t(locale, "table.away_marker")
        lines.append(line)
    rules = house_rules(game.options, locale)
    if rules:
        lines += ["", "📜 " + " · ".join(rules)]
    if table.stand_in is not None:
        seat, by = table.stand_in
        lines += ["", "🤖 " + t(locale, f"table.stand_in.{by}", name=_name(players[seat], locale))]
    embed = discord.Embed(
        title=t(locale, "table.title", round=observation.round_position, rounds=observation.rounds),
        description="\n".join(lines),
        colour=COLOUR,
    )
    if observation.phase is Phase.PLAY:
        current = game.current_trick()
        embed.add_field(
            name=t(locale, "table.trick"),
            value=trick_text(current, players, locale) if current else t(locale, "table.trick.empty"),
            inline=False,
        )
    if observation.tricks:
        embed.add_field(
            name=t(locale, "table.last_trick"),
            value=last_trick_text(observation.tricks[-1], players, locale),
            inline=False,
        )
    embed.set_footer(text=_turn_text(observation, players, locale))
    return embed


def last_trick_text(trick: TrickResult, players: Sequence[Player], locale: str | None) -> str:
    return t(
        locale,
        "table.last_trick.won",
        cards=trick_text(trick.by_seat(), players, locale, winner=trick.winner),
        name=_name(players[trick.winner], locale),
        card=card_name(locale, trick.winning_card),
    )


def table_view(table: Table, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        _button(
            _ids.build(_ids.HandId(table.id)),
            t(locale, "table.my_hand"),
            style=discord.ButtonStyle.primary,
            emoji=HAND_EMOJI,
        )
    )
    if table.away:
        view.add_item(back_button(table, locale))
    return view


def back_button(table: Table, locale: str | None) -> WizardButton:
    return _button(
        _ids.build(_ids.BackId(table.id)), t(locale, "table.back"), style=discord.ButtonStyle.success, emoji=BACK_EMOJI
    )


def round_over_embed(table: Table, result: RoundResult, last: TrickResult, locale: str | None) -> discord.Embed:
    """What a round's table message becomes when the round ends: its last trick, no buttons."""
    embed = discord.Embed(
        title=t(locale, "table.title", round=position(table, result.round), rounds=table.game.rounds),
        description=t(locale, "table.round_over", round=position(table, result.round)),
    )
    embed.add_field(name=t(locale, "table.last_trick"), value=last_trick_text(last, table.players, locale))
    return embed


def closed_table_embed(table: Table, locale: str | None, *, stopped_by: Player | None) -> discord.Embed:
    """The table of a game that ended early: who stopped it, or (it ended itself, or who stopped it
    is not known after a restart) that it is over; never whose turn it was."""
    embed = table_embed(table, locale)
    if stopped_by is not None:
        embed.set_footer(text=t(locale, "table.stopped", name=stopped_by.name))
    else:
        embed.set_footer(text=t(locale, "table.game_over"))
    return embed


# The score pad is a code block (monospaced, so its columns align), and a phone 360 pixels wide
# shows 34 of its characters on a line before it wraps one. So each player takes two lines: the
# name in full, and under it the numbers, which fit in every language (tests/bot/test_render.py).
PAD_WIDTH = 34
PAD_INDENT = 2  # the numbers stand in from the names, so that a name starts each player's lines
# The least width of each column (bid, took, points, total), for its widest value: bids and tricks
# up to 20, points such as "+220", totals such as "−1230".
PAD_VALUE_WIDTHS = (2, 2, 4, 5)
EXACT_MARK = " ✓"


def _width(text: str) -> int:
    """Columns `text` takes in a monospaced font: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _right(text: str, width: int) -> str:
    """`text` right-aligned in `width` columns."""
    return " " * (width - _width(text)) + text


def _cut(text: str, width: int) -> str:
    """`text`, or as much of it as fits in `width` columns followed by "…"."""
    if _width(text) <= width:
        return text
    while _width(text) > width - 1:
        text = text[:-1]
    return text + "…"


def plain_name(player: Player, locale: str | None) -> str:
    """A name for a code block: no markdown escapes (they would show), no backticks (they would end it)."""
    if player.computer is not None:
        return _name(player, locale)
    return player.name.replace("`", "ˋ")


def score_pad(table: Table, result: RoundResult, locale: str | None) -> str:
    """The round as a score pad: per player the bid, tricks, points and running total; ✓ for an exact bid."""
    headers = [t(locale, f"pad.{column}") for column in ("bid", "took", "points", "total")]
    widths = [max(_width(header), least) for header, least in zip(headers, PAD_VALUE_WIDTHS, strict=True)]

    def columns(values: Sequence[str]) -> str:
        return " " * PAD_INDENT + " ".join(_right(value, width) for value, width in zip(values, widths, strict=True))

    lines = [columns(headers)]
    for seat, player in enumerate(table.players):
        # A computer player's name is short enough; a person's display name (32 characters at most)
        # is cut only when wide letters make it longer than a line.
        lines.append(_cut(plain_name(player, locale), PAD_WIDTH))
        values = [
            number(locale, result.bids[seat]),
            number(locale, result.tricks[seat]),
            number(locale, result.points[seat], "+d"),
            number(locale, result.totals[seat]),
        ]
        lines.append(columns(values) + (EXACT_MARK if result.bids[seat] == result.tricks[seat] else ""))
    return "```\n" + "\n".join(lines) + "\n```"


def summary_embed(table: Table, result: RoundResult, locale: str | None) -> discord.Embed:
    """The round's results as a score pad."""
    return discord.Embed(
        title=t(locale, "summary.title", round=position(table, result.round), rounds=table.game.rounds),
        description=score_pad(table, result, locale),
        colour=COLOUR,
    )


def final_embed(table: Table, locale: str | None) -> discord.Embed:
    scores = table.game.scores
    places = placings(scores)
    order = sorted(range(len(scores)), key=lambda seat: (places[seat], seat))
    lines = [
        tn(locale, "final.line", scores[seat], place=places[seat], name=_name(table.players[seat], locale))
        for seat in order
    ]
    winners = [_name(table.players[seat], locale) for seat in table.game.winners()]
    key = "final.winner" if len(winners) == 1 else "final.winners"
    lines += ["", "🏆 " + t(locale, key, names=", ".join(winners))]
    return discord.Embed(title=t(locale, "final.title"), description="\n".join(lines), colour=discord.Colour.gold())


def final_view(table: Table, locale: str | None) -> discord.ui.View:
    """The buttons under the final standings: the game's record, a rematch, and each player's own review."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        _button(
            _ids.build(_ids.RecordId(table.id)),
            t(locale, "final.record"),
            style=discord.ButtonStyle.secondary,
            emoji=RECORD_EMOJI,
        )
    )
    view.add_item(
        _button(
            _ids.build(_ids.RematchId(table.id)),
            t(locale, "final.rematch"),
            style=discord.ButtonStyle.success,
            emoji=REMATCH_EMOJI,
        )
    )
    view.add_item(
        _button(
            _ids.build(_ids.ReviewId(table.id)),
            t(locale, "final.review"),
            style=discord.ButtonStyle.primary,
            emoji=REVIEW_EMOJI,
        )
    )
    return view


def dm_closed_text(players: Sequence[Player], locale: str | None) -> str:
    return t(locale, "table.dm_closed", names=", ".join(f"<@{p.user_id}>" for p in players))


# -- a player's hand -----------------------------------------------------------------------
#
# A hand is drawn two ways. The DM kept for the round is *steady*: it depends only on the
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
            f"{_name(table.players[seat], locale)}: {' '.join(card_name(locale, card) for card in cards_)}"
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
                _button(
                    action_id(ChooseTrump(suit)),
                    t(locale, f"suit.{suit.value}"),
                    style=_SUIT_STYLE[suit],
                    emoji=SUIT_EMOJI[suit],
                )
            )
        return view
    bidding = observation.phase is Phase.BID and not observation.has_bid[observation.seat]
    if bidding and (my_turn or steady):
        forbidden = _forbidden(observation)
        for n in range(observation.round + 1):
            view.add_item(
                _button(
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
            _button(
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
        return _button(
            custom_id,
            t(locale, "card.wizard"),
            style=discord.ButtonStyle.primary,
            emoji=WIZARD_EMOJI,
            disabled=disabled,
            row=row,
        )
    if card.kind is Kind.JESTER:
        return _button(
            custom_id,
            t(locale, "card.jester"),
            style=discord.ButtonStyle.secondary,
            emoji=JESTER_EMOJI,
            disabled=disabled,
            row=row,
        )
    assert card.suit is not None
    return _button(
        custom_id, str(card.rank), style=_SUIT_STYLE[card.suit], emoji=SUIT_EMOJI[card.suit], disabled=disabled, row=row
    )
