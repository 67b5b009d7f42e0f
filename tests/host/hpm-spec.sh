#!/usr/bin/env bash
# The HPM extension written as a chapter of the SBI specification
# (opensbi-ext/spec/ext-hpm.adoc, the form in which it would be
# proposed) agrees with the ABI header and with the errors the core is
# held to: opensbi-ext/spec/check-spec says how.
. "$(dirname "$0")/../lib.sh"
out=$(python3 "$TOP/opensbi-ext/spec/check-spec" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc != 0 ] && ! grep -q '^not ok - ' <<<"$out"; then
	not_ok "opensbi-ext/spec/check-spec runs (status $rc)"
fi
