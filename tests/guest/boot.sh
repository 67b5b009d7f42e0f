#!/usr/bin/env bash
# The guest boots on every machine profile with four harts on the
# default (HPM test) firmware, shows that profile's CPU identity in
# /proc/cpuinfo (what perf keys its event tables on), and perf runs in it.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for conf in "$TOP"/qemu-config/*.conf; do
	profile=$(basename "$conf" .conf)
	(
		. "$conf"
		out="$tmp/$profile"
		if ! guest_run "$out" --profile "$profile" --smp 4 -- sh -c \
			'echo "== cpuinfo"; cat /proc/cpuinfo; echo "== perf"; perf list hw'; then
			not_ok "$profile: guest boots with 4 harts and runs a command"
			diag "$(tail -n 20 "$out")"
			exit 0
		fi
		harts=$(section cpuinfo "$out" | grep -c '^processor')
		check "$profile: guest boots with 4 harts and runs a command ($harts)" [ "$harts" = 4 ]
		for id in mvendorid marchid mimpid; do
			want=$(eval echo "\$EXPECT_${id^^}")
			got=$(section cpuinfo "$out" | awk -v k="$id" '$1 == k { print $3; exit }')
			if [ -n "$got" ] && [ $((got)) = $((want)) ] 2>/dev/null; then
				ok "$profile: /proc/cpuinfo $id is $want"
			else
				not_ok "$profile: /proc/cpuinfo $id is $want"
				diag "got '${got}'"
			fi
		done
		hw=$(section perf "$out")
		if grep -q 'instructions' <<<"$hw" && grep -q 'cpu-cycles' <<<"$hw"; then
			ok "$profile: perf list shows the hardware events"
		else
			not_ok "$profile: perf list shows the hardware events"
			diag "$hw"
		fi
	)
done
