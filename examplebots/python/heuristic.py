"""heuristic.py - a Klaverjas bot that plays like a sensible human, on the klaverjas.py SDK.

* Bidding: it values each suit it may bid as trumps (trump jack and nine, trump length, side
  aces and guarded tens, short side suits) and plays when the hand is strong enough; when it
  must name a suit it names its best one.
* Play: it keeps count of the cards played and of who showed out of which suit. Following,
  it weighs each legal card: the points and roem of the trick against how likely its side is
  to win it, minus what the card is worth later (the trump jack and nine, aces that still
  command their suit). So it leaves a trick that its partner wins safely to the partner and
  throws points on it (a ten, roem), wins tricks cheaply, and does not waste trumps on empty
  tricks. Leading, the makers draw trumps with a commanding trump, everybody cashes aces
  that will stand, and otherwise it leads low from a suit that gives nothing away.
* Claims (roem_claiming=claim_required): the true roem of the trick, honestly.
* The three-player game (players=3, spec.md section 14): the same card play with no partner
  (every other player is an opponent, tricks of three, ten of them); it plays only on a
  clearly strong trump suit (it must take 82 alone), and as the Player it lays away the two
  cheapest side cards, preferring to make a suit void it can ruff.

It needs no rules of play: the arena sends the legal bids and cards, so it plays every
ruleset of spec.md section 6.
"""

import klaverjas as kj

_PLAIN_LOW_TO_HIGH = "789JQKTA"
_TRUMP_LOW_TO_HIGH = "78QKTA9J"

# What a trump is worth later in the deal on top of its own points: the trick it takes or
# the control it gives. Spend it only for more.
_TRUMP_EXTRA = {"J": 12, "9": 9, "A": 6, "T": 5, "K": 4, "Q": 4, "8": 3, "7": 3}

# Hand values to play on (tuned in duplicate matches against other thresholds): lower when
# any suit may be named, higher in a draaikaart round, which offers one suit only.
BID_THRESHOLD_FREE = 5.5
BID_THRESHOLD_OFFERED = 6.5
# At three the Player is alone against two, with ten cards and the skart to come: only a
# strong trump suit will do (the trump jack or nine and at least four trumps).
BID_THRESHOLD_THREE = 8.5


def order(card, trump):
    """The card's rank within its own suit, low to high (trump order for trumps)."""
    if kj.suit(card) == trump:
        return _TRUMP_LOW_TO_HIGH.index(kj.rank(card))
    return _PLAIN_LOW_TO_HIGH.index(kj.rank(card))


# ----------------------------------------------------------------------------------------------
# Bidding


def hand_value(hand, trump):
    """How good hand is with trump as trumps: about 6 or more is a hand to play."""
    trumps = [kj.rank(c) for c in hand if kj.suit(c) == trump]
    n = len(trumps)
    v = 0.0
    if "J" in trumps:
        v += 3.0
    if "9" in trumps:
        v += 2.5 if ("J" in trumps or n >= 3) else 1.5
    for r, w in (("A", 1.5), ("T", 1.1), ("K", 0.8), ("Q", 0.7), ("8", 0.5), ("7", 0.5)):
        if r in trumps:
            v += w
    v += 0.6 * max(0, n - 3)
    if "K" in trumps and "Q" in trumps:
        v += 0.4  # the stuk is 20 roem when it falls in one trick
    for s in kj.SUITS:
        if s == trump:
            continue
        ranks = [kj.rank(c) for c in hand if kj.suit(c) == s]
        if "A" in ranks:
            v += 1.3
            if "T" in ranks:
                v += 0.8
        elif "T" in ranks and len(ranks) >= 2:
            v += 0.3
        if n >= 3:
            if not ranks:
                v += 0.6  # a void: ruff its tricks
            elif len(ranks) == 1 and ranks[0] != "A":
                v += 0.25
    return v


def choose_bid(state, d):
    suits = [b for b in d.legal_bids if b != "pass"]
    if not suits:
        return "pass"
    best = max(suits, key=lambda s: (hand_value(d.hand, s), -kj.SUITS.index(s)))
    value = hand_value(d.hand, best)
    d.info("bid %s value %.1f" % (best, value))
    threshold = BID_THRESHOLD_FREE if len(suits) > 1 else BID_THRESHOLD_OFFERED
    if state.players == 3:
        trumps = [kj.rank(c) for c in d.hand if kj.suit(c) == best]
        strong = len(trumps) >= 4 and ("J" in trumps or "9" in trumps)
        if "pass" in d.legal_bids and not strong:
            return "pass"
        threshold = BID_THRESHOLD_THREE
    if "pass" not in d.legal_bids or value >= threshold:
        return best
    return "pass"


