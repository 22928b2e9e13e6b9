/* SPDX-License-Identifier: GPL-2.0 */
/* the host build allocates with calloc() (kunit/test.h); only the flag is needed */
#ifndef GFP_KERNEL
#define GFP_KERNEL 0
#endif
