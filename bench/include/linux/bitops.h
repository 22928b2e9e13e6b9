/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tools/include's linux/bitops.h gives kernel/sched/newidle.h, for
 * bench/ni-replay.sh on a machine without a kernel tree: lab/host/include's
 * bitops.h includes this one next (-I after lab/host/include).
 */
#ifndef _BENCH_BITOPS_H
#define _BENCH_BITOPS_H
#include <stdbool.h>
#include <linux/types.h>	/* the system's: __u32 and the like */

typedef __u32 u32;
typedef __s32 s32;
typedef __u64 u64;
typedef __s64 s64;

#define GENMASK(h, l)		((~0UL << (l)) & (~0UL >> (8 * sizeof(long) - 1 - (h))))
#define min_t(type, x, y)	((type)(x) < (type)(y) ? (type)(x) : (type)(y))
#endif
