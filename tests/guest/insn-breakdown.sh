#!/usr/bin/env bash
# Where an operation's instructions go (make bench's "Where the
# instructions go" table): QEMU's tb-insns plugin (bench/tb-insns.c)
# counts what each translated block executes, bench/tb-categories.py
# sorts it into firmware (M-mode), driver, perf core, the rest of the
# kernel and user space.  One operation is the boot with N of them less
# the boot with none, over N.  Checked, for enable+disable:
#  - the plugin's total per operation agrees within 2 % with perfops's
#    own figure (the guest time of the operations under -icount), an
#    independent measure of the same instructions;
#  - the HPM driver on instructions (the fixed instret, never stopped)
#    and on a programmable event on delegated counters (virt-cdeleg,
#    pristine OpenSBI v1.9) runs no firmware instruction at all: no SBI
#    call, seen from the firmware's side this time (tests/guest/
#    hpm-calls.sh counts the ecalls in QEMU's trap log);
#  - the SBI PMU driver on the same event does run firmware instructions
#    (its COUNTER_START and COUNTER_STOP), so the check above can fail;
#  - every driver's operation runs driver and perf core instructions.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=5000
if ! gcc -O2 -Wall -Werror -shared -fPIC -o "$tmp/tb-insns.so" "$TOP/bench/tb-insns.c" 2>"$tmp/cc"; then
	not_ok "bench/tb-insns.c builds"
	diag "$(cat "$tmp/cc")"
	exit 0
fi
kbuild="$(dirname "$("$TOP/scripts/prepare-linux")")/build"

# run NAME EVENT PROFILE FIRMWARE [RUN-QEMU OPTIONS...]: boots with 0
# and $n enable+disables of EVENT; $tmp/NAME.{0,$n}.cat and the per-
# operation figures in $tmp/NAME.per ("CATEGORY VALUE" lines, and
# "perfops VALUE").
run() {
	local name=$1 ev=$2 prof=$3 fw=$4 k
	shift 4
	for k in 0 $n; do
		HPM_QEMU_EXTRA="-plugin $tmp/tb-insns.so,out=$tmp/$name.$k.tb" \
			guest_run "$tmp/$name.$k" --profile "$prof" --icount --firmware "$fw" "$@" \
			-- sh -c "perfops ops -n $k -o enable+disable -e $ev" || true
		python3 "$TOP/bench/tb-categories.py" "$tmp/$name.$k.tb" "$kbuild" \
			>"$tmp/$name.$k.cat" 2>&1 || true
	done
	paste -d' ' "$tmp/$name.0.cat" "$tmp/$name.$n.cat" |
		awk -v n=$n 'NF == 4 && $1 == $3 { printf "%s %.1f\n", $1, ($4 - $2) / n }' >"$tmp/$name.per"
	sed -n 's/^op=enable+disable .* instructions=\([0-9.]*\)$/perfops \1/p' "$tmp/$name.$n" >>"$tmp/$name.per"
}

# get NAME CATEGORY: the per-operation figure, or "missing".
get() { awk -v c="$2" '$1 == c { print $2; f = 1 } END { if (!f) print "missing" }' "$tmp/$1.per"; }

run hpm instructions virt hpm
run sbi instructions virt opensbi
run cdeleg dTLB-load-misses virt-cdeleg opensbi

declare -A title=(
	[hpm]="HPM driver, HPM extension (virt), instructions"
	[sbi]="SBI PMU driver (virt), instructions"
	[cdeleg]="HPM driver, delegated counters (virt-cdeleg), dTLB-load-misses"
)
for r in hpm sbi cdeleg; do
	total=$(get $r total) perfops=$(get $r perfops)
	if [[ $total =~ ^[0-9.]+$ && $perfops =~ ^[0-9.]+$ ]] &&
		awk -v a="$total" -v b="$perfops" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d * 50 <= b) }'; then
		ok "${title[$r]}: the plugin's $total instructions per enable+disable agree with perfops's $perfops within 2 %"
	else
		not_ok "${title[$r]}: the plugin's instructions per enable+disable agree with perfops's within 2 %"
		diag "$(cat "$tmp/$r.per")" "$(tail -n 5 "$tmp/$r.$n")"
	fi
	driver=$(get $r driver) core=$(get $r perf-core)
	if awk -v d="$driver" -v c="$core" 'BEGIN { exit !(d + 0 > 20 && c + 0 > 200) }'; then
		ok "${title[$r]}: driver ($driver) and perf core ($core) instructions in each operation"
	else
		not_ok "${title[$r]}: driver and perf core instructions in each operation"
		diag "$(cat "$tmp/$r.per")"
	fi
done
for r in hpm cdeleg; do
	fw=$(get $r firmware)
	check "${title[$r]}: no firmware instruction in an enable+disable (no SBI call): $fw" \
		[ "$fw" = 0.0 ]
done
fw=$(get sbi firmware)
check "${title[sbi]}: firmware instructions in each enable+disable (its SBI calls): $fw" \
	awk -v f="$fw" 'BEGIN { exit !(f + 0 > 300) }'
