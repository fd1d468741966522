"""klaverjas.py - a single-file Python SDK for Klaverjas arena bots (protocol version 1).

Standard library only; Python 3.9 or later. Copy this file next to your bot, or add its folder
to PYTHONPATH. The protocol itself is spec.md; the rules of the game are RULES.md.

A bot is one function from a decision (plus what the bot has seen so far) to an answer:

    import random
    import klaverjas

    def decide(state, decision):
        if decision.kind == "bid":
            return random.choice(decision.legal_bids)        # "H", "pass", ...
        if decision.kind == "play":
            return random.choice(decision.legal_cards)       # "JH", "7C", ...
        return klaverjas.trick_roem(decision.trick, decision.trump, state.options)  # a claim

    klaverjas.run(klaverjas.Bot("my-bot", "me@example.org", decide))

The three-player game (spec.md section 14, rules line `players=3`) needs no more than that:
bids, plays and claims come to decide as at four (ten cards, tricks of three). The one new
decision, the Player's discard of two cards after taking the skart, goes to the bot's
discard(state, decision), which by default lays away the two cheapest cards that are not
trumps (`default_discard`); pass `discard=` to Bot, or override it, to choose yourself. The
answer is a list of two different cards of decision.hand (or the string "7S 8D").
`state.players` is 3 or 4 (from the rules line); at three, lists per side in `scored` and
`gameover` are per seat (N, E, S; or N, E, S, W at a table of four, where the dealer sits out
each deal: he is dealt no cards, `state.sitting_out` is true, and he is asked nothing; the
arena's `active` line tells every seat who plays, which `state.seats()` and
`state.playing()` give).

`run` does everything else: the handshake, reading and parsing every line the arena sends,
keeping `State` up to date, and writing (and flushing) the answers. Inside `run`, a stray
`print()` goes to standard error, so it cannot break the protocol; standard error is free for
debugging. `decision.info(text)` sends an info line (spec.md section 8) before the answer.
An exception in decide ends the bot with its traceback on standard error (the arena counts a
crash); an answer of the wrong form raises BadAnswer, and a well-formed answer that is not
among the legal ones is sent with a warning on standard error.

Notation (the protocol's own, spec.md section 3):

* a card is a two-letter string, rank then suit: "JH" (jack of hearts), "TS" (ten of spades);
  ranks "789TJQKA", suits "CDHS".
* card lists (hands, tricks, legal cards) are Python lists of such strings; a hand is kept in
  card order (clubs, diamonds, hearts, spades; 7 up to ace), which `sort_cards` gives.
* seats are "N", "E", "S", "W"; sides are "NS" and "EW"; per-side lists are [NS, EW] (at the
  three-player game: per seat, [N, E, S] or [N, E, S, W]).
* a bid is a suit letter or "pass"; a pile card is "4H" (rank 2-6) or "JK" (a joker).
* "-" (none) in a message becomes an empty list, or None for a seat or side.

Answers: a bid string for "bid", a card string for "play", a whole number for "claim", and
two cards for "discard" (three-player game). The
arena sends the legal bids and cards with every request, so no rules of play are needed here;
`trick_roem`, `trick_points`, `card_points` and `trick_winner` (RULES.md sections 2, 5 and 6) are
for bots that want to reason about tricks and to claim roem honestly.
"""

import collections
import re
import sys

__all__ = [
    "PROTOCOL_VERSION", "SUITS", "RANKS", "SEATS", "SIDES", "ALL_CARDS",
    "rank", "suit", "is_card", "card_key", "sort_cards", "lowest", "highest", "strength",
    "beats", "trick_winner", "card_points", "trick_points", "roem_items", "trick_roem",
    "default_discard", "players", "hand_size",
    "next_seat", "partner", "side", "side_index", "same_side",
    "Klaverjas", "Rules", "Game", "Dealt", "Active", "Turned", "Said", "Trump", "Played", "TrickDone",
    "Scored", "GameOver", "Fault", "Quit", "BidRequest", "PlayRequest", "ClaimRequest",
    "DiscardRequest",
    "Unknown", "REQUESTS", "ProtocolError", "VersionError", "BadAnswer", "parse_message",
    "Play", "FinishedTrick", "State", "Decision", "Bot", "Session", "run",
]

PROTOCOL_VERSION = 1

SUITS = "CDHS"
RANKS = "789TJQKA"  # natural order: the order of runs, and of card lists
SEATS = "NESW"  # clockwise
SIDES = ("NS", "EW")
ALL_CARDS = [r + s for s in SUITS for r in RANKS]  # in card order

