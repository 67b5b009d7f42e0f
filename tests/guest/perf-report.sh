#!/usr/bin/env bash
# Profiling as a user does it: perf record, then perf report, in the
# guest (virt-sscofpmf, which samples; -icount, as make run).  The report
# names the function the samples fall in: knownloop's loop is in main
# (spin() is inlined), so its 2,000,000 loop instructions at one sample
# per 100,000 put main first.  And neither command prints an error that
# is not about the user's command: the guest's perf used to be built
# without libelf (samples shown as [.] 0x0000000000000582), without
# libbpf ("ERROR: Trying to write bpf_prog_info without libbpf
# support."), without its tips file ("Cannot load tips.txt file"), on a
# kernel without /proc/schedstat ("Failed to open /proc/schedstat"),
# and, system-wide (perf record -a), on a kernel without the bpf()
# system call ("Couldn't synthesize bpf events.").
# Samples in the kernel (the workload's exec and exit) are named from
# /proc/kallsyms.
# Also on Linux 6.12.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out="$tmp/out"
if ! guest_run "$out" --profile virt-sscofpmf --icount -- sh -c "
	cd /tmp
	echo '== record'; perf record -e instructions:u -c 100000 knownloop 1000000 2>&1; echo status=\$?
	echo '== report'; perf report --stdio 2>/tmp/err; echo status=\$?
	echo '== stderr'; cat /tmp/err
	echo '== kernel'; perf record -q -o k.data -e instructions -c 10000 knownloop 100000 >/dev/null 2>&1
	perf report -i k.data --stdio --sort dso,sym 2>&1
	echo '== system'; perf record -a -o a.data -e instructions:u -c 100000 knownloop 100000 2>&1
	perf report -i a.data --stdio >/dev/null 2>/tmp/aerr || echo 'report status='\$?
	cat /tmp/aerr
	echo '== end'"; then
	not_ok "virt-sscofpmf: guest runs perf record and perf report"
	diag "$(tail -n 30 "$out")"
	exit 0
fi
rec=$(section record "$out")
rep=$(section report "$out")
# The first line of the report's table: overhead, command, object, symbol.
top=$(sed 's/\x1b\[[0-9;]*m//g' <<<"$rep" | grep -E '^ +[0-9.]+%' | head -n 1)
if grep -qx 'status=0' <<<"$rec" && grep -qx 'status=0' <<<"$rep" &&
	[[ $top =~ ^\ +([0-9.]+)%\ +knownloop\ +knownloop\ +\[\.\]\ main\ *$ ]] &&
	awk -v p="${BASH_REMATCH[1]}" 'BEGIN { exit !(p >= 90) }'; then
	ok "perf report names the sampled function: $top"
else
	not_ok "perf report names the sampled function (main of knownloop, 90 % of the samples or more)"
	diag "top line: $top" "$rec" "$(head -n 20 <<<"$rep")"
fi
# perf record prints the workload's own line, its wake-up and capture
# lines; perf report its table, comments and a tip.  Anything else is
# perf complaining about itself.
noise=$( {
	grep -v -e '^knownloop: iterations=' -e '^\[ perf record: ' -e '^status=' <<<"$rec"
	section system "$out" | grep -v -e '^knownloop: iterations=' -e '^\[ perf record: '
	section stderr "$out"
	grep -i -e 'error' -e 'failed' -e 'cannot' -e 'warning' <<<"$rep"
} | grep -v '^$')
if [ -z "$noise" ]; then
	ok "perf record (per task and system-wide) and perf report print no error of their own"
else
	not_ok "perf record (per task and system-wide) and perf report print no error of their own"
	diag "$noise"
fi
# Kernel samples: named functions of [kernel.kallsyms], none left as
# an address.
krep=$(section kernel "$out" | sed 's/\x1b\[[0-9;]*m//g' | grep -F '[k]')
named=$(grep -cE '^ +[0-9.]+% +\[kernel\.kallsyms\] +\[k\] [A-Za-z_][A-Za-z0-9_.]*$' <<<"$krep")
if [ "$named" -ge 3 ] && ! grep -qE '\[k\] 0x[0-9a-f]+' <<<"$krep"; then
	ok "perf report names the kernel functions the samples fall in ($named of them, e.g. $(head -n 1 <<<"$krep" | awk '{ print $NF }'))"
else
	not_ok "perf report names the kernel functions the samples fall in"
	diag "$(section kernel "$out" | head -n 30)"
fi
