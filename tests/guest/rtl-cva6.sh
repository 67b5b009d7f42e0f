#!/usr/bin/env bash
# The real CVA6 counts the table's events (issue 31): the Verilated CVA6
# bcb0f7de (scripts/build-rtl) boots OpenSBI v1.9 with the HPM patch
# (scripts/run-rtl) and runs the counting program of tests/rtl-cva6/
# (README.md there): GET_INFO and widths as the RTL has them, every event
# of perf-events-json/openhwgroup/cva6 programmed through the HPM
# extension, loads, stores, branches, calls, returns, integer and FP
# instructions and ecalls (exceptions and exception returns) each counted
# exactly (n iterations minus a measured 0-iteration run), and a selector
# mhpmevent cannot hold (0x25: it keeps 5 bits) refused with
# INVALID_PARAM.  One boot of about 5M cycles (3.2M of them OpenSBI's
# boot): 2 to 4 minutes of one core.  Each of the program's lines is a
# check; the suite adds that the run ended with the program's status.
. "$(dirname "$0")/../lib.sh"
elf="$TOP/build/rtl-cva6/rtl-cva6.elf"
log="$TOP/build/rtl-cva6/last-run.log"
if [ ! -x "$TOP/build/rtl/cva6" ]; then
	not_ok "the CVA6 model is built (make build with CVA6_TARBALL and SPIKE_TARBALL: shared/cva6/README.md; .ci/run sets them)"
	exit 0
fi
if [ ! -f "$elf" ]; then
	not_ok "the RTL counting program is built (make build)"
	exit 0
fi
# One model at a time: it takes a core and 2.5 GB for minutes.
exec 9>"$TOP/build/rtl/.run-lock"
flock 9
start=$SECONDS
"$TOP/scripts/run-rtl" --core cva6 --firmware hpm --kernel "$elf" \
	--timeout "${HPM_RTL_TIMEOUT:-1200}" >"$log" 2>&1
rc=$?
# The program's checks as they are, everything else as detail lines.
grep -E '^(not )?ok - ' "$log"
grep -vE '^(not )?ok - ' "$log" | grep -E '^# |^run-rtl' | sed 's/^# //; s/^/# /'
diag "$((SECONDS - start)) s for the run (log: build/rtl-cva6/last-run.log)"
grep -q '^Boot HART ID *: 0$' "$log"
check "OpenSBI boots on the CVA6 with its boot hart's ID (0, not 65536)" [ $? = 0 ]
passed=$(sed -n 's/^# \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$log")
good=0
[ "$rc" = 0 ] && [ -n "$passed" ] && [ "${passed#* }" = 0 ] && good=1
check "the program ran to its end and exited with status 0 (run-rtl: $rc; passed, failed: ${passed:-none})" \
	[ "$good" = 1 ]
