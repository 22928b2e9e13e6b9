/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SIM_MODEL_H
#define SIM_MODEL_H
/*
 * A model of the newidle balance gate in userspace (no kernel runs): the
 * tree's newidle.h against v7.3's dice, patch 1's fixed dice, a plain
 * accumulator and three negative controls (enum design), with
 * update_newidle_stats() in whole visits (v7.3) and 1/64ths (the series).
 * NI_RATE's delta >> 22 is held at a constant T. Every case seeds its own
 * generators, so results do not depend on the workers (SIM_WORKERS=n).
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/types.h>
#include <linux/kernel.h>	/* min(), max(), ARRAY_SIZE() */
#include <linux/math.h>	/* lab/host/include: with reciprocal_scale() */

#include NEWIDLE_H	/* the tree's newidle.h, or $SIM_NEWIDLE_H (sim/run.sh) */
#include GOLDEN_H	/* the gate with golden_gate_place(), from sim/run.sh */

#define SCALE		NEWIDLE_SCALE
#define SHIFT		NEWIDLE_SUCCESS_SHIFT

static inline void fail(const char *why)
{
	fprintf(stderr, "gate_sim: %s\n", why);
	exit(2);
}

/* The dice's generator: prandom_u32_state(), L'Ecuyer's taus113 */
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

/* The workload's own generator (splitmix64): the dice draw the same whatever it draws */
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

/* the key names the case, so that no two cases share draws */
static inline void rng_seed(struct rng *r, u64 key)
{
	r->s = key * 0xd1342543de82ef95ULL + 1;
	rng_next(r);
}

static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

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

/* The designs: which visits of a domain attempt */

enum design { DICE73, DICE, PLAIN, RESTART, GATE, NOOWED, GOLDEN };

struct gate {
	enum design design;
	u32 state;		/* GATE, NOOWED, RESTART, GOLDEN */
	unsigned int pos;	/* PLAIN */
	struct taus dice;	/* DICE73, DICE */
};

#define AHEAD		NEWIDLE_GATE_AHEAD

/* The state with its next threshold one band on (the one after is next) */
static inline u32 gate_next(u32 gate)
{
	u32 band = gate >> AHEAD;
	int ahead = sign_extend32(gate, AHEAD - 1) - newidle_gate_place(band);

	band = (band + 1) % NEWIDLE_GATE_BANDS;
	return newidle_gate_pack(band, ahead + SCALE + newidle_gate_place(band));
}

/* newidle_gate() with the owed attempt dropped: the count's negative control */
static inline bool noowed_gate(u32 *gate, unsigned int ratio)
{
	if (!newidle_gate(gate, ratio))
		return false;
	if (sign_extend32(*gate, AHEAD - 1) < 0)
		*gate = gate_next(*gate);
	return true;
}

/* newidle_gate() restarted at the first band by an attempt: CPUs merge */
static inline bool restart_gate(u32 *gate, unsigned int ratio)
{
	if (!newidle_gate(gate, ratio))
		return false;
	*gate = newidle_gate_pack(0, newidle_gate_place(0));
	return true;
}

/* CPU @cpu of a domain as sd_init() starts it; plain starts where the gate does in its band */
static inline void gate_init(struct gate *g, enum design design, unsigned int cpu, u64 seed)
{
	memset(g, 0, sizeof(*g));
	g->design = design;
	g->state = design == GOLDEN ? golden_gate_init(cpu) : newidle_gate_init(cpu);
	g->pos = cpu * NEWIDLE_GATE_STRIDE % SCALE;
	taus_seed(&g->dice, seed);
}

static inline bool plain_visit(unsigned int *pos, unsigned int ratio)
{
	*pos += 1 + ratio;
	if (*pos < SCALE)
		return false;
	*pos -= SCALE;
	return true;
}

/* One newidle visit at @ratio: does it attempt? */
static inline bool gate_visit(struct gate *g, unsigned int ratio)
{
	/* sched_balance_newidle() asks no gate at 1024 */
	if (ratio >= SCALE)
		return true;
	switch (g->design) {
	case PLAIN:
		return plain_visit(&g->pos, ratio);
	case RESTART:
		return restart_gate(&g->state, ratio);
	case GOLDEN:
		return golden_gate(&g->state, ratio);
	case GATE:
		return newidle_gate(&g->state, ratio);
	case NOOWED:
		return noowed_gate(&g->state, ratio);
	case DICE73:
		return taus_next(&g->dice) % 1024 <= 1 + ratio;
	default:
		return taus_next(&g->dice) % 1024 < 1 + ratio;
	}
}

