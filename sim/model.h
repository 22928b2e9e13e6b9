/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SIM_MODEL_H
#define SIM_MODEL_H
/*
 * A model of the newidle balance gate, in userspace.
 *
 * It builds the kernel tree's own kernel/sched/newidle.h (the gate of the
 * series) and sets it against four other ways to pick which newidle visits
 * of a domain attempt a balance:
 *
 *   v7.3 dice   prandom_u32_state() % 1024, attempt when d1k <= 1 + ratio:
 *               (2 + ratio) / 1024 of the visits
 *   fixed dice  the same, attempt when d1k < 1 + ratio
 *   plain       the series' first version: pos += 1 + ratio, attempt and
 *               pos -= 1024 when pos >= 1024; pos starts at rank * 1024 / weight
 *   golden      attempt when pos >= 512 + d, then pos -= 1024 and d moves on
 *               by 633 (1024 / golden ratio); d starts at rank * 1024 / weight
 *   gate        newidle_gate() from newidle.h
 *
 * and models sched_balance_newidle()'s estimator of v7.3 (update_newidle_stats():
 * whole successes, weight (1024 + w / 2) / w) and of the series (1/64ths,
 * newidle_success_weight()). The NI_RATE term (delta >> 22) is a constant T.
 *
 * Everything here is a model: no kernel runs. Usage:
 *
 *   gate_sim table [A|B|C|D|E]...   the tables (all without a letter)
 *   gate_sim check                  the series' claims and negative controls, as TAP
 *   gate_sim timeline RATIO VISITS  one line per visit, for the chart
 *   gate_sim cost DESIGN RATIO VISITS  decisions at one ratio, for callgrind
 *
 * The tables fork one worker per CPU (SIM_WORKERS=n to override); every case
 * seeds its own generators, so the results do not depend on the workers.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/types.h>
#include <linux/math.h>	/* lab/host/include: with reciprocal_scale() */

#include NEWIDLE_H	/* "<kernel tree>/kernel/sched/newidle.h", from sim/run.sh */
/* NEWIDLE_SUCCESS_SHIFT and newidle_success_weight(), from the tree's sched.h and fair.c */
#include ESTIMATOR_H

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define SCALE		NEWIDLE_SCALE
#define SHIFT		NEWIDLE_SUCCESS_SHIFT

static inline void fail(const char *why)
{
	fprintf(stderr, "gate_sim: %s\n", why);
	exit(2);
}

/* ------------------------------------------------------------------------
 * Generators
 */

/*
 * The dice's generator: prandom_u32_state() is L'Ecuyer's combined
 * Tausworthe generator of period 2^113 ("taus113"), from its recurrence.
 */
struct taus {
	u32 s1, s2, s3, s4;
};

static inline u32 taus_step(u32 s, int q, int shift, int k, u32 mask)
{
	return ((s & mask) << k) ^ (((s << q) ^ s) >> shift);
}

static inline u32 taus_next(struct taus *t)
{
	t->s1 = taus_step(t->s1, 6, 13, 18, 4294967294U);
	t->s2 = taus_step(t->s2, 2, 27, 2, 4294967288U);
	t->s3 = taus_step(t->s3, 13, 21, 7, 4294967280U);
	t->s4 = taus_step(t->s4, 3, 12, 13, 4294967168U);
	return t->s1 ^ t->s2 ^ t->s3 ^ t->s4;
}

/*
 * The model's own randomness (start phases, jitter, success draws, ratio
 * sequences) comes from a separate generator, so that the dice's draws are
 * the same whatever the workload draws: splitmix64.
 */
struct rng {
	u64 s;
};

