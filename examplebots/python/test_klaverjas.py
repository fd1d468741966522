"""Tests of the Python SDK and the example bots (standard library only).

Run from the repository root:

    python3 -m unittest discover -s examplebots/python -p 'test_*.py'

* TestParse: every message of spec.md section 5 parses into its namedtuple; bad lines fail.
* TestHelpers: card points, trick winners and roem (RULES.md sections 2, 5 and 6, every
  four_of_a_kind option), and the rules vectors, a file outside this repository, when
  $KLAVERJAS_VECTORS names it or ../shared/vectors beside the repository holds it.
* TestTranscripts: replays every ```transcript block of spec.md through the SDK with a port
  of the spec's example bot; its replies must be exactly the "> " lines, and the SDK's view
  of the table (hand, tricks, points, roem, score) must agree with what the referee said.
* TestProcesses: runs the shell, plain Python, JavaScript, SDK random and heuristic bots as
  real programs through the transcripts' arena lines, one request at a time (so a bot that
  does not flush fails), and checks every answer is legal.
* TestThreePlayers: the three-player game (spec.md section 14, RULES.md §11): protocol
  lines of a deal at three and a sit-out at a table of four through the SDK; the SDK's
  helpers against the engine's three-player vectors; and whole games of every example bot,
  as real programs and in process, against a small three-player referee written here.
"""

import io
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import klaverjas as kj  # noqa: E402
import heuristic  # noqa: E402

SPEC = os.path.join(REPO, "spec.md")
TRANSCRIPT = re.compile(r"```transcript ([^\n]*)\n(.*?)```", re.S)
REQUESTS = ("klaverjas", "rules", "bid", "play", "claim", "discard")


def transcripts():
    """The transcript blocks of spec.md as (parameters, lines)."""
    with open(SPEC) as f:
        text = f.read()
    return [(m.group(1), m.group(2).splitlines()) for m in TRANSCRIPT.finditer(text)]


class ExampleBot(kj.Bot):
    """The spec's example bot (exampleBot in referee/spec_test.go), ported: it bids the
    longest legal suit in which it holds the jack and at least three cards (any longest
    legal suit when it may not pass; ties to the first in C D H S order), plays its lowest
    legal card in card order, and claims the true roem of a trick."""

    name = "example"
    author = "spec.md"

    def decide(self, state, d):
        if d.kind == "bid":
            best, best_len = "pass", -1
            for b in d.legal_bids:
                if b == "pass":
                    continue
                n = sum(1 for c in state.hand if kj.suit(c) == b)
                strong = ("J" + b) in state.hand and n >= 3
                if (strong or "pass" not in d.legal_bids) and n > best_len:
                    best, best_len = b, n
            return best
        if d.kind == "claim":
            return kj.trick_roem(d.trick, d.trump, state.options)
        return min(d.legal_cards, key=kj.card_key)


# ----------------------------------------------------------------------------------------------


class TestParse(unittest.TestCase):
    def test_every_message(self):
        cases = [
            ("klaverjas 1 2", kj.Klaverjas([1, 2])),
            ("rules players=4 deal_packets=[3,2,3] game_end=deals:16",
             kj.Rules({"players": "4", "deal_packets": "[3,2,3]", "game_end": "deals:16"})),
            ("game 2 E 1000 60000 50", kj.Game(2, "E", 1000, 60000, 50)),
            ("dealt 3 W QC,JD,8H", kj.Dealt(3, "W", ["QC", "JD", "8H"])),
            ("turned 4H", kj.Turned("4H")),
            ("turned JK", kj.Turned("JK")),
            ("said E pass", kj.Said("E", "pass")),
            ("said S H", kj.Said("S", "H")),
            ("trump H S", kj.Trump("H", "S")),
            ("played W 9D", kj.Played("W", "9D")),
            ("trick N 36 20", kj.TrickDone("N", 36, 20)),
            ("scored made 80,102 60,102 20,0 - -", kj.Scored("made", [80, 102], [60, 102], [20, 0], None, None)),
            ("scored forfeit 0,282 0,162 0,120 EW S", kj.Scored("forfeit", [0, 282], [0, 162], [0, 120], "EW", "S")),
            ("gameover 1320,1104", kj.GameOver([1320, 1104])),
            ("fault illegal 9S is not legal: play one of 7S 8S", kj.Fault("illegal", "9S is not legal: play one of 7S 8S")),
            ("fault timeout", kj.Fault("timeout", "")),
            ("quit", kj.Quit()),
            ("bid 1000 QC,JD,8H C D H S pass", kj.BidRequest(1000, ["QC", "JD", "8H"], ["C", "D", "H", "S", "pass"])),
            ("bid 900 - S pass", kj.BidRequest(900, [], ["S", "pass"])),
            ("play 1000 H E KC,TC,JC 8H,TH 8H TH", kj.PlayRequest(1000, "H", "E", ["KC", "TC", "JC"], ["8H", "TH"], ["8H", "TH"])),
            ("play 12 D N - 7S 7S", kj.PlayRequest(12, "D", "N", [], ["7S"], ["7S"])),
            ("claim 1000 C JS,TS,KS,8S", kj.ClaimRequest(1000, "C", ["JS", "TS", "KS", "8S"])),
            ("discard 1000 H 9H,7S 8C,9H,7S", kj.DiscardRequest(1000, "H", ["9H", "7S"], ["8C", "9H", "7S"])),
            ("dealt 2 W -", kj.Dealt(2, "W", [])),
            ("active W N E", kj.Active(["W", "N", "E"])),
            ("scored made 90,50,20 92,48,22 0,0,0 - -", kj.Scored("made", [90, 50, 20], [92, 48, 22], [0, 0, 0], None, None)),
            ("scored made 0,270,0,0 0,162,0,0 0,0,0,0 E -", kj.Scored("made", [0, 270, 0, 0], [0, 162, 0, 0], [0, 0, 0, 0], "E", None)),
            ("gameover 90,50,20", kj.GameOver([90, 50, 20])),
        ]
        names = set()
        for line, want in cases:
            with self.subTest(line=line):
                got = kj.parse_message(line)
                self.assertEqual(type(got), type(want))
                self.assertEqual(got, want)
                names.add(line.split()[0])
        self.assertEqual(names, set(kj._PARSERS), "a message of the parser is not tested")

    def test_line_ends_and_spacing(self):
        self.assertEqual(kj.parse_message("played  N   JH\r\n".rstrip("\r\n")), kj.Played("N", "JH"))

    def test_bad_lines(self):
        for line in ["klaverjas", "klaverjas x", "game 1 X 1000 0 0", "game 1 N 1000 0", "dealt 1 W QC,QC",
                     "dealt 1 W 1C", "turned 7H", "said N hearts", "trump X N", "played N 10H",
                     "trick N 3", "scored won 1,2 1,2 0,0 - -", "scored made 1,2 1,2 0,0 XY -",
                     "gameover", "fault", "quit now", "bid 1000 QC", "bid 1000 QC H H",
                     "play 1000 H N - QC", "play 1000 Z N - QC QC", "claim 1000 C", "rules =x",
                     "bid -5 QC H", "discard 1000 H 9H 9H,7S", "discard 1000 H 9H,7S 8C,9H",
                     "discard 1000 X 9H,7S 9H,7S", "discard 1000 H 9H,7S"]:
            with self.subTest(line=line):
                with self.assertRaises(kj.ProtocolError):
                    kj.parse_message(line)

    def test_unknown_lines_are_ignored(self):
        s = kj.Session(ExampleBot())
        self.assertEqual(s.handle("klaverjas 1\n"), "hello 1 example spec.md")
        self.assertIsNone(s.handle("weather sunny 21C\n"))
        self.assertIsNone(s.handle("\n"))
        self.assertEqual(s.state.unknown, ["weather sunny 21C"])
        self.assertIsInstance(kj.parse_message("weather sunny"), kj.Unknown)


