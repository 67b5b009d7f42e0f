#!/usr/bin/env bash
# The real CVA6 counts the table's events (issue 31): the Verilated CVA6
# bcb0f7de (scripts/build-rtl) boots OpenSBI v1.9 with the HPM patch
# (scripts/run-rtl) and runs the counting program of tests/rtl-cva6/
# (README.md there): GET_INFO and widths as the RTL has them, every event
# of perf-events-json/openhwgroup/cva6 programmed through the HPM
# extension, loads, stores, branches, calls, returns, integer and FP
# instructions, ecalls (exceptions and exception returns) and cold
# I-cache lines (misses) each counted exactly (n iterations minus a
# measured 0-iteration run), and a selector
# mhpmevent cannot hold (0x25: it keeps 5 bits) refused with
# INVALID_PARAM.  One boot of about 4M cycles (3.2M of them OpenSBI's
# boot): 2 to 4 minutes of one core.  Each of the program's lines is a
# check; the suite adds that the run ended with the program's status.
# Before it, tests/rtl-cva6/srst.S checks the other way a program ends
# a run, an SBI system reset, with its status (a second boot).  After
# it, CVA6 v4.2.0 (the paper's fixed counters) boots the same firmware
# and runs tests/rtl-cva6/counts-v42.c (a third boot).
#
# The model is deterministic: the same model, firmware build, program
# and run-rtl give the same run, cycle for cycle.  A run's log is kept
# in the cache under the hash of those inputs, and a later run of the
# suite with the same inputs reports that log's checks again instead of
# simulating for minutes (as linux-series.sh reuses its verdicts);
# HPM_RTL_RERUN=1 simulates anyway.
. "$(dirname "$0")/../lib.sh"
elf="$TOP/build/rtl-cva6/rtl-cva6.elf"
log="$TOP/build/rtl-cva6/last-run.log"
if [ ! -x "$TOP/build/rtl/cva6" ]; then
	not_ok "the CVA6 model is built (make build with CVA6_TARBALL and SPIKE_TARBALL: shared/cva6/README.md; .ci/run sets them)"
	exit 0
fi
if [ ! -f "$elf" ] || [ ! -f "$TOP/build/rtl-cva6/rtl-srst.elf" ]; then
	not_ok "the RTL programs are built (make build)"
	exit 0
fi
# run-rtl's refusals (no simulation)
refuses() {	# refuses WANT ARGS...: run-rtl ARGS exits 1 saying WANT
	local out rc
	out=$("$TOP/scripts/run-rtl" "${@:2}" 2>&1)
	rc=$?
	[ "$rc" = 1 ] && grep -q "$1" <<<"$out"
}
check "run-rtl refuses a core it has no model of (status 1)" \
	refuses 'cva6 or cva6-v4.2' --core cva6-v5 --kernel "$elf"
check "run-rtl refuses a firmware it has no RTL build of (status 1)" \
	refuses 'hpm or opensbi' --firmware debian --kernel "$elf"

