#!/usr/bin/env bash
# scripts/perf-plot turns `perf stat -I` output of the matrix
# multiplication (CSV from -x, and JSON from -j) into a PNG time plot
# with one series per event: the file is a PNG (signature, IHDR first,
# non-zero size) and the data the plot was drawn from has one column per
# event, each with counts in more than one interval.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

events=instructions,cycles,dTLB-load-misses
out="$tmp/out"
# dTLB-load-misses needs a PMU driver that maps it: the SBI PMU driver on
# Debian's OpenSBI today (the HPM driver will map it from the device tree).
if ! guest_run "$out" --profile virt --firmware opensbi -- sh -c "
	echo '== csv'; perf stat -I 20 -x, -o /tmp/s -e $events matmul naive 400 >/dev/null; cat /tmp/s
	echo '== json'; perf stat -I 20 -j -o /tmp/s -e $events matmul interchanged 400 >/dev/null; cat /tmp/s
	"; then
	not_ok "virt: perf stat -I on matmul runs"
	diag "$(tail -n 30 "$out")"
	exit 0
fi

# png_ok FILE: PNG signature, then an IHDR chunk with non-zero size.
png_ok() {
	python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
ok = (b[:8] == b'\x89PNG\r\n\x1a\n' and b[12:16] == b'IHDR'
      and struct.unpack('>I', b[8:12])[0] == 13)
w, h = struct.unpack('>II', b[16:24]) if ok else (0, 0)
sys.exit(not (ok and w > 0 and h > 0))
PY
}

nevents=$(tr ',' '\n' <<<"$events" | wc -l)
for fmt in csv json; do
	section "$fmt" "$out" >"$tmp/$fmt.in"
	if ! "$TOP/scripts/perf-plot" "$tmp/$fmt.in" -o "$tmp/$fmt.png" \
		--data "$tmp/$fmt.dat" >"$tmp/$fmt.log" 2>&1; then
		not_ok "$fmt: perf-plot makes a plot of perf stat -I output"
		diag "$(cat "$tmp/$fmt.log")" "$(head -n 10 "$tmp/$fmt.in")"
		continue
	fi
	check "$fmt: perf-plot writes a valid PNG (signature, IHDR)" png_ok "$tmp/$fmt.png"
	header=$(head -n 1 "$tmp/$fmt.dat")
	series=$(grep -c '^series ' "$tmp/$fmt.log")
	if [ "$header" = "# time ${events//,/ }" ] && [ "$series" = "$nevents" ]; then
		ok "$fmt: one series per event ($nevents: $events)"
	else
		not_ok "$fmt: one series per event ($nevents: $events)"
		diag "data header: $header" "$(cat "$tmp/$fmt.log")"
	fi
	# Every series has counts in at least two intervals.
	if awk 'NR > 1 { n++; for (i = 2; i <= NF; i++) if ($i != "?") c[i]++ }
		END { if (n < 2) exit 1; for (i = 2; i <= NF; i++) if (c[i] < 2) exit 1 }' \
		"$tmp/$fmt.dat"; then
		ok "$fmt: every series has rates in two or more intervals"
	else
		not_ok "$fmt: every series has rates in two or more intervals"
		diag "$(cat "$tmp/$fmt.dat")"
	fi
done

# Rates per thousand instructions (--per): the instructions series goes.
if "$TOP/scripts/perf-plot" "$tmp/csv.in" -o "$tmp/pti.png" --per instructions \
	--data "$tmp/pti.dat" >"$tmp/pti.log" 2>&1 && png_ok "$tmp/pti.png" &&
	[ "$(head -n 1 "$tmp/pti.dat")" = "# time cycles dTLB-load-misses" ]; then
	ok "--per instructions: PTI series of the other events"
else
	not_ok "--per instructions: PTI series of the other events"
	diag "$(cat "$tmp/pti.log")" "$(head -n 3 "$tmp/pti.dat" 2>/dev/null)"
fi

# Input without intervals is refused.
if "$TOP/scripts/perf-plot" /dev/null -o "$tmp/none.png" >/dev/null 2>&1; then
	not_ok "perf-plot refuses input without interval counts"
else
	ok "perf-plot refuses input without interval counts"
fi

# An event perf never counted is listed but not drawn; metric-only lines
# (perf stat -M) are not events.
cat >"$tmp/gaps.csv" <<'CSV'
# started on Thu Jan  1 00:00:00 1970

0.100000000,1000000,,instructions,100000,100.00,1.00,insn per cycle
0.100000000,<not counted>,,r2,0,0.00,,
0.100000000,,,,,,0.50,ipc
0.200000000,3000000,,instructions,100000,100.00,1.00,insn per cycle
0.200000000,<not counted>,,r2,0,0.00,,
CSV
if "$TOP/scripts/perf-plot" "$tmp/gaps.csv" -o "$tmp/gaps.png" --data "$tmp/gaps.dat" \
	>"$tmp/gaps.log" 2>&1 && png_ok "$tmp/gaps.png" &&
	grep -qx 'series 2: r2, 0 intervals (not drawn)' "$tmp/gaps.log" &&
	[ "$(sed -n 3p "$tmp/gaps.dat")" = "0.200000 3e+07 ?" ]; then
	ok "uncounted intervals are gaps, rates are counts per interval length"
else
	not_ok "uncounted intervals are gaps, rates are counts per interval length"
	diag "$(cat "$tmp/gaps.log" "$tmp/gaps.dat" 2>/dev/null)"
fi
