/* fails: newidle_gate_count newidle_gate_gaps */
/*
 * The dice NO_NI_GATE keeps (v7.3's with the off-by-one fixed): attempt when
 * a random number % 1024 is below 1 + ratio. The state is the generator's
 * (xorshift32, seeded from the CPU), so the API is the gate's.
 */
#ifndef _KERNEL_SCHED_NEWIDLE_H
#define _KERNEL_SCHED_NEWIDLE_H
#include <linux/types.h>

#define NEWIDLE_SCALE	1024U

static inline u32 newidle_gate_init(unsigned int cpu)
{
	return 0x9e3779b9U * (cpu + 1);
}

static inline bool newidle_gate(u32 *gate, unsigned int ratio)
{
	u32 x = *gate;

	if (ratio >= NEWIDLE_SCALE)
		return true;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*gate = x;
	return x % NEWIDLE_SCALE < 1 + ratio;
}
#endif
