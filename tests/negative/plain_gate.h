/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Negative control for the newidle gate selftest: force-included ahead of
 * kernel/sched/newidle.h (whose include guard it takes), it puts the plain
 * accumulator of the series' first version behind the gate's interface:
 * add 1 + ratio, attempt on reaching 1024, a fixed threshold in every band.
 * It is exact and keeps CPUs in lockstep apart, but misses whole residues
 * of periodic workloads, so the residue check and the live tests (whose
 * kernel rotates its thresholds) must fail.
 */
#ifndef _KERNEL_SCHED_NEWIDLE_H
#define _KERNEL_SCHED_NEWIDLE_H
#include "gate_fields.h"

static inline unsigned int newidle_gate_init(unsigned int rank, unsigned int weight)
{
	return weight ? rank * NEWIDLE_SCALE / weight : 0;
}

static inline _Bool newidle_gate(unsigned int *gate, unsigned int ratio)
{
	if (ratio >= NEWIDLE_SCALE)
		return 1;
	*gate += 1 + ratio;
	if (*gate < NEWIDLE_SCALE)
		return 0;
	*gate -= NEWIDLE_SCALE;
	return 1;
}
#endif
