/* SPDX-License-Identifier: GPL-2.0 */
/* tools/include's linux/bitops.h, with sign_extend32() of the kernel's */
#ifndef _LAB_HOST_BITOPS_H
#define _LAB_HOST_BITOPS_H
#include_next <linux/bitops.h>

static inline __s32 sign_extend32(__u32 value, int index)
{
	__u8 shift = 31 - index;

	return (__s32)(value << shift) >> shift;
}
#endif
