#!/usr/bin/env bash
# random.sh - a Klaverjas bot in bash: answers every request with a random legal choice
# (the three-player game's discard too: two different random cards of the hand).
# Stateless: each request carries everything needed (spec.md section 5). Try it by hand:
#   printf 'klaverjas 1\nbid 1000 7C,JH C D H S pass\n' | bash examplebots/shell/random.sh
set -f  # no globbing of the words of a line
while read -r kind rest; do
  set -- $rest
  case $kind in
    klaverjas) case " $rest " in
                 *" 1 "*) echo "hello 1 random-sh examplebots" ;;
                 *) echo "random.sh speaks protocol 1, the arena offers: $rest" >&2; exit 1 ;;
               esac ;;
    rules)     echo ok ;;
    bid)       shift 2; legal=("$@"); echo "${legal[RANDOM % ${#legal[@]}]}" ;;  # bid <ms> <hand> <legal...>
    play)      shift 5; legal=("$@"); echo "${legal[RANDOM % ${#legal[@]}]}" ;;  # play <ms> <trump> <leader> <trick> <hand> <legal...>
    claim)     echo 0 ;;  # claims no roem (always allowed, never penalised)
    discard)   IFS=, read -ra hand <<< "$4"  # discard <ms> <trump> <skart> <hand> (three players)
               i=$((RANDOM % ${#hand[@]})); j=$((RANDOM % (${#hand[@]} - 1)))
               ((j >= i)) && j=$((j + 1))  # a second card, never the first
               echo "${hand[i]} ${hand[j]}" ;;
    quit)      exit 0 ;;
  esac  # every other line is an event: nothing to answer
done
