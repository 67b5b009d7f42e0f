#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Build and run the host checks of opensbi-ext; called by the Makefile.
#
#   check.sh unit|fuzz|freestanding|patch
#
# Environment: SRC (opensbi-ext), BUILD, CC, CLANG, CROSS_CC, FUZZ_SECONDS.
# Every check prints exactly one "ok - ..." or "not ok - ..." line (the
# unit test binaries print their own, one per hart model and function
# group); details of a failure follow on lines starting with "#".  The
# exit status is non-zero when any check failed.

set -u

: "${SRC:?}" "${BUILD:?}"
CC=${CC:-gcc}
CLANG=${CLANG:-clang}
CROSS_CC=${CROSS_CC:-riscv64-linux-gnu-gcc}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
WARN="-Wall -Wextra -Werror"
INC="-I$SRC/include -I$SRC/core -I$SRC/test"

failed=0
mkdir -p "$BUILD" || exit 1

# not_ok DESCRIPTION [LOGFILE]: report a failure with the log as comments.
not_ok() {
	echo "not ok - $1"
	if [ $# -gt 1 ] && [ -f "$2" ]; then
		head -n 40 "$2" | sed 's/^/# /'
	fi
	failed=1
}

# build DESCRIPTION LOG COMMAND...: run a compiler, report only failures.
build() {
	desc=$1 log=$2
	shift 2
	if ! "$@" >"$log" 2>&1; then
		not_ok "$desc" "$log"
		return 1
	fi
	return 0
}

run_unit() {
	for xlen in 64 32; do
		bin=$BUILD/test-xlen$xlen
		build "build unit tests, XLEN $xlen ($CC $WARN)" \
			"$bin.build.log" \
			$CC -O1 -g $WARN $INC -DHPM_XLEN=$xlen -o "$bin" \
			"$SRC/test/test_hpm_core.c" "$SRC/test/hart_model.c" \
			"$SRC/core/hpm_core.c" || continue
		"$bin" >"$bin.out" 2>&1
		status=$?
		cat "$bin.out"
		if grep -q '^not ok' "$bin.out"; then
			failed=1
		elif [ $status -ne 0 ]; then
			not_ok "unit tests, XLEN $xlen: exit status $status" \
				"$bin.out"
		fi
	done
}

# The core must build with no C library at all, as inside OpenSBI.
run_freestanding() {
	for xlen in 64 32; do
		obj=$BUILD/hpm_core-host$xlen.o
		build "core builds freestanding, host $CC, XLEN $xlen" \
			"$obj.log" \
			$CC -c -O2 $WARN -ffreestanding -nostdinc \
			-I"$SRC/include" -I"$SRC/core" -DHPM_XLEN=$xlen \
			-o "$obj" "$SRC/core/hpm_core.c" &&
			echo "ok - core builds freestanding, host $CC, XLEN $xlen"
	done
	if ! command -v "$CROSS_CC" >/dev/null 2>&1; then
		echo "ok - core builds for RISC-V # SKIP no $CROSS_CC"
		return
	fi
	for arch in rv64imac_zicsr:lp64 rv32imac_zicsr:ilp32; do
		obj=$BUILD/hpm_core-${arch%%:*}.o
		build "core builds for ${arch%%_*} ($CROSS_CC)" "$obj.log" \
			"$CROSS_CC" -c -O2 $WARN -ffreestanding -nostdinc \
			-march="${arch%%:*}" -mabi="${arch##*:}" \
			-mcmodel=medany \
			-I"$SRC/include" -I"$SRC/core" \
			-o "$obj" "$SRC/core/hpm_core.c" &&
			echo "ok - core builds for ${arch%%_*} ($CROSS_CC)"
	done
}

run_fuzz() {
	# Both XLENs share the time asked for, running side by side.
	secs=$((FUZZ_SECONDS / 2))
	[ $secs -ge 1 ] || secs=1
	for xlen in 64 32; do
		bin=$BUILD/fuzz-xlen$xlen
		eval "fuzz_pid_$xlen="
		build "build fuzzer, XLEN $xlen ($CLANG -fsanitize=fuzzer,address,undefined)" \
			"$bin.build.log" \
			$CLANG -O1 -g $WARN $INC -DHPM_XLEN=$xlen \
			-fsanitize=fuzzer,address,undefined \
			-fno-sanitize-recover=all -o "$bin" \
			"$SRC/test/fuzz_hpm_core.c" "$SRC/test/hart_model.c" \
			"$SRC/core/hpm_core.c" || continue
		corpus=$BUILD/fuzz-corpus-xlen$xlen
		artifacts=$BUILD/fuzz-artifacts-xlen$xlen
		mkdir -p "$corpus" "$artifacts"
		"$bin" -max_total_time=$secs -max_len=512 \
			-print_final_stats=1 -artifact_prefix="$artifacts/" \
			"$corpus" >"$bin.log" 2>&1 &
		eval "fuzz_pid_$xlen=$!"
	done
	for xlen in 64 32; do
		bin=$BUILD/fuzz-xlen$xlen
		eval "pid=\$fuzz_pid_$xlen"
		[ -n "$pid" ] || continue
		if wait "$pid"; then
			runs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
				"$bin.log" | tail -n 1)
			echo "ok - fuzz XLEN $xlen: invariants held for ${runs:-?} inputs in $secs s"
		else
			echo "not ok - fuzz XLEN $xlen: invariant broken or crash"
			grep -E 'invariant|ERROR|SUMMARY|Test unit written' \
				"$bin.log" | head -n 20 | sed 's/^/# /'
			failed=1
		fi
	done
}

# The committed OpenSBI patch must be what the script makes of the
# current core, ABI header and glue.
run_patch() {
	if "$SRC/scripts/gen-opensbi-patch" --check >"$BUILD/patch.log" 2>&1
	then
		echo "ok - opensbi-patches are what scripts/gen-opensbi-patch makes of core, include and glue"
	else
		not_ok "opensbi-patches are stale: run make -C opensbi-ext patches" \
			"$BUILD/patch.log"
	fi
}

for what in "$@"; do
	case $what in
	unit) run_unit ;;
	freestanding) run_freestanding ;;
	fuzz) run_fuzz ;;
	patch) run_patch ;;
	*) not_ok "unknown check '$what'" ;;
	esac
done
exit $failed
