"""random_plain.py - a Klaverjas bot in plain Python (no SDK): a random legal answer to every
request, as in spec.md section 1. The requests carry everything needed, so it keeps no state.
It plays the three-player game too: `discard <ms> <trump> <skart> <hand>` is answered with two
different random cards of the hand (w[4])."""
import random
import sys

for line in sys.stdin:
    w = line.split()
    reply = {"klaverjas": lambda: "hello 1 random-py examplebots", "rules": lambda: "ok",
             "bid": lambda: random.choice(w[3:]), "play": lambda: random.choice(w[6:]),
             "claim": lambda: "0",
             "discard": lambda: " ".join(random.sample(w[4].split(","), 2))}.get(w[0] if w else "")
    if reply:
        print(reply(), flush=True)  # flush, or the arena waits for an answer stuck in a buffer
    elif w and w[0] == "quit":
        break