class TestSession(unittest.TestCase):
    def test_handshake_refuse_and_versions(self):
        bot = kj.Bot("picky", "me", lambda s, d: "pass",
                     accept=lambda o: "rotterdams only\nplease" if o["play_rule"] != "rotterdams" else None)
        s = kj.Session(bot)
        self.assertEqual(s.handle("klaverjas 2 1"), "hello 1 picky me")
        self.assertEqual(s.handle("rules players=4 play_rule=amsterdams"), "refuse rotterdams only please")
        self.assertEqual(s.handle("rules players=4 play_rule=rotterdams"), "ok")
        self.assertEqual(s.state.options, {"players": "4", "play_rule": "rotterdams"})
        with self.assertRaises(kj.VersionError):
            kj.Session(bot).handle("klaverjas 2")
        with self.assertRaises(ValueError):
            kj.Session(kj.Bot("bad name", "", lambda s, d: None))

    def test_state_tracking(self):
        s = kj.Session(ExampleBot())
        for line in ["klaverjas 1", "rules players=4 roem_claiming=claim_required", "game 1 S 1000 0 0",
                     "dealt 1 W 7C,8C,9C,TC,JC,QC,KC,AC", "turned 3S", "said N pass", "trump C E"]:
            s.handle(line)
        st = s.state
        self.assertEqual((st.seat, st.game, st.deal, st.dealer), ("S", 1, 1, "W"))
        self.assertEqual((st.trump, st.maker, st.turned, st.makers()), ("C", "E", ["3S"], False))
        self.assertEqual(st.bids, [kj.Said("N", "pass")])
        self.assertEqual(st.partner(), "N")
        for line in ["played N 7D", "played E 8D", "played S 7C", "played W 9D"]:
            self.assertIsNone(s.handle(line))
        self.assertEqual(st.current[2], kj.Play("S", "7C"))
        self.assertEqual(st.leader(), "N")
        self.assertEqual(s.handle("claim 1000 C 7D,8D,7C,9D"), "20")
        self.assertIsNone(s.handle("trick S 0 20"))
        self.assertEqual(st.tricks, [kj.FinishedTrick([kj.Play("N", "7D"), kj.Play("E", "8D"),
                                                       kj.Play("S", "7C"), kj.Play("W", "9D")], "S", 0, 20)])
        self.assertEqual(st.current, [])
        self.assertEqual(st.leader(), "S")
        self.assertEqual(st.hand, ["8C", "9C", "TC", "JC", "QC", "KC", "AC"])
        self.assertEqual(st.seen, {"7D", "8D", "7C", "9D"})
        self.assertEqual(len(st.unseen()), 32 - 4 - 7)
        self.assertEqual(s.handle("play 1000 C S - 8C,9C,TC,JC,QC,KC,AC 8C 9C TC JC QC KC AC"), "8C")
        s.handle("fault rejected illegal 8C")
        self.assertEqual(st.last_fault, kj.Fault("rejected", "illegal 8C"))
        s.handle("scored made 100,62 80,62 20,0 - -")
        s.handle("dealt 2 N 7D,8D")
        self.assertEqual((st.deal, st.hand, st.tricks, st.seen, st.trump, st.last_fault), (2, ["7D", "8D"], [], set(), None, None))
        self.assertEqual(st.totals, [100, 62])
        self.assertEqual(st.last_score.score, [100, 62])
        s.handle("gameover 1320,1104")
        self.assertEqual(st.totals, [1320, 1104])
        self.assertFalse(s.done)
        s.handle("quit")
        self.assertTrue(s.done)

    def test_answers_are_checked(self):
        answers = iter(["X", 7, "pass ", "20"])
        s = kj.Session(kj.Bot("b", "", lambda st, d: next(answers)))
        s.handle("klaverjas 1")
        with self.assertRaises(kj.BadAnswer):
            s.handle("bid 1 7C C pass")
        with self.assertRaises(kj.BadAnswer):
            s.handle("play 1 C N - 7C 7C")
        self.assertEqual(s.handle("bid 1 7C C pass"), "pass")
        self.assertEqual(s.handle("claim 1 C 7C,8C,9C,TC"), "20")

    def test_run_writes_infos_then_answer_and_flushes(self):
        class Out(io.StringIO):
            flushes = 0

            def flush(self):
                Out.flushes += 1

        def decide(st, d):
            d.info("thinking\nhard")
            return d.legal_cards[-1]

        out = Out()
        kj.run(kj.Bot("b", "", decide), io.StringIO("klaverjas 1\nrules a=b\nplay 5 H N - 7C,AS 7C AS\nquit\nplay 5 H N - 7C 7C\n"), out)
        self.assertEqual(out.getvalue(), "hello 1 b\nok\ninfo thinking hard\nAS\n")
        self.assertEqual(Out.flushes, 3)

    def test_print_goes_to_stderr(self):
        code = ("import klaverjas as kj\n"
                "def d(s, x):\n print('debug output')\n return x.legal_cards[0]\n"
                "kj.run(kj.Bot('p', '', d))\n")
        r = subprocess.run([sys.executable, "-c", code], input="klaverjas 1\nplay 5 H N - 7C 7C\nquit\n",
                           capture_output=True, text=True, cwd=HERE, timeout=20)
        self.assertEqual(r.stdout, "hello 1 p\n7C\n")
        self.assertIn("debug output", r.stderr)
        self.assertEqual(r.returncode, 0)


# ----------------------------------------------------------------------------------------------


ALL100 = {"four_of_a_kind": "all_100"}