def choose_discard(state, d):
    """Three players: the two cards to lay away from the twelve. Trumps are kept; of the side
    cards it prefers the fewest points, to make a suit void (to ruff it), and to keep aces and
    a ten guarded by its ace. The discards' points go to the winner of the last trick."""
    trump = d.trump
    side_cards = [c for c in d.hand if kj.suit(c) != trump]
    if len(side_cards) < 2:
        return kj.default_discard(d.hand, trump)
    n_trumps = len(d.hand) - len(side_cards)

    def cost(c):
        r, s = kj.rank(c), kj.suit(c)
        v = kj.card_points(c, trump) + 0.1 * order(c, trump)
        if r == "A":
            v += 8  # it takes a trick
        elif r == "T" and ("A" + s) in d.hand:
            v += 6  # it follows its ace
        return v

    best = None
    for i, a in enumerate(side_cards):
        for b in side_cards[i + 1:]:
            v = cost(a) + cost(b)
            for s in set((kj.suit(a), kj.suit(b))):
                left = [c for c in side_cards if kj.suit(c) == s and c not in (a, b)]
                if not left and n_trumps >= 3:
                    v -= 5  # a void: its tricks can be ruffed
            key = (v, kj.card_key(a), kj.card_key(b))
            if best is None or key < best[0]:
                best = (key, [a, b])
    d.info("discard %s cost %.1f" % (" ".join(best[1]), best[0][0]))
    return best[1]


# ----------------------------------------------------------------------------------------------
# What has been seen


class Table:
    """What the bot knows in the play: the unseen cards and the suits each seat lacks."""

    def __init__(self, state, d):
        self.me = d.seat  # (state.seat too, once the game line has come)
        self.trump = d.trump
        self.options = state.options
        self.hand = list(d.hand)
        # the table: four players in two sides, or (players=3) three each for himself
        self.three = state.players == 3
        self.n = 3 if self.three else 4
        self.ntricks = kj.hand_size(state.options)
        self.nxt = state.next_player if self.three else kj.next_seat
        if self.three:
            self.partner = None
            self.opps = [self.nxt(self.me), self.nxt(self.me, 2)]
        else:
            self.partner = kj.partner(self.me)
            self.opps = [kj.next_seat(self.me), kj.next_seat(self.me, 3)]
        played = set(state.discarded) if self.three else set()
        self.void = {s: set() for s in kj.SEATS}
        tricks = [[(p.seat, p.card) for p in t.plays] for t in state.tricks]
        current = list(zip(d.trick_seats(), d.trick))
        for plays in tricks + [current]:
            self._infer(plays)
            played.update(c for _, c in plays)
        self.unseen = [c for c in kj.ALL_CARDS if c not in played and c not in self.hand]
        self.tricks_done = len(state.tricks)
        self.makers = state.maker is not None and self.same(state.maker, self.me)

    def same(self, a, b):
        """Whether seats a and b play on one side (at three: are the same seat)."""
        return a == b if self.three else kj.same_side(a, b)

    def _infer(self, plays):
        """Voids shown by a trick: not following shows a void in the led suit; not trumping
        when the rules demanded a trump shows a void in trumps."""
        if not plays:
            return
        trump = self.trump
        led = kj.suit(plays[0][1])
        rotterdams = self.options.get("play_rule") == "rotterdams"
        for i in range(1, len(plays)):
            seat, card = plays[i]
            if kj.suit(card) == led:
                continue
            self.void[seat].add(led)
            if led == trump:
                continue
            if kj.suit(card) != trump:
                before = [c for _, c in plays[:i]]
                win_seat = plays[kj.trick_winner(before, trump)][0]
                trumped = any(kj.suit(c) == trump for c in before)
                must_trump = rotterdams or not self.same(win_seat, seat)
                if must_trump and (not trumped or self.options.get("undertrump") == "mandatory"):
                    self.void[seat].add(trump)  # had to play a trump, and did not

    def unseen_in(self, s):
        return [c for c in self.unseen if kj.suit(c) == s]

    def is_master(self, card):
        """Whether no unseen card of the suit ranks above card."""
        s = kj.suit(card)
        return all(order(c, self.trump) < order(card, self.trump) for c in self.unseen_in(s))

    def opponents_may_have(self, s):
        return any(s not in self.void[o] for o in self.opps)

    def keep_value(self, card):
        """What the card is worth to its side if kept for a later trick: its own points and
        what falls on it when it wins, less its points when it does not."""
        t = self.trump
        pts = kj.card_points(card, t)
        if kj.suit(card) == t:
            v = pts + _TRUMP_EXTRA[kj.rank(card)]
            if self.is_master(card) and kj.rank(card) not in "J9":
                v += 3
            return v
        if self.is_master(card):
            left = len(self.unseen_in(kj.suit(card)))
            ruff = bool(self.unseen_in(t)) and self.opponents_may_have(t)
            p = 0.75 if ruff else 0.95
            return p * (pts + 2 * min(left, 3)) - (1 - p) * pts
        return 0


# ----------------------------------------------------------------------------------------------
# Playing


