/* fails: newidle_gate_lockon */
/*
 * The Bresenham accumulator of "[PATCH v4] sched/fair: Replace random
 * newidle_balance with Bresenham accumulator": pos += 1 + ratio, attempt
 * and pos -= 1024 on reaching 1024; one accumulator per runqueue, shared by
 * the domain levels, starting at zero. Here one accumulator for the whole
 * test, reset by newidle_gate_init(): it ignores the gate it is handed, so
 * the CPUs of no_merge and together share it too (which spreads their
 * attempts, but leaves every gate at 0).
 */
#ifndef _KERNEL_SCHED_NEWIDLE_H
#define _KERNEL_SCHED_NEWIDLE_H
#include <linux/types.h>

#define NEWIDLE_SCALE	1024U

static unsigned int newidle_window_pos;

static inline u32 newidle_gate_init(unsigned int cpu)
{
	(void)cpu;
	newidle_window_pos = 0;
	return 0;
}

static inline bool newidle_gate(u32 *gate, unsigned int ratio)
{
	(void)gate;
	if (ratio >= NEWIDLE_SCALE)
		return true;
	newidle_window_pos += 1 + ratio;
	if (newidle_window_pos < NEWIDLE_SCALE)
		return false;
	newidle_window_pos -= NEWIDLE_SCALE;
	return true;
}
#endif
