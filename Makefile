# The lab: build, boot and test the newidle gate series on Linux v7.3.
# 'make' is the main job, 'make check' runs every test, 'make help' lists
# the targets (each '#:' line below) and the settings (lab/settings).
# The pipeline's order is lab/prepare.sh's; each target asks it for a step.

setting = $(shell sed -n 's/^$(1)=\([^ ]*\).*/\1/p' lab/settings)
VARIANT ?= $(call setting,VARIANT)
SCRIPT ?= $(call setting,SCRIPT)
# PRESET was once a second name for BENCH_PRESET that nothing read: refused,
# so that 'make bench PRESET=ni20' cannot run ni4 and record ni20
ifeq ($(origin PRESET),command line)
$(error PRESET is not a setting: say BENCH_PRESET=$(PRESET))
endif

.PHONY: all help check deps fetch apply build guest boot export sim bench bench-kernels ni-validate compare tester-kernels lkml outbox stress clean distclean

#: make                the patched kernel built and booted: its domains, what each feature does, the tests
all:
	lab/tools/main.sh

#: make help           the targets and every setting
help:
	@lab/tools/help.sh

#: make check          every test of the project (ONLY="part ..." runs those parts of tests/parts)
check:
	tests/run.sh

#: make deps|fetch|apply  the pipeline up to that step (lab/prepare.sh)
deps fetch apply:
	lab/prepare.sh $@

#: make build|guest    ... up to VARIANT's kernel, or its kselftests and initramfs
build guest:
	lab/prepare.sh $@ $(VARIANT)

#: make boot           boot VARIANT running SCRIPT in the guest
boot:
	lab/prepare.sh guest $(VARIANT)
	lab/steps/boot.sh $(VARIANT) $(SCRIPT)

#: make export         branch 'patched' of out/linux back into patches/
export:
	lab/steps/export.sh

#: make sim            the gate model: its tables, cost per decision, a timeline chart (out/sim/)
sim:
	lab/prepare.sh apply
	lab/tools/lock.sh sim/run.sh

#: make bench          features A/B/A on each boot of the series' bench kernel (BENCH_PRESET)
bench:
	bench/bench.sh features

#: make bench-kernels  v7.3, v7.3 + the off-by-one fix and the series compared across boots (BENCH_PRESET)
bench-kernels:
	bench/bench.sh kernels

#: make ni-validate  the replay of bench/ni-record.sh's recordings against real NI_RANDOM runs (v7.3, guest)
ni-validate:
	bench/ni-validate.sh

#: make compare        two stored runs by name, condition by condition: make compare A=RUN B=RUN (out/bench/RUN)
compare:
	bench/bench.sh compare "$(A)" "$(B)"

#: make tester-kernels v7.3, the series and the experiment from one CONFIG, as .deb and .rpm, for a real machine
tester-kernels:
	lab/tools/tester-kernels.sh $(CONFIG)

#: make lkml           the checks maintainers and the build robot run (long: builds every patch)
lkml:
	lab/tools/lkml.sh

#: make outbox         the series as mails in out/outbox, a directory per set, never sent
outbox:
	lab/tools/outbox.sh

#: make stress         the debug kernels under hotplug, domain rebuilds and toggles (long)
stress:
	lab/tools/stress.sh

#: make clean          builds, guest files, logs and results (keeps the trees and the download)
clean:
	lab/tools/clean.sh

#: make distclean      all of OUT
distclean:
	lab/tools/clean.sh all
