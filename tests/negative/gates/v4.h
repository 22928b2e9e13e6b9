/* fails: newidle_gate_residues newidle_gate_levels newidle_gate_state */
/*
 * The Bresenham accumulator of "[PATCH v4] sched/fair: Replace random
 * newidle_balance with Bresenham accumulator": pos += 1 + ratio, attempt
 * and pos -= 1024 on reaching 1024; one accumulator per runqueue, shared by
 * the domain levels, starting at zero. Here one accumulator for the whole
 * test: it ignores the gate it is handed, so CPUs in lockstep share it too
 * (which spreads them; v4's zero phases per CPU are zero-phase.patch).
 */
#ifndef _KERNEL_SCHED_NEWIDLE_H
#define _KERNEL_SCHED_NEWIDLE_H
#include <linux/types.h>

#define NEWIDLE_SCALE	1024U

static unsigned int newidle_window_pos;

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
	(void)rank;
	(void)weight;
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
