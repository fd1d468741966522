#!/usr/bin/env python3
"""A test bot that knows the roem of a trick only from the tables of RULES.md.

Usage: roembot.py RULES.md

It reads the roem tables of RULES.md (§6.1, §6.2, §6.3 and §11.6) at start-up, and nothing
else: no SDK, no engine. It speaks the protocol of spec.md, plays a legal card (preferring one
that makes roem, so that tricks with roem are common), and, asked to claim, claims exactly the
roem its tables give for the trick. arena/roemclaim_test.go checks every claim against the
referee. Standard library only.
"""

import random
import re
import sys

NATURAL = "789TJQKA"  # the natural order of RULES.md §1, used for runs


def table_after(lines, header):
    """The rows (lists of cells) of the markdown table whose header row starts with header."""
    for i, line in enumerate(lines):
        if line.startswith(header):
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append([c.strip() for c in row.strip().strip("|").split("|")])
            return [c.strip() for c in line.strip().strip("|").split("|")], rows
    sys.exit("roembot: no table starting %r in RULES.md" % header)


def number(cell):
    """The first whole number in a table cell."""
    m = re.search(r"\d+", cell)
    if not m:
        sys.exit("roembot: no number in table cell %r" % cell)
    return int(m.group())


def unquote(cell):
    return cell.split()[0].strip("`")


class Tables:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        _, rows = table_after(lines, "| combination in one trick of four |")
        self.four = {r[0]: number(r[1]) for r in rows}
        head, rows = table_after(lines, "| four of a kind of |")
        modes = [unquote(h) for h in head[1:]]
        self.kind = {m: {unquote(r[0]): number(r[1 + i]) for r in rows} for i, m in enumerate(modes)}
        _, rows = table_after(lines, "| `stuk_scoring` |")
        self.stuk_in_trick = {unquote(r[0]): r[-1].lower().startswith("yes") for r in rows}
        _, rows = table_after(lines, "| combination in one trick of three |")
        self.three = {r[0]: number(r[1]) for r in rows}

    def roem(self, rules, trump, cards):
        """The roem of a complete trick, from the tables."""
        three = rules.get("players") == "3"
        values = self.three if three else self.four
        total = 0
        # Runs: the longest run of consecutive natural ranks within one suit.
        longest = 0
        for suit in "CDHS":
            ranks = sorted(NATURAL.index(c[0]) for c in cards if c[1] == suit)
            run = 1
            for a, b in zip(ranks, ranks[1:]):
                run = run + 1 if b == a + 1 else 1
                longest = max(longest, run)
        if longest >= 4:
            total += values["run of four"]
        elif longest == 3:
            total += values["run of three"]
        # Stuk: king and queen of trumps in the trick, when the mode puts it in the trick.
        if "K" + trump in cards and "Q" + trump in cards:
            if three or self.stuk_in_trick[rules.get("stuk_scoring", "in_trick")]:
                total += values["stuk"]
        # Same rank: every card of the trick.
        if len(cards) == (3 if three else 4) and len({c[0] for c in cards}) == 1:
            rank = cards[0][0]
            if three:
                total += values["three jacks" if rank == "J" else "three of a kind"]
            else:
                total += self.kind[rules.get("four_of_a_kind", "all_100")][rank]
        return total


def split(field):
    return [] if field == "-" else field.split(",")


def main():
    tables = Tables(sys.argv[1])
    rng = random.Random(1)
    rules = {}
    out = sys.stdout
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        kind = w[0]
        if kind == "klaverjas":
            reply = "hello 1 roembot arena tests"
        elif kind == "rules":
            rules = dict(kv.split("=", 1) for kv in w[1:])
            reply = "ok"
        elif kind == "bid":
            reply = rng.choice(w[3:])
        elif kind == "discard":
            reply = " ".join(rng.sample(split(w[4]), 2))
        elif kind == "play":
            trump, trick, legal = w[2], split(w[4]), w[6:]
            reply = choose(tables, rules, trump, trick, legal, rng)
        elif kind == "claim":
            reply = str(tables.roem(rules, w[2], split(w[3])))
        elif kind == "quit":
            return
        else:
            continue  # an event
        out.write(reply + "\n")
        out.flush()


def choose(tables, rules, trump, trick, legal, rng):
    """A legal card, most often one that makes (or prepares) roem with the trick so far."""
    if not trick or rng.random() < 0.2:
        return rng.choice(legal)

    def promise(card):
        same = sum(c[0] == card[0] for c in trick)
        near = sum(c[1] == card[1] and abs(NATURAL.index(c[0]) - NATURAL.index(card[0])) <= 2 for c in trick)
        return 10 * same + 3 * near + rng.random()

    return max(legal, key=promise)


if __name__ == "__main__":
    main()
