"""random_bot.py - the random bot on the SDK: a random legal bid or card, and an honest roem
claim (claims are asked only with roem_claiming=claim_required). It plays the three-player
game too (players=3): as the Player it discards two random cards of its hand."""
import random

import klaverjas


def decide(state, d):
    if d.kind == "bid":
        return random.choice(d.legal_bids)
    if d.kind == "play":
        return random.choice(d.legal_cards)
    return klaverjas.trick_roem(d.trick, d.trump, state.options)


def discard(state, d):
    return random.sample(d.hand, 2)  # two different cards of the twelve


if __name__ == "__main__":
    klaverjas.run(klaverjas.Bot("random-sdk", "examplebots", decide, discard=discard))