/* How many of the next @n visits at @ratio < 1024 pass no threshold, none owed: one step */
static inline unsigned long newidle_quiet(u32 *gate, unsigned int ratio, unsigned long n)
{
	int ahead = sign_extend32(*gate, AHEAD - 1);
	unsigned long quiet;

	if (ahead < 0)
		return 0;
	quiet = min((unsigned long)ahead / (1 + ratio), n);
	*gate -= quiet * (1 + ratio);
	return quiet;
}

/*
 * @n visits at @ratio; returns how many attempted. The dice draw only when
 * @count is set: where nothing depends on the skipped visits (lock-on)
 * their draws change no outcome, only which numbers come next.
 */
static inline unsigned long gate_skip(struct gate *g, unsigned int ratio, unsigned long n,
				      bool count)
{
	unsigned long attempts = 0, i;
	u64 p;

	if (ratio >= SCALE)
		return n;
	switch (g->design) {
	case PLAIN:
		p = g->pos + (u64)n * (1 + ratio);
		g->pos = p % SCALE;
		return p / SCALE;
	case DICE73:
	case DICE:
		for (i = 0; count && i < n; i++)
			attempts += gate_visit(g, ratio);
		return attempts;
	default:
		/* every gate's quiet visit only counts down, as newidle_gate()'s does */
		while ((n -= newidle_quiet(&g->state, ratio, n))) {
			attempts += gate_visit(g, ratio);
			n--;
		}
		return attempts;
	}
}

/* The estimator: update_newidle_stats() and the weight of a success */

struct est {
	unsigned int call, success, ratio;
	unsigned int shift;	/* 0: v7.3's whole visits; SHIFT: the series' 1/64ths */
	unsigned int rate;	/* T, the NI_RATE term, held constant */
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

/* What a success adds, at the ratio the attempt was let through at */
static inline unsigned int est_weight(const struct est *e)
{
	unsigned int w = 1 + e->ratio;

	if (e->ratio >= SCALE)
		return 1U << e->shift;
	if (e->shift)
		return newidle_success_weight(e->ratio);
	return (1024 + w / 2) / w;
}

/* Visits until update_newidle_stats() sets a new ratio */
static inline unsigned int est_window(const struct est *e)
{
	return 1024 - e->call;
}

/* @n visits (at most est_window()) that added @success together */
static inline void est_visits(struct est *e, unsigned int n, unsigned int success)
{
	unsigned int ratio;

	e->call += n;
	e->success += success;
	if (e->call < 1024)
		return;
	ratio = e->rate + (e->success >> e->shift);
	e->ratio = min(ratio, SCALE);
	e->call /= 2;
	e->success /= 2;
}

/*
 * A design with its estimator (@shift), named in the tables "design/int"
 * (whole visits) or "design/64" (1/64ths); @redraw n > 0: the same again
 * with the n-th other draws, "... again" (n = 1), "... again2" and on
 */
struct variant {
	enum design design;
	unsigned int shift;
	unsigned int redraw;
	const char *name;
};

/* Shared memory, for the workers' results */
static inline void *shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap failed");
	return p;
}

/*
 * One worker per CPU (SIM_WORKERS: n) runs job(0 .. @jobs - 1, r), each once:
 * r is @size bytes of shared memory begun as a copy of @init, which the jobs
 * fill in. Returns r, mapped until the program ends: the results are small,
 * and read until then.
 */
static inline void *parallel(const void *init, size_t size, unsigned int jobs,
			     void (*job)(unsigned int, void *))
{
	const char *env = getenv("SIM_WORKERS");
	long i, workers = env && atol(env) > 0 ? atol(env) : sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int *next = shared(sizeof(*next));
	void *r = memcpy(shared(size), init, size);
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
				job(j, r);
			_exit(0);
		}
	}
	while (wait(&status) > 0)
		failed |= !WIFEXITED(status) || WEXITSTATUS(status);
	if (failed)
		fail("a worker failed");
	return r;
}

/*
 * The tables, a file each: @check prints the claims and their negative
 * controls as TAP (tap()), from shorter runs, instead of the table
 */
void lockon(bool check), estimator(bool check), count(bool check), lockstep(bool check);

void tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* SIM_MODEL_H */
