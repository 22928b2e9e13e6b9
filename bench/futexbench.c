// SPDX-License-Identifier: GPL-2.0
/*
 * futexbench: the newidle-heavy loop of sembench-ng -o 2 (the review of the
 * newidle gate), rewritten for the lab. T workers, pinned in turn to the
 * allowed CPUs from the OFFSET-th, sleep on futex words of their own; the
 * main thread, free to migrate, wakes at most W ready ones per pass and
 * never yields. Unlike sembench, timing starts once every worker is ready.
 *
 * Usage: futexbench [-t THREADS] [-w WAKE_PER_PASS] [-r SECONDS] [-i MS] [-c OFFSET]
 * Prints a line of key=value; with -i, also "interval t_ms=... completions=..."
 * every MS milliseconds.
 */
#define PROG "futexbench"
#include "bench.h"

struct worker {
	_Atomic uint32_t word;		/* futex word: 1 while waiting to be woken */
	_Atomic int ready;		/* published by the worker, taken by main */
	_Atomic unsigned long done;
	_Atomic int exited;
	int cpu;
	pthread_t tid;
} __attribute__((aligned(64)));

static struct worker *workers;
static _Atomic int stop;
static _Atomic int started;

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		fprintf(stderr, "futexbench: cannot bind a worker to CPU %d\n", w->cpu);
		exit(1);
	}
	atomic_fetch_add(&started, 1);
	while (!atomic_load(&stop)) {
		atomic_store(&w->word, 1);
		atomic_store(&w->ready, 1);
		while (atomic_load(&w->word) == 1 && !atomic_load(&stop)) {
			if (futex(&w->word, FUTEX_WAIT, 1) && errno != EAGAIN && errno != EINTR) {
				perror("futexbench: FUTEX_WAIT");
				exit(1);
			}
		}
		atomic_fetch_add(&w->done, 1);
	}
	atomic_store(&w->exited, 1);
	return NULL;
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

static unsigned long total_done(int threads)
{
	unsigned long total = 0;
	int i;

	for (i = 0; i < threads; i++)
		total += atomic_load(&workers[i].done);
	return total;
}

/* Wake at most @wake ready workers, scanning from the last one woken. */
static int wake_some(int threads, int wake, int *last)
{
	int i, woken = 0;

	for (i = 0; i < threads && woken < wake; i++) {
		int idx = (*last + i) % threads;
		struct worker *w = &workers[idx];

		if (!atomic_load(&w->ready))
			continue;
		atomic_store(&w->ready, 0);
		*last = idx;
		atomic_store(&w->word, 0);
		if (futex(&w->word, FUTEX_WAKE, 1) < 0) {
			perror("futexbench: FUTEX_WAKE");
			exit(1);
		}
		woken++;
	}
	return woken;
}

int main(int argc, char **argv)
{
	int threads = 8, wake = 4, secs = 10, interval_ms = 0, offset = 0, opt, i, ncpu, last = 0;
	int *cpus;
	unsigned long total, prev = 0;
	struct rusage r0, r1;
	double t0, t, next_iv;
	cpu_set_t allowed;
	long m0, m1;
	int *vals[] = { &threads, &wake, &secs, &interval_ms, &offset };
	static const long lim[][2] = { { 1, 0 }, { 1, 0 }, { 1, 0 }, { 1, 0 }, { 0, 0 } };

	options(argc, argv, "twric", vals, lim, "[-t THREADS] [-w WAKE_PER_PASS] [-r SECONDS] [-i MS] [-c OFFSET]");
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		perror("futexbench: sched_getaffinity");
		return 1;
	}
	ncpu = CPU_COUNT(&allowed);
	cpus = calloc(ncpu, sizeof(*cpus));
	workers = aligned_alloc(64, sizeof(*workers) * threads);
	if (!workers || !cpus)
		return 1;
	for (i = 0, opt = 0; i < CPU_SETSIZE && opt < ncpu; i++)
		if (CPU_ISSET(i, &allowed))
			cpus[opt++] = i;
	memset(workers, 0, sizeof(*workers) * threads);
	for (i = 0; i < threads; i++) {
		workers[i].cpu = cpus[(i + offset) % ncpu];
		if (pthread_create(&workers[i].tid, NULL, worker_fn, &workers[i])) {
			perror("futexbench: pthread_create");
			return 1;
		}
	}
	while (atomic_load(&started) < threads)
		usleep(200);

	getrusage(RUSAGE_THREAD, &r0);
	m0 = migrations();
	t0 = now_ns() / 1e9;
	t = t0;
	next_iv = t0 + interval_ms / 1e3;
	while (t - t0 < secs) {
		wake_some(threads, wake, &last);
		t = now_ns() / 1e9;
		if (interval_ms && t >= next_iv) {
			total = total_done(threads);
			printf("interval t_ms=%.0f completions=%lu\n", (t - t0) * 1e3, total - prev);
			prev = total;
			next_iv += interval_ms / 1e3;
		}
	}
	getrusage(RUSAGE_THREAD, &r1);
	m1 = migrations();
	total = total_done(threads);

	atomic_store(&stop, 1);
	for (i = 0; i < threads; i++) {
		while (!atomic_load(&workers[i].exited)) {
			atomic_store(&workers[i].word, 0);
			futex(&workers[i].word, FUTEX_WAKE, 1);
			usleep(100);
		}
		pthread_join(workers[i].tid, NULL);
	}

	{
		double cpu_us = (ru_cpu_s(&r1) - ru_cpu_s(&r0)) * 1e6;
		long csw = (r1.ru_nvcsw - r0.ru_nvcsw) + (r1.ru_nivcsw - r0.ru_nivcsw);
		double k = total / 1000.0;
		char migr[32] = "na";

		if (m0 >= 0 && m1 >= 0 && k > 0)
			snprintf(migr, sizeof(migr), "%.3f", (m1 - m0) / k);
		printf("completions_per_s=%.1f main_cpu_us_per_completion=%.4f "
		       "main_csw_per_1k=%.3f main_migrations_per_1k=%s threads=%d wake=%d seconds=%.2f\n",
		       total / (t - t0), total ? cpu_us / total : 0.0,
		       k > 0 ? csw / k : 0.0, migr, threads, wake, t - t0);
	}
	return total ? 0 : 1;
}
