#!/usr/bin/env bash
# bench-league: an `arena league` against an `arena match` of the same bots and as many deals,
# whole processes, alternating, ROUNDS rounds (BENCHMARKS.md, "Leagues and the store").
#
#   arena/testdata/bench-league.sh ARENA [BASELINE_ARENA]
#
# ARENA (and BASELINE_ARENA, an older build to compare with in the same run) play with four
# copies of the C bot of firstbot.c, --sandbox off (the bots are trivial and trusted: the
# figures are the arena's own cost), the database on disk in $BENCH_DIR (default: a fresh
# directory under /var/tmp). GAMES games per pairing of the round-robin league (6 pairings, 16
# deals a game: 96*GAMES deals), the match plays the same number of deals. The baseline plays
# with keep_bots = true. The league runs as
# it is by default (processes kept across matches) and with keep_bots = false (a fresh process
# per bot and match). Prints deals/s for each run, the ratios league/match at concurrency 1 and
# 2 (concurrency 2 against one match), the ceiling for concurrency 2 (two matches of half the
# deals each at once, against one, and the league at concurrency 2 against it), fsyncs per deal (perf's syscall count, a separate run;
# strace if there is no perf, which slows the arena and so groups fewer deals per commit) and
# the load average before each round.
set -euo pipefail
arena=$(realpath "$1")
base=${2:+$(realpath "$2")}
rounds=${ROUNDS:-3}
games=${GAMES:-80}
here=$(cd "$(dirname "$0")" && pwd)
dir=${BENCH_DIR:-$(mktemp -d /var/tmp/bench-league.XXXXXX)}
mkdir -p "$dir"
cc -O2 -o "$dir/firstbot" "$here/firstbot.c"
deals=$((96 * games))
league="$dir/league.toml"
{
	printf 'name = "bench"\ngames = %d\nseed = 1\nsandbox = "off"\n' "$games"
	for i in 1 2 3 4; do printf '[[bot]]\nname = "c%d"\ncmd = ["%s"]\n' "$i" "$dir/firstbot"; done
} >"$league"
fresh="$dir/fresh.toml"
sed 's/^sandbox = "off"$/sandbox = "off"\nkeep_bots = false/' "$league" >"$fresh"
keep="$dir/keep.toml" # for the baseline, which may be a build that did not keep processes by default
sed 's/^sandbox = "off"$/sandbox = "off"\nkeep_bots = true/' "$league" >"$keep"

now() { date +%s.%N; }
rate() { awk -v d="$deals" -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", d / (b - a) }'; }

# run NAME COMMAND...: times a whole process, prints and returns (in $r) its deals/s.
run() {
	local name=$1
	shift
	local t0 t1
	t0=$(now)
	"$@" >"$dir/$name.out" 2>&1 || { echo "$name failed:"; cat "$dir/$name.out"; exit 1; }
	t1=$(now)
	r=$(rate "$t0" "$t1")
	printf '  %-16s %6s deals/s\n' "$name" "$r"
}

match() { "$1" match --sandbox off --games $((deals / 32)) --seed 7 "$dir/firstbot" "$dir/firstbot"; }
# two: two matches of half the deals each at once, what two tables at concurrency 2 can reach.
two() {
	local m="$1 match --sandbox off --games $((deals / 64)) $dir/firstbot $dir/firstbot"
	$m --seed 7 >"$dir/two-a.out" 2>&1 & $m --seed 8 >"$dir/two-b.out" 2>&1
	wait $!
}
league() { rm -f "$dir/$2.db"; "$1" league --db "$dir/$2.db" --concurrency "$3" "${4:-$league}"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; }

echo "bench-league: $deals deals a run, $rounds rounds, database in $dir"
lscpu | grep 'Model name' || true
for round in $(seq "$rounds"); do
	echo "round $round, $(uptime | sed 's/.*load/load/')"
	run match match "$arena"; m=$r
	run two-matches two "$arena"; t=$r
	run league-c1 league "$arena" new 1; l1=$r
	run league-c2 league "$arena" new 2; l2=$r
	run fresh-c1 league "$arena" fresh 1 "$fresh"; f1=$r
	run fresh-c2 league "$arena" fresh 2 "$fresh"; f2=$r
	line="  league/match: c1 $(ratio "$l1" "$m")x, c2 $(ratio "$l2" "$m")x (two matches at once: $(ratio "$t" "$m")x; the league at c2 against them: $(ratio "$l2" "$t")x); keep_bots = false c1 $(ratio "$f1" "$m")x, c2 $(ratio "$f2" "$m")x"
	if [ -n "$base" ]; then
		run base-league-c1 league "$base" base 1 "$keep"; b1=$r
		run base-league-c2 league "$base" base 2 "$keep"; b2=$r
		line="$line; baseline (keep_bots = true) c1 $(ratio "$b1" "$m")x, c2 $(ratio "$b2" "$m")x"
	fi
	echo "$line"
done

# fsyncs: count fsync and fdatasync calls of a separate run at concurrency 1.
fsyncs() {
	rm -f "$dir/sync.db"
	if command -v perf >/dev/null && perf stat -e syscalls:sys_enter_fdatasync true >/dev/null 2>&1; then
		perf stat -x, -e syscalls:sys_enter_fdatasync -e syscalls:sys_enter_fsync -o "$dir/sync.txt" \
			"$1" league --db "$dir/sync.db" --concurrency 1 "$2" >/dev/null 2>&1
		awk -F, '{ s += $1 } END { print s+0 }' "$dir/sync.txt"
	else
		strace -f -c -e trace=fsync,fdatasync -o "$dir/sync.txt" "$1" league --db "$dir/sync.db" --concurrency 1 "$2" >/dev/null 2>&1
		awk '$NF=="fsync" || $NF=="fdatasync" { s += $4 } END { print s+0 }' "$dir/sync.txt"
	fi
}
for who in arena fresh ${base:+base}; do
	case $who in
	arena) n=$(fsyncs "$arena" "$league") ;;
	fresh) n=$(fsyncs "$arena" "$fresh") ;;
	base) n=$(fsyncs "$base" "$keep") ;;
	esac
	echo "fsyncs per deal ($who, concurrency 1): $(ratio "$n" "$deals") ($n for $deals deals)"
done
ls -l "$dir"/new.db ${base:+"$dir"/base.db} | awk -v d="$deals" '{ printf "file %s: %d bytes, %.0f bytes per deal\n", $NF, $5, $5 / d }'
