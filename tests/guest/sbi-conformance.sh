#!/usr/bin/env bash
# The HPM extension in OpenSBI v1.9 with the project's patch, without
# Linux: the bare-metal S-mode conformance program calls every function
# with good and bad arguments on the profiles virt, u74, cva6 and
# cva6-fixed, RV64 and RV32, on 4 harts with -icount and on 1 without
# (tests/sbi-conformance/run.sh).
exec bash "$(dirname "$0")/../sbi-conformance/run.sh"
