/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the negative-control gates share with kernel/sched/newidle.h: its
 * constants and the layout of the gate's state, so that the selftest built
 * with one of them reads debugfs and runs its model as with the series.
 * No includes: the control headers come before the test's _GNU_SOURCE.
 */
#ifndef _NEGATIVE_GATE_FIELDS_H
#define _NEGATIVE_GATE_FIELDS_H

#define NEWIDLE_SCALE		1024U
#define NEWIDLE_SUCCESS_SHIFT	6

static inline unsigned int newidle_gate_left(unsigned int gate) { return gate & 2047; }
static inline unsigned int newidle_gate_offset(unsigned int gate) { return (gate >> 11) & 1023; }
static inline unsigned int newidle_gate_band(unsigned int gate) { return gate >> 21; }

static inline unsigned int newidle_gate_pack(unsigned int left, unsigned int offset, unsigned int band)
{
	return left | offset << 11 | band << 21;
}
#endif
