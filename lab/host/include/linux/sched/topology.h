/* SPDX-License-Identifier: GPL-2.0 */
/* struct sched_domain's newidle fields, as the kernel names and types them */
#ifndef _LAB_HOST_SCHED_TOPOLOGY_H
#define _LAB_HOST_SCHED_TOPOLOGY_H
#include <linux/types.h>

struct sched_domain {
	unsigned int newidle_call;
	unsigned int newidle_success;
	unsigned int newidle_ratio;
	u32 newidle_gate;
	u64 newidle_stamp;
};
#endif
