// SPDX-License-Identifier: GPL-2.0
/*
 * msgbench: the lab's load of the kind schbench measures (Chris Mason's
 * "-L -m 4 -M auto -t 256 -n 0 -r 0 -s 0"): CPUs go idle and come back all
 * the time, and how soon a woken worker runs depends on where the newidle
 * balance left the tasks. Nothing is pinned. Each of M message threads posts
 * a request to each of its T workers and sleeps until the last one replies;
 * a worker counts now - post as its wakeup latency, spins WORK_US, replies.
 *
 * Usage: msgbench [-m M] [-t T] [-r SECONDS] [-w WORK_US]
 * Prints a line of key=value: rps, lat_p50_us, lat_p90_us, lat_p99_us,
 * msg_cpu_s (the message threads' CPU time), msg_cpu_us_per_req, the settings.
 */
#define PROG "msgbench"
#include "bench.h"

/*
 * Latency histogram, log-linear over ns: under 32 exact, then 32 buckets per
 * power of two (at most 3 % wide), so that a fixed array covers uint64_t and
 * a worker counts with no allocation and no lock.
 */
#define SUB_BITS	5
#define SUB		(1 << SUB_BITS)
#define NBUCKETS	((64 - SUB_BITS + 1) * SUB)

struct worker {
	_Atomic uint32_t word;		/* futex word: 1 once a request is posted */
	_Atomic unsigned long done;	/* requests served */
	uint64_t post_ns;		/* written before word, read after it */
	struct msg *msg;
	pthread_t tid;
	unsigned long hist[NBUCKETS];
} __attribute__((aligned(64)));

struct msg {
	_Atomic uint32_t pending;	/* futex word: replies still due this round */
	int nr;				/* its workers: workers[nr * T .. nr * T + T - 1] */
	double cpu_s;			/* its CPU time over the measured loop */
	pthread_t tid;
} __attribute__((aligned(64)));

static struct worker *workers;
static struct msg *msgs;
static int nr_workers, work_us;
static _Atomic int started, go, stop, quit;

static int bucket(uint64_t ns)
{
	int msb;

	if (ns < SUB)
		return ns;
	msb = 63 - __builtin_clzll(ns);
	return (msb - SUB_BITS + 1) * SUB + ((ns >> (msb - SUB_BITS)) & (SUB - 1));
}

static double bucket_us(int b)
{
	int g = b / SUB, s = b % SUB;
	double lo, width;

	if (g == 0)
		return b / 1e3;
	lo = (double)((uint64_t)(SUB + s) << (g - 1));
	width = (double)(1ull << (g - 1));
	return (lo + width / 2) / 1e3;
}

static double thread_cpu_s(void)
{
	struct rusage r;

	getrusage(RUSAGE_THREAD, &r);
	return ru_cpu_s(&r);
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	uint64_t t;

	atomic_fetch_add(&started, 1);
	for (;;) {
		while (!atomic_load(&w->word)) {
			if (atomic_load(&quit))
				return NULL;
			futex(&w->word, FUTEX_WAIT, 0);
		}
		/* quit is only set once every message thread has finished */
		if (atomic_load(&quit))
			return NULL;
		t = now_ns();
		atomic_store(&w->word, 0);
		w->hist[bucket(t - w->post_ns)]++;
		/* the think time: a spin, so the CPU stays busy for it */
		while (work_us && now_ns() - t < work_us * 1000ull)
			;
		atomic_fetch_add(&w->done, 1);
		if (atomic_fetch_sub(&w->msg->pending, 1) == 1)
			futex(&w->msg->pending, FUTEX_WAKE, 1);
	}
}

static void *msg_fn(void *arg)
{
	struct msg *m = arg;
	struct worker *w = &workers[m->nr * nr_workers];
	double cpu0;
	uint32_t v;
	int i;

	atomic_fetch_add(&started, 1);
	while (!atomic_load(&go))
		usleep(100);
	cpu0 = thread_cpu_s();
	/* stop is seen between rounds only: every request posted is answered */
	while (!atomic_load(&stop)) {
		atomic_store(&m->pending, nr_workers);
		for (i = 0; i < nr_workers; i++) {
			w[i].post_ns = now_ns();
			atomic_store(&w[i].word, 1);
			futex(&w[i].word, FUTEX_WAKE, 1);
		}
		while ((v = atomic_load(&m->pending)))
			futex(&m->pending, FUTEX_WAIT, v);
	}
	m->cpu_s = thread_cpu_s() - cpu0;
	return NULL;
}

