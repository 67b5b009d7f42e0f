#!/usr/bin/env bash
# Run the HPM SBI conformance program on OpenSBI v1.9 with the HPM patch
# (scripts/build-opensbi) for the machine profiles virt, u74, cva6 and
# cva6-fixed (or those named), RV64 and RV32, four harts with -icount and
# one without, and on virt with Sscofpmf and/or Smcntrpmf turned on (with
# both: virt-sscofpmf's CPU).  One line per run, "ok - ..." or
# "not ok - ..." (the failing checks follow as "#" lines); besides the
# program's own verdict (QEMU's exit status) each run must report the
# profile's counters (GET_INFO) and ids (BASE get_m*id).
#
#   tests/sbi-conformance/run.sh [-v] [PROFILE...]
#     (default: virt u74 cva6 cva6-fixed)
#     -v  print every check of every run
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
verbose=
[ "${1:-}" = -v ] && { verbose=1; shift; }
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(virt u74 cva6 cva6-fixed)

"$top/scripts/build-opensbi" || exit 1
make -s -C "$here" || exit 1
for x in 64 32; do
	for f in "$top/build/firmware/opensbi-hpm-rv$x.bin" \
		 "$top/build/sbi-conformance/sbi-conformance-rv$x.bin"; do
		[ -f "$f" ] || { echo "not ok - $f was not built"; exit 1; }
	done
done

# expected GET_INFO mask from a PMU_COUNTERS range like "3-18"
info_mask() {
	local lo=${1%-*} hi=${1#*-} m=7 i
	for ((i = lo; i <= hi; i++)); do m=$((m | (1 << i))); done
	printf '0x%x' "$m"
}

out=$(mktemp)
trap 'rm -f "$out"' EXIT

# run_one PROFILE XLEN SMP ICOUNT(0/1) [EXT...]: one line of verdict.
# EXT: sscofpmf, smcntrpmf: QEMU CPU properties turned on for the run.
run_one() {
	local p=$1 x=$2 smp=$3 ic=$4 name rc info ids marchid want_ids np nf
	local inhibit
	local cpu props="" e exts got_exts want_exts
	shift 4
	exts=("$@")
	local args=(--profile "$p" --firmware hpm --smp "$smp" --timeout 60
		    --kernel "$top/build/sbi-conformance/sbi-conformance-rv$x.bin")
	[ "$x" = 32 ] && args+=(--rv32)
	[ "$ic" = 1 ] && args+=(--icount)
	name="$p rv$x smp$smp"
	[ "$ic" = 1 ] && name+=" icount"
	for e in "${exts[@]}"; do
		props+=",$e=true"
		name+=" $e"
	done
	cpu=$QEMU_CPU64
	[ "$x" = 32 ] && cpu=$QEMU_CPU32
	if [ -n "$props" ]; then
		# QEMU takes the last -cpu: the profile's plus the extensions
		HPM_QEMU_EXTRA="-cpu $cpu$props" \
			"$top/scripts/run-qemu" "${args[@]}" >"$out" 2>&1
	else
		"$top/scripts/run-qemu" "${args[@]}" >"$out" 2>&1
	fi
	rc=$?
	# what the program found (scountovf, the device tree) must be what
	# QEMU was asked for (the profile's CPU, e.g. virt-sscofpmf's, and
	# EXT), or its extension checks would test the wrong case
	got_exts=$(sed -n 's/^# extensions: sscofpmf \([01]\) smcntrpmf \([01]\) .*/\1 \2/p' "$out")
	want_exts=
	for e in sscofpmf smcntrpmf; do
		case ",$cpu$props," in *",$e=true,"*) want_exts+=" 1" ;; *) want_exts+=" 0" ;; esac
	done
	want_exts=${want_exts# }
	[ -n "$verbose" ] && sed "s/^/    /" "$out"
	info=$(sed -n 's/^# GET_INFO \(0x[0-9a-f]*\):.*/\1/p' "$out")
	inhibit=$(sed -n 's/^# mcountinhibit: //p' "$out")
	ids=$(sed -n 's/.*mvendorid \(0x[0-9a-f]*\) marchid \(0x[0-9a-f]*\) mimpid \(0x[0-9a-f]*\).*/\1 \2 \3/p' "$out")
	marchid=$EXPECT_MARCHID
	# an RV32 marchid is 32 bits: the U74 id keeps its top (commercial) bit
	[ "$x" = 32 ] && [ "$p" = u74 ] && marchid=0x80000007
	want_ids="$EXPECT_MVENDORID $marchid $EXPECT_MIMPID"
	np=$(grep -c '^ok - ' "$out")
	nf=$(grep -c '^not ok - ' "$out")
	# OpenSBI powers off with status 0 whatever the reset reason: the
	# program's own last line says that it ran to the end.
	if [ "$rc" = 0 ] && [ "$nf" = 0 ] && [ "$np" -gt 0 ] &&
	   grep -qx "# $np passed, 0 failed" "$out" &&
	   [ "$info" = "$want_info" ] && [ "$ids" = "$want_ids" ] &&
	   [ "$inhibit" = "$MCOUNTINHIBIT" ] &&
	   [ "$got_exts" = "$want_exts" ]; then
		echo "ok - $name: $np checks passed"
		return
	fi
	failed=1
	echo "not ok - $name: exit $rc, $np passed, $nf failed"
	[ "$info" = "$want_info" ] || echo "# GET_INFO '$info', profile wants $want_info"
	[ "$ids" = "$want_ids" ] || echo "# ids '$ids', profile wants $want_ids"
	[ "$inhibit" = "$MCOUNTINHIBIT" ] ||
		echo "# mcountinhibit '$inhibit', profile wants $MCOUNTINHIBIT"
	[ "$got_exts" = "$want_exts" ] ||
		echo "# sscofpmf/smcntrpmf found '$got_exts', QEMU was given '$want_exts'"
	grep -q "^# [0-9]* passed, [0-9]* failed" "$out" ||
		echo "# the program did not reach its summary line"
	grep -E '^not ok - |unhandled trap|^run-qemu: ' "$out" | sed 's/^/# /'
}

