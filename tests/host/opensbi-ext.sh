#!/usr/bin/env bash
# The HPM core on the host: every function with good and bad arguments on
# modelled harts (29, 14, 2 and 0 counters, with and without
# mcountinhibit and time, Sscofpmf), XLEN 64 and 32, then a short
# libFuzzer run of both XLENs with the extension's invariants.
exec make -s -C "$(dirname "$0")/../../opensbi-ext" check FUZZ_SECONDS="${FUZZ_SECONDS:-20}"