_PLAIN_ORDER = "789JQKTA"  # low to high, RULES.md section 2
_TRUMP_ORDER = "78QKTA9J"
_PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
_TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}


# ----------------------------------------------------------------------------------------------
# Cards, seats and tricks


def rank(card):
    """The rank letter of a card: "JH" -> "J"."""
    return card[0]


def suit(card):
    """The suit letter of a card: "JH" -> "H"."""
    return card[1]


def is_card(token):
    """Whether token is a card of the 32-card deck, e.g. "JH"."""
    return len(token) == 2 and token[0] in RANKS and token[1] in SUITS


def card_key(card):
    """Sort key of card order: suits C D H S, then ranks 7 up to A (how the arena lists cards)."""
    return SUITS.index(card[1]) * 8 + RANKS.index(card[0])


def sort_cards(cards):
    """The cards as a new list in card order."""
    return sorted(cards, key=card_key)


def strength(card, trump, led=None):
    """How strongly card plays in a trick: higher wins. Trumps beat everything; a card of
    another suit than led (when led is given) and not trump scores -1 and never wins."""
    if card[1] == trump:
        return 100 + _TRUMP_ORDER.index(card[0])
    if led is not None and card[1] != led:
        return -1
    return _PLAIN_ORDER.index(card[0])


def lowest(cards, trump=None):
    """The weakest card by trick strength (with trump), or the first in card order
    (without); None for no cards."""
    if not cards:
        return None
    if trump is None:
        return min(cards, key=card_key)
    return min(cards, key=lambda c: (strength(c, trump), card_key(c)))


def highest(cards, trump=None):
    """The strongest card by trick strength (with trump), or the last in card order
    (without); None for no cards."""
    if not cards:
        return None
    if trump is None:
        return max(cards, key=card_key)
    return max(cards, key=lambda c: (strength(c, trump), card_key(c)))


def beats(card, other, led, trump):
    """Whether card beats other in a trick led with suit led (RULES.md section 5.1)."""
    return strength(card, trump, led) > strength(other, trump, led)


def trick_winner(cards, trump):
    """The index in cards (played in order, the first led) of the card winning the trick."""
    if not cards:
        raise ValueError("trick_winner of an empty trick")
    led = cards[0][1]
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], led, trump):
            best = i
    return best


def card_points(card, trump):
    """The card points of one card (RULES.md section 2): trump J 20, 9 14; A 11, T 10, K 4,
    Q 3; plain J 2; the rest 0."""
    if card[1] == trump:
        return _TRUMP_POINTS.get(card[0], 0)
    return _PLAIN_POINTS.get(card[0], 0)


def trick_points(cards, trump, last=False, options=None):
    """The card points of a trick, with the last-trick bonus (option last_trick_bonus,
    default 10) when last is true."""
    pts = sum(card_points(c, trump) for c in cards)
    if last:
        pts += int((options or {}).get("last_trick_bonus", "10"))
    return pts


def _same_rank_points(r, options):
    mode = (options or {}).get("four_of_a_kind", "all_100")
    if mode == "jacks_200_high_100":
        if r == "J":
            return 200
        return 100 if r in "ATKQ" else 0
    if mode == "jacks_200_all_100" and r == "J":
        return 200
    return 100


def players(options):
    """The number of players of a deal under the ruleset options: 4, or 3 (players=3)."""
    return 3 if (options or {}).get("players", "4") == "3" else 4


def hand_size(options):
    """Cards dealt to each player, and tricks in a deal: 8, or 10 at the three-player game."""
    return 10 if players(options) == 3 else 8


def roem_items(cards, trump, options=None):
    """The roem combinations in a trick (RULES.md section 6) as a list of (what, points):
    a run of three ("run3", 20) or four ("run4", 50) in one suit in natural order, the stuk
    ("stuk", 20: king and queen of trumps; only when stuk_scoring is in_trick, the default),
    or four of a kind ("four", points by the option four_of_a_kind). options is the ruleset
    (State.options); missing options take their defaults. At the three-player game
    (players=3, RULES.md §11) a run of three is 40 and three of a kind ("three") 80,
    three jacks 120."""
    options = options or {}
    three = players(options) == 3
    items = []
    for s in SUITS:
        have = [RANKS.index(c[0]) for c in cards if c[1] == s]
        have.sort()
        run = best = 1 if have else 0
        for a, b in zip(have, have[1:]):
            run = run + 1 if b == a + 1 else 1
            best = max(best, run)
        if best >= 4:
            items.append(("run4", 50))
        elif best == 3:
            items.append(("run3", 40 if three else 20))
    if options.get("stuk_scoring", "in_trick") == "in_trick" and trump in SUITS:
        if "K" + trump in cards and "Q" + trump in cards:
            items.append(("stuk", 20))
    if three:
        if not items and len(cards) == 3 and len(set(c[0] for c in cards)) == 1:
            items.append(("three", 120 if cards[0][0] == "J" else 80))
        return items
    if not items and len(cards) == 4 and len(set(c[0] for c in cards)) == 1:
        pts = _same_rank_points(cards[0][0], options)
        if pts:
            items.append(("four", pts))
    return items


