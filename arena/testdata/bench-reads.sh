#!/usr/bin/env bash
# bench-reads: the commands that read every stored deal (export, replay --verify, standings
# --recompute) over a league of DEALS deals, whole processes, alternating with an older build
# if one is given, ROUNDS rounds (BENCHMARKS.md, "The cards re-derived without a call per
# card"; issue 17, goal 3: 1,000,000 deals/s).
#
#   arena/testdata/bench-reads.sh ARENA [BASELINE_ARENA]
#
# The database is READS_DB (default /var/tmp/arena-reads-DEALS.db), made once by the scale
# test (10 bots, matches of 32 deals, binary rows through a DealWriter, as a league stores
# them) when it does not exist. Prints for each command and build the wall time (median and
# best), the CPU time (user + system, median), deals/s (median and best) and the load average
# before the series. This machine kind's speed wanders by up to 40% within minutes: only the
# builds' ratio within one run means much.
set -euo pipefail
arena=$(realpath "$1")
base=${2:+$(realpath "$2")}
rounds=${ROUNDS:-8}
deals=${DEALS:-1000000}
db=${READS_DB:-/var/tmp/arena-reads-$deals.db}
here=$(cd "$(dirname "$0")/.." && pwd) # the arena package
if [ ! -e "$db" ]; then
	echo "making $db: $deals deals (the scale test)"
	(cd "$here" && ARENA_SCALE_DEALS=$deals ARENA_SCALE_DB=$db ${GO:-go} test -run '^TestStandingsScale$' -count=1 -timeout 60m . >/dev/null)
fi
builds=("new=$arena")
[ -n "$base" ] && builds+=("base=$base")
out=$(mktemp)
trap 'rm -f "$out" "$out.err"' EXIT
TIMEFORMAT='%R %U %S'
for cmd in "export" "replay --verify" "standings --recompute"; do
	echo "$cmd, $rounds rounds, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	: >"$out"
	for _ in $(seq "$rounds"); do
		for b in "${builds[@]}"; do
			# shellcheck disable=SC2086 # cmd is the command and its flag, split on purpose
			t=$({ time "${b#*=}" $cmd --db "$db" >/dev/null 2>"$out.err"; } 2>&1) || { echo "${b%%=*}: $cmd failed:"; cat "$out.err"; exit 1; }
			echo "${b%%=*} $t" >>"$out"
		done
	done
	for b in "${builds[@]}"; do
		name=${b%%=*}
		awk -v name="$name" -v deals="$deals" 'BEGIN { n = 0 } $1 == name { wall[n] = $2; cpu[n] = $3 + $4; n++ }
			function median(a, n,   i, j, t) {
				for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
				return n % 2 ? a[(n - 1) / 2] : (a[n / 2 - 1] + a[n / 2]) / 2
			}
			END {
				w = median(wall, n); best = wall[0]; c = median(cpu, n)
				printf "  %-5s wall %.2f s (best %.2f s), CPU %.2f s, %d deals/s (best %d)\n", name, w, best, c, deals / w, deals / best
			}' "$out"
	done
done
