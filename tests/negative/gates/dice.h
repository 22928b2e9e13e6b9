/* fails: newidle_gate_within_one newidle_gate_one_per_band newidle_gate_gaps newidle_gate_lockstep_span newidle_gate_state */
/*
 * The dice NO_NI_GATE keeps (v7.3's with the off-by-one fixed): attempt when
 * a random number % 1024 is below 1 + ratio. The state is the generator's
 * (xorshift32, seeded by the rank), so the API is the gate's.
 */
#ifndef _KERNEL_SCHED_NEWIDLE_H
#define _KERNEL_SCHED_NEWIDLE_H
#include <linux/types.h>

#define NEWIDLE_SCALE	1024U

static inline unsigned int newidle_gate_left(u32 gate) { return gate & 2047; }
static inline unsigned int newidle_gate_offset(u32 gate) { return (gate >> 11) & 1023; }
static inline unsigned int newidle_gate_band(u32 gate) { return gate >> 21; }
static inline u32 newidle_gate_pack(unsigned int left, unsigned int offset, unsigned int band)
{
	return left | offset << 11 | band << 21;
}

/* the ranks in order: the suite's place checks need only the API */
static inline unsigned int newidle_gate_place(unsigned int rank, unsigned int nr)
{
	return rank % nr;
}

static inline u32 newidle_gate_init(unsigned int rank, unsigned int weight)
{
	return 0x9e3779b9U * (rank + 1) + weight;
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
