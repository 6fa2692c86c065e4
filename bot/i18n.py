"""Every text a person reads comes from here, looked up by key for a Discord locale.

English only for now; other languages add catalogs behind the same two functions.
"""

from __future__ import annotations

from .engine import Card, Kind, Suit

DEFAULT_LOCALE = "en-US"

# Plural entries are (one, other) pairs chosen by the number `n`.
_EN: dict[str, str | tuple[str, str]] = {
    # lobby
    "lobby.title": "Wizard — a new game is forming",
    "lobby.host": "Host",
    "lobby.players": "Players ({n}/{most})",
    "lobby.options": "Options",
    "lobby.footer": "3–6 players. Join, then the host presses Start.",
    "lobby.join": "Join",
    "lobby.leave": "Leave",
    "lobby.start": "Start",
    "lobby.cancel": "Cancel",
    "lobby.closed.cancelled": "This game was cancelled by the host.",
    "lobby.closed.empty": "Everyone left, so this game was closed.",
    "lobby.closed.expired": (
        "Nobody touched this lobby for 15 minutes, so it was closed. Start a new one with /wizard start."
    ),
    "lobby.started": "The game has started: the table is below.",
    "lobby.joined": "You joined the game.",
    "lobby.left": "You left the game.",
    "option.variant.on": "Bids may not add up to the number of tricks",
    "option.variant.off": "Bids may add up to the number of tricks",
    "option.timer": "Turn timer: {time}",
    # durations
    "time.seconds": ("{n} second", "{n} seconds"),
    "time.minutes": ("{n} minute", "{n} minutes"),
    "time.hours": ("{n} hour", "{n} hours"),
    # table
    "table.title": "Wizard — round {round} of {rounds}",
    "table.dealer": "Dealer: {name}",
    "table.turned_up": "Turned up: {card}",
    "table.turned_up.none": "No card turned up (last round)",
    "table.trump": "Trump: {suit}",
    "table.trump.none": "No trump",
    "table.trump.pending": "Trump: the dealer is choosing",
    "table.bids": "Bids: {total} of {tricks} tricks",
    "table.player_line": "{marker}**{name}** — bid {bid} · tricks {won} · {score} points",
    "table.bid.none": "–",
    "table.turn.choose_trump": "{name} is choosing trump.",
    "table.turn.bid": "{name} is bidding.",
    "table.turn.play": "{name} is to play.",
    "table.trick": "Current trick",
    "table.trick.empty": "No card played yet.",
    "table.last_trick": "Last trick",
    "table.last_trick.won": "{cards} — won by **{name}** with {card}",
    "table.my_hand": "My hand",
    "table.round_over": "Round {round} is over.",
    "table.game_over": "The game is over.",
    "table.stopped": "This game was stopped by {name}.",
    "table.dm_closed": (
        "I can't send {names} a direct message. Use the **My hand** button on the table to see your cards and play."
    ),
    # round summary and the end
    "summary.title": "Round {round} of {rounds} — results",
    "summary.line": "**{name}**: bid {bid}, took {won} → {points:+d} (total {total})",
    "final.title": "Final standings",
    "final.line": "{place}. **{name}** — {score} points",
    "final.winner": "{names} wins!",
    "final.winners": "{names} share the win!",
    # hand
    "hand.title": "Your hand — round {round} of {rounds}",
    "hand.where": "Game in <#{channel}>",
    "hand.trump": "Trump: {suit}",
    "hand.your_bid": "Your bid: {bid} · tricks taken: {won}",
    "hand.prompt.choose_trump": "A Wizard was turned up: you are the dealer, choose trump.",
    "hand.prompt.bid": "Your turn: how many tricks will you take?",
    "hand.prompt.bid_forbidden": "Your turn to bid. You may not bid {value}: the bids may not add up to {tricks}.",
    "hand.prompt.play": "Your turn: play a card.",
    "hand.prompt.wait": "Waiting for {name}.",
    "hand.prompt.over": "This round is over.",
    "hand.empty": "(no cards left)",
    # refusals
    "error.channel_busy": "There is already a game in this channel: {link}",
    "error.no_game": "There is no running game here (it may have ended).",
    "error.not_in_game": "You are not playing in this game.",
    "error.already_joined": "You have already joined.",
    "error.lobby_full": "The game is full ({most} players).",
    "error.not_host": "Only the host can do that.",
    "error.not_enough_players": "At least {least} players are needed to start.",
    "error.already_started": "This game has already started.",
    "error.not_started": "This game has not started yet.",
    "error.stale": "That button is from an earlier trick or round. Use the latest message.",
    "error.not_allowed": "Only the host or a member who can manage the server can stop this game.",
    "error.bad_timer": "The turn timer must be between {low} and {high} seconds.",
    "error.broken_button": "That button is not one of mine or is damaged, so nothing happened.",
    "error.not_your_turn": "It's not your turn.",
    "error.wrong_phase": "That isn't possible at this point of the round.",
    "error.game_over": "The game is over.",
    "error.unknown_action": "That isn't a move in Wizard.",
    "error.bid_out_of_range": "Bids are from 0 to {tricks}.",
    "error.bid_adds_up": "You may not bid {value}: the bids may not add up to {tricks}.",
    "error.card_not_in_hand": "That card is not in your hand.",
    "error.must_follow_suit": "You must follow suit ({suit}) — or play a Wizard or a Jester.",
    "error.not_a_suit": "Choose one of the four suits.",
    "error.internal": "Something went wrong on my side; the game is unchanged. Please try again.",
    "error.guild_only": "Wizard games are played in server channels.",
    # commands
    "stop.done": "The game was stopped.",
    "rules.title": "Wizard — the rules in short",
    "rules.text": (
        "**Cards.** 60 cards: 1–13 in four suits, 4 Wizards and 4 Jesters. 3–6 players.\n"
        "**Rounds.** Round 1 deals 1 card each, round 2 deals 2, and so on until the deck runs out "
        "(20, 15, 12 or 10 rounds). The dealer moves one seat each round.\n"
        "**Trump.** The top card of the rest is turned up: its suit is trump. A Jester means no "
        "trump; a Wizard means the dealer picks the trump suit. The last round has no trump.\n"
        "**Bidding.** Starting left of the dealer, everyone says how many tricks they will take.\n"
        "**Playing.** Follow the led suit if you can; a Wizard or a Jester may always be played. "
        "If a Jester is led, the next card that is not a Jester sets the suit. If a Wizard is led, "
        "anything may follow.\n"
        "**Winning a trick.** The first Wizard wins; otherwise the highest trump; otherwise the "
        "highest card of the led suit. If only Jesters were played, the first Jester wins.\n"
        "**Scoring.** Exactly your bid: 20 points + 10 per trick. Otherwise −10 per trick you "
        "were off. Highest total at the end wins.\n"
        "**Variant.** With \u201cbids may not add up\u201d, the last bidder may not make the "
        "bids total the number of tricks, so someone always misses."
    ),
    # leaderboard and statistics
    "board.title": "Leaderboard — {server}",
    "board.sorted": "Sorted by {sort} · page {page} of {pages}",
    "board.sort.rating": "rating",
    "board.sort.wins": "wins",
    "board.sort.avg_score": "average score",
    "board.sort.exact_rate": "exact bids",
    "board.line": "{rank}. **{name}** — {value} · {games}",
    "board.value.rating": "rating {value:.1f}",
    "board.value.wins": ("{n} win", "{n} wins"),
    "board.value.avg_score": "average {value:.0f}",
    "board.value.exact_rate": "{value:.0%} exact",
    "board.games": ("{n} game", "{n} games"),
    "board.empty": "No finished games here yet. Play one with /wizard start!",
    "board.you": "{name}: #{rank}",
    "board.you.unranked": "{name}: not ranked yet",
    "board.previous": "Previous",
    "board.next": "Next",
    "stats.title": "Wizard statistics — {name}",
    "stats.none": "{name} has not finished a game on this server yet.",
    "stats.games": "Games",
    "stats.games.value": "{games} played · {wins} won ({rate:.0%})",
    "stats.score": "Score",
    "stats.score.value": "average {average:.0f} · best {best}",
    "stats.bids": "Bids",
    "stats.bids.value": "{exact:.0%} exact · {over:.0%} took more · {under:.0%} took fewer ({rounds} rounds)",
    "stats.rating": "Rating",
    "stats.rating.value": "{rating:.1f}",
    "stats.rating.none": "not rated yet",
    "stats.by_size": "Exact bids by hand size",
    "stats.by_size.line": "{cards}: {rate:.0%} of {rounds}",
    "stats.cards": ("{n} card", "{n} cards"),
    "stats.rounds": ("{n} round", "{n} rounds"),
    # cards
    "suit.S": "Spades",
    "suit.H": "Hearts",
    "suit.D": "Diamonds",
    "suit.C": "Clubs",
    "card.wizard": "Wizard",
    "card.jester": "Jester",
    "card.number": "{rank} of {suit}",
}

