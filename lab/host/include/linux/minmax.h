/* SPDX-License-Identifier: GPL-2.0 */
/* min(), max() and the like live in tools/include's linux/kernel.h */
#include <linux/kernel.h>
#ifndef abs
#define abs(x) ({ typeof(x) _x = (x); _x < 0 ? -_x : _x; })
#endif
