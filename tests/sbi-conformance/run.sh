#!/usr/bin/env bash
# Run the HPM SBI conformance program on the project's test firmware
# (opensbi-ext/firmware) for every machine profile, RV64 and RV32, one
# and four harts, with and without -icount.  One line per run, "ok - ..."
# or "not ok - ..." (the failing checks follow as "#" lines); besides the
# program's own verdict (QEMU's exit status) each run must report the
# profile's counters (GET_INFO) and ids (BASE get_m*id).
#
#   tests/sbi-conformance/run.sh [-v] [PROFILE...]   (default: all)
#     -v  print every check of every run
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
verbose=
[ "${1:-}" = -v ] && { verbose=1; shift; }
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(virt u74 cva6)

make -s -C "$top/opensbi-ext/firmware" || exit 1
make -s -C "$here" || exit 1
for x in 64 32; do
	for f in "$top/build/firmware/hpmfw-rv$x.bin" \
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
for p in "${profiles[@]}"; do
	conf="$top/qemu-config/$p.conf"
	[ -f "$conf" ] || { echo "not ok - no profile $p"; continue; }
	(
	# shellcheck source=/dev/null
	. "$conf"
	want_info=$(info_mask "$PMU_COUNTERS")
	for x in 64 32; do
		for smp in 1 4; do
			for ic in "" --icount; do
				name="$p rv$x smp$smp${ic:+ icount}"
				args=(--profile "$p" --firmware hpm --smp "$smp"
				      --timeout 60
				      --kernel "$top/build/sbi-conformance/sbi-conformance-rv$x.bin")
				[ $x = 32 ] && args+=(--rv32)
				[ -n "$ic" ] && args+=(--icount)
				"$top/scripts/run-qemu" "${args[@]}" >"$out" 2>&1
				rc=$?
				[ -n "$verbose" ] && sed "s/^/    /" "$out"
				info=$(sed -n 's/^# GET_INFO \(0x[0-9a-f]*\):.*/\1/p' "$out")
				ids=$(sed -n 's/.*mvendorid \(0x[0-9a-f]*\) marchid \(0x[0-9a-f]*\) mimpid \(0x[0-9a-f]*\).*/\1 \2 \3/p' "$out")
				marchid=$EXPECT_MARCHID
				# RV32 marchid is the low word with the top bit kept
				[ $x = 32 ] && [ "$p" = u74 ] && marchid=0x80000007
				want_ids="$EXPECT_MVENDORID $marchid $EXPECT_MIMPID"
				np=$(grep -c '^ok - ' "$out")
				nf=$(grep -c '^not ok - ' "$out")
				if [ "$rc" = 0 ] && [ "$nf" = 0 ] && [ "$np" -gt 0 ] &&
				   [ "$info" = "$want_info" ] && [ "$ids" = "$want_ids" ]; then
					echo "ok - $name: $np checks passed"
				else
					echo "not ok - $name: exit $rc, $np passed, $nf failed"
					[ "$info" = "$want_info" ] ||
						echo "# GET_INFO '$info', profile wants $want_info"
					[ "$ids" = "$want_ids" ] ||
						echo "# ids '$ids', profile wants $want_ids"
					grep -E '^not ok - |unhandled trap|^run-qemu: ' "$out" | sed 's/^/# /'
				fi
			done
		done
	done
	)
done
