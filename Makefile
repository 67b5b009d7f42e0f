# riscv-hpm-perf: RISC-V hardware performance counters for Linux perf.
#
#   make run [PROFILE=virt|virt-sscofpmf|virt-cdeleg|virt-cdeleg-nosmstateen|u74|cva6|cva6-fixed]
#            [CMD='perf stat ...'] [FIRMWARE=...] [HOST_SPEED=1] [LINUX=7.2|6.12]
#   make test        every test; ends with "N passed, N failed"
#   make build       kernel, perf, firmware, workloads, initramfs
#   make board BOARD=unleashed|unmatched
#                    the board's SPI flash and SD card images (build/board/)
#   make deps        the Debian packages (needs root or sudo)
#   make fuzz        the HPM core fuzzer, FUZZ_SECONDS (default 300)
#   make bench       benchmarks (bench/)
#   make check-series  every patch of both kernels' series built W=1 on its
#                    own (RV64, RV32), as git bisect meets it
PROFILE ?= virt
FIRMWARE ?=
CMD ?=
# Empty: QEMU runs with -icount, so that cycle and instret count guest
# instructions exactly (without it QEMU derives both from the host's
# clock).  HOST_SPEED=1: as fast as the host allows, counts inexact.
HOST_SPEED ?=
# The guest's Linux: 7.2 (mainline, the primary series) or 6.12 (Debian
# stable's, the backport).
LINUX ?= 7.2

, := ,
HOST_SPEED_ON = $(filter 1 y yes on true,$(HOST_SPEED))
RUN_QEMU = scripts/run-qemu --profile $(PROFILE) --linux $(LINUX) $(if $(FIRMWARE),--firmware $(FIRMWARE)) \
	$(if $(HOST_SPEED_ON),,--icount)
# On a profile that stands in for a core (qemu-config/*.conf STAND_IN):
# which of its events QEMU counts.
STAND_IN = $(shell . qemu-config/$(PROFILE).conf 2>/dev/null && echo "$$STAND_IN")
# What the profile lacks that users try first (qemu-config/*.conf PROFILE_NOTE).
PROFILE_NOTE = $(shell . qemu-config/$(PROFILE).conf 2>/dev/null && echo "$$PROFILE_NOTE")
RUN_NOTE = $(if $(HOST_SPEED_ON),host speed (HOST_SPEED=1): cycle and instret follow the host clock$(,) counts are not exact,exact counts (QEMU -icount: one guest instruction per cycle and per ns); HOST_SPEED=1 runs at host speed)

.PHONY: all deps build board run test fuzz bench clean check-series

all: build

deps:
	@scripts/install-deps

# The build's own makes (kernel, perf, OpenSBI, the workloads) get
# none of this make's command-line variables (MAKEFLAGS), which they
# would expand: CMD is shell text, not make's.
build: deps
	@MAKEFLAGS= scripts/build

# make build makes both boards' images; this says where one board's are.
BOARD ?=
board:
	@case '$(BOARD)' in unleashed|unmatched) ;; \
	*) echo "make board: BOARD=unleashed or BOARD=unmatched" >&2; exit 2 ;; esac
	@scripts/install-deps
	@MAKEFLAGS= scripts/build
	@echo "make board: build/board/$(BOARD): u-boot.itb, u-boot-spl.bin, sd.img, spi.img, boot/ (README.md: Board images)"

# CMD reaches the guest's shell as typed: $(value CMD) is its text with
# no make expansion ($i, $?, $HOME, $(...) and backslashes stay the
# shell's), quoted for sh -c with each ' written '\''.  Not exported:
# make would expand it for the recipes' environment (a CMD holding
# $(CMD) stops make, one holding $(shell ...) runs it on the host).
unexport CMD
# The first line says what runs; then deps and build, which print
# nothing when nothing is missing or rebuilt (build --quiet).
run:
	@echo "make run: $(PROFILE), Linux $(LINUX), $(RUN_NOTE)" >&2
	@note='$(STAND_IN)'; [ -z "$$note" ] || echo "make run: $$note" >&2
	@note='$(PROFILE_NOTE)'; [ -z "$$note" ] || echo "make run: $$note" >&2
	@scripts/install-deps
	@MAKEFLAGS= scripts/build --quiet
ifeq ($(strip $(value CMD)),)
	@$(RUN_QEMU)
else
	@$(RUN_QEMU) -- sh -c '$(subst ','\'',$(value CMD))'
endif

test: build
	@tests/run

fuzz: deps
	@$(MAKE) -s -C opensbi-ext fuzz $(if $(FUZZ_SECONDS),FUZZ_SECONDS=$(FUZZ_SECONDS))

clean:
	rm -rf build

bench: build
	@bench/run

check-series: build
	@scripts/check-series-bisect