failed=0
for p in "${profiles[@]}"; do
	conf="$top/qemu-config/$p.conf"
	[ -f "$conf" ] || { echo "not ok - no profile $p"; failed=1; continue; }
	# a profile without mcountinhibit says so (priv_spec=v1.10.0)
	MCOUNTINHIBIT=present
	# shellcheck source=/dev/null
	. "$conf"
	want_info=$(info_mask "$PMU_COUNTERS")
	# Four harts under -icount (every multi-hart check, exact counts)
	# and one hart without it (counters driven by host time), each for
	# RV64 and RV32: every check of the program runs on every profile
	# and XLEN, with and without -icount, on one hart and on several.
	for x in 64 32; do
		run_one "$p" "$x" 4 1
		run_one "$p" "$x" 1 0
	done
	# The profiles have neither Sscofpmf nor Smcntrpmf: runs with them
	# for MINH, GET/SET_MEVENTH (RV32) and GET/SET_CTRCFG, each alone and
	# both, with -icount (exact counts) and one without.  Four harts here
	# too: under -icount QEMU runs the harts in turn, each for a share of
	# the time to the next timer, and with two harts the program's
	# waiting hart spins twice as long per turn (a run took 2 to 3.5 s
	# on two harts, 0.7 to 1.2 s on four).
	if [ "$p" = virt ]; then
		for x in 64 32; do
			run_one "$p" "$x" 4 1 sscofpmf
			run_one "$p" "$x" 4 1 smcntrpmf
			run_one "$p" "$x" 4 1 sscofpmf smcntrpmf
			run_one "$p" "$x" 1 0 sscofpmf smcntrpmf
		done
	fi
done
exit "$failed"
