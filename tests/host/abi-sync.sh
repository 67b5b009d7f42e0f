#!/usr/bin/env bash
# The HPM extension's numbers have one source, opensbi-ext/include/
# sbi_hpm_abi.h.  The Linux series carries them again in kernel style
# (arch/riscv/include/asm/sbi.h, the first patch of the HPM series,
# linux-patches/<VER>/*-hpm/0001-*, for 7.2 and its 6.12 backport): every
# SBI_EXT_HPM* name the patch adds must exist in the header with the same
# value, and every extension/function ID of the header must be in the
# patch.
. "$(dirname "$0")/../lib.sh"
header="$TOP/opensbi-ext/include/sbi_hpm_abi.h"
for ver in 7.2 6.12; do
patch=$(ls "$TOP"/linux-patches/$ver/*-hpm/0001-*.patch 2>/dev/null | head -n 1)

if [ ! -f "$header" ] || [ -z "$patch" ]; then
	not_ok "the ABI header and the $ver HPM series' patch 0001 exist"
	diag "header: $header" "patch: ${patch:-none}"
	continue
fi

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
if python3 - "$header" "$patch" >"$tmp" 2>&1 <<'PY'
import re, sys
hdr = open(sys.argv[1]).read()
pat = open(sys.argv[2]).read()

def num(s):
    return int(s, 0)

# Header: "#define SBI_EXT_HPM... value" (the FID count is not an ID).
h = {n: num(v) for n, v in
     re.findall(r'^#define\s+(SBI_EXT_HPM\w*)\s+(\S+)', hdr, re.M)}
h.pop('SBI_EXT_HPM_FID_COUNT', None)
# Patch: added lines "+\tSBI_EXT_HPM... = value," (explicit values only).
added = [l[1:] for l in pat.splitlines()
         if l.startswith('+') and not l.startswith('+++')]
p = {}
bad = False
for l in added:
    m = re.match(r'\s*(SBI_EXT_HPM\w*)\s*(?:=\s*([^,\s]+))?\s*,', l)
    if not m:
        continue
    if m.group(2) is None:
        print('patch: %s has no explicit value' % m.group(1))
        bad = True
        continue
    p[m.group(1)] = num(m.group(2))
for n in sorted(set(h) | set(p)):
    if n not in p:
        print('missing in patch: %s = %#x' % (n, h[n]))
        bad = True
    elif n not in h:
        print('not in header: %s = %#x' % (n, p[n]))
        bad = True
    elif h[n] != p[n]:
        print('%s: header %#x, patch %#x' % (n, h[n], p[n]))
        bad = True
if not h or not p:
    print('no SBI_EXT_HPM names found (header %d, patch %d)' % (len(h), len(p)))
    bad = True
print('compared %d names' % len(h))
sys.exit(bad)
PY
then
	ok "SBI_EXT_HPM* names and values: $ver patch $(basename "$patch") matches sbi_hpm_abi.h ($(tail -n 1 "$tmp"))"
else
	not_ok "SBI_EXT_HPM* names and values: $ver patch $(basename "$patch") matches sbi_hpm_abi.h"
	diag "$(cat "$tmp")"
fi
done