def hold_chance(table, cards, seats, trump):
    """The chance that the card now winning cards (played by seats) stays the winner while
    the seats still to play in the trick do."""
    led = kj.suit(cards[0])
    best = cards[kj.trick_winner(cards, trump)]
    winner = seats[kj.trick_winner(cards, trump)]
    later = [table.nxt(seats[-1], i) for i in range(1, table.n + 1 - len(cards))]
    chance = 1.0
    for seat in later:
        if table.same(seat, winner):
            continue  # the partner of the winner will not take it from him
        beaters = [c for c in table.unseen if kj.beats(c, best, led, trump)]
        if not beaters:
            continue
        follows = led not in table.void[seat]
        led_beaters = [c for c in beaters if kj.suit(c) == led]
        trump_beaters = [c for c in beaters if kj.suit(c) == trump and led != trump]
        p = 0.0
        if follows and led_beaters:
            p = min(0.85, 1 - (2.0 / 3.0) ** len(led_beaters))  # one of three hidden hands
        if trump_beaters and trump not in table.void[seat]:
            if not follows:
                p = max(p, 0.9)
            elif len(table.unseen_in(led)) <= 2:
                p = max(p, 0.35)  # few cards of the suit are out: he may be void
        chance *= 1.0 - p
    return chance


def follow_score(table, d, card):
    """The worth to the bot's side of playing card to a trick already led."""
    trump = d.trump
    cards = d.trick + [card]
    seats = d.trick_seats() + [table.me]
    left = table.n - len(cards)
    last = table.tricks_done == table.ntricks - 1
    stake = kj.trick_points(cards, trump, last=last, options=table.options)
    stake += kj.trick_roem(cards, trump, table.options)
    stake += 1.0 * left  # what the others still add, on average
    w = kj.trick_winner(cards, trump)
    if table.same(seats[w], table.me):
        p_us = hold_chance(table, cards, seats, trump)
    else:
        # our partner, if still to play, may take it back
        partner_later = table.partner in [table.nxt(table.me, i) for i in range(1, left + 1)]
        p_us = 0.7 * (1 - hold_chance(table, cards, seats, trump)) if partner_later else 0.0
    score = stake * (2 * p_us - 1) - table.keep_value(card)
    score -= _unguard_cost(table, card)
    return score - 0.1 * order(card, trump)  # of equals, the cheaper card


def _unguard_cost(table, card):
    """Discarding the only guard of a ten that the ace still threatens bares the ten."""
    s = kj.suit(card)
    if s == table.trump:
        return 0
    mine = [c for c in table.hand if kj.suit(c) == s]
    if len(mine) == 2 and ("T" + s) in mine and card != "T" + s and ("A" + s) in table.unseen:
        return 4
    return 0


def lead_score(table, card):
    """The worth of leading card to an empty trick."""
    t = table.trump
    s = kj.suit(card)
    opps = table.opps
    pard = table.partner
    trumps_out = table.unseen_in(t)
    opp_trumps = trumps_out and any(t not in table.void[o] for o in opps)
    mine = [c for c in table.hand if kj.suit(c) == s]
    if s == t:
        if not opp_trumps:
            return -20 + order(card, t)  # nothing to draw: keep trumps for ruffing
        if table.makers:
            if table.is_master(card):
                return 30 + order(card, t)  # draw trumps with a commanding trump
            if len(mine) >= 3:
                return 8 - order(card, t)  # a low one, to drive out the top
        return -10 - table.keep_value(card)  # defenders keep their trumps
    score = 0.0
    out = table.unseen_in(s)
    opp_ruff = opp_trumps and any(s in table.void[o] and t not in table.void[o] for o in opps)
    if table.is_master(card):
        if not out:  # the rest of the suit is gone: it wins unless it is ruffed
            return 10 + kj.card_points(card, t) if not opp_trumps else -kj.card_points(card, t) - 3
        score = 15 + kj.card_points(card, t) - (25 if opp_ruff else 0)
        if len(out) < 2 and table.makers is False:
            score -= 5  # little will fall on it
        return score
    # a card that does not command its suit: lead low, give away little
    score = -kj.card_points(card, t)
    if pard and s in table.void[pard] and t not in table.void[pard] and trumps_out:
        score += 12  # the partner ruffs
    if ("T" + s) in mine and card != "T" + s and ("A" + s) in table.unseen:
        score -= 6  # do not lead away from a ten the ace can catch
    if card == "T" + s:
        score -= 10
    if len(mine) == 1 and any(kj.suit(c) == t for c in table.hand):
        score += 4  # make a void to ruff
    if opp_ruff:
        score -= 6
    return score


def choose_card(state, d):
    if len(d.legal_cards) == 1:
        return d.legal_cards[0]
    table = Table(state, d)
    if d.trick:
        scored = [(follow_score(table, d, c), -kj.card_key(c), c) for c in d.legal_cards]
    else:
        scored = [(lead_score(table, c), -kj.card_key(c), c) for c in d.legal_cards]
    scored.sort(reverse=True)
    d.info("scores " + " ".join("%s:%.1f" % (c, v) for v, _, c in scored))
    return scored[0][2]


# ----------------------------------------------------------------------------------------------


class Heuristic(kj.Bot):
    name = "heuristic"
    author = "klaverjas examplebots"

    def discard(self, state, d):
        return choose_discard(state, d)

    def decide(self, state, d):
        if d.kind == "bid":
            return choose_bid(state, d)
        if d.kind == "claim":
            return kj.trick_roem(d.trick, d.trump, state.options)  # honest: all there is
        return choose_card(state, d)


if __name__ == "__main__":
    kj.run(Heuristic())
