/* SPDX-License-Identifier: GPL-2.0 */
/* tools/include's linux/math.h, with reciprocal_scale() of the kernel's */
#ifndef _LAB_HOST_MATH_H
#define _LAB_HOST_MATH_H

#include_next <linux/math.h>
#include <linux/types.h>

static inline u32 reciprocal_scale(u32 val, u32 ep_ro)
{
	return (u32)(((u64)val * ep_ro) >> 32);
}

#endif
