// SPDX-License-Identifier: GPL-2.0
/* What bench/futexbench.c and bench/msgbench.c share; PROG names the program. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long futex(_Atomic uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static double ru_cpu_s(const struct rusage *r)
{
	return r->ru_utime.tv_sec + r->ru_stime.tv_sec + (r->ru_utime.tv_usec + r->ru_stime.tv_usec) / 1e6;
}

/* an option's value from MIN to MAX, else exit 2; MAX 0: "from MIN up", to 10^6 */
static int number(const char *s, const char *what, long min, long max)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < min || v > (max ? max : 1000000)) {
		if (max)
			fprintf(stderr, PROG ": %s takes a number from %ld to %ld, not '%s'\n", what, min, max, s);
		else
			fprintf(stderr, PROG ": %s takes a number from %ld up, not '%s'\n", what, min, s);
		exit(2);
	}
	return (int)v;
}

/* getopt of the letters OPTS, each taking a number from LIM[i][0] to LIM[i][1] into *VALS[i] */
static void options(int argc, char **argv, const char *opts, int *vals[], const long lim[][2], const char *usage)
{
	char spec[64], what[3] = "-";
	const char *p;
	int opt, n = 0;

	for (p = opts; *p && n < 62; p++) {
		spec[n++] = *p;
		spec[n++] = ':';
	}
	spec[n] = '\0';
	while ((opt = getopt(argc, argv, spec)) != -1) {
		p = strchr(opts, opt);
		if (opt == '?' || opt == ':' || !p) {
			fprintf(stderr, "usage: %s %s\n", argv[0], usage);
			exit(2);
		}
		what[1] = (char)opt;
		*vals[p - opts] = number(optarg, what, lim[p - opts][0], lim[p - opts][1]);
	}
}
