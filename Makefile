# The lab: build, boot and test the newidle gate series on Linux v7.3.
# 'make' is the main job, 'make check' runs every test, 'make help' lists
# the targets and settings (README.md, "Targets and settings").
# The pipeline's order is lab/prepare.sh's; each target asks it for a step.

VARIANT ?= patched
SCRIPT ?= lab/guest/show.sh

.PHONY: all help check deps fetch apply build guest boot export sim bench bench-kernels tester-kernels lkml outbox stress clean distclean

all:
	lab/main.sh

help:
	@sed -n '/^## Targets and settings/,/^## /{/^## [^T]/d;p}' README.md

check:
	tests/run.sh

deps fetch apply:
	lab/prepare.sh $@

build guest:
	lab/prepare.sh $@ $(VARIANT)

boot:
	lab/prepare.sh guest $(VARIANT)
	lab/boot.sh $(VARIANT) $(SCRIPT)

export:
	lab/export.sh

# The gate model: tables, cost per decision, timeline chart (out/sim/).
sim:
	lab/prepare.sh apply
	lab/lock.sh sim/run.sh

# Features A/B/A on each boot of the series' bench kernel, intervals over
# boots (PRESET=ni4, ni20, rate4: bench/presets); out/bench/latest/.
PRESET ?= ni4
bench:
	BENCH_PRESET=$(PRESET) bench/run.sh

# The kernels compared across boots (v7.3, v7.3 + patch 1, the series' gate,
# dice and NO_NI_RANDOM) under PRESET; out/bench/latest-kernels/.
bench-kernels:
	BENCH_PRESET=$(PRESET) bench/kernels.sh

# Baseline and patched Debian packages for a tester, from one config:
# CONFIG=/path/to/config (default: the running kernel's; 'guest': the lab's).
tester-kernels: deps
	lab/tester-kernels.sh $(CONFIG)

# The checks maintainers and the build robot run (long: builds every patch).
lkml:
	lab/lkml.sh

# The series as mails in out/outbox/vN, never sent.
outbox:
	lab/outbox.sh

# Debug kernels under hotplug, domain rebuilds and toggles (long).
stress:
	lab/stress.sh

# Builds and logs; keeps the base tree and the download.
clean:
	rm -rf out/build out/run out/logs out/guest out/linux/.build-* out/src/*/.build-*

distclean:
	rm -rf out