def trick_roem(cards, trump, options=None):
    """The roem in a trick, a whole number (0 for none): what an honest claim is."""
    return sum(p for _, p in roem_items(cards, trump, options))


def default_discard(hand, trump):
    """The SDK's default discard for the three-player game: the two cheapest cards of hand
    that are not trumps (fewest card points, then the lowest), keeping every trump unless
    there are fewer than two other cards. Returns a list of two cards."""
    def cost(c):
        return (c[1] == trump, card_points(c, trump), strength(c, trump), card_key(c))
    return sorted(hand, key=cost)[:2]


def next_seat(seat, n=1):
    """The seat n places clockwise from seat (N -> E -> S -> W)."""
    return SEATS[(SEATS.index(seat) + n) % 4]


def partner(seat):
    """The partner of seat: N-S, E-W."""
    return next_seat(seat, 2)


def side(seat):
    """The side of seat: "NS" or "EW"."""
    return "NS" if seat in "NS" else "EW"


def side_index(seat):
    """The index of seat's side in per-side lists: 0 for NS, 1 for EW."""
    return 0 if seat in "NS" else 1


def same_side(a, b):
    """Whether seats a and b are partners (or the same seat)."""
    return side(a) == side(b)


# ----------------------------------------------------------------------------------------------
# Messages from the arena (spec.md section 5)

Klaverjas = collections.namedtuple("Klaverjas", "versions")
Rules = collections.namedtuple("Rules", "options")  # options: dict name -> value, in order
Game = collections.namedtuple("Game", "number seat decision_ms bank_ms increment_ms")
Dealt = collections.namedtuple("Dealt", "number dealer hand")
# three players at a table of four: the three seats that play the deal (the dealer sits out),
# in play order from the player left of the dealer
Active = collections.namedtuple("Active", "seats")
Turned = collections.namedtuple("Turned", "card")  # a pile card: "4H" or "JK"
Said = collections.namedtuple("Said", "seat bid")
Trump = collections.namedtuple("Trump", "suit maker")
Played = collections.namedtuple("Played", "seat card")
TrickDone = collections.namedtuple("TrickDone", "winner points roem")
# score, cards, roem: per side [NS, EW] (per seat at three players); pit: "NS", "EW" (a seat at
# three players) or None; offender: a seat or None
Scored = collections.namedtuple("Scored", "outcome score cards roem pit offender")
GameOver = collections.namedtuple("GameOver", "totals")
Fault = collections.namedtuple("Fault", "kind detail")
Quit = collections.namedtuple("Quit", "")
BidRequest = collections.namedtuple("BidRequest", "time_ms hand legal")
PlayRequest = collections.namedtuple("PlayRequest", "time_ms trump leader trick hand legal")
ClaimRequest = collections.namedtuple("ClaimRequest", "time_ms trump trick")
# three players: the Player's two skart cards, and his hand of twelve with them
DiscardRequest = collections.namedtuple("DiscardRequest", "time_ms trump skart hand")
Unknown = collections.namedtuple("Unknown", "name line")  # a message of a later revision

REQUESTS = (Klaverjas, Rules, BidRequest, PlayRequest, ClaimRequest, DiscardRequest)


class ProtocolError(ValueError):
    """A line that names a message of spec.md but does not follow its grammar."""


class VersionError(Exception):
    """The arena speaks no protocol version this SDK speaks."""


class BadAnswer(ValueError):
    """The bot's decide returned something that is not an answer of the decision's kind."""


_OUTCOMES = ("made", "nat", "forfeit", "redeal")
_PILE_CARD = re.compile(r"^(?:[2-6][CDHS]|JK)$")


def _nat(tok):
    if not tok.isdigit() or len(tok) > 9:
        raise ValueError("want a whole number, got %r" % tok)
    return int(tok)