static inline u64 rng_next(struct rng *r)
{
	u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A generator for one case: the key names the case, so no two share draws. */
static inline void rng_seed(struct rng *r, u64 key)
{
	r->s = key * 0xd1342543de82ef95ULL + 1;
	rng_next(r);
}

/* Uniform in [0, 1). */
static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* Uniform in 0 .. n - 1. */
static inline unsigned int rng_below(struct rng *r, unsigned int n)
{
	return reciprocal_scale((u32)(rng_next(r) >> 32), n);
}

static inline void taus_seed(struct taus *t, u64 key)
{
	struct rng r;
	int i;

	/* any state with s1 > 1, s2 > 7, s3 > 15, s4 > 127 is valid */
	rng_seed(&r, key);
	t->s1 = (u32)rng_next(&r) | 2;
	t->s2 = (u32)rng_next(&r) | 8;
	t->s3 = (u32)rng_next(&r) | 16;
	t->s4 = (u32)rng_next(&r) | 128;
	for (i = 0; i < 10; i++)
		taus_next(t);
}

/* ------------------------------------------------------------------------
 * The designs: which visits of a domain attempt
 */

enum design { DICE73, DICE, PLAIN, GOLDEN, GATE, NR_DESIGNS };

static const char *const design_name[NR_DESIGNS] __attribute__((unused)) = {
	[DICE73] = "v7.3 dice",
	[DICE] = "fixed dice",
	[PLAIN] = "plain",
	[GOLDEN] = "golden",
	[GATE] = "gate",
};

#define GOLDEN_STEP	633	/* 1024 / 1.618..., rounded: spreads d over the band */

struct gate {
	enum design design;
	u32 state;		/* GATE: newidle.h's state */
	unsigned int pos;	/* PLAIN: the position in the band */
	long gpos;		/* GOLDEN: the position, below 0 after an attempt */
	unsigned int d;		/* GOLDEN: the threshold's offset */
	struct taus dice;	/* DICE73, DICE */
};

/* rank * 1024 / weight: where the CPUs of a domain start, spread over a band */
static inline unsigned int spread(unsigned int rank, unsigned int weight)
{
	return weight ? rank * SCALE / weight % SCALE : 0;
}

static inline void gate_init(struct gate *g, enum design design, unsigned int rank,
		      unsigned int weight, u64 seed)
{
	memset(g, 0, sizeof(*g));
	g->design = design;
	g->state = newidle_gate_init(rank, weight);
	g->pos = spread(rank, weight);
	g->d = spread(rank, weight);
	taus_seed(&g->dice, seed);
}

static inline bool dice_visit(struct gate *g, unsigned int ratio)
{
	u32 d1k = taus_next(&g->dice) % 1024;

	return g->design == DICE73 ? d1k <= 1 + ratio : d1k < 1 + ratio;
}

static inline bool plain_visit(unsigned int *pos, unsigned int ratio)
{
	*pos += 1 + ratio;
	if (*pos < SCALE)
		return false;
	*pos -= SCALE;
	return true;
}

static inline bool golden_visit(struct gate *g, unsigned int ratio)
{
	g->gpos += 1 + ratio;
	if (g->gpos < 512 + (long)g->d)
		return false;
	g->gpos -= SCALE;
	g->d = (g->d + GOLDEN_STEP) & (SCALE - 1);
	return true;
}

/* One newidle visit of the domain at @ratio: does it attempt? */
static inline bool gate_visit(struct gate *g, unsigned int ratio)
{
	/* sched_balance_newidle() asks no gate at 1024 */
	if (ratio >= SCALE)
		return true;
	switch (g->design) {
	case PLAIN:
		return plain_visit(&g->pos, ratio);
	case GOLDEN:
		return golden_visit(g, ratio);
	case GATE:
		return newidle_gate(&g->state, ratio);
	default:
		return dice_visit(g, ratio);
	}
}

/*
 * Long runs spend most visits between attempts. These skip them without
 * changing a thing: the check's first test compares them with gate_visit()
 * visit by visit.
 */
static inline unsigned long plain_skip(unsigned int *pos, unsigned int ratio, unsigned long n)
{
	u64 p = *pos + (u64)n * (1 + ratio);

	*pos = p % SCALE;
	return p / SCALE;
}

static inline unsigned long golden_skip(struct gate *g, unsigned int ratio, unsigned long n)
{
	unsigned long step = 1 + ratio, attempts = 0;

	while (n) {
		long to_go = 512 + (long)g->d - g->gpos;
		unsigned long m = to_go <= 0 ? 1 : (to_go + step - 1) / step;

		if (m > n) {
			g->gpos += n * step;
			break;
		}
		g->gpos += (m - 1) * step;
		if (!golden_visit(g, ratio))
			fail("golden: no attempt where the model expects it");
		attempts++;
		n -= m;
	}
	return attempts;
}

/*
 * While left > 1 + ratio, newidle_gate() only writes state - (1 + ratio):
 * the (left - 1) / (1 + ratio) visits before an attempt are one subtraction.
 * The visit that attempts is newidle_gate()'s own.
 */
static inline unsigned long newidle_skip(u32 *state, unsigned int ratio, unsigned long n)
{
	unsigned int step = 1 + ratio;
	/* ceil(2^32 / step): left < 2^11 divides exactly by a multiply */
	u64 inv = ((1ULL << 32) + step - 1) / step;
	unsigned long attempts = 0;

	while (n) {
		unsigned int left = newidle_gate_left(*state);
		unsigned long quiet = left ? ((left - 1) * inv) >> 32 : 0;

		if (quiet >= n) {
			*state -= n * step;
			break;
		}
		*state -= quiet * step;
		n -= quiet + 1;
		if (!newidle_gate(state, ratio))
			fail("newidle_gate() did not attempt where the model expects it");
		attempts++;
	}
	return attempts;
}

/*
 * @n visits at @ratio; returns how many attempted. The dice draw only when
 * @count is set: where nothing depends on the skipped visits (the lock-on
 * runs) their draws change no outcome, only which numbers come next.
 */
static inline unsigned long gate_skip(struct gate *g, unsigned int ratio, unsigned long n, bool count)
{
	unsigned long attempts = 0, i;

	if (ratio >= SCALE)
		return n;
	switch (g->design) {
	case PLAIN:
		return plain_skip(&g->pos, ratio, n);
	case GOLDEN:
		return golden_skip(g, ratio, n);
	case GATE:
		return newidle_skip(&g->state, ratio, n);
	default:
		if (!count)
			return 0;
		for (i = 0; i < n; i++)
			attempts += dice_visit(g, ratio);
		return attempts;
	}
}

/* ------------------------------------------------------------------------
 * The estimator: update_newidle_stats() and the weight of a success
 */

struct est {
	unsigned int call, success, ratio;
	unsigned int shift;	/* 0: v7.3's whole successes; SHIFT: the series' 1/64ths */
	unsigned int rate;	/* T, the NI_RATE term delta >> 22, held constant */
};

/* sd_init(): a 50 % success rate to start from */
static inline void est_init(struct est *e, unsigned int shift, unsigned int rate)
{
	e->call = 512;
	e->success = 256U << shift;
	e->ratio = 512;
	e->shift = shift;
	e->rate = rate;
}

/* What a success adds, at the ratio the gate let the attempt through at. */
static inline unsigned int est_weight(const struct est *e)
{
	unsigned int w = 1 + e->ratio;

	if (e->ratio >= SCALE)
		return 1U << e->shift;
	if (e->shift)
		return newidle_success_weight(e->ratio);
	return (1024 + w / 2) / w;
}

/* Visits to go until update_newidle_stats() sets a new ratio: 512 each time. */
static inline unsigned int est_window(const struct est *e)
{
	return 1024 - e->call;
}

/*
 * update_newidle_stats() for @n visits (at most est_window()) that added
 * @success together: the ratio only changes when call reaches 1024.
 */
static inline void est_visits(struct est *e, unsigned int n, unsigned int success)
{
	unsigned int ratio;

	e->call += n;
	e->success += success;
	if (e->call < 1024)
		return;
	ratio = e->rate + (e->success >> e->shift);
	e->ratio = ratio < SCALE ? ratio : SCALE;
	e->call /= 2;
	e->success /= 2;
}

/*
 * A design with the estimator it runs with. @redraw gives the dice other
 * draws than the case's: the same design again, to show how far two runs
 * of it differ by chance.
 */
struct variant {
	enum design design;
	unsigned int shift;
	bool redraw;
};

static inline const char *variant_name(const struct variant *v)
{
	static char buf[8][32];
	static unsigned int n;
	char *b = buf[n++ % ARRAY_LEN(buf)];

	snprintf(b, sizeof(buf[0]), "%s/%s%s", design_name[v->design], v->shift ? "64" : "int",
		 v->redraw ? " again" : "");
	return b;
}

/* ------------------------------------------------------------------------
 * One worker per CPU
 */

/* Memory the workers write their results to and the parent reads. */
static inline void *shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap failed");
	return p;
}

