/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Negative control for the newidle gate selftest: force-included ahead of
 * kernel/sched/newidle.h (whose include guard it takes), it puts the v7.3
 * dice behind the gate's interface: attempt unless rand % 1024 > 1 + ratio,
 * the state never moves. Built this way the selftest's exactness and
 * lockstep checks and its live tests must fail.
 */
#ifndef _KERNEL_SCHED_NEWIDLE_H
#define _KERNEL_SCHED_NEWIDLE_H
#include "gate_fields.h"

static inline unsigned int newidle_gate_init(unsigned int rank, unsigned int weight)
{
	(void)rank;
	(void)weight;
	return 0;
}

static inline _Bool newidle_gate(unsigned int *gate, unsigned int ratio)
{
	static unsigned long long s = 0x9e3779b97f4a7c15ull;

	(void)gate;
	if (ratio >= NEWIDLE_SCALE)
		return 1;
	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return s % NEWIDLE_SCALE <= 1 + ratio;
}
#endif
