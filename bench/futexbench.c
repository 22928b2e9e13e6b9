// SPDX-License-Identifier: GPL-2.0
/*
 * futexbench: a waker fanning out to pinned workers over futexes, the
 * newidle-heavy pattern of the sembench runs in the review of the newidle
 * gate. T workers, each pinned to one CPU (cycling through the allowed
 * CPUs), sleep on a futex of their own; the main thread, free to migrate,
 * scans them and wakes at most W idle ones per pass. A woken worker does
 * almost nothing, counts a completion and sleeps again.
 *
 * Usage: futexbench [-t THREADS] [-w WAKE_PER_PASS] [-r SECONDS]
 * Prints one line of key=value: completions per second, and the main
 * thread's CPU time, context switches and migrations per completion.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct worker {
	_Atomic int state;		/* 0: sleeping or about to, 1: woken */
	_Atomic unsigned long done;
	int cpu;
	pthread_t tid;
} __attribute__((aligned(64)));

static struct worker *workers;
static _Atomic int stop;

static long futex(_Atomic int *uaddr, int op, int val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	while (!atomic_load(&stop)) {
		while (atomic_load(&w->state) == 0 && !atomic_load(&stop))
			futex(&w->state, FUTEX_WAIT_PRIVATE, 0);
		atomic_fetch_add(&w->done, 1);
		atomic_store(&w->state, 0);
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* se.nr_migrations of the calling thread, -1 when the kernel hides it */
static long migrations(void)
{
	char path[64], line[256];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/sched", (long)syscall(SYS_gettid));
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "se.nr_migrations", 16))
			n = atol(strchr(line, ':') + 1);
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	int threads = 8, wake = 4, secs = 10, opt, i, ncpu, *cpus;
	unsigned long total = 0;
	struct rusage r0, r1;
	long m0, m1;
	cpu_set_t allowed;
	double t0, t1;

	while ((opt = getopt(argc, argv, "t:w:r:")) != -1) {
		switch (opt) {
		case 't': threads = atoi(optarg); break;
		case 'w': wake = atoi(optarg); break;
		case 'r': secs = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-t THREADS] [-w WAKE_PER_PASS] [-r SECONDS]\n",
				argv[0]);
			return 2;
		}
	}
	if (threads < 1 || wake < 1 || secs < 1) {
		fprintf(stderr, "futexbench: -t, -w and -r take positive numbers\n");
		return 2;
	}
	sched_getaffinity(0, sizeof(allowed), &allowed);
	ncpu = CPU_COUNT(&allowed);
	cpus = calloc(ncpu, sizeof(*cpus));
	for (i = 0, opt = 0; i < CPU_SETSIZE && opt < ncpu; i++)
		if (CPU_ISSET(i, &allowed))
			cpus[opt++] = i;
	workers = aligned_alloc(64, sizeof(*workers) * threads);
	if (!workers || !cpus)
		return 1;
	memset(workers, 0, sizeof(*workers) * threads);
	for (i = 0; i < threads; i++) {
		workers[i].cpu = cpus[i % ncpu];
		if (pthread_create(&workers[i].tid, NULL, worker_fn, &workers[i])) {
			perror("pthread_create");
			return 1;
		}
	}

	getrusage(RUSAGE_THREAD, &r0);
	m0 = migrations();
	t0 = now();
	t1 = t0;
	for (unsigned long pass = 0; t1 - t0 < secs; pass++) {
		int woken = 0;

		for (i = 0; i < threads && woken < wake; i++) {
			int expect = 0;
			struct worker *w = &workers[(pass + i) % threads];

			if (atomic_compare_exchange_strong(&w->state, &expect, 1)) {
				futex(&w->state, FUTEX_WAKE_PRIVATE, 1);
				woken++;
			}
		}
		if (!woken)
			sched_yield();
		if ((pass & 255) == 0)
			t1 = now();
	}
	t1 = now();
	getrusage(RUSAGE_THREAD, &r1);
	m1 = migrations();
	for (i = 0; i < threads; i++)
		total += atomic_load(&workers[i].done);

	atomic_store(&stop, 1);
	for (i = 0; i < threads; i++) {
		atomic_store(&workers[i].state, 1);
		futex(&workers[i].state, FUTEX_WAKE_PRIVATE, 1);
		pthread_join(workers[i].tid, NULL);
	}

	{
		double cpu_us = (r1.ru_utime.tv_sec - r0.ru_utime.tv_sec +
				 r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) * 1e6 +
				(r1.ru_utime.tv_usec - r0.ru_utime.tv_usec +
				 r1.ru_stime.tv_usec - r0.ru_stime.tv_usec);
		long csw = (r1.ru_nvcsw - r0.ru_nvcsw) + (r1.ru_nivcsw - r0.ru_nivcsw);
		double k = total / 1000.0;
		char migr[32] = "na";

		if (m0 >= 0 && m1 >= 0 && k > 0)
			snprintf(migr, sizeof(migr), "%.3f", (m1 - m0) / k);
		printf("completions_per_s=%.1f main_cpu_us_per_completion=%.4f "
		       "main_csw_per_1k=%.3f main_migrations_per_1k=%s threads=%d wake=%d seconds=%.2f\n",
		       total / (t1 - t0), total ? cpu_us / total : 0.0,
		       k > 0 ? csw / k : 0.0, migr, threads, wake, t1 - t0);
	}
	return total ? 0 : 1;
}