int main(int argc, char **argv)
{
	int nr_msgs = 4, secs = 10, i, b;
	unsigned long total = 0, requests = 0, *hist, seen, want[3];
	double elapsed, cpu_s = 0, lat[3];
	static const double pct[3] = { 0.50, 0.90, 0.99 };
	struct timespec ts;
	uint64_t t0;
	int *vals[] = { &nr_msgs, &nr_workers, &secs, &work_us };
	static const long lim[][2] = { { 1, 1024 }, { 1, 4096 }, { 1, 1000000 }, { 0, 1000000 } };

	nr_workers = 16;
	options(argc, argv, "mtrw", vals, lim, "[-m M] [-t T] [-r SECONDS] [-w WORK_US]");
	if (optind != argc) {
		fprintf(stderr, "msgbench: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	/* each worker has its histogram, 15 KiB: at most 16384 of them, 240 MiB */
	if (nr_msgs * nr_workers > 16384) {
		fprintf(stderr, "msgbench: -m x -t is %d, more than 16384 workers\n", nr_msgs * nr_workers);
		return 2;
	}
	workers = aligned_alloc(64, sizeof(*workers) * nr_msgs * nr_workers);
	msgs = aligned_alloc(64, sizeof(*msgs) * nr_msgs);
	hist = calloc(NBUCKETS, sizeof(*hist));
	if (!workers || !msgs || !hist) {
		fprintf(stderr, "msgbench: out of memory\n");
		return 1;
	}
	memset(workers, 0, sizeof(*workers) * nr_msgs * nr_workers);
	memset(msgs, 0, sizeof(*msgs) * nr_msgs);
	for (i = 0; i < nr_msgs * nr_workers; i++) {
		workers[i].msg = &msgs[i / nr_workers];
		if (pthread_create(&workers[i].tid, NULL, worker_fn, &workers[i]))
			goto nothread;
	}
	for (i = 0; i < nr_msgs; i++) {
		msgs[i].nr = i;
		if (pthread_create(&msgs[i].tid, NULL, msg_fn, &msgs[i]))
			goto nothread;
	}
	/* the clock starts once every thread exists and runs */
	while (atomic_load(&started) < nr_msgs * (nr_workers + 1))
		usleep(200);
	t0 = now_ns();
	atomic_store(&go, 1);
	ts.tv_sec = secs;
	ts.tv_nsec = 0;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	atomic_store(&stop, 1);
	elapsed = (now_ns() - t0) / 1e9;
	for (i = 0; i < nr_msgs * nr_workers; i++)
		requests += atomic_load(&workers[i].done);

	for (i = 0; i < nr_msgs; i++) {
		pthread_join(msgs[i].tid, NULL);
		cpu_s += msgs[i].cpu_s;
	}
	/* no request is outstanding now: a post of 1 with quit set ends a worker */
	atomic_store(&quit, 1);
	for (i = 0; i < nr_msgs * nr_workers; i++) {
		atomic_store(&workers[i].word, 1);
		futex(&workers[i].word, FUTEX_WAKE, 1);
		pthread_join(workers[i].tid, NULL);
		for (b = 0; b < NBUCKETS; b++)
			hist[b] += workers[i].hist[b];
	}
	for (b = 0; b < NBUCKETS; b++)
		total += hist[b];
	if (!requests || !total) {
		fprintf(stderr, "msgbench: no request completed\n");
		return 1;
	}
	/* a percentile is the middle of the bucket that holds it */
	for (i = 0; i < 3; i++)
		want[i] = (unsigned long)(pct[i] * total + 0.5) ?: 1;
	for (b = 0, seen = 0, i = 0; b < NBUCKETS && i < 3; b++) {
		seen += hist[b];
		while (i < 3 && seen >= want[i])
			lat[i++] = bucket_us(b);
	}
	printf("rps=%.1f lat_p50_us=%.2f lat_p90_us=%.2f lat_p99_us=%.2f msg_cpu_s=%.3f "
	       "msg_cpu_us_per_req=%.4f m=%d t=%d work_us=%d seconds=%.2f\n",
	       requests / elapsed, lat[0], lat[1], lat[2], cpu_s, cpu_s * 1e6 / requests,
	       nr_msgs, nr_workers, work_us, elapsed);
	return 0;

nothread:
	fprintf(stderr, "msgbench: cannot create %d threads\n", nr_msgs * (nr_workers + 1));
	return 1;
}
