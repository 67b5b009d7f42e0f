# riscv-hpm-perf: RISC-V hardware performance counters for Linux perf.
#
#   make run [PROFILE=virt|u74|cva6|cva6-fixed] [CMD='perf stat ...'] [FIRMWARE=...]
#   make test        every test; ends with "N passed, N failed"
#   make build       kernel, perf, firmware, workloads, initramfs
#   make deps        the Debian packages (needs root or sudo)
#   make fuzz        the HPM core fuzzer, FUZZ_SECONDS (default 300)
#   make bench       benchmarks (bench/)
PROFILE ?= virt
FIRMWARE ?=
CMD ?=

RUN_QEMU = scripts/run-qemu --profile $(PROFILE) $(if $(FIRMWARE),--firmware $(FIRMWARE))

.PHONY: all deps build run test fuzz bench clean

all: build

deps:
	@scripts/install-deps

build: deps
	@scripts/build

run: build
ifeq ($(strip $(CMD)),)
	@$(RUN_QEMU)
else
	@$(RUN_QEMU) -- sh -c '$(subst ','\'',$(CMD))'
endif

test: build
	@tests/run

fuzz: deps
	@$(MAKE) -s -C opensbi-ext fuzz $(if $(FUZZ_SECONDS),FUZZ_SECONDS=$(FUZZ_SECONDS))

clean:
	rm -rf build

bench: build
	@bench/run