def _seat(tok):
    if len(tok) != 1 or tok not in SEATS:
        raise ValueError("want a seat N E S W, got %r" % tok)
    return tok


def _seat_or_none(tok):
    return None if tok == "-" else _seat(tok)


def _suit(tok):
    if len(tok) != 1 or tok not in SUITS:
        raise ValueError("want a suit C D H S, got %r" % tok)
    return tok


def _card(tok):
    if not is_card(tok):
        raise ValueError("want a card such as JH, got %r" % tok)
    return tok


def _cards(tok):
    if tok == "-":
        return []
    cards = [_card(t) for t in tok.split(",")]
    if len(set(cards)) != len(cards):
        raise ValueError("a card twice in %r" % tok)
    return cards


def _bid(tok):
    if tok != "pass" and (len(tok) != 1 or tok not in SUITS):
        raise ValueError("want pass or a suit, got %r" % tok)
    return tok


def _ints(tok):
    try:
        return [int(t) for t in tok.split(",")]
    except ValueError:
        raise ValueError("want numbers per side such as 82,80, got %r" % tok)


def _pile(tok):
    if not _PILE_CARD.match(tok):
        raise ValueError("want a pile card such as 4H or JK, got %r" % tok)
    return tok


def _outcome(tok):
    if tok not in _OUTCOMES:
        raise ValueError("want an outcome made, nat, forfeit or redeal, got %r" % tok)
    return tok


def _side_or_none(tok):
    if tok == "-":
        return None
    if tok not in SIDES and not (len(tok) == 1 and tok in SEATS):
        raise ValueError("want a side NS or EW (a seat at three players) or -, got %r" % tok)
    return tok


def _fixed(cls, *fields):
    """A parser for a message of fixed fields, each parsed by its function."""
    def parse(args):
        if len(args) != len(fields):
            raise ValueError("want %d fields, got %d" % (len(fields), len(args)))
        return cls(*[f(a) for f, a in zip(fields, args)])
    return parse


def _parse_klaverjas(args):
    if not args:
        raise ValueError("want at least one protocol version")
    return Klaverjas([_nat(a) for a in args])


def _parse_rules(args):
    options = {}
    for a in args:
        name, eq, value = a.partition("=")
        if not eq or not name:
            raise ValueError("want an option as name=value, got %r" % a)
        options[name] = value
    return Rules(options)


def _parse_active(args):
    seats = [_seat(a) for a in args]
    if len(seats) != 3 or len(set(seats)) != 3:
        raise ValueError("want three different seats")
    return Active(seats)


def _parse_fault(args):
    if not args:
        raise ValueError("want a fault kind")
    return Fault(args[0], " ".join(args[1:]))


def _parse_quit(args):
    if args:
        raise ValueError("quit has no fields")
    return Quit()


def _parse_bid(args):
    if len(args) < 3:
        raise ValueError("want time, hand and at least one legal bid")
    legal = [_bid(a) for a in args[2:]]
    if len(set(legal)) != len(legal):
        raise ValueError("a bid twice")
    return BidRequest(_nat(args[0]), _cards(args[1]), legal)


def _parse_play(args):
    if len(args) < 6:
        raise ValueError("want time, trump, leader, trick, hand and at least one legal card")
    legal = [_card(a) for a in args[5:]]
    return PlayRequest(_nat(args[0]), _suit(args[1]), _seat(args[2]), _cards(args[3]),
                       _cards(args[4]), legal)


def _parse_discard(args):
    if len(args) != 4:
        raise ValueError("want time, trump, skart and hand")
    skart, hand = _cards(args[2]), _cards(args[3])
    if len(skart) != 2 or len(hand) < 2 or not set(skart) <= set(hand):
        raise ValueError("want two skart cards that are in the hand")
    return DiscardRequest(_nat(args[0]), _suit(args[1]), skart, hand)


_PARSERS = {
    "klaverjas": _parse_klaverjas,
    "rules": _parse_rules,
    "game": _fixed(Game, _nat, _seat, _nat, _nat, _nat),
    "dealt": _fixed(Dealt, _nat, _seat, _cards),
    "active": _parse_active,
    "turned": _fixed(Turned, _pile),
    "said": _fixed(Said, _seat, _bid),
    "trump": _fixed(Trump, _suit, _seat),
    "played": _fixed(Played, _seat, _card),
    "trick": _fixed(TrickDone, _seat, _nat, _nat),
    "scored": _fixed(Scored, _outcome, _ints, _ints, _ints, _side_or_none, _seat_or_none),
    "gameover": _fixed(GameOver, _ints),
    "fault": _parse_fault,
    "quit": _parse_quit,
    "bid": _parse_bid,
    "play": _parse_play,
    "claim": _fixed(ClaimRequest, _nat, _suit, _cards),
    "discard": _parse_discard,
}


