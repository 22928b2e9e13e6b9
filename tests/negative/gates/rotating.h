/* fails: newidle_gate_no_merge newidle_gate_together */
/*
 * Negative control: the gate of series v2 (newidle.h as it landed in the
 * lab on 2026-12-01), with newidle_gate_init() taking a CPU number as the
 * tree's does. Its update is not injective: CPUs that make the same visits
 * merge once the ratio moves.
 */
/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The newidle balance gate (NI_GATE): which newidle visits of a sched domain
 * attempt a balance, (1 + ratio) of every 1024 for sd->newidle_ratio below
 * 1024, without random numbers.
 *
 * Every visit advances a position by 1 + ratio. The position is cut into
 * bands of 1024, and the CPU attempts once per band, on the visit that
 * passes the band's threshold. Counted from the domain's start, the
 * attempts thus stay within one of the sum of (1 + ratio) / 1024 over the
 * visits, however the ratio moves, and at a steady ratio two attempts are
 * at most ceil(2047 / (1 + ratio)) visits apart.
 *
 * A threshold at a fixed offset in its band would attempt on a pattern that
 * repeats every 1024 / gcd(1 + ratio, 1024) visits and could miss every
 * pull chance of a workload with that period. So the offset moves from
 * band to band, by a step that hash_32() of the band number picks from
 * [1 + ratio, 1024]; a step of at least 1 + ratio keeps one attempt per
 * band. The band number wraps at 2048, so the steps repeat every 2048
 * bands. At ratio 1023 the step is 1024: the first visit after a lower
 * ratio may skip, every later one attempts.
 *
 * The CPUs of a domain start at the places k * 1024 / nr of the band, dealt
 * out by their rank in the span (newidle_gate_place()), and move by the
 * same steps: the band number, not the CPU, picks them. Of all the CPUs
 * of a domain, when they have made the same visits at a common ratio since
 * the domain was built, at most one more than the fewest possible attempt
 * on one visit (as the model and KUnit check for domains of up to 1024
 * CPUs). CPUs that
 * go newly idle together are more often a subset, neighbours in the span
 * or SMT siblings; those tend not to attempt together, with no bound. Once
 * the CPUs' ratios differ, their positions drift apart as with a dice.
 *
 * The state of one CPU in one domain is a u32:
 *
 *    bits   field   range    meaning
 *    0-10   left    0..2047  position still to go to the threshold
 *    11-20  offset  0..1023  the threshold's offset in its band
 *    21-31  band    0..2047  the band's number, modulo 2048
 */
#ifndef _KERNEL_SCHED_NEWIDLE_H
#define _KERNEL_SCHED_NEWIDLE_H

#include <linux/build_bug.h>
#include <linux/gcd.h>
#include <linux/hash.h>
#include <linux/math.h>
#include <linux/types.h>

#define NEWIDLE_SCALE		1024U

#define NEWIDLE_LEFT_BITS	11
#define NEWIDLE_OFFSET_BITS	10
#define NEWIDLE_OFFSET_SHIFT	NEWIDLE_LEFT_BITS
#define NEWIDLE_BAND_SHIFT	(NEWIDLE_LEFT_BITS + NEWIDLE_OFFSET_BITS)

/* an offset is a place in the band; left reaches up to two bands */
static_assert(NEWIDLE_SCALE == 1U << NEWIDLE_OFFSET_BITS);
static_assert(2 * NEWIDLE_SCALE == 1U << NEWIDLE_LEFT_BITS);

static inline unsigned int newidle_gate_left(u32 gate)
{
	return gate & ((1U << NEWIDLE_LEFT_BITS) - 1);
}

static inline unsigned int newidle_gate_offset(u32 gate)
{
	return (gate >> NEWIDLE_OFFSET_SHIFT) & (NEWIDLE_SCALE - 1);
}

static inline unsigned int newidle_gate_band(u32 gate)
{
	return gate >> NEWIDLE_BAND_SHIFT;
}

static inline u32 newidle_gate_pack(unsigned int left, unsigned int offset,
				    unsigned int band)
{
	return left | offset << NEWIDLE_OFFSET_SHIFT | band << NEWIDLE_BAND_SHIFT;
}

/*
 * newidle_gate_place - which of the @nr places of a band the CPU of @rank takes
 *
 * The ranks step through the places by a stride near @nr / phi^2 (the
 * golden ratio's, whose multiples spread the most evenly), made coprime
 * with @nr so that every rank gets a place of its own. For larger @nr,
 * neighbouring ranks land about 0.38 of a band apart and a run of them is
 * spread over the band; for a small @nr the stride has few values to take
 * (at 6 it is 5, the reverse order). For an even @nr the stride is odd, so
 * ranks @nr / 2 apart, SMT siblings as x86 numbers them, land half a band
 * apart.
 */
static inline unsigned int newidle_gate_place(unsigned int rank, unsigned int nr)
{
	unsigned int stride = reciprocal_scale(GOLDEN_RATIO_32, nr);

	while (gcd(stride, nr) != 1)
		stride++;
	return (u64)rank * stride % nr;
}

/*
 * newidle_gate_init - the gate of a CPU in a domain, before its first visit
 * @rank: the CPU's position in the domain span, 0 .. @nr - 1
 * @nr:   the number of CPUs in the span, at least 1
 */
static inline u32 newidle_gate_init_ranked(unsigned int rank, unsigned int nr)
{
	unsigned int offset = newidle_gate_place(rank, nr) * NEWIDLE_SCALE / nr;

	return newidle_gate_pack(offset, offset, 0);
}

/*
 * newidle_gate - whether this newidle visit of a domain attempts a balance
 * @gate:  the CPU's gate in the domain, sd->newidle_gate
 * @ratio: the domain's success ratio, sd->newidle_ratio
 *
 * Only the CPU that owns @gate calls this. A ratio of NEWIDLE_SCALE or
 * more always attempts and leaves @gate alone.
 */
static inline bool newidle_gate(u32 *gate, unsigned int ratio)
{
	unsigned int step = 1 + ratio, left, offset, band, rot, next;
	u32 g = *gate;

	if (ratio >= NEWIDLE_SCALE)
		return true;

	left = newidle_gate_left(g);
	if (left > step) {
		*gate = g - step;
		return false;
	}

	/*
	 * The threshold is passed: move it to the next band, rotated by
	 * step + [0, 1024 - step]. From here it is 1024 + next - offset
	 * away, at least step, so left stays in 0..2047.
	 */
	offset = newidle_gate_offset(g);
	band = (newidle_gate_band(g) + 1) & ((1U << (32 - NEWIDLE_BAND_SHIFT)) - 1);
	rot = step + reciprocal_scale(hash_32(band, 32), NEWIDLE_SCALE + 1 - step);
	next = (offset + rot) & (NEWIDLE_SCALE - 1);
	left = left + NEWIDLE_SCALE + next - offset - step;
	*gate = newidle_gate_pack(left, next, band);
	return true;
}

/* the tree's interface: CPU n as rank n of a span of 256 */
static inline u32 newidle_gate_init(unsigned int cpu)
{
	return newidle_gate_init_ranked(cpu % 256, 256);
}

#endif /* _KERNEL_SCHED_NEWIDLE_H */