class TestHelpers(unittest.TestCase):
    def test_points(self):
        for trump in kj.SUITS:
            self.assertEqual(sum(kj.card_points(c, trump) for c in kj.ALL_CARDS), 152)
            self.assertEqual(kj.trick_points(kj.ALL_CARDS, trump, last=True), 162)
        self.assertEqual(kj.trick_points(["JH", "9H", "JS", "9S"], "H"), 36)
        self.assertEqual(kj.trick_points(["7C"], "H", last=True, options={"last_trick_bonus": "25"}), 25)

    def test_winner(self):
        self.assertEqual(kj.trick_winner(["KS", "TS", "AS", "7S"], "H"), 2)
        self.assertEqual(kj.trick_winner(["KD", "TD", "QD", "7C"], "H"), 1)
        self.assertEqual(kj.trick_winner(["AS", "7H", "TS", "8H"], "H"), 3)
        self.assertEqual(kj.trick_winner(["AH", "9H", "JD", "TH"], "H"), 1)
        self.assertEqual(kj.trick_winner(["7C", "AD", "AS", "AH"], "S"), 2)
        for trump in kj.SUITS:
            trumps = [r + trump for r in "789TJQKA"]
            self.assertEqual([kj.rank(c) for c in sorted(trumps, key=lambda c: -kj.strength(c, trump))], list("J9ATKQ87"))
            plain = [r + ("C" if trump != "C" else "D") for r in "789TJQKA"]
            self.assertEqual([kj.rank(c) for c in sorted(plain, key=lambda c: -kj.strength(c, trump))], list("ATKQJ987"))
        self.assertEqual(kj.lowest(["AH", "7C", "TS"]), "7C")
        self.assertEqual(kj.highest(["9H", "JH", "AS"], "H"), "JH")
        self.assertEqual(kj.lowest(["9H", "QH", "AS"], "H"), "AS")

    def test_roem(self):
        cases = [
            (["7C", "8C", "9C", "KD"], "H", ALL100, 20),
            (["9C", "TC", "JC", "7H"], "H", ALL100, 20),  # runs use the natural order
            (["8C", "9C", "TC", "JC"], "H", ALL100, 50),  # a four-run is 50 only
            (["TC", "KC", "AC", "7H"], "H", ALL100, 0),
            (["7C", "8D", "9H", "KD"], "H", ALL100, 0),
            (["KH", "QH", "7C", "8D"], "H", ALL100, 20),  # stuk
            (["KD", "QD", "7C", "8D"], "H", ALL100, 0),  # K+Q of a plain suit
            (["KH", "QH", "AH", "7C"], "H", ALL100, 40),
            (["TH", "JH", "QH", "KH"], "H", ALL100, 70),
            (["KH", "QH", "7C", "8D"], "H", {"stuk_scoring": "announced_by_holder"}, 0),
            (["JC", "JD", "JH", "JS"], "H", ALL100, 100),
            (["JC", "JD", "JH", "JS"], "H", {"four_of_a_kind": "jacks_200_high_100"}, 200),
            (["JC", "JD", "JH", "JS"], "H", {"four_of_a_kind": "jacks_200_all_100"}, 200),
            (["7C", "7D", "7H", "7S"], "H", ALL100, 100),
            (["7C", "7D", "7H", "7S"], "H", {"four_of_a_kind": "jacks_200_high_100"}, 0),
            (["9C", "9D", "9H", "9S"], "H", {"four_of_a_kind": "jacks_200_all_100"}, 100),
            (["QC", "QD", "QH", "QS"], "H", {"four_of_a_kind": "jacks_200_high_100"}, 100),
            (["AC", "AD", "AH", "AS"], "H", None, 100),  # defaults
        ]
        for cards, trump, options, want in cases:
            with self.subTest(cards=cards, options=options):
                self.assertEqual(kj.trick_roem(cards, trump, options), want)
        self.assertEqual(kj.roem_items(["KH", "QH", "AH", "7C"], "H"), [("run3", 20), ("stuk", 20)])

    def test_rules_vectors(self):
        """The 'trick' vectors of the shared rules vectors, when they are beside the repo."""
        path = os.environ.get("KLAVERJAS_VECTORS") or os.path.join(REPO, "..", "shared", "vectors", "klaverjas-vectors.json")
        if not os.path.exists(path):
            self.skipTest("no rules vectors at %s (a file outside this repository; set KLAVERJAS_VECTORS, "
                          "or put it in ../shared/vectors beside the repository)" % path)
        with open(path) as f:
            data = json.load(f)
        n = 0
        for v in data["vectors"]:
            if v["kind"] != "trick":
                continue
            n += 1
            opts = dict(data["default_variant"])
            opts.update(v.get("variant", {}))
            opts = {k: str(x) for k, x in opts.items()}
            cards = [p["card"] for p in v["trick"]]
            exp = v["expected"]
            with self.subTest(id=v["id"]):
                self.assertEqual(v["trick"][kj.trick_winner(cards, v["trump"])]["seat"], exp["winner_seat"])
                self.assertEqual(kj.trick_points(cards, v["trump"], v["last_trick"], opts), exp["card_points"])
                self.assertEqual(kj.trick_roem(cards, v["trump"], opts), exp["roem"])
        self.assertGreater(n, 10)

    def test_seats(self):
        self.assertEqual([kj.next_seat("W"), kj.partner("E"), kj.side("W"), kj.side_index("S")], ["N", "W", "EW", 0])
        self.assertTrue(kj.same_side("N", "S"))
        self.assertFalse(kj.same_side("N", "E"))


# ----------------------------------------------------------------------------------------------


def replay(testcase, lines, bot, exact=True):
    """Feed the "< " lines to a session of bot. With exact, every reply must be the next
    "> " line; otherwise every reply must be legal. Checks the SDK's state against the
    referee's events as it goes. Returns the session."""
    s = kj.Session(bot)
    st = s.state
    i = 0
    replies = 0
    while i < len(lines):
        line = lines[i]
        testcase.assertTrue(line.startswith("< "), "line %d: %r is not an arena line" % (i + 1, line))
        text = line[2:]
        msg = kj.parse_message(text)
        testcase.assertNotIsInstance(msg, kj.Unknown, text)
        if exact and isinstance(msg, kj.PlayRequest):
            testcase.assertEqual(st.hand, kj.sort_cards(msg.hand), "hand tracked from dealt and played")
        if isinstance(msg, kj.TrickDone):
            plays = st.current
            cards = [p.card for p in plays]
            last = len(st.tricks) == kj.hand_size(st.options) - 1
            testcase.assertEqual(len(plays), st.players)
            testcase.assertEqual(plays[kj.trick_winner(cards, st.trump)].seat, msg.winner, text)
            # at three the discards count in the last trick: known to the Player only, and the
            # transcript's only when the bot's replies were the transcript's (exact)
            extra = sum(kj.card_points(c, st.trump) for c in st.discarded) if last else 0
            if not (last and st.players == 3 and (not st.discarded or not exact)):
                testcase.assertEqual(kj.trick_points(cards, st.trump, last, st.options) + extra, msg.points, text)
            testcase.assertEqual(kj.trick_roem(cards, st.trump, st.options), msg.roem, text)  # honest claims
        if isinstance(msg, kj.Scored) and msg.outcome in ("made", "nat") and st.players == 3:
            seats = kj.SEATS[:len(msg.cards)]
            for k, seat in enumerate(seats):
                testcase.assertEqual(sum(t.roem for t in st.tricks if t.winner == seat), msg.roem[k])
                testcase.assertEqual(sum(t.points for t in st.tricks if t.winner == seat), msg.cards[k])
        elif isinstance(msg, kj.Scored) and msg.outcome in ("made", "nat"):
            stuk = {}  # stuk_scoring=announced_by_holder: 20 to the side of who played both
            if st.options.get("stuk_scoring") == "announced_by_holder":
                by = [p.seat for t in st.tricks for p in t.plays if p.card in ("K" + st.trump, "Q" + st.trump)]
                if len(by) == 2 and by[0] == by[1]:
                    stuk[kj.side(by[0])] = 20
            for k, sd in enumerate(kj.SIDES):
                testcase.assertEqual(sum(t.points for t in st.tricks if kj.side(t.winner) == sd), msg.cards[k])
                testcase.assertEqual(sum(t.roem for t in st.tricks if kj.side(t.winner) == sd) + stuk.get(sd, 0),
                                     msg.roem[k])
        reply = s.handle(text + "\n")
        i += 1
        if isinstance(msg, kj.REQUESTS):
            testcase.assertIsNotNone(reply, "no reply to " + text)
            if exact:
                testcase.assertLess(i, len(lines), "the transcript ends before the reply to " + text)
                testcase.assertEqual("> " + reply, lines[i], "reply to line %d %r" % (i, text))
                i += 1
            else:
                check_answer(testcase, msg, reply, st.options, honest_claims=True)
                if i < len(lines) and lines[i].startswith("> "):
                    i += 1
            replies += 1
        else:
            testcase.assertIsNone(reply, "a reply to the event " + text)
    testcase.assertTrue(s.done, "no quit")
    testcase.assertGreater(replies, 5)
    return s