def parse_message(line):
    """Parse one line from the arena into its message (a namedtuple above). A line whose
    first word is not a message of spec.md gives Unknown (a later revision may add events);
    a known message that breaks its grammar raises ProtocolError."""
    words = line.split()
    if not words:
        return Unknown("", line)
    parse = _PARSERS.get(words[0])
    if parse is None:
        return Unknown(words[0], line)
    try:
        return parse(words[1:])
    except ValueError as e:
        raise ProtocolError("bad %s line %r: %s" % (words[0], line, e))


# ----------------------------------------------------------------------------------------------
# The table as the bot has seen it

Play = collections.namedtuple("Play", "seat card")
FinishedTrick = collections.namedtuple("FinishedTrick", "plays winner points roem")


class State:
    """Everything the bot has been told, kept up to date by the session.

    options    the ruleset: dict option name -> value string (spec.md section 6)
    players    players in a deal: 4, or 3 for the three-player game (players=3)
    table      seats at the table: 4, or 3 at the three-player game until a fourth seat W
               shows (a table of four where the dealer sits out each deal)
    seat       this bot's seat; game: the game number; timing: the Game message
    deal       the deal number in the game; dealer: the dealer's seat
    hand       the bot's cards now, in card order
    sitting_out  three players at a table of four: this bot deals and sits out this deal
               (dealt "-"); it is told the public events and asked nothing
    skart      three players, the Player only: the two skart cards he took ([] otherwise)
    discarded  three players, the Player only: the two cards he laid away ([] otherwise)
    turned     pile cards turned this deal ("4H", "JK")
    bids       the bids of this deal in order, as Said(seat, bid)
    trump      the trump suit, None until chosen; maker: the maker's seat, None until then
    current    the trick in progress: a list of Play(seat, card), the leader's first
    tricks     the finished tricks of this deal: FinishedTrick(plays, winner, points, roem)
    seen       the set of every card played in this deal so far (the bot's own included)
    last_score the Scored message of the previous deal, None before the first
    totals     per side [NS, EW] (per seat at three players): the sum of the deal scores
               seen in this game, replaced by
               the arena's totals at gameover (a bot restarted after a fault only sees the
               deals since its restart until then)
    last_fault the last Fault message of this deal (fault_policy=retry sends "rejected")
    unknown    lines of a later protocol revision that were ignored
    """

    def __init__(self):
        self.options = {}
        self.players = 4
        self.table = 4
        self.seat = None
        self.game = 0
        self.timing = None
        self.last_score = None
        self.totals = [0, 0]
        self.unknown = []
        self._new_deal(0, None, [])

    def _new_deal(self, number, dealer, hand):
        self.deal = number
        self.dealer = dealer
        self.hand = sort_cards(hand)
        self.sitting_out = self.players == 3 and number > 0 and not hand and dealer == self.seat
        self._playing = []  # the seats of an active line (three players at a table of four)
        self.skart = []
        self.discarded = []
        self.turned = []
        self.bids = []
        self.trump = None
        self.maker = None
        self.current = []
        self.tricks = []
        self.seen = set()
        self.last_fault = None

    def partner(self):
        """The partner's seat (None at the three-player game: each plays for himself)."""
        if self.players == 3:
            return None
        return partner(self.seat)

    def side(self):
        """This bot's side, "NS" or "EW" (at the three-player game, its own seat)."""
        if self.players == 3:
            return self.seat
        return side(self.seat)

    def makers(self):
        """Whether this bot's side made trumps (None while trumps are not chosen); at the
        three-player game, whether this bot is the Player."""
        if self.maker is None:
            return None
        if self.players == 3:
            return self.maker == self.seat
        return same_side(self.maker, self.seat)

    def seats(self):
        """The seats that play this deal, in clockwise order from N: all four at four; at
        the three-player game N, E, S, or the four seats without the sitting-out dealer."""
        if self.players == 4:
            return SEATS
        if self._playing:
            return "".join(s for s in SEATS if s in self._playing)
        if self.table == 4:
            return "".join(s for s in SEATS if s != self.dealer)
        return SEATS[:3]

    def playing(self):
        """The seats that play this deal, in play order from the player left of the dealer
        (voorhand): seats() in another order. At a table of four in the three-player game
        they are those of the arena's `active` line."""
        if self._playing:
            return list(self._playing)
        if not self.dealer:
            return []
        n = 4 if self.players == 4 or self.table == 4 else 3
        return sorted(self.seats(), key=lambda s: (SEATS.index(s) - SEATS.index(self.dealer) - 1) % n)

    def next_player(self, seat, n=1):
        """The player n places clockwise from seat among those playing this deal."""
        seats = self.seats()
        if seat not in seats:  # a seat out of this deal: count from the next one that plays
            while seat not in seats:
                seat = next_seat(seat)
            n -= 1
        return seats[(seats.index(seat) + n) % len(seats)]

    def opponents(self):
        """The seats playing against this bot this deal (at three: the other two players)."""
        if self.players == 4:
            return [next_seat(self.seat), next_seat(self.seat, 3)]
        return [s for s in self.seats() if s != self.seat]

    def leader(self):
        """The seat that led (or is to lead) the current trick: the leader of its first
        card, else the winner of the last trick, else None."""
        if self.current:
            return self.current[0].seat
        if self.tricks:
            return self.tricks[-1].winner
        return None

    def unseen(self):
        """The cards this bot has not seen: in the other hands (at three players, or in
        the skart; the Player's own discards are seen)."""
        mine = set(self.hand) | set(self.discarded)
        return [c for c in ALL_CARDS if c not in self.seen and c not in mine]

    def _note_seat(self, seat):
        if seat == "W" and self.players == 3:
            self.table = 4

    def _apply(self, msg):
        for seat in (getattr(msg, "seat", None), getattr(msg, "dealer", None),
                     getattr(msg, "maker", None), getattr(msg, "leader", None),
                     getattr(msg, "winner", None)):
            self._note_seat(seat)
        if isinstance(msg, Rules):
            self.options = dict(msg.options)
            self.players = players(self.options)
            self.table = self.players
        elif isinstance(msg, Game):
            self.seat, self.game, self.timing = msg.seat, msg.number, msg
            self.totals = [0] * (2 if self.players == 4 else self.table)
            self.last_score = None
            self._new_deal(0, None, [])
        elif isinstance(msg, Dealt):
            if self.players == 3 and not msg.hand:
                self.table = 4  # only a dealer sitting out at a table of four is dealt nothing
            self._new_deal(msg.number, msg.dealer, msg.hand)
        elif isinstance(msg, Active):
            self.table = 4  # only a table of four is told who plays
            self._playing = list(msg.seats)
        elif isinstance(msg, Turned):
            self.turned.append(msg.card)
        elif isinstance(msg, Said):
            self.bids.append(msg)
        elif isinstance(msg, Trump):
            self.trump, self.maker = msg.suit, msg.maker
        elif isinstance(msg, Played):
            self.current.append(Play(msg.seat, msg.card))
            self.seen.add(msg.card)
            if msg.seat == self.seat and msg.card in self.hand:
                self.hand.remove(msg.card)
        elif isinstance(msg, TrickDone):
            self.tricks.append(FinishedTrick(self.current, msg.winner, msg.points, msg.roem))
            self.current = []
        elif isinstance(msg, Scored):
            self.last_score = msg
            if self.players == 3 and len(msg.score) == 4:
                self.table = 4
            if len(self.totals) < len(msg.score) and self.players == 3:
                self.totals += [0] * (len(msg.score) - len(self.totals))
            for i in range(min(len(self.totals), len(msg.score))):
                self.totals[i] += msg.score[i]
        elif isinstance(msg, GameOver):
            self.totals = list(msg.totals)
        elif isinstance(msg, Fault):
            self.last_fault = msg
        elif isinstance(msg, BidRequest):
            self.hand = sort_cards(msg.hand)  # the arena's word is final
        elif isinstance(msg, PlayRequest):
            self.hand = sort_cards(msg.hand)
            self.trump = msg.trump
        elif isinstance(msg, DiscardRequest):
            self.hand = sort_cards(msg.hand)
            self.trump = msg.trump
            self.skart = list(msg.skart)


