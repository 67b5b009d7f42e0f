# Helpers for the test suites (sourced).  A suite prints one line per
# check, "ok - what" or "not ok - what", details of a failure on lines
# starting with "#"; tests/run counts the lines.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUN_QEMU="$TOP/scripts/run-qemu"
GUEST_OUT="$TOP/build/guest"

ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; }

# diag TEXT...: detail lines for the check that follows or precedes.
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds.
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# section NAME FILE: the lines of FILE between "== NAME" and the next
# "== " header (guest commands print such headers between their parts).
# An event perf stat could not open is a line "<not supported>" in the
# output of perf 6.12; perf 7.2 prints that only when another event of
# the list opened, and else an error naming the event ("The
# sys_perf_event_open() syscall failed for event (EV): MESSAGE"): after
# such an error the section also has the 6.12 lines, for either
# separator ("<not supported>;;EV;" and "<not supported>,,EV,"), so that
# a check reads the refusal of one event the same way on both.
section() {
	awk -v want="== $1" '/^== / { on = ($0 == want); next }
		on { print }
		on && match($0, /syscall failed for event \(.*\): /) {
			ev = substr($0, RSTART + 26, RLENGTH - 29)
			print "<not supported>;;" ev ";"
			print "<not supported>,," ev ","
		}' "$2"
}

# perf_count EVENT < perf-stat-x-output: the count of EVENT in
# `perf stat -x,` output ("<not counted>" and friends print as-is).
perf_count() {
	awk -F, -v ev="$1" '$3 == ev { print $1; found = 1; exit }
		END { if (!found) print "missing" }'
}

# field FIELD EVENT < `perf stat -x';'` output: field FIELD of EVENT's
# line (1 the count, 5 the running percentage), "missing" if none.
field() {
	awk -F';' -v f="$1" -v ev="$2" '$3 == ev { print $f; found = 1; exit }
		END { if (!found) print "missing" }'
}

# not_counted_full EVENT,EVENT... < `perf stat -x';'` output: the events
# of the list not counted 100 % of the time (a count and 100.00 running),
# each after a space; nothing when all were.
not_counted_full() {
	local sec e
	sec=$(cat)
	for e in ${1//,/ }; do
		grep -Eq "^[0-9]+;[^;]*;$e;[0-9]+;100\.00;" <<<"$sec" || printf ' %s' "$e"
	done
}

# pct_between P LO HI: LO <= P <= HI (P may be a decimal).
pct_between() {
	awk -v p="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(p + 0 >= lo && p + 0 <= hi) }'
}

# is_number X: X is a non-negative integer.
is_number() { [[ $1 =~ ^[0-9]+$ ]]; }

# within_pct A B PCT: |A - B| <= PCT% of B (integers; PCT may be 0.5).
within_pct() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d; exit !(b > 0 && d * 100 <= p * b) }'
}

# json_names TABLE: the event names of perf-events-json/TABLE, perf's SBI
# firmware events (ArchStdEvent) included.
json_names() {
	python3 -c '
import json, os, sys
d = sys.argv[1]
for f in sorted(os.listdir(d)):
    if f.endswith(".json"):
        for e in json.load(open(os.path.join(d, f))):
            n = e.get("EventName") or e.get("ArchStdEvent")
            if n: print(n)' "$TOP/perf-events-json/$1"
}

# guest_run OUT PROFILE-AND-OPTIONS... -- CMD...: run a guest command,
# its output (stdout and stderr) in OUT; returns run-qemu's status.
guest_run() {
	local out=$1
	shift
	"$RUN_QEMU" "$@" >"$out" 2>&1
}

# serving_driver FILE: the driver that registered the cpu PMU in a guest
# output FILE with sections "dmesg" (its riscv-pmu lines) and "format"
# (ls of the cpu PMU's format directory): "hpm" (riscv-pmu-hpm
# registered counters, riscv-pmu-sbi none, and the format has event),
# "sbi" (riscv-pmu-sbi found its counters, riscv-pmu-hpm none, and the
# format has the firmware field), else "unknown".  (The HPM driver has
# the firmware field too where it counts firmware events.)
serving_driver() {
	local log fmt
	log=$(section dmesg "$1") fmt=$(section format "$1")
	if grep -Eq 'riscv-pmu-hpm: [0-9]+ counters' <<<"$log" &&
		! grep -Eq 'riscv-pmu-sbi: [0-9]+ firmware and [0-9]+ hardware counters' <<<"$log" &&
		grep -qx event <<<"$fmt"; then
		echo hpm
	elif grep -Eq 'riscv-pmu-sbi: [0-9]+ firmware and [0-9]+ hardware counters' <<<"$log" &&
		! grep -Eq 'riscv-pmu-hpm: [0-9]+ counters' <<<"$log" &&
		grep -qx firmware <<<"$fmt"; then
		echo sbi
	else
		echo unknown
	fi
}