def check_answer(testcase, req, reply, options, honest_claims):
    """Whether reply is a legal answer to the request req under the ruleset options."""
    if isinstance(req, kj.Klaverjas):
        testcase.assertRegex(reply, r"^hello 1 [A-Za-z0-9._-]{1,64}( [ -~]*)?$")
    elif isinstance(req, kj.Rules):
        testcase.assertEqual(reply, "ok")
    elif isinstance(req, kj.BidRequest):
        testcase.assertIn(reply, req.legal)
    elif isinstance(req, kj.PlayRequest):
        testcase.assertIn(reply, req.legal)
    elif isinstance(req, kj.DiscardRequest):
        cards = reply.split(" ")
        testcase.assertEqual(len(cards), 2, "a discard is two cards: %r" % reply)
        testcase.assertNotEqual(cards[0], cards[1], "a discard of one card twice")
        for c in cards:
            testcase.assertIn(c, req.hand)
    elif isinstance(req, kj.ClaimRequest):
        testcase.assertRegex(reply, r"^[0-9]+$")
        roem = kj.trick_roem(req.trick, req.trump, options)
        if honest_claims:
            testcase.assertEqual(int(reply), roem)
        else:
            testcase.assertLessEqual(int(reply), roem)
    else:
        testcase.fail("not a request: %r" % (req,))


class TestTranscripts(unittest.TestCase):
    def test_spec_transcripts(self):
        blocks = transcripts()
        self.assertGreaterEqual(len(blocks), 3, "spec.md has fewer transcripts than expected")
        for params, lines in blocks:
            with self.subTest(transcript=params):
                s = replay(self, lines, ExampleBot())
                self.assertEqual(len(s.state.tricks), kj.hand_size(s.state.options))

    def test_example_bot_port(self):
        """The bidding of the port, which the transcripts happen to exercise only by passing."""
        def bid(hand, legal):
            s = kj.Session(ExampleBot())
            return s.handle("bid 1000 %s %s" % (",".join(hand), " ".join(legal)))
        self.assertEqual(bid(["7C", "JC", "AC", "7D", "8D", "9D", "JD", "AS"], "C D H S pass".split()), "D")
        self.assertEqual(bid(["7C", "JC", "7D", "8D", "9D", "JD", "AS", "KS"], "C D H S pass".split()), "D")
        self.assertEqual(bid(["7C", "JC", "AC", "7D", "8D", "9D", "QD", "AS"], "C D H S pass".split()), "C")
        self.assertEqual(bid(["7C", "JC", "8C", "7D", "8D", "9D", "QD", "AS"], "H pass".split()), "pass")
        self.assertEqual(bid(["7C", "9C", "8C", "7D", "8D", "9D", "QD", "AS"], "C D H S".split()), "D")
        self.assertEqual(bid(["7C", "9C", "8C", "7D", "8D", "9D", "AS", "KS"], "C D H S".split()), "C")

    def test_heuristic_in_process(self):
        for params, lines in transcripts():
            with self.subTest(transcript=params):
                arena = [l for l in lines if l.startswith("< ")]
                replay(self, arena, heuristic.Heuristic(), exact=False)

    def test_heuristic_choices(self):
        h = heuristic.Heuristic()

        def play(line, seat="N", maker="N", events=()):
            s = kj.Session(h)
            for l in ["klaverjas 1", "rules players=4", "game 1 %s 1000 0 0" % seat,
                      "dealt 1 W 7C,8C,9C,TC,JC,QC,KC,AC", "trump H %s" % maker] + list(events):
                s.handle(l)
            return s.handle(line)

        # North is last. South (partner) ruffed: throw the ten on it, the ace is still out
        self.assertEqual(play("play 1 H E 8D,7H,9D TD,7D,8S TD 7D"), "TD")
        # last against West's nine: win with the queen, keep the ace
        self.assertEqual(play("play 1 H E 8D,7D,9D QD,AD,8S QD AD"), "QD")
        # South's ace stands: no trump on it, a worthless discard
        self.assertEqual(play("play 1 H E 7D,AD,8D JH,7H,7S,8S JH 7H 7S 8S"), "7S")
        # a trick full of points: ruff it with the smallest trump
        self.assertEqual(play("play 1 H E AD,7D,TD JH,7H,7S,8S JH 7H"), "7H")
        # a trick of nothing that must be ruffed: the smallest trump too
        self.assertEqual(play("play 1 H E 7D,8D,9D JH,7H,7S,8S JH 7H"), "7H")
        # the makers draw trumps with the jack
        self.assertEqual(play("play 1 H N - JH,9H,AC,7S JH 9H AC 7S", seat="N"), "JH")
        # a strong hand plays, a weak one passes, and a forced bid names the best suit
        self.assertEqual(play("bid 1 JH,9H,AH,8H,AC,7S,8D,9D C D H S pass"), "H")
        self.assertEqual(play("bid 1 7C,9H,AS,8H,QC,7S,8D,9D C D H S pass"), "pass")
        self.assertEqual(play("bid 1 7C,9H,AS,8H,QC,7S,JH,9D C D H S"), "H")
        self.assertEqual(play("claim 1 H KH,QH,JH,7C"), "40")

    def test_heuristic_accepts_every_preset_line(self):
        h = heuristic.Heuristic()
        for params, lines in transcripts():
            rules = [l[2:] for l in lines if l.startswith("< rules ")][0]
            self.assertEqual(kj.Session(h).handle(rules), "ok")
        self.assertIsNone(h.accept({"players": "3"}))  # it plays the three-player game too