class Decision:
    """One request of the arena for the bot to decide.

    kind          "bid", "play", "claim" or "discard"; the answer is a bid string, a card
                  string, a whole number of roem points, or two cards (a discard, only at
                  the three-player game, goes to the bot's discard method, not to decide)
    time_left_ms  the time this decision may take, in milliseconds
    legal_bids    for a bid: the legal bids, e.g. ["C", "D", "H", "S", "pass"]
    legal_cards   for a play: the legal cards, in card order
    trick         for a play: the cards played to the trick so far (the leader's first);
                  for a claim: the finished trick
    hand          the bot's hand (for claims: the state's hand; for a discard: the twelve
                  cards, the skart included)
    skart         for a discard: the two skart cards taken
    trump         the trump suit (None for a bid); leader: the leader's seat (plays only)
    seat          the seat deciding: the bot's (for a play, worked out from the request)
    request       the parsed request message
    """

    __slots__ = ("kind", "time_left_ms", "legal_bids", "legal_cards", "trick", "hand",
                 "trump", "leader", "seat", "request", "skart", "_infos", "_next")

    def __init__(self, kind, request, hand, seat, infos, next_player=None):
        self.kind = kind
        self.request = request
        self.time_left_ms = request.time_ms
        self.legal_bids = list(request.legal) if kind == "bid" else []
        self.legal_cards = list(request.legal) if kind == "play" else []
        self.trick = list(request.trick) if kind in ("play", "claim") else []
        self.hand = list(hand)
        self.skart = list(request.skart) if kind == "discard" else []
        self.trump = request.trump if kind != "bid" else None
        self.leader = request.leader if kind == "play" else None
        self._next = next_player or next_seat
        self.seat = seat
        if kind == "play" and (next_player is None or seat is None):
            self.seat = self._next(self.leader, len(self.trick))
        self._infos = infos

    def trick_seats(self):
        """For a play: the seats that played the trick's cards so far, in order."""
        if self.leader is None:
            return []
        return [self._next(self.leader, i) for i in range(len(self.trick))]

    def info(self, text):
        """Send an info line (logged by the arena, never acted on) before the answer. At
        most 100 per answer; longer text is cut, newlines become spaces."""
        if len(self._infos) >= 100:
            return
        text = "".join(ch if " " <= ch <= "~" or ch == "\t" else " " for ch in str(text))
        self._infos.append(("info " + text)[:4096])

    def __repr__(self):
        return "Decision(%s, legal=%s, trick=%s)" % (
            self.kind, self.legal_bids or self.legal_cards, self.trick)