. "$TOP/scripts/lib.sh"
# fwbuild FIRMWARE: its build directory, whose libraries are the
# firmware (fw_payload.elf itself is relinked with whatever program
# run-rtl ran last)
fwbuild() { awk -v f="$1" '$1 == f { print $3 }' "$TOP/build/firmware/rtl-cva6.trees" 2>/dev/null; }
# rtl_run CORE NAME ELF LOG [RUN-RTL ARGS...]: run ELF on CORE's model into LOG
# (its status on the last line, "# run-rtl status N"), or report the kept
# log of an earlier run with the same inputs: the model, the program as
# the model loads it (its bytes and its tohost: its ELF holds the build
# directory's path in its debug information, which differs from clone
# to clone and changes nothing the model runs), the firmware, run-rtl,
# this suite and the model's device tree.  Sets rc.
rtl_run() {
	local core=$1 name=$2 elf=$3 log=$4 bin key kept fw=hpm a prev= fwb
	shift 4
	for a in "$@"; do
		[ "$prev" != --firmware ] || fw=$a
		prev=$a
	done
	fwb=$(fwbuild "$fw")
	bin=$(mktemp)
	riscv64-linux-gnu-objcopy -O binary "$elf" "$bin"
	key=$( { sha256sum <"$TOP/build/rtl/$core"; sha256sum <"$bin"
		riscv64-linux-gnu-nm "$elf" | grep -w tohost
		cat "$fwb/lib/libsbi.a" "$fwb/platform/generic/lib/libplatsbi.a" \
			"$fwb/lib/utils/libsbiutils.a" 2>/dev/null | sha256sum
		sha256sum <"$TOP/build/rtl/$core.dtb"
		sha256sum <"$TOP/scripts/run-rtl"; sha256sum <"$0"; echo "$*"; } |
		sha256sum | cut -c1-16)
	rm -f "$bin"
	kept="$HPM_CACHE/rtl/runs/$name-$key.log"
	if [ -f "$kept" ] && [ "${HPM_RTL_RERUN:-0}" != 1 ]; then
		cp "$kept" "$log"
		rc=$(sed -n 's/^# run-rtl status \([0-9]*\)$/\1/p' "$log")
		diag "$name: the same model, firmware, program and run-rtl ran before: its log's checks (HPM_RTL_RERUN=1 simulates again)"
		return
	fi
	# One model at a time: it takes a core and 2.5 GB for minutes.
	exec 9>"$TOP/build/rtl/.run-lock"
	flock 9
	# (OpenSBI ends its lines with \r\n)
	"$TOP/scripts/run-rtl" --core "$core" --firmware hpm --kernel "$elf" \
		--timeout "${HPM_RTL_TIMEOUT:-1200}" "$@" 2>&1 | tr -d '\r' >"$log"
	rc=${PIPESTATUS[0]}
	exec 9>&-
	echo "# run-rtl status $rc" >>"$log"
	# a run that ended (not a timeout or a missing build) is kept
	if [ "$rc" != 124 ] && grep -q '^run-rtl: .* ended after' "$log"; then
		mkdir -p "${kept%/*}" && cp "$log" "$kept.new" && mv "$kept.new" "$kept"
	fi
}

