#!/usr/bin/env python3
"""memorybot.py - a cheating test bot: it remembers every hand it has seen.

It plays the first legal card and bid, and watches the `played` events: at the end of a deal it
knows all four hands (every card is played). When a later deal gives it a hand it has already
seen in its memory (its own or another seat's), it knows where every card of that deal is: at a
real table that is impossible. For each deal it writes to stderr one line,
"memorybot: game G deal D seen" or "... new", for arena/rooms_test.go to count. A duplicate
replay that let one process play a deal set twice would show up here as "seen".
Standard library only.
"""
import sys

seen = set()  # the hands of every finished deal, as frozensets of cards
game, deal, played = 0, 0, {}

for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    kind = w[0]
    if kind == "klaverjas":
        print("hello 1 memorybot arena-tests", flush=True)
    elif kind == "rules":
        print("ok", flush=True)
    elif kind == "game":
        game = int(w[1])
    elif kind == "dealt":
        deal, played = int(w[1]), {}
        hand = frozenset(w[3].split(",")) if w[3] != "-" else frozenset()
        verdict = "seen" if hand and hand in seen else "new"
        print("memorybot: game %d deal %d %s" % (game, deal, verdict), file=sys.stderr, flush=True)
    elif kind == "played":
        played.setdefault(w[1], []).append(w[2])
    elif kind == "scored":
        seen.update(frozenset(cards) for cards in played.values())
    elif kind == "bid":
        print(w[3], flush=True)
    elif kind == "play":
        print(w[6], flush=True)
    elif kind == "claim":
        print("0", flush=True)
    elif kind == "discard":
        print(" ".join(w[4].split(",")[:2]), flush=True)
    elif kind == "quit":
        break