# ----------------------------------------------------------------------------------------------
# Bots and the session

_NAME = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class Bot:
    """A bot: a name, an author, decide(state, decision) -> answer, and optionally
    accept(options) -> None to play the ruleset or a reason string to refuse it, and
    discard(state, decision) -> two cards for the three-player game's discard (by default
    default_discard: the two cheapest cards that are not trumps).

    Either pass the functions (Bot("name", "author", decide)) or subclass and override
    decide (and accept, discard)."""

    name = "bot"
    author = ""

    def __init__(self, name=None, author=None, decide=None, accept=None, discard=None):
        if name is not None:
            self.name = name
        if author is not None:
            self.author = author
        if decide is not None:
            self.decide = decide
        if accept is not None:
            self.accept = accept
        if discard is not None:
            self.discard = discard

    def decide(self, state, decision):
        raise NotImplementedError("a bot must define decide(state, decision)")

    def accept(self, options):
        return None

    def discard(self, state, decision):
        return default_discard(decision.hand, decision.trump)


def _check_bot(bot):
    name = getattr(bot, "name", None)
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError("bot name %r: want 1-64 letters, digits, '.', '_' or '-'" % (name,))
    if not callable(getattr(bot, "decide", None)):
        raise ValueError("a bot needs decide(state, decision)")


def _line_text(text):
    """Text as one line of printable ASCII (spaces collapsed)."""
    text = "".join(ch if " " <= ch <= "~" else " " for ch in str(text))
    return " ".join(text.split())