# program_report LOG PREFIX: the counting program's checks of LOG as they
# are (PREFIX after "ok - "), everything else as detail lines.
program_report() {
	grep -E '^(not )?ok - ' "$1" | sed "s/^\(\(not \)\{0,1\}ok - \)/\1$2/"
	grep -vE '^(not )?ok - ' "$1" | grep -E '^# |^run-rtl' | sed 's/^# //; s/^/# /'
}
# program_ended LOG PREFIX: every check the program counted printed its
# line (the console lost none), and it exited with status 0 ($rc) having
# passed them all.
program_ended() {
	local passed lines good=0
	passed=$(sed -n 's/^# \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$1")
	lines=$(grep -cE '^(not )?ok - ' "$1")
	[ -z "$passed" ] || [ "$lines" = $((${passed% *} + ${passed#* })) ] ||
		not_ok "$2the console shows all of the program's checks ($lines lines for ${passed% *} passed and ${passed#* } failed)"
	[ "$rc" = 0 ] && [ -n "$passed" ] && [ "${passed#* }" = 0 ] && good=1
	check "$2the program ran to its end and exited with status 0 (run-rtl: $rc; passed, failed: ${passed:-none})" \
		[ "$good" = 1 ]
}
# srst_line LOG PREFIX: the SBI reset program's console line came out
# before the run ended.
srst_line() {
	check "$2the program's SBI debug console line is printed before the run ends" \
		grep -qx 'rtl-srst: written through the SBI debug console' "$1"
}

# A program with tohost and fromhost (the counting program): OpenSBI's
# HTIF reset device writes them, the ones the run ends on (run-rtl
# --print-dtb shows the device tree it links OpenSBI with).
syms=$(riscv64-linux-gnu-nm "$elf" | awk '$3 == "tohost" || $3 == "fromhost" { print $3, $1 }')
th=$(awk '$1 == "tohost" { print $2 }' <<<"$syms") fh=$(awk '$1 == "fromhost" { print $2 }' <<<"$syms")
node=$("$TOP/scripts/run-rtl" --kernel "$elf" --print-dtb 2>&1 | sed -n '/^\thtif {/,/};/p')
want=$(printf 'reg = <0x%02x 0x%x 0x00 0x08 0x%02x 0x%x 0x00 0x08>;' \
	$((0x$fh >> 32)) $((0x$fh & 0xffffffff)) $((0x$th >> 32)) $((0x$th & 0xffffffff)))
if [ -n "$th" ] && [ -n "$fh" ] && grep -qF "$want" <<<"$node" &&
	grep -q 'compatible = "ucb,htif0";' <<<"$node"; then
	ok "run-rtl gives OpenSBI an HTIF reset device on the program's fromhost and tohost ($fh, $th)"
else
	not_ok "run-rtl gives OpenSBI an HTIF reset device on the program's fromhost and tohost"
	diag "want: $want" "$node"
fi

# A program built like tests/sbi-conformance (no tohost) ends the run by
# an SBI system reset for a failure: run-rtl ends when OpenSBI resets and
# exits with status 1, after the program's console line.  Before
# OpenSBI had a reset device there (an HTIF node in its device tree) the
# run went on to --max-cycles (status 124); without opensbi-patches/0003
# it exited 0, a success.
srst_log="$TOP/build/rtl-cva6/srst-run.log"
start=$SECONDS
rtl_run cva6 cva6-hpm-srst "$TOP/build/rtl-cva6/rtl-srst.elf" "$srst_log" --max-cycles 8000000
diag "$((SECONDS - start)) s for the SBI reset run (log: build/rtl-cva6/srst-run.log)"
check "a program's SBI system reset (for a failure) ends the RTL run with status 1 (run-rtl: $rc)" \
	[ "$rc" = 1 ]
srst_line "$srst_log" ""

start=$SECONDS
rtl_run cva6 cva6-hpm "$elf" "$log"
program_report "$log" ""
diag "$((SECONDS - start)) s for the run (log: build/rtl-cva6/last-run.log)"
grep -q '^Boot HART ID *: 0$' "$log"
check "OpenSBI boots on the CVA6 with its boot hart's ID (0, not 65536)" [ $? = 0 ]
program_ended "$log" ""

# CVA6 v4.2.0, the paper's generation: fourteen hard-wired counters, no
# mhpmevent, no mcountinhibit, no counter S-mode reads.  OpenSBI v1.9
# hangs at boot there without opensbi-patches/0004; the HPM extension
# finds the counters without mhpmevent and reads them for S-mode; the
# program (tests/rtl-cva6/counts-v42.c) counts stores, loads, branches,
# calls, returns and ecalls exactly by v4.2.0's definitions.
v42_elf="$TOP/build/rtl-cva6/rtl-cva6-v42.elf"
v42_log="$TOP/build/rtl-cva6/last-run-v42.log"
if [ ! -x "$TOP/build/rtl/cva6-v4.2" ]; then
	not_ok "the CVA6 v4.2.0 model is built (make build with CVA6_TARBALL, CVA6_V42_TARBALL and SPIKE_TARBALL; .ci/run sets them)"
	exit 0
fi
if [ ! -f "$v42_elf" ]; then
	not_ok "the v4.2.0 counting program is built (make build)"
	exit 0
fi
# OpenSBI v1.9 with only the upstream fixes (run-rtl --firmware opensbi)
# boots there too, with 0004: without it, it hung at boot (a trap on the
# first mhpmevent write, before its console is up) until --max-cycles.
v42_srst_log="$TOP/build/rtl-cva6/srst-run-v42.log"
rtl_run cva6-v4.2 cva6-v42-opensbi-srst "$TOP/build/rtl-cva6/rtl-srst.elf" "$v42_srst_log" \
	--firmware opensbi --max-cycles 8000000
check "v4.2.0: OpenSBI v1.9 with the upstream fixes boots and ends on the program's SBI reset for a failure (run-rtl: $rc)" \
	[ "$rc" = 1 ]
srst_line "$v42_srst_log" "v4.2.0: "

start=$SECONDS
rtl_run cva6-v4.2 cva6-v42-hpm "$v42_elf" "$v42_log"
program_report "$v42_log" "v4.2.0: "
diag "$((SECONDS - start)) s for the v4.2.0 run (log: build/rtl-cva6/last-run-v42.log)"
grep -q '^Boot HART ID *: 0$' "$v42_log"
check "OpenSBI boots on CVA6 v4.2.0 (its counters have no mhpmevent)" [ $? = 0 ]
program_ended "$v42_log" "v4.2.0: "