# ----------------------------------------------------------------------------------------------


class Bot:
    """A bot program run as a subprocess; lines are read by a thread so reads can time out."""

    def __init__(self, argv):
        env = dict(os.environ)
        env.pop("PYTHONUNBUFFERED", None)  # a bot must flush by itself, as under the arena
        self.proc = subprocess.Popen(argv, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1, env=env)
        self.lines = queue.Queue()
        self.err = []
        threading.Thread(target=self._read, args=(self.proc.stdout, self.lines.put), daemon=True).start()
        threading.Thread(target=self._read, args=(self.proc.stderr, self._stderr), daemon=True).start()

    def _stderr(self, line):
        if line is not None:
            self.err.append(line)

    @staticmethod
    def _read(f, put):
        for line in f:
            put(line)
        put(None)

    def send(self, lines):
        self.proc.stdin.write("".join(l + "\n" for l in lines))
        self.proc.stdin.flush()

    def answer(self, timeout=10):
        """The next line that is not an info line."""
        while True:
            line = self.lines.get(timeout=timeout)
            if line is None:
                raise EOFError("the bot closed its output; stderr: " + "".join(self.err[-20:]))
            if not line.startswith("info "):
                return line.rstrip("\r\n")

    def close(self):
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.stdout.close()
            self.proc.stderr.close()


class TestProcesses(unittest.TestCase):
    """Each bot as a real program, asked one request at a time over the transcripts' lines."""

    def exchange(self, argv, honest_claims):
        for params, lines in transcripts():
            arena = [l[2:] for l in lines if l.startswith("< ")]
            with self.subTest(bot=argv[-1], transcript=params):
                bot = Bot(argv)
                try:
                    batch, answered, options = [], 0, {}
                    for text in arena:
                        batch.append(text)
                        word = text.split()[0]
                        if word == "rules":
                            options = kj.parse_message(text).options
                        if word in REQUESTS:
                            bot.send(batch)  # events and the request in one write, as the arena does
                            batch = []
                            try:
                                reply = bot.answer()
                            except queue.Empty:
                                self.fail("no answer within 10 s to %r (not flushed?)" % text)
                            check_answer(self, kj.parse_message(text), reply, options, honest_claims)
                            answered += 1
                        elif word == "quit":
                            bot.send(batch)
                            code = bot.proc.wait(timeout=10)
                            self.assertEqual(code, 0, "exit status after quit; stderr: " + "".join(bot.err))
                            rest = bot.lines.get(timeout=10)
                            self.assertIsNone(rest, "a line after quit")
                    self.assertGreater(answered, 10)
                finally:
                    bot.close()

    def test_shell(self):
        self.exchange(["bash", "examplebots/shell/random.sh"], honest_claims=False)

    def test_plain_python(self):
        self.exchange([sys.executable, "examplebots/python/random_plain.py"], honest_claims=False)

    @unittest.skipUnless(shutil.which("node"), "node is not installed")
    def test_javascript(self):
        self.exchange(["node", "examplebots/js/random.js"], honest_claims=False)

    def test_sdk_random(self):
        self.exchange([sys.executable, "examplebots/python/random_bot.py"], honest_claims=True)

    def test_heuristic(self):
        self.exchange([sys.executable, "examplebots/python/heuristic.py"], honest_claims=True)

    def test_sdk_exits_on_unknown_version(self):
        bot = Bot([sys.executable, "examplebots/python/random_bot.py"])
        bot.send(["klaverjas 7"])
        self.assertEqual(bot.close(), 1)
        self.assertIn("speaks protocol versions [7]", "".join(bot.err))


# ----------------------------------------------------------------------------------------------
# The three-player game (spec.md section 14, RULES.md §11)

RULES3 = ("rules players=3 play_rule=rotterdams undertrump=mandatory "
          "partner_trump_undertrump=forbidden_unless_only_trumps bidding=direct_kiezen "
          "draaikaart_first_deal_clubs=true draaikaart_jokers=false first_lead=left_of_dealer "
          "deal_packets=[3,4,3] four_of_a_kind=all_100 stuk_scoring=in_trick roem_claiming=%s "
          "false_claim_penalty=0 last_trick_bonus=10 nat_rule=strictly_more_incl_roem pit_bonus=100 "
          "pit_for_defenders=true fault_policy=forfeit_deal renege_extra_roem=100 game_end=deals:15")
VECTORS3 = os.path.join(REPO, "referee", "rules", "testdata", "three-player-vectors.json")


def legal3(hand, trick, trump):
    """The legal cards at three (RULES.md §11): follow suit; void, trump, overtrumping
    when possible and else undertrumping (compulsory); trumps led: beat the best if possible."""
    if not trick:
        return list(hand)
    led = kj.suit(trick[0])
    best = max([kj.strength(c, trump) for c in trick if kj.suit(c) == trump] or [-1])
    follow = [c for c in hand if kj.suit(c) == led]
    if led != trump and follow:
        return follow
    trumps = [c for c in hand if kj.suit(c) == trump]
    if not trumps:
        return list(hand)
    return [c for c in trumps if kj.strength(c, trump) > best] or trumps


def round10(n):
    return (n + 5) // 10 * 10


class InProcess:
    """A bot as an SDK session, driven like a program: events are queued and sent with the
    next request."""

    def __init__(self, bot):
        self.session = kj.Session(bot)
        self.pending = []

    def tell(self, line):
        self.pending.append(line)

    def ask(self, line):
        lines, self.pending = self.pending + [line], []
        reply = None
        for l in lines:
            reply = self.session.handle(l + "\n")
            if l != line:
                assert reply is None, "a reply to the event %r" % l
        return reply

    def finish(self, testcase):
        for l in self.pending + ["quit"]:
            self.session.handle(l + "\n")
        testcase.assertTrue(self.session.done)


class Program(Bot):
    """A bot program, driven as by the arena: the events and the request in one write."""

    def __init__(self, argv):
        super().__init__(argv)
        self.pending = []

    def tell(self, line):
        self.pending.append(line)

    def ask(self, line):
        self.send(self.pending + [line])
        self.pending = []
        return self.answer()

    def finish(self, testcase):
        self.send(self.pending + ["quit"])
        testcase.assertEqual(self.proc.wait(timeout=10), 0, "exit status; stderr: " + "".join(self.err))
        testcase.assertEqual(self.close(), 0)


