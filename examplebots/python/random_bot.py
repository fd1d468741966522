"""random_bot.py - the random bot on the SDK: a random legal bid or card, and an honest roem
claim (claims are asked only with roem_claiming=claim_required)."""
import random

import klaverjas


def decide(state, d):
    if d.kind == "bid":
        return random.choice(d.legal_bids)
    if d.kind == "play":
        return random.choice(d.legal_cards)
    return klaverjas.trick_roem(d.trick, d.trump, state.options)


if __name__ == "__main__":
    klaverjas.run(klaverjas.Bot("random-sdk", "examplebots", decide))