_CATALOGS: dict[str, dict[str, str | tuple[str, str]]] = {"en": _EN}

SUIT_EMOJI = {Suit.SPADES: "♠️", Suit.HEARTS: "♥️", Suit.DIAMONDS: "♦️", Suit.CLUBS: "♣️"}
WIZARD_EMOJI = "🧙"
JESTER_EMOJI = "🃏"


def _entry(locale: str | None, key: str) -> str | tuple[str, str]:
    language = (locale or DEFAULT_LOCALE).split("-")[0]
    catalog = _CATALOGS.get(language, _EN)
    return catalog.get(key) or _EN[key]


def t(locale: str | None, key: str, /, **params: object) -> str:
    """The text `key` in `locale` (a Discord locale such as ``en-US``), filled with `params`."""
    entry = _entry(locale, key)
    if isinstance(entry, tuple):
        raise TypeError(f"{key} is a plural text: use tn()")
    return entry.format(**params) if params else entry


def tn(locale: str | None, key: str, n: int, /, **params: object) -> str:
    """The plural text `key` for the number `n` in `locale`."""
    entry = _entry(locale, key)
    if not isinstance(entry, tuple):
        raise TypeError(f"{key} is not a plural text: use t()")
    one, other = entry
    return (one if n == 1 else other).format(n=n, **params)


def suit_name(locale: str | None, suit: Suit) -> str:
    return f"{SUIT_EMOJI[suit]} {t(locale, f'suit.{suit.value}')}"


def card_name(locale: str | None, card: Card) -> str:
    """A card as text, with its suit's symbol so suits are told apart by more than colour."""
    if card.kind is Kind.WIZARD:
        return f"{WIZARD_EMOJI} {t(locale, 'card.wizard')}"
    if card.kind is Kind.JESTER:
        return f"{JESTER_EMOJI} {t(locale, 'card.jester')}"
    assert card.suit is not None
    return f"{SUIT_EMOJI[card.suit]}{card.rank}"


def duration(locale: str | None, seconds: int) -> str:
    """A duration in the largest whole unit: 90 s stays seconds, 300 s is 5 minutes."""
    if seconds % 3600 == 0:
        return tn(locale, "time.hours", seconds // 3600)
    if seconds % 60 == 0:
        return tn(locale, "time.minutes", seconds // 60)
    return tn(locale, "time.seconds", seconds)
