/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Negative control for the newidle gate selftest: force-included ahead of
 * kernel/sched/newidle.h (whose include guard it takes), it swaps the
 * accumulator for the v7.3 dice, attempt unless (rand % 1024) > 1 + ratio,
 * and gives every CPU the same phase. Built this way the selftest's model
 * checks and its live prediction must fail; lab/negative.sh checks they do.
 */
#ifndef _KERNEL_SCHED_NEWIDLE_H
#define _KERNEL_SCHED_NEWIDLE_H
#include <stdbool.h>

#define NEWIDLE_SCALE		1024U

static inline bool newidle_gate(unsigned int *pos, unsigned int ratio)
{
	static unsigned long long s = 88172645463325252ull;

	(void)pos;
	if (ratio >= NEWIDLE_SCALE)
		return true;
	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return s % 1024 <= 1 + ratio;
}

static inline unsigned int newidle_gate_phase(unsigned int rank, unsigned int weight)
{
	(void)rank;
	(void)weight;
	return 0;
}
#endif