def play_game3(testcase, bots, rng, deals=3, claims=False, honest_claims=True):
    """Plays one game of the three-player game between bots (a dict seat -> InProcess or
    Program; seats N E S, or N E S W for a table of four where the dealer sits out) as the
    referee of spec.md section 14 would, checking every answer. Returns the totals."""
    seats = "".join(s for s in kj.SEATS if s in bots)
    rules = RULES3 % ("claim_required" if claims else "automatic")
    options = kj.parse_message(rules).options
    for seat in seats:
        testcase.assertRegex(bots[seat].ask("klaverjas 1"), r"^hello 1 [A-Za-z0-9._-]{1,64}( [ -~]*)?$")
        testcase.assertEqual(bots[seat].ask(rules), "ok")
        bots[seat].tell("game 1 %s 1000 0 0" % seat)

    def tell(line):
        for seat in seats:
            bots[seat].tell(line)

    def ask(seat, line):
        reply = bots[seat].ask(line)
        testcase.assertIsNotNone(reply, line)
        check_answer(testcase, kj.parse_message(line), reply, options, honest_claims)
        return reply

    totals = [0] * len(seats)
    dealer, number = "N", 1
    while number <= deals:
        i = seats.index(dealer)
        active = [seats[(i + k) % len(seats)] for k in range(1, 4)]  # left of the dealer first
        deck = list(kj.ALL_CARDS)
        rng.shuffle(deck)
        hands = {s: kj.sort_cards(deck[10 * k:10 * k + 10]) for k, s in enumerate(active)}
        skart = kj.sort_cards(deck[30:])
        for seat in seats:
            bots[seat].tell("dealt %d %s %s" % (number, dealer, ",".join(hands.get(seat, [])) or "-"))
        if len(seats) == 4:
            tell("active " + " ".join(active))
        maker = None
        for seat in active:
            bid = ask(seat, "bid 1000 %s C D H S pass" % ",".join(hands[seat]))
            tell("said %s %s" % (seat, bid))
            if bid != "pass":
                maker, trump = seat, bid
                break
        dealer = active[0]  # the next dealer is the voorhand
        zeros = ",".join("0" * len(seats))
        if maker is None:
            tell("scored redeal %s %s %s - -" % (zeros, zeros, zeros))
            continue
        tell("trump %s %s" % (trump, maker))
        hand12 = kj.sort_cards(hands[maker] + skart)
        discards = ask(maker, "discard 1000 %s %s %s" % (trump, ",".join(skart), ",".join(hand12))).split()
        hands[maker] = [c for c in hand12 if c not in discards]
        leader = active[0]
        cards, roem, won = ({s: 0 for s in seats} for _ in range(3))
        for t in range(10):
            order = active[active.index(leader):] + active[:active.index(leader)]
            trick = []
            for seat in order:
                legal = legal3(hands[seat], trick, trump)
                card = ask(seat, "play 1000 %s %s %s %s %s" % (trump, leader, ",".join(trick) or "-",
                                                               ",".join(hands[seat]), " ".join(legal)))
                hands[seat].remove(card)
                trick.append(card)
                tell("played %s %s" % (seat, card))
            winner = order[kj.trick_winner(trick, trump)]
            points = kj.trick_points(trick, trump, last=t == 9)
            if t == 9:
                points += sum(kj.card_points(c, trump) for c in discards)
            r = kj.trick_roem(trick, trump, options)
            if claims:
                ask(winner, "claim 1000 %s %s" % (trump, ",".join(trick)))
            tell("trick %s %d %d" % (winner, points, r))
            cards[winner] += points
            roem[winner] += r
            won[winner] += 1
            leader = winner
        testcase.assertEqual(sum(cards.values()), 162)
        pit = [s for s in seats if won[s] == 10]
        if cards[maker] + roem[maker] >= 82:
            outcome = "made"
            score = {s: round10(cards[s] + roem[s] + (100 if s in pit else 0)) for s in seats}
        else:
            outcome = "nat"
            half = round10((162 + sum(roem.values())) // 2)
            score = {s: (half if s in active and s != maker else 0) for s in seats}
        for k, s in enumerate(seats):
            totals[k] += score[s]
        tell("scored %s %s %s %s %s -" % (outcome, ",".join(str(score[s]) for s in seats),
                                          ",".join(str(cards[s]) for s in seats),
                                          ",".join(str(roem[s]) for s in seats), pit[0] if pit else "-"))
        number += 1
    tell("gameover " + ",".join(map(str, totals)))
    for seat in seats:
        bots[seat].finish(testcase)
    return totals


class Watchful(kj.Bot):
    """The SDK random bot, checking on the way what the SDK tells it at three players: its
    seat, who played the trick's cards, its hand, and that the dealer sitting out is asked
    nothing."""

    name = "watchful"

    def __init__(self, testcase, inner=None):
        super().__init__()
        self.t = testcase
        self.inner = inner
        self.asked = 0
        self.rng = __import__("random").Random(7)

    def _check(self, state, d):
        self.asked += 1
        self.t.assertEqual(state.players, 3)
        self.t.assertFalse(state.sitting_out, "the dealer sitting out was asked")
        self.t.assertEqual(d.seat, state.seat)
        self.t.assertEqual(d.hand, state.hand)
        self.t.assertIsNone(state.partner())
        self.t.assertNotIn(state.seat, state.opponents())
        self.t.assertEqual(len(state.opponents()), 2)

    def decide(self, state, d):
        self._check(state, d)
        if d.kind == "play":
            self.t.assertEqual(d.trick_seats(), [p.seat for p in state.current])
            self.t.assertEqual(len(d.hand), 10 - len(state.tricks))
            self.t.assertEqual(len(state.unseen()) + len(state.seen) + len(d.hand) + len(state.discarded), 32)
        if self.inner is not None:
            return self.inner.decide(state, d)
        if d.kind == "bid":
            return self.rng.choice(d.legal_bids)
        if d.kind == "play":
            return self.rng.choice(d.legal_cards)
        return kj.trick_roem(d.trick, d.trump, state.options)

    def discard(self, state, d):
        self._check(state, d)
        self.t.assertEqual(len(d.hand), 12)
        self.t.assertEqual(state.maker, state.seat)
        self.t.assertTrue(set(d.skart) <= set(d.hand))
        if self.inner is not None:
            return self.inner.discard(state, d)
        return self.rng.sample(d.hand, 2)


class TestThreePlayers(unittest.TestCase):
    EXAMPLE = [  # spec.md section 14, seen from East: N deals, E is voorhand and takes the deal
        RULES3 % "automatic",
        "game 1 E 1000 0 0",
        "dealt 1 N 8C,TC,AC,7D,9D,JD,8H,KH,AH,QS",
        "bid 1000 8C,TC,AC,7D,9D,JD,8H,KH,AH,QS C D H S pass",
        "said E H",
        "trump H E",
        "discard 1000 H 9H,7S 8C,TC,AC,7D,9D,JD,8H,9H,KH,AH,7S,QS",
    ]

    def feed(self, bot, lines):
        """The replies of a session of bot to lines, checked legal; also returns the session."""
        s = kj.Session(bot)
        self.assertRegex(s.handle("klaverjas 1"), r"^hello 1 ")
        replies = []
        for line in lines:
            msg = kj.parse_message(line)
            reply = s.handle(line + "\n")
            if isinstance(msg, kj.REQUESTS):
                self.assertIsNotNone(reply, line)
                check_answer(self, msg, reply, s.state.options, honest_claims=True)
                replies.append(reply)
            else:
                self.assertIsNone(reply, line)
        return replies, s

    def test_example_deal_through_every_sdk_bot(self):
        import random_bot
        bots = [heuristic.Heuristic(), kj.Bot("r", "", random_bot.decide, discard=random_bot.discard),
                kj.Bot("plain", "", lambda st, d: d.legal_bids[0] if d.kind == "bid" else d.legal_cards[0]),
                ExampleBot()]
        for bot in bots:
            with self.subTest(bot=bot.name):
                replies, s = self.feed(bot, self.EXAMPLE)
                st = s.state
                self.assertEqual((st.players, st.table, st.seats(), st.makers(), st.side()), (3, 3, "NES", True, "E"))
                self.assertEqual(len(st.hand), 10)
                self.assertEqual(st.discarded, replies[-1].split())
                self.assertEqual(st.skart, ["9H", "7S"])
                # the Player leads the first trick with the hand he kept
                hand = st.hand
                play = "play 1000 H E - %s %s" % (",".join(hand), " ".join(hand))
                reply = s.handle(play)
                self.assertIn(reply, hand)
                for line in ["played E " + reply, "played S 7C", "played N KC", "trick E 11 0"]:
                    self.assertIsNone(s.handle(line))
                self.assertEqual(st.tricks[-1].plays[1], kj.Play("S", "7C"))
                self.assertEqual(st.leader(), "E")
                self.assertIsNone(s.handle("scored made 90,50,20 92,48,22 0,0,0 - -"))
                self.assertEqual(st.totals, [90, 50, 20])
                self.assertIsNone(s.handle("gameover 90,50,20"))
                self.assertEqual(st.totals, [90, 50, 20])

    def test_following_in_a_trick_of_three(self):
        """South plays third (after E and... N at a table of three): legal answers, and the
        SDK knows who played the trick's cards."""
        lines = [RULES3 % "claim_required", "game 1 S 1000 0 0", "dealt 1 S 7C,8C,JC,7D,KD,9H,TH,JH,QS,KS",
                 "bid 1000 7C,8C,JC,7D,KD,9H,TH,JH,QS,KS C D H S pass", "said S pass", "said N D", "trump D N",
                 "played N 9C", "played E TC",
                 "play 1000 D N 9C,TC 7C,8C,JC,7D,KD,9H,TH,JH,QS,KS 7C 8C JC"]
        for bot in (heuristic.Heuristic(), Watchful(self)):
            with self.subTest(bot=bot.name):
                replies, s = self.feed(bot, lines)
                self.assertEqual(s.state.seats(), "NES")
                self.assertEqual(s.state.next_player("S"), "N")
                self.assertEqual(s.state.makers(), False)
                self.assertIn(replies[-1], ["7C", "8C", "JC"])
                # a claim at three: a run of three is 40 roem
                self.assertEqual(s.handle("claim 1000 D 7S,8S,9S"), "40")
                self.assertEqual(s.handle("claim 1000 D JC,JS,JH"), "120")

    def test_void_must_trump_and_undertrump(self):
        lines = [RULES3 % "automatic", "game 1 N 1000 0 0", "dealt 3 E 7C,8C,7H,8H,TD,KD,QD,AD,7S,8S",
                 "said S H", "trump H S", "played S AS", "played N JH",
                 "play 1000 H S AS,JH 7C,8C,7H,8H,TD,KD,QD,AD,7S,8S 7S 8S"]
        replies, s = self.feed(heuristic.Heuristic(), [lines[0], "game 1 E 1000 0 0"] + lines[2:])
        self.assertIn(replies[-1], ["7S", "8S"])

    def test_sit_out_at_a_table_of_four(self):
        """A dealer sitting out is dealt "-" and asked nothing; the next deal he plays."""
        for bot in (heuristic.Heuristic(), Watchful(self)):
            with self.subTest(bot=bot.name):
                lines = [RULES3 % "automatic", "game 1 W 1000 0 0", "dealt 2 W -", "said N pass", "said E S",
                         "trump S E", "played N 7C", "played E 8C", "played S 9C", "trick S 0 40",
                         "scored made 0,100,0,0 0,92,70,0 0,0,40,0 - -"]
                replies, s = self.feed(bot, lines)
                st = s.state
                self.assertEqual(replies, ["ok"])  # to the rules line, and nothing in the deal
                self.assertEqual(st.table, 4)
                self.assertEqual(st.totals, [0, 100, 0, 0])
                self.assertEqual(st.seats(), "NES")
                # the next deal, N deals and sits out: W (voorhand) plays, leads, and follows S
                for line in ["dealt 3 N 7C,8C,JC,7D,KD,9H,TH,JH,QS,KS"]:
                    self.assertIsNone(s.handle(line))
                self.assertFalse(st.sitting_out)
                self.assertEqual(st.seats(), "ESW")
                self.assertEqual(st.next_player("S"), "W")
                self.assertEqual(st.next_player("W"), "E")
                self.assertIn(s.handle("bid 1000 7C,8C,JC,7D,KD,9H,TH,JH,QS,KS C D H S pass"), "C D H S pass".split())
                for line in ["said E pass", "said S C", "trump C S", "played E 8H", "played S AH"]:
                    self.assertIsNone(s.handle(line))
                reply = s.handle("play 1000 C E 8H,AH 7C,8C,JC,7D,KD,9H,TH,JH,QS,KS 9H TH JH")
                self.assertIn(reply, ["9H", "TH", "JH"])
                self.assertIsNone(s.handle("gameover 0,100,0,0"))

    def test_active_line_at_a_table_of_four(self):
        """The active line tells who plays before any W shows: seats, order, next player."""
        s = kj.Session(ExampleBot())
        for line in ["klaverjas 1", RULES3 % "automatic", "game 1 N 1000 0 0", "dealt 1 E 7C,8C,JC,7D,KD,9H,TH,JH,QS,KS"]:
            s.handle(line)
        self.assertEqual((s.state.table, s.state.seats(), s.state.playing()), (3, "NES", ["S", "N", "E"]))
        self.assertIsNone(s.handle("active S W N"))
        st = s.state
        self.assertEqual((st.table, st.seats(), st.playing(), st.unknown), (4, "NSW", ["S", "W", "N"], []))
        self.assertEqual((st.next_player("S"), st.next_player("W"), st.next_player("N")), ("W", "N", "S"))
        self.assertEqual(st.opponents(), ["S", "W"])
        s.handle("dealt 2 S 8C,9C,TC,8D,9D,7H,8H,7S,8S,9S")
        self.assertFalse(st.sitting_out)
        self.assertIsNone(s.handle("active W N E"))
        self.assertEqual((st.seats(), st.playing()), ("NEW", ["W", "N", "E"]))

    def test_dealt_dash_parses_at_four_seats(self):
        s = kj.Session(ExampleBot())
        for line in ["klaverjas 1", RULES3 % "automatic", "game 1 N 1000 0 0", "dealt 1 N -"]:
            s.handle(line)
        self.assertTrue(s.state.sitting_out)
        self.assertEqual((s.state.table, s.state.hand, s.state.totals), (4, [], [0, 0, 0]))

    def test_discard_answers(self):
        s = kj.Session(kj.Bot("b", "", lambda st, d: "pass", discard=lambda st, d: "X"))
        s.handle("klaverjas 1")
        with self.assertRaises(kj.BadAnswer):
            s.handle("discard 1 H 7S,8S 7S,8S,9S")
        for answer, want in ((["8S", "7S"], "8S 7S"), ("9S  7S", "9S 7S"), (None, "7S 8S")):
            s = kj.Session(kj.Bot("b", "", lambda st, d: "pass", discard=lambda st, d, a=answer: a))
            self.assertEqual(s.handle("discard 1 H 7S,8S 7S,8S,9S,AH"), want)
        for bad in (["7S", "7S"], ["7S"], 5):
            s = kj.Session(kj.Bot("b", "", lambda st, d: "pass", discard=lambda st, d, a=bad: a))
            with self.assertRaises(kj.BadAnswer):
                s.handle("discard 1 H 7S,8S 7S,8S,9S,AH")
        # the default keeps trumps and points
        self.assertEqual(kj.default_discard(["7S", "JH", "9H", "AS", "7D", "TD", "8C"], "H"), ["7D", "7S"])
        self.assertEqual(kj.default_discard(["JH", "9H", "AS", "7H"], "H"), ["AS", "7H"])
        self.assertEqual(sorted(kj.Session(ExampleBot()).handle(
            "discard 1 H 7S,8S 7S,8S,9S,AH,AC,TC,JD,JH,9H,QH,KH,8D").split()), ["7S", "8D"])

    def test_heuristic_three_player_choices(self):
        def ask(line):
            s = kj.Session(heuristic.Heuristic())
            for l in ["klaverjas 1", RULES3 % "automatic", "game 1 E 1000 0 0", "dealt 1 N 8C,TC,AC,7D,9D,JD,8H,KH,AH,QS"]:
                s.handle(l)
            return s.handle(line)
        # jack, nine and four trumps: play; a weak hand passes
        self.assertEqual(ask("bid 1 JH,9H,AH,8H,AC,7S,8D,9D,TC,QS C D H S pass"), "H")
        self.assertEqual(ask("bid 1 7C,9H,AS,8H,QC,7S,8D,9D,KC,8S C D H S pass"), "pass")
        # discards: keep trumps and the ace; make the spades void (7S QS)
        self.assertEqual(sorted(ask("discard 1 H 9H,7S 8C,TC,AC,7D,9D,JD,8H,9H,KH,AH,7S,QS").split()), ["7S", "QS"])
        self.assertEqual(sorted(ask("discard 1 H 7S,8S 7S,8S,7H,8H,9H,TH,JH,QH,KH,AH,AC,AD").split()), ["7S", "8S"])

    def test_legal3_and_helpers_against_engine_vectors(self):
        if not os.path.exists(VECTORS3):
            self.skipTest("no three-player vectors at %s" % VECTORS3)
        with open(VECTORS3) as f:
            data = json.load(f)
        opts = {"players": "3"}
        n = 0
        for v in data["vectors"]:
            with self.subTest(id=v["id"]):
                if v["kind"] == "legal3":
                    trick = [p["card"] for p in v["trick_so_far"]]
                    self.assertEqual(sorted(legal3(v["hand"], trick, v["trump"])), sorted(v["expected_legal"]))
                    n += 1
                elif v["kind"] == "trick3":
                    exp = v["expected"]
                    cards = [p["card"] for p in v["trick"]]
                    self.assertEqual(v["trick"][kj.trick_winner(cards, v["trump"])]["seat"], exp["winner_seat"])
                    extra = sum(kj.card_points(c, v["trump"]) for c in v.get("discards") or [])
                    self.assertEqual(kj.trick_points(cards, v["trump"], v["last_trick"], opts) + extra, exp["card_points"])
                    self.assertEqual(kj.trick_roem(cards, v["trump"], opts), exp["roem"])
                    n += 1
        self.assertGreater(n, 20)

    def test_games_in_process(self):
        """Whole games: heuristic against the SDK random bot and itself, at a table of three
        and of four (the dealer sitting out), with and without roem claims."""
        import random
        rng = random.Random(3)
        for seats in ("NES", "NESW"):
            for claims in (False, True):
                with self.subTest(seats=seats, claims=claims):
                    bots = {}
                    for k, seat in enumerate(seats):
                        inner = heuristic.Heuristic() if k % 2 == 0 else None
                        bots[seat] = InProcess(Watchful(self, inner))
                    play_game3(self, bots, rng, deals=4, claims=claims)
                    for b in bots.values():
                        self.assertGreater(b.session.bot.asked, 10)

    def test_heuristic_beats_random(self):
        """A sanity check of the heuristic's three-player play: over a few games it takes more
        than the two random bots."""
        import random
        rng = random.Random(11)
        h = r = 0
        for g in range(6):
            seats = "NES"
            bots = {s: InProcess(Watchful(self)) for s in seats}
            hs = seats[g % 3]
            bots[hs] = InProcess(heuristic.Heuristic())
            totals = play_game3(self, bots, rng, deals=6)
            h += totals[seats.index(hs)]
            r += sum(totals) - totals[seats.index(hs)]
        self.assertGreater(h, r / 2)

    def test_programs(self):
        """The example bots as real programs at a table of three and of four."""
        import random
        rng = random.Random(5)
        progs = [["bash", "examplebots/shell/random.sh"], [sys.executable, "examplebots/python/random_plain.py"],
                 [sys.executable, "examplebots/python/random_bot.py"], [sys.executable, "examplebots/python/heuristic.py"]]
        if shutil.which("node"):
            progs.append(["node", "examplebots/js/random.js"])
        for seats in ("NES", "NESW"):
            for start in range(len(progs)):
                chosen = [progs[(start + k) % len(progs)] for k in range(len(seats))]
                with self.subTest(seats=seats, bots=[p[-1] for p in chosen]):
                    bots = {}
                    try:
                        for seat, argv in zip(seats, chosen):
                            bots[seat] = Program(argv)
                        play_game3(self, bots, rng, deals=3, honest_claims=False)
                    finally:
                        for b in bots.values():
                            if b.proc.poll() is None:
                                b.close()

    def test_refusing_bot(self):
        """A bot that does not play the three-player game refuses at the handshake."""
        bot = kj.Bot("four-only", "", lambda st, d: "pass",
                     accept=lambda o: "three-player game not supported" if o.get("players") == "3" else None)
        s = kj.Session(bot)
        s.handle("klaverjas 1")
        self.assertEqual(s.handle(RULES3 % "automatic"), "refuse three-player game not supported")
        self.assertEqual(kj.Session(bot).handle("rules players=4 play_rule=amsterdams"), "ok")



if __name__ == "__main__":
    unittest.main()