static inline long nr_workers(void)
{
	const char *env = getenv("SIM_WORKERS");
	long n = env ? atol(env) : sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? n : 1;
}

/* Runs job(0 .. jobs - 1, arg), each once, in the workers; job 0 first. */
static inline void parallel(unsigned int jobs, void (*job)(unsigned int, void *), void *arg)
{
	unsigned int *next = shared(sizeof(*next));
	long i, workers = nr_workers();
	bool failed = false;
	int status;

	fflush(NULL);
	for (i = 0; i < workers; i++) {
		pid_t pid = fork();

		if (pid < 0)
			fail("fork failed");
		if (pid == 0) {
			unsigned int j;

			while ((j = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED)) < jobs)
				job(j, arg);
			_exit(0);
		}
	}
	while (wait(&status) > 0)
		failed |= !WIFEXITED(status) || WEXITSTATUS(status);
	munmap(next, sizeof(*next));
	if (failed)
		fail("a worker failed");
}


/* ------------------------------------------------------------------------
 * The tables and their checks, a file each; the checks print TAP
 */
void table_lockon(void);
void table_estimator(void);
void table_exactness(void);
void table_lockstep(void);
void table_subsets(void);
void table_levels(void);
void check_lockon(void);
void check_estimator(void);
void check_exactness(void);
void check_lockstep(void);
void check_subsets(void);
void check_levels(void);

/* One TAP result of the checks (main.c) */
void tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* SIM_MODEL_H */