class Session:
    """The protocol for one bot over lines, without any I/O: handle() takes each line the
    arena sends and returns the reply line for a request, None for an event. run() is a
    loop around it; tests drive it directly."""

    def __init__(self, bot):
        _check_bot(bot)
        self.bot = bot
        self.state = State()
        self.done = False
        self._infos = []

    def take_infos(self):
        """The info lines the bot asked for since the last call (to write before a reply)."""
        infos, self._infos = self._infos, []
        return infos

    def handle(self, line):
        msg = parse_message(line.rstrip("\r\n"))
        st = self.state
        if isinstance(msg, Unknown):
            if msg.name:
                st.unknown.append(line.rstrip("\r\n"))
            return None
        st._apply(msg)
        if isinstance(msg, Quit):
            self.done = True
        elif isinstance(msg, Klaverjas):
            if PROTOCOL_VERSION not in msg.versions:
                raise VersionError("the arena speaks protocol versions %s; this SDK speaks %d"
                                   % (msg.versions, PROTOCOL_VERSION))
            author = _line_text(getattr(self.bot, "author", "") or "")
            return ("hello %d %s %s" % (PROTOCOL_VERSION, self.bot.name, author)).rstrip()[:4096]
        elif isinstance(msg, Rules):
            accept = getattr(self.bot, "accept", None)
            reason = accept(dict(st.options)) if accept is not None else None
            if reason:
                return ("refuse " + (_line_text(reason) or "no reason given"))[:4096]
            return "ok"
        elif isinstance(msg, BidRequest):
            d = Decision("bid", msg, st.hand, st.seat, self._infos)
            return self._answer(d, self.bot.decide(st, d))
        elif isinstance(msg, PlayRequest):
            nxt = st.next_player if st.players == 3 else None
            d = Decision("play", msg, st.hand, st.seat, self._infos, nxt)
            return self._answer(d, self.bot.decide(st, d))
        elif isinstance(msg, ClaimRequest):
            d = Decision("claim", msg, st.hand, st.seat, self._infos)
            return self._answer(d, self.bot.decide(st, d))
        elif isinstance(msg, DiscardRequest):
            d = Decision("discard", msg, st.hand, st.seat, self._infos)
            discard = getattr(self.bot, "discard", None)
            answer = discard(st, d) if discard is not None else None
            if answer is None:
                answer = default_discard(d.hand, d.trump)
            reply = self._answer_discard(d, answer)
            st.discarded = reply.split()
            st.hand = [c for c in st.hand if c not in st.discarded]
            return reply
        return None

    def _answer_discard(self, d, answer):
        cards = answer.split() if isinstance(answer, str) else answer
        try:
            cards = [c.strip() for c in cards]
        except (TypeError, AttributeError):
            raise BadAnswer("a discard must be two cards, got %r" % (answer,))
        if len(cards) != 2 or not all(is_card(c) for c in cards) or cards[0] == cards[1]:
            raise BadAnswer("a discard must be two different cards such as [\"7S\", \"8D\"], got %r"
                            % (answer,))
        if not set(cards) <= set(d.hand):
            sys.stderr.write("klaverjas.py: warning: discard %s is not two cards of the hand %s\n"
                             % (" ".join(cards), ",".join(d.hand)))
        return " ".join(cards)

    def _answer(self, d, answer):
        if d.kind == "claim":
            if isinstance(answer, bool) or not isinstance(answer, (int, str)):
                raise BadAnswer("a claim must be a whole number, got %r" % (answer,))
            try:
                n = int(answer)
            except ValueError:
                raise BadAnswer("a claim must be a whole number, got %r" % (answer,))
            return str(max(0, n))
        text = answer.strip() if isinstance(answer, str) else answer
        if d.kind == "bid":
            ok, legal = text in ("C", "D", "H", "S", "pass"), d.legal_bids
        else:
            ok, legal = isinstance(text, str) and is_card(text), d.legal_cards
        if not ok:
            raise BadAnswer("a %s answer must be %s, got %r" % (
                d.kind, "pass or a suit letter" if d.kind == "bid" else "a card such as JH",
                answer))
        if text not in legal:
            sys.stderr.write("klaverjas.py: warning: answer %s is not among the legal %s\n"
                             % (text, " ".join(legal)))
        return text


def run(bot, infile=None, outfile=None):
    """Play the protocol for bot on standard input and output (or infile and outfile)
    until quit or end of input. While it runs, sys.stdout is standard error, so print()
    is safe for debugging. An arena that speaks no version of this SDK ends the bot with
    the reason on standard error and exit status 1."""
    _check_bot(bot)
    real_stdout = sys.stdout
    if outfile is None:
        outfile = sys.stdout
        sys.stdout = sys.stderr
    if infile is None:
        infile = sys.stdin
    session = Session(bot)
    try:
        while not session.done:
            line = infile.readline()
            if not line:
                break
            try:
                reply = session.handle(line)
            except VersionError as e:
                sys.stderr.write("%s: %s\n" % (bot.name, e))
                raise SystemExit(1)
            if reply is not None:
                out = session.take_infos()
                out.append(reply)
                outfile.write("".join(l + "\n" for l in out))
                outfile.flush()
    except BrokenPipeError:
        pass  # the arena has gone: nothing left to say
    finally:
        sys.stdout = real_stdout
