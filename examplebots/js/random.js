// random.js - a Klaverjas bot in JavaScript (Node 20, no dependencies): a random legal answer
// to every request, in the four- and the three-player game (a discard: two different random
// cards of the hand). Run: node examplebots/js/random.js
"use strict";
const readline = require("node:readline");

const pick = (list) => list[Math.floor(Math.random() * list.length)];
const rl = readline.createInterface({ input: process.stdin, terminal: false });

rl.on("line", (line) => {
  const w = line.trim().split(/\s+/);
  let reply = null;
  switch (w[0]) {
    case "klaverjas": // klaverjas <versions...>
      if (!w.slice(1).includes("1")) {
        console.error("random.js speaks protocol 1, the arena offers: " + w.slice(1).join(" "));
        process.exit(1);
      }
      reply = "hello 1 random-js examplebots";
      break;
    case "rules": reply = "ok"; break;                    // rules <option>=<value> ...
    case "bid": reply = pick(w.slice(3)); break;          // bid <ms> <hand> <legal bids...>
    case "play": reply = pick(w.slice(6)); break;         // play <ms> <trump> <leader> <trick> <hand> <legal...>
    case "claim": reply = "0"; break;                     // claim <ms> <trump> <trick>
    case "discard": {                                     // discard <ms> <trump> <skart> <hand> (three players)
      const hand = w[4].split(",");
      const i = Math.floor(Math.random() * hand.length);
      const rest = hand.filter((_, k) => k !== i);         // a second card, different from the first
      reply = hand[i] + " " + pick(rest);
      break;
    }
    case "quit": rl.close(); process.exit(0);
    default: return; // an event: nothing to answer
  }
  process.stdout.write(reply + "\n"); // Node does not buffer stdout: the line goes out now
});
rl.on("close", () => process.exit(0));
