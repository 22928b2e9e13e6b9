# The lab: build, boot and test the newidle gate series on Linux v7.3.
# 'make' is the main job, 'make check' runs every test. See README.md.

VARIANT ?= patched
SCRIPT ?= lab/guest/show.sh

.PHONY: all check deps fetch apply build boot export sim bench bench-kernels tester-kernels lkml outbox stress clean distclean

all:
	lab/main.sh

check:
	tests/run.sh

deps:
	lab/deps.sh

fetch: deps
	lab/fetch.sh

apply: fetch
	lab/apply.sh

build: apply
	lab/build.sh $(VARIANT)

boot: build
	lab/selftests.sh $(VARIANT)
	lab/initramfs.sh
	lab/boot.sh $(VARIANT) $(SCRIPT)

export:
	lab/export.sh

# The gate model: tables, cost per decision, timeline chart (out/sim/).
sim: apply
	sim/run.sh

# A/B/A benchmarks in the guest (features mode); out/bench/latest/.
bench: build
	bench/run.sh

# Kernels A/B/A: baseline / patched / baseline boots (builds the baseline).
bench-kernels: apply
	bench/kernels.sh

# Baseline and patched Debian packages for a tester, from one config:
# CONFIG=/path/to/config (default: the running kernel's; 'guest': the lab's).
tester-kernels: deps
	lab/tester-kernels.sh $(CONFIG)

# The checks maintainers and the build robot run (long: builds every patch).
lkml: apply
	lab/lkml.sh

# The series as mails in out/outbox/vN, never sent.
outbox: apply
	lab/outbox.sh

# Debug kernels under hotplug, domain rebuilds and toggles (long).
stress: apply
	lab/stress.sh

# Builds and logs; keeps the base tree and the download.
clean:
	rm -rf out/build out/run out/logs out/guest

distclean:
	rm -rf out
