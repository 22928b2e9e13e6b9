/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's gcd() (lib/math/gcd.c), for host builds of its code */
#ifndef _LAB_HOST_GCD_H
#define _LAB_HOST_GCD_H

static inline unsigned long gcd(unsigned long a, unsigned long b)
{
	while (b) {
		unsigned long r = a % b;

		a = b;
		b = r;
	}
	return a;
}

#endif
