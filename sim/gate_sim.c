// SPDX-License-Identifier: GPL-2.0
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

/* The kernel's, from linux/reciprocal_div.h, which tools/include lacks. */
static inline u32 reciprocal_scale(u32 val, u32 ep_ro)
{
	return (u32)(((u64)val * ep_ro) >> 32);
}

#include NEWIDLE_H	/* "<kernel tree>/kernel/sched/newidle.h", from sim/run.sh */

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define SCALE		NEWIDLE_SCALE
#define SHIFT		NEWIDLE_SUCCESS_SHIFT

static void fail(const char *why)
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

static u32 taus_step(u32 s, int q, int shift, int k, u32 mask)
{
	return ((s & mask) << k) ^ (((s << q) ^ s) >> shift);
}

static u32 taus_next(struct taus *t)
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

static u64 rng_next(struct rng *r)
{
	u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A generator for one case: the key names the case, so no two share draws. */
static void rng_seed(struct rng *r, u64 key)
{
	r->s = key * 0xd1342543de82ef95ULL + 1;
	rng_next(r);
}

/* Uniform in [0, 1). */
static double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* Uniform in 0 .. n - 1. */
static unsigned int rng_below(struct rng *r, unsigned int n)
{
	return reciprocal_scale((u32)(rng_next(r) >> 32), n);
}

static void taus_seed(struct taus *t, u64 key)
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

static const char *const design_name[NR_DESIGNS] = {
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
static unsigned int spread(unsigned int rank, unsigned int weight)
{
	return weight ? rank * SCALE / weight % SCALE : 0;
}

static void gate_init(struct gate *g, enum design design, unsigned int rank,
		      unsigned int weight, u64 seed)
{
	memset(g, 0, sizeof(*g));
	g->design = design;
	g->state = newidle_gate_init(rank, weight);
	g->pos = spread(rank, weight);
	g->d = spread(rank, weight);
	taus_seed(&g->dice, seed);
}

static bool dice_visit(struct gate *g, unsigned int ratio)
{
	u32 d1k = taus_next(&g->dice) % 1024;

	return g->design == DICE73 ? d1k <= 1 + ratio : d1k < 1 + ratio;
}

static bool plain_visit(unsigned int *pos, unsigned int ratio)
{
	*pos += 1 + ratio;
	if (*pos < SCALE)
		return false;
	*pos -= SCALE;
	return true;
}

static bool golden_visit(struct gate *g, unsigned int ratio)
{
	g->gpos += 1 + ratio;
	if (g->gpos < 512 + (long)g->d)
		return false;
	g->gpos -= SCALE;
	g->d = (g->d + GOLDEN_STEP) & (SCALE - 1);
	return true;
}

/* One newidle visit of the domain at @ratio: does it attempt? */
static bool gate_visit(struct gate *g, unsigned int ratio)
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
static unsigned long plain_skip(unsigned int *pos, unsigned int ratio, unsigned long n)
{
	u64 p = *pos + (u64)n * (1 + ratio);

	*pos = p % SCALE;
	return p / SCALE;
}

static unsigned long golden_skip(struct gate *g, unsigned int ratio, unsigned long n)
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
static unsigned long newidle_skip(u32 *state, unsigned int ratio, unsigned long n)
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
static unsigned long gate_skip(struct gate *g, unsigned int ratio, unsigned long n, bool count)
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
static void est_init(struct est *e, unsigned int shift, unsigned int rate)
{
	e->call = 512;
	e->success = 256U << shift;
	e->ratio = 512;
	e->shift = shift;
	e->rate = rate;
}

/* What a success adds, at the ratio the gate let the attempt through at. */
static unsigned int est_weight(const struct est *e)
{
	unsigned int w = 1 + e->ratio;

	if (e->ratio >= SCALE)
		return 1U << e->shift;
	if (e->shift)
		return newidle_success_weight(e->ratio);
	return (1024 + w / 2) / w;
}

/* Visits to go until update_newidle_stats() sets a new ratio: 512 each time. */
static unsigned int est_window(const struct est *e)
{
	return 1024 - e->call;
}

/*
 * update_newidle_stats() for @n visits (at most est_window()) that added
 * @success together: the ratio only changes when call reaches 1024.
 */
static void est_visits(struct est *e, unsigned int n, unsigned int success)
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

static const char *variant_name(const struct variant *v)
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
static void *shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap failed");
	return p;
}

static long nr_workers(void)
{
	const char *env = getenv("SIM_WORKERS");
	long n = env ? atol(env) : sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? n : 1;
}

/* Runs job(0 .. jobs - 1, arg), each once, in the workers; job 0 first. */
static void parallel(unsigned int jobs, void (*job)(unsigned int, void *), void *arg)
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
 * A. Lock-on: the closed loop on periodic pull opportunities
 */

/*
 * Opportunity n comes at t_n = t_{n-1} + k * (1 + U[-jitter, jitter]),
 * at visit floor(t_n); t_0 is uniform in [0, k).
 */
struct opps {
	struct rng rng;
	double t, k, jitter;
};

static void opps_init(struct opps *o, unsigned int k, double jitter, u64 key)
{
	rng_seed(&o->rng, key);
	o->k = k;
	o->jitter = jitter;
	o->t = k * rng_unit(&o->rng);
}

static unsigned long opps_next(struct opps *o)
{
	unsigned long v = (unsigned long)o->t;

	o->t += o->k * (1 + o->jitter * (2 * rng_unit(&o->rng) - 1));
	return v;
}

/*
 * The visits that can pull, below @visits: one list per case and seed, for
 * every variant to run on. Ends with @visits.
 */
static unsigned long *opps_list(unsigned int k, double jitter, u64 key, unsigned long visits)
{
	size_t n = 0, size = visits / k + 16;
	unsigned long *list = malloc(size * sizeof(*list));
	struct opps o;

	opps_init(&o, k, jitter, key);
	do {
		if (n + 1 >= size) {
			size *= 2;
			list = realloc(list, size * sizeof(*list));
		}
		if (!list)
			fail("out of memory");
		list[n] = opps_next(&o);
	} while (list[n++] < visits);
	list[n - 1] = visits;
	return list;
}

/*
 * One CPU, rank 1 of 4, for @visits visits: an attempt at one of @opps
 * pulls, any other attempt fails. Returns the pulls. Only the visits in
 * @opps can change the estimator, so the others are skipped.
 */
static unsigned long lockon_run(const struct variant *va, unsigned int rate,
				const unsigned long *opps, u64 key, unsigned long visits)
{
	unsigned long v = 0, pulls = 0;
	struct gate g;
	struct est e;

	gate_init(&g, va->design, 1, 4, va->redraw ? ~key : key);
	est_init(&e, va->shift, rate);
	while (v < visits) {
		unsigned long start = v, end = v + est_window(&e);
		unsigned int success = 0;

		if (end > visits)
			end = visits;
		for (; *opps < end; opps++) {
			gate_skip(&g, e.ratio, *opps - v, false);
			v = *opps + 1;
			if (gate_visit(&g, e.ratio)) {
				success += est_weight(&e);
				pulls++;
			}
		}
		gate_skip(&g, e.ratio, end - v, false);
		v = end;
		est_visits(&e, end - start, success);
	}
	return pulls;
}

/* The variants of table A; the first is the reference. */
static const struct variant lockon_variants[] = {
	{ .design = DICE, .shift = SHIFT },
	{ .design = DICE, .shift = SHIFT, .redraw = true },
	{ .design = DICE, .shift = 0 },
	{ .design = DICE73, .shift = 0 },
	{ .design = PLAIN, .shift = SHIFT },
	{ .design = GOLDEN, .shift = SHIFT },
	{ .design = GATE, .shift = SHIFT },
	{ .design = GATE, .shift = 0 },
};

#define NR_LV	ARRAY_LEN(lockon_variants)
#define LV_PLAIN	4
#define LV_GOLDEN	5
#define LV_GATE		6

struct lockon {
	const unsigned int *ks, *rates;
	const double *jitters;
	unsigned int nk, nrate, njit, seeds;
	unsigned long target, cap;	/* fixed-dice pulls a case aims at; most visits */
	unsigned long *pulls;		/* [rate][jitter][k][seed][variant] */
};

/* Visits for about @target pulls of the fixed dice, whose ratio settles near T + 1024 / k. */
static unsigned long lockon_visits(const struct lockon *l, unsigned int k, unsigned int rate)
{
	double v = (double)l->target * k * 1024 / (1 + rate + 1024.0 / k);

	return v < l->cap ? (unsigned long)v : l->cap;
}

static unsigned long *lockon_cell(const struct lockon *l, unsigned int r, unsigned int j,
				  unsigned int ki, unsigned int seed)
{
	return l->pulls + (((r * l->njit + j) * l->nk + ki) * l->seeds + seed) * NR_LV;
}

/* Job @n: one k at one T and jitter; the largest k (the longest runs) first. */
static void lockon_job(unsigned int n, void *arg)
{
	const struct lockon *l = arg;
	unsigned int settings = l->nrate * l->njit, s = n % settings;
	unsigned int ki = l->nk - 1 - n / settings, r = s / l->njit, j = s % l->njit;
	unsigned int k = l->ks[ki], rate = l->rates[r], seed, v;
	unsigned long visits = lockon_visits(l, k, rate);

	for (seed = 0; seed < l->seeds; seed++) {
		u64 key = (((u64)seed * 2048 + k) * 1024 + rate) * 16 + j;
		unsigned long *cell = lockon_cell(l, r, j, ki, seed);
		unsigned long *opps = opps_list(k, l->jitters[j], key, visits);

		for (v = 0; v < NR_LV; v++)
			cell[v] = lockon_run(&lockon_variants[v], rate, opps, key, visits);
		free(opps);
	}
}

static void lockon_compute(struct lockon *l)
{
	size_t size = (size_t)l->nrate * l->njit * l->nk * l->seeds * NR_LV * sizeof(*l->pulls);

	l->pulls = shared(size);
	parallel(l->nk * l->nrate * l->njit, lockon_job, l);
}

/* Pulls of variant @v at k index @ki, summed over the seeds. */
static unsigned long lockon_pulls(const struct lockon *l, unsigned int r, unsigned int j,
				  unsigned int ki, unsigned int v)
{
	unsigned long sum = 0;
	unsigned int seed;

	for (seed = 0; seed < l->seeds; seed++)
		sum += lockon_cell(l, r, j, ki, seed)[v];
	return sum;
}

struct rel {
	double mean, worst;
	unsigned int worst_k;
};

/* Variant @v's pulls relative to the reference's: mean over k, worst k. */
static struct rel lockon_rel(const struct lockon *l, unsigned int r, unsigned int j, unsigned int v)
{
	struct rel rel = { 0, INFINITY, 0 };
	unsigned int ki;

	for (ki = 0; ki < l->nk; ki++) {
		unsigned long ref = lockon_pulls(l, r, j, ki, 0);
		double x = ref ? (double)lockon_pulls(l, r, j, ki, v) / ref : 1;

		rel.mean += x / l->nk;
		if (x < rel.worst) {
			rel.worst = x;
			rel.worst_k = l->ks[ki];
		}
	}
	return rel;
}

/* The series' criterion: >= 50 % of the fixed dice's pulls at every k, >= 90 % on average. */
static bool lockon_pass(struct rel rel)
{
	return rel.worst >= 0.5 && rel.mean >= 0.9;
}

/* Every k, for plots: to the file $SIM_CSV names, if it does. */
static void lockon_csv(const struct lockon *l)
{
	const char *path = getenv("SIM_CSV");
	unsigned int r, j, ki, v;
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "w");
	if (!f)
		fail("cannot write $SIM_CSV");
	fprintf(f, "T,jitter,k,visits");
	for (v = 0; v < NR_LV; v++)
		fprintf(f, ",%s", variant_name(&lockon_variants[v]));
	fprintf(f, "\n");
	for (r = 0; r < l->nrate; r++) {
		for (j = 0; j < l->njit; j++) {
			for (ki = 0; ki < l->nk; ki++) {
				fprintf(f, "%u,%g,%u,%lu", l->rates[r], l->jitters[j], l->ks[ki],
					lockon_visits(l, l->ks[ki], l->rates[r]));
				for (v = 0; v < NR_LV; v++)
					fprintf(f, ",%lu", lockon_pulls(l, r, j, ki, v));
				fprintf(f, "\n");
			}
		}
	}
	fclose(f);
}

static const unsigned int excerpt_ks[] = { 2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024 };

static void lockon_print(const struct lockon *l)
{
	unsigned int r, j, v, ki, x, capped_from;

	printf("A. Lock-on (model, closed loop): one CPU, rank 1 of 4, in one domain. Visit v\n"
	       "   can pull iff it is one of a periodic sequence of period k; an attempt there\n"
	       "   pulls, any other attempt fails. NI_RATE term T held constant. Opportunities at\n"
	       "   t_n = t_(n-1) + k (1 + U[-jitter, jitter]), visit floor(t_n), t_0 uniform in [0, k).\n"
	       "   k = %u..%u, %u seeds (start phase, jitter, dice), pulls summed over them. Run per\n"
	       "   case: 1000 k 1024 / (1 + T + 1024 / k) visits (~%lu fixed-dice pulls per seed),\n"
	       "   capped at %lu visits:\n",
	       l->ks[0], l->ks[l->nk - 1], l->seeds, l->target, l->cap);
	for (r = 0; r < l->nrate; r++) {
		unsigned long fewest = ~0UL;

		capped_from = 0;
		for (ki = 0; ki < l->nk; ki++) {
			unsigned int k = l->ks[ki];

			if (!capped_from && lockon_visits(l, k, l->rates[r]) == l->cap)
				capped_from = k;
			for (j = 0; j < l->njit; j++)
				if (lockon_pulls(l, r, j, ki, 0) < fewest)
					fewest = lockon_pulls(l, r, j, ki, 0);
		}
		if (capped_from)
			printf("     T=%-3u capped from k=%u on; fewest fixed-dice pulls: %lu\n",
			       l->rates[r], capped_from, fewest);
		else
			printf("     T=%-3u none capped; fewest fixed-dice pulls: %lu\n",
			       l->rates[r], fewest);
	}
	printf("\n   Pulls relative to %s (the series' estimator with the fixed dice), per k:\n"
	       "   the mean over k (each k weighing the same) and the worst k. The series claims\n"
	       "   >= 50 %% at every k and >= 90 %% on average, for every T and jitter.\n\n",
	       variant_name(&lockon_variants[0]));
	printf("     T  jitter  design           mean     worst (k)        claim\n");
	for (r = 0; r < l->nrate; r++) {
		for (j = 0; j < l->njit; j++) {
			for (v = 1; v < NR_LV; v++) {
				struct rel rel = lockon_rel(l, r, j, v);

				printf("   %3u  %5.0f%%  %-19s %6.1f%%  %6.1f%% (k=%-4u)  %s\n",
				       l->rates[r], 100 * l->jitters[j],
				       variant_name(&lockon_variants[v]), 100 * rel.mean,
				       100 * rel.worst, rel.worst_k,
				       lockon_pass(rel) ? "met" : "MISSED");
			}
			printf("\n");
		}
	}

	printf("   Excerpt: pulls, summed over the seeds; 'again': the same design, other draws\n");
	for (r = 0; r < l->nrate; r++) {
		for (j = 0; j < l->njit; j++) {
			unsigned int at[ARRAY_LEN(excerpt_ks)], n = 0;

			for (x = 0; x < ARRAY_LEN(excerpt_ks); x++)
				for (ki = 0; ki < l->nk; ki++)
					if (l->ks[ki] == excerpt_ks[x])
						at[n++] = ki;
			printf("\n   T=%u, jitter %.0f%%, k: %*s", l->rates[r], 100 * l->jitters[j],
			       l->rates[r] < 10 ? 3 : l->rates[r] < 100 ? 2 : 1, "");
			for (x = 0; x < n; x++)
				printf(" %6u", l->ks[at[x]]);
			printf("\n");
			for (v = 0; v < NR_LV; v++) {
				printf("     %-22s", variant_name(&lockon_variants[v]));
				for (x = 0; x < n; x++)
					printf(" %6lu", lockon_pulls(l, r, j, at[x], v));
				printf("\n");
			}
		}
	}
	lockon_csv(l);
}

static const unsigned int lockon_rates[] = { 0, 8, 24, 100 };
static const double lockon_jitters[] = { 0, 0.01 };

#define LOCKON_CAP	(1UL << 28)

static void table_lockon(void)
{
	static unsigned int ks[1023];
	struct lockon l = {
		.ks = ks, .nk = ARRAY_LEN(ks),
		.rates = lockon_rates, .nrate = ARRAY_LEN(lockon_rates),
		.jitters = lockon_jitters, .njit = ARRAY_LEN(lockon_jitters),
		.seeds = 3, .target = 1000, .cap = LOCKON_CAP,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(ks); i++)
		ks[i] = 2 + i;
	lockon_compute(&l);
	lockon_print(&l);
}

/* ------------------------------------------------------------------------
 * B. The estimator: where the ratio settles at a constant success rate
 */

static const double est_probs[] = { 0.01, 0.05, 0.1, 0.25, 0.5, 0.667, 0.75, 0.9, 0.95, 1.0 };

static const struct variant est_variants[] = {
	{ .design = DICE73, .shift = 0 },
	{ .design = DICE, .shift = 0 },
	{ .design = PLAIN, .shift = 0 },
	{ .design = GATE, .shift = 0 },
	{ .design = GATE, .shift = SHIFT },
	{ .design = DICE, .shift = SHIFT },
};

#define NR_EV	ARRAY_LEN(est_variants)

/*
 * @windows ratio updates (512 visits each) at T = 0, each attempt pulling
 * with probability @p: the mean ratio over the second half.
 */
static double settle(const struct variant *va, double p, unsigned int windows, u64 key)
{
	u64 below = (u64)(p * 0x1p53);
	struct gate g;
	struct est e;
	struct rng r;
	double sum = 0;
	unsigned int i;

	gate_init(&g, va->design, 1, 4, key);
	est_init(&e, va->shift, 0);
	rng_seed(&r, key);
	for (i = 0; i < windows; i++) {
		unsigned int w = est_weight(&e), n = est_window(&e), success = 0;
		unsigned long a = gate_skip(&g, e.ratio, n, true);

		while (a--)
			if ((rng_next(&r) >> 11) < below)
				success += w;
		est_visits(&e, n, success);
		if (i >= windows / 2)
			sum += e.ratio;
	}
	return sum / (windows - windows / 2);
}

/* The series' claim: within 2 % or 8 of 1024 p, whichever is wider. */
static bool settle_ok(double ratio, double p)
{
	double err = fabs(ratio - 1024 * p);

	return err <= 8 || err <= 0.02 * 1024 * p;
}

struct estimator {
	unsigned int windows;
	double *ratio;		/* [p][variant] */
};

static void estimator_job(unsigned int n, void *arg)
{
	struct estimator *s = arg;
	unsigned int pi = n / NR_EV, v = n % NR_EV;

	s->ratio[n] = settle(&est_variants[v], est_probs[pi], s->windows, 7000 + pi);
}

static void estimator_compute(struct estimator *s)
{
	s->ratio = shared(ARRAY_LEN(est_probs) * NR_EV * sizeof(*s->ratio));
	parallel(ARRAY_LEN(est_probs) * NR_EV, estimator_job, s);
}

static void table_estimator(void)
{
	struct estimator s = { .windows = 1 << 16 };
	unsigned int pi, v;
	bool series = true;

	estimator_compute(&s);
	printf("B. Estimator (model): every attempt pulls with probability p, T = 0, %u visits\n"
	       "   per case; the mean ratio over the second half against 1024 p (* misses the\n"
	       "   series' claim: within 2 %% or 8 of 1024 p)\n\n        p  1024p",
	       s.windows * 512);
	for (v = 0; v < NR_EV; v++)
		printf(" %15s", variant_name(&est_variants[v]));
	printf("\n");
	for (pi = 0; pi < ARRAY_LEN(est_probs); pi++) {
		double p = est_probs[pi];

		printf("   %6.3f %6.1f", p, 1024 * p);
		for (v = 0; v < NR_EV; v++) {
			double r = s.ratio[pi * NR_EV + v];

			printf("  %7.1f %+5.1f%s", r, r - 1024 * p, settle_ok(r, p) ? " " : "*");
			if (est_variants[v].design == GATE && est_variants[v].shift)
				series &= settle_ok(r, p);
		}
		printf("\n");
	}
	printf("\n   gate/64 (the series) within 2 %% or 8 of 1024 p at every p: %s\n",
	       series ? "yes" : "NO");
}

/* ------------------------------------------------------------------------
 * C. Exactness: attempts against the sum of (1 + ratio) / 1024
 */

enum seq { SEQ_VISIT, SEQ_WINDOW, SEQ_ALT, SEQ_BURST, SEQ_ZERO, SEQ_UP, SEQ_DOWN, NR_SEQ };

static const char *const seq_name[NR_SEQ] = {
	[SEQ_VISIT] = "random per visit",
	[SEQ_WINDOW] = "random per 512 visits",
	[SEQ_ALT] = "alternating 0/1023",
	[SEQ_BURST] = "1023 once, 0 1023 times",
	[SEQ_ZERO] = "0 throughout",
	[SEQ_UP] = "greedy adversary, up",
	[SEQ_DOWN] = "greedy adversary, down",
};

static bool seq_greedy(enum seq s)
{
	return s == SEQ_UP || s == SEQ_DOWN;
}

/*
 * The adversary sees the gate's state and picks the ratio that moves the
 * error furthest up (or down) on this visit. Not for the dice: it would see
 * the next draw.
 */
static unsigned int greedy(const struct gate *g, long long err, int dir)
{
	static const unsigned int pick[] = { 0, 1, 255, 511, 512, 767, 1022, 1023 };
	long long best = 0;
	unsigned int i, ratio = 0;

	for (i = 0; i < ARRAY_LEN(pick); i++) {
		struct gate c = *g;
		long long e = err + gate_visit(&c, pick[i]) * 1024LL - (1 + pick[i]);

		if (!i || dir * e > dir * best) {
			best = e;
			ratio = pick[i];
		}
	}
	return ratio;
}

struct exact {
	double max, final;	/* largest |error| seen, and the error at the end, in attempts */
};

static struct exact exact_run(enum design d, enum seq s, unsigned long visits, u64 key)
{
	long long err = 0, worst = 0;	/* in 1/1024 attempts */
	unsigned int ratio = 0;
	unsigned long v;
	struct gate g;
	struct rng r;

	gate_init(&g, d, 1, 4, key);
	rng_seed(&r, key);
	for (v = 0; v < visits; v++) {
		switch (s) {
		case SEQ_VISIT:
			ratio = rng_below(&r, SCALE);
			break;
		case SEQ_WINDOW:
			if (v % 512 == 0)
				ratio = rng_below(&r, SCALE);
			break;
		case SEQ_ALT:
			ratio = v & 1 ? 1023 : 0;
			break;
		case SEQ_BURST:
			ratio = v % 1024 ? 0 : 1023;
			break;
		case SEQ_ZERO:
			ratio = 0;
			break;
		default:
			ratio = greedy(&g, err, s == SEQ_UP ? 1 : -1);
		}
		err += gate_visit(&g, ratio) * 1024LL - (1 + ratio);
		if (llabs(err) > worst)
			worst = llabs(err);
	}
	return (struct exact){ worst / 1024.0, err / 1024.0 };
}

/* At one constant ratio: attempts less (1 + ratio) / 1024 of the visits. */
static double bias_run(enum design d, unsigned int ratio, unsigned long visits, u64 key)
{
	struct gate g;

	gate_init(&g, d, 1, 4, key);
	return gate_skip(&g, ratio, visits, true) - visits * (1 + ratio) / 1024.0;
}

struct winstat {
	double max, mean, bias;
};

/*
 * The review's experiment: windows of @len visits, each at a ratio uniform
 * in 0..1023 (the same sequence for every design); the error of each window.
 */
static struct winstat windows_run(enum design d, unsigned int len, unsigned int nwin, u64 key)
{
	long long total = 0, sum_abs = 0, worst = 0;	/* in 1/1024 attempts */
	struct gate g;
	struct rng r;
	unsigned int w;

	gate_init(&g, d, 1, 4, key);
	rng_seed(&r, 12345);
	for (w = 0; w < nwin; w++) {
		unsigned int ratio = rng_below(&r, SCALE);
		long long err = gate_skip(&g, ratio, len, true) * 1024LL -
				(long long)len * (1 + ratio);

		sum_abs += llabs(err);
		if (llabs(err) > worst)
			worst = llabs(err);
		total += err;
	}
	return (struct winstat){ worst / 1024.0, sum_abs / 1024.0 / nwin, total / 1024.0 };
}

/*
 * At a constant ratio, the fewest and most visits from one attempt to the
 * next: what a window of a few visits can catch.
 */
static void gaps_run(enum design d, unsigned int ratio, unsigned long visits,
		     unsigned int *fewest, unsigned int *most)
{
	unsigned long v, last = 0;
	bool seen = false;
	struct gate g;

	*fewest = ~0U;
	*most = 0;
	gate_init(&g, d, 1, 4, 400 + ratio);
	for (v = 0; v < visits; v++) {
		if (!gate_visit(&g, ratio))
			continue;
		if (seen && v - last < *fewest)
			*fewest = v - last;
		if (seen && v - last > *most)
			*most = v - last;
		seen = true;
		last = v;
	}
}

static const unsigned int bias_ratios[] = { 0, 1, 10, 100, 511, 682, 1000, 1022, 1023 };
static const unsigned int window_lens[] = { 512, 100, 333, 1000 };
static const unsigned int gap_ratios[] = { 0, 10, 100, 511, 700 };

#define NR_BR	ARRAY_LEN(bias_ratios)
#define NR_WL	ARRAY_LEN(window_lens)
#define NR_GR	ARRAY_LEN(gap_ratios)

struct exactness {
	unsigned long visits, greedy_visits;	/* per sequence */
	unsigned int nwin;
	struct exact seq[NR_SEQ][NR_DESIGNS];
	double bias[NR_BR][NR_DESIGNS];
	struct winstat win[NR_WL][NR_DESIGNS];
	unsigned int gap[NR_GR][NR_DESIGNS][2];	/* fewest, most */
};

static void exactness_job(unsigned int n, void *arg)
{
	struct exactness *x = arg;
	enum design d = n % NR_DESIGNS;
	unsigned int i = n / NR_DESIGNS;

	if (i < NR_SEQ) {
		if (!seq_greedy(i) || d > DICE)
			x->seq[i][d] = exact_run(d, i, seq_greedy(i) ? x->greedy_visits : x->visits,
						 100 + i);
		return;
	}
	i -= NR_SEQ;
	if (i < NR_BR) {
		x->bias[i][d] = bias_run(d, bias_ratios[i], x->visits, 200 + i);
		return;
	}
	i -= NR_BR;
	if (i < NR_WL) {
		x->win[i][d] = windows_run(d, window_lens[i], x->nwin, 300 + i);
		return;
	}
	i -= NR_WL;
	gaps_run(d, gap_ratios[i], x->visits, &x->gap[i][d][0], &x->gap[i][d][1]);
}

static struct exactness *exactness_compute(unsigned long visits, unsigned long greedy_visits,
					   unsigned int nwin)
{
	struct exactness *x = shared(sizeof(*x));

	x->visits = visits;
	x->greedy_visits = greedy_visits;
	x->nwin = nwin;
	parallel((NR_SEQ + NR_BR + NR_WL + NR_GR) * NR_DESIGNS, exactness_job, x);
	return x;
}

static void print_designs(const char *first)
{
	unsigned int d;

	printf("   %s", first);
	for (d = 0; d < NR_DESIGNS; d++)
		printf(" %20s", design_name[d]);
	printf("\n");
}

static void table_exactness(void)
{
	struct exactness *x = exactness_compute(1UL << 24, 1UL << 22, 20000);
	unsigned int i, d;

	printf("C. Exactness (model): one CPU, rank 1 of 4; error = attempts - sum over the\n"
	       "   visits of (1 + ratio) / 1024, in attempts.\n\n"
	       "   Largest |error| over a run [error at its end]; %lu visits (greedy: %lu; the\n"
	       "   adversary picks among 8 ratios the one that moves the error most, seeing the\n"
	       "   gate's state: not run on the dice, whose next draw it would see)\n\n",
	       x->visits, x->greedy_visits);
	print_designs("sequence                ");
	for (i = 0; i < NR_SEQ; i++) {
		printf("   %-24s", seq_name[i]);
		for (d = 0; d < NR_DESIGNS; d++) {
			if (seq_greedy(i) && d <= DICE)
				printf(" %20s", "-");
			else
				printf(" %9.3f [%+8.2f]", x->seq[i][d].max, x->seq[i][d].final);
		}
		printf("\n");
	}

	printf("\n   Bias at a constant ratio: attempts - %lu (1 + ratio) / 1024\n\n", x->visits);
	print_designs("ratio                   ");
	for (i = 0; i < NR_BR; i++) {
		printf("   %-24u", bias_ratios[i]);
		for (d = 0; d < NR_DESIGNS; d++)
			printf(" %20.2f", x->bias[i][d]);
		printf("\n");
	}

	printf("\n   The review's experiment: %u windows, ratio uniform in 0..1023 per window\n"
	       "   (same sequence for all): window error max / mean |error| / total bias\n\n",
	       x->nwin);
	print_designs("window length           ");
	for (i = 0; i < NR_WL; i++) {
		printf("   %-24u", window_lens[i]);
		for (d = 0; d < NR_DESIGNS; d++)
			printf(" %6.3f/%5.2f/%+6.0f", x->win[i][d].max, x->win[i][d].mean,
			       x->win[i][d].bias);
		printf("\n");
	}
	printf("\n   A window's error is the difference of the errors at its ends: where those\n"
	       "   stay in (-1, 1], a window's stays in (-2, 2). The gate's thresholds are at\n"
	       "   least 1 + ratio apart, so two attempts can come on consecutive visits at any\n"
	       "   ratio: visits from one attempt to the next at a constant ratio, fewest-most\n"
	       "   (mean 1024 / (1 + ratio)), over %lu visits:\n\n", x->visits);
	print_designs("ratio                   ");
	for (i = 0; i < NR_GR; i++) {
		printf("   %-4u (mean %7.2f)     ", gap_ratios[i], 1024.0 / (1 + gap_ratios[i]));
		for (d = 0; d < NR_DESIGNS; d++) {
			char buf[24];

			snprintf(buf, sizeof(buf), "%u-%u", x->gap[i][d][0], x->gap[i][d][1]);
			printf(" %20s", buf);
		}
		printf("\n");
	}
	munmap(x, sizeof(*x));
}

/* ------------------------------------------------------------------------
 * D. Lockstep: CPUs of one domain going newly idle in the same rounds
 */

struct lskind {
	enum design design;
	bool zero;		/* every CPU starts as rank 0 of 1 */
	const char *name;
};

static const struct lskind ls_kinds[] = {
	{ DICE73, false, "v7.3 dice" },
	{ DICE, false, "fixed dice" },
	{ PLAIN, true, "plain, zero" },
	{ PLAIN, false, "plain" },
	{ GOLDEN, false, "golden" },
	{ GATE, false, "gate" },
};

#define NR_LK	ARRAY_LEN(ls_kinds)

/* Adds to fired[v] whether visit v of @rounds at @ratio attempts. */
static void gate_trace(struct gate *g, unsigned int ratio, unsigned int rounds,
		       unsigned short *fired)
{
	unsigned int v;

	/* one loop per design, so that the compiler inlines each */
	if (ratio >= SCALE) {
		for (v = 0; v < rounds; v++)
			fired[v]++;
	} else if (g->design == GATE) {
		for (v = 0; v < rounds; v++)
			fired[v] += newidle_gate(&g->state, ratio);
	} else if (g->design == PLAIN) {
		for (v = 0; v < rounds; v++)
			fired[v] += plain_visit(&g->pos, ratio);
	} else {
		for (v = 0; v < rounds; v++)
			fired[v] += gate_visit(g, ratio);
	}
}

/* The most CPUs of @n (CPU i at ratio[i]) that attempt in one of @rounds rounds. */
static unsigned int lockstep_most(const struct lskind *kind, const unsigned int *ratio,
				  unsigned int n, unsigned int rounds, u64 key)
{
	unsigned short *fired = calloc(rounds, sizeof(*fired));
	unsigned int i, v, most = 0;
	struct gate g;

	if (!fired)
		fail("out of memory");
	for (i = 0; i < n; i++) {
		gate_init(&g, kind->design, kind->zero ? 0 : i, kind->zero ? 1 : n, key * 1024 + i);
		gate_trace(&g, ratio[i], rounds, fired);
	}
	for (v = 0; v < rounds; v++)
		if (fired[v] > most)
			most = fired[v];
	free(fired);
	return most;
}

/* ceil(sum (1 + ratio[i]) / 1024): the fewest a round can have at most */
static unsigned int lockstep_ceil(const unsigned int *ratio, unsigned int n)
{
	unsigned int i, sum = 0;

	for (i = 0; i < n; i++)
		sum += 1 + ratio[i];
	return (sum + SCALE - 1) / SCALE;
}

/* the same at one ratio for all N */
static unsigned int lockstep_ceil_at(unsigned int n, unsigned int ratio)
{
	return (n * (1 + ratio) + SCALE - 1) / SCALE;
}

static const unsigned int ls_cpus[] = { 2, 8, 20, 64, 160, 224 };
static const unsigned int ls_ratios[] = { 0, 10, 100, 511, 700, 1000 };
/* unequal ratios: r +/- up to 10 % for these r, then uniform in 0..1023 */
static const unsigned int ls_spread[] = { 10, 100, 511, 700 };

#define NR_LC		ARRAY_LEN(ls_cpus)
#define NR_LR		ARRAY_LEN(ls_ratios)
#define NR_LS		(ARRAY_LEN(ls_spread) + 1)
#define LS_SEEDS	3
#define LS_MAX_CPUS	224

/* CPU i's ratio in unequal set @set, drawn for @seed */
static void spread_ratios(unsigned int set, unsigned int seed, unsigned int n, unsigned int *ratio)
{
	struct rng r;
	unsigned int i;

	rng_seed(&r, 4000 + set * 16 + seed);
	for (i = 0; i < n; i++) {
		if (set < ARRAY_LEN(ls_spread)) {
			double base = ls_spread[set];
			long x = lround(base + base * 0.1 * (2 * rng_unit(&r) - 1));

			ratio[i] = x < 0 ? 0 : x > 1023 ? 1023 : x;
		} else {
			ratio[i] = rng_below(&r, SCALE);
		}
	}
}

struct lockstep {
	unsigned int rounds, nk;	/* nk: the kinds computed, ls_kinds[0 .. nk - 1] */
	unsigned int most[NR_LC][NR_LR][NR_LK];
	unsigned int ceil[NR_LC][NR_LS][LS_SEEDS];
	unsigned int umost[NR_LC][NR_LS][LS_SEEDS][NR_LK];
};

static void lockstep_job(unsigned int n, void *arg)
{
	struct lockstep *l = arg;
	unsigned int kind = n % l->nk, ratio[LS_MAX_CPUS], c, i;

	n /= l->nk;
	c = n % NR_LC;
	n /= NR_LC;
	if (n < NR_LR) {
		for (i = 0; i < ls_cpus[c]; i++)
			ratio[i] = ls_ratios[n];
		l->most[c][n][kind] = lockstep_most(&ls_kinds[kind], ratio, ls_cpus[c], l->rounds,
						    n * 8 + c);
		return;
	}
	n -= NR_LR;
	spread_ratios(n / LS_SEEDS, n % LS_SEEDS, ls_cpus[c], ratio);
	l->ceil[c][n / LS_SEEDS][n % LS_SEEDS] = lockstep_ceil(ratio, ls_cpus[c]);
	l->umost[c][n / LS_SEEDS][n % LS_SEEDS][kind] =
		lockstep_most(&ls_kinds[kind], ratio, ls_cpus[c], l->rounds, 500 + n * 8 + c);
}

static struct lockstep *lockstep_compute(unsigned int rounds, unsigned int nk)
{
	struct lockstep *l = shared(sizeof(*l));

	l->rounds = rounds;
	l->nk = nk;
	parallel((NR_LR + NR_LS * LS_SEEDS) * NR_LC * nk, lockstep_job, l);
	return l;
}

/* The largest excess over ceil of unequal set @s, over the seeds. */
static int lockstep_uexcess(const struct lockstep *l, unsigned int c, unsigned int s,
			    unsigned int kind)
{
	int worst = -1000, seed;

	for (seed = 0; seed < LS_SEEDS; seed++) {
		int x = (int)l->umost[c][s][seed][kind] - (int)l->ceil[c][s][seed];

		if (x > worst)
			worst = x;
	}
	return worst;
}

static void print_kinds(const char *first)
{
	unsigned int k;

	printf("   %s", first);
	for (k = 0; k < NR_LK; k++)
		printf(" %11s", ls_kinds[k].name);
	printf("\n");
}

static void table_lockstep(void)
{
	struct lockstep *l = lockstep_compute(1 << 18, NR_LK);
	int excess[NR_LK] = { 0 }, uexcess[NR_LK] = { 0 };
	unsigned int c, r, k, s;

	printf("D. Lockstep (model): N CPUs of one domain (ranks 0..N-1 of N) go newly idle in\n"
	       "   the same rounds, %u rounds: the most that attempt in one round. ceil is\n"
	       "   ceil(N (1 + ratio) / 1024); 'plain, zero' starts every CPU at phase 0.\n"
	       "   The series claims the gate stays <= ceil + 1.\n\n", l->rounds);
	print_kinds("   N  ratio  ceil");
	for (c = 0; c < NR_LC; c++) {
		for (r = 0; r < NR_LR; r++) {
			unsigned int n = ls_cpus[c], ceil = lockstep_ceil_at(n, ls_ratios[r]);

			printf("   %4u  %5u  %4u", n, ls_ratios[r], ceil);
			for (k = 0; k < NR_LK; k++) {
				int x = (int)l->most[c][r][k] - (int)ceil;

				printf(" %11u", l->most[c][r][k]);
				if (x > excess[k])
					excess[k] = x;
			}
			printf("\n");
		}
	}
	printf("\n   worst excess over ceil     ");
	for (k = 0; k < NR_LK; k++)
		printf(" %+11d", excess[k]);

	printf("\n\n   Unequal ratios, fixed per CPU: r +/- up to 10 %%, r_i = round(r (1 + U)),\n"
	       "   U uniform in [-0.1, 0.1], or r_i uniform in 0..1023. The most in one round\n"
	       "   less ceil(sum (1 + r_i) / 1024), the largest of %u draws of the r_i\n\n",
	       LS_SEEDS);
	print_kinds("   N  ratios    ceil");
	for (c = 0; c < NR_LC; c++) {
		for (s = 0; s < NR_LS; s++) {
			char what[16];

			if (s < ARRAY_LEN(ls_spread))
				snprintf(what, sizeof(what), "%u+/-10%%", ls_spread[s]);
			else
				snprintf(what, sizeof(what), "0..1023");
			printf("   %4u  %-9s %4u", ls_cpus[c], what, l->ceil[c][s][0]);
			for (k = 0; k < NR_LK; k++) {
				int x = lockstep_uexcess(l, c, s, k);

				printf(" %+11d", x);
				if (x > uexcess[k])
					uexcess[k] = x;
			}
			printf("\n");
		}
	}
	printf("\n   worst excess over ceil     ");
	for (k = 0; k < NR_LK; k++)
		printf(" %+11d", uexcess[k]);
	printf("\n   (ceil shown for the first draw)\n");
	munmap(l, sizeof(*l));
}

/* ------------------------------------------------------------------------
 * E. Levels: one gate state per domain level, or one shared by two levels
 */

static void levels(unsigned int r0, unsigned int r1, bool shared_state, unsigned long visits,
		   unsigned long *n0, unsigned long *n1)
{
	u32 state[2] = { newidle_gate_init(1, 4), newidle_gate_init(1, 4) };
	unsigned long v;

	*n0 = *n1 = 0;
	for (v = 0; v < visits; v++) {
		*n0 += newidle_gate(&state[0], r0);
		*n1 += newidle_gate(&state[shared_state ? 0 : 1], r1);
	}
}

static const unsigned int level_pairs[][2] = {
	{ 511, 511 }, { 100, 900 }, { 0, 1023 }, { 10, 100 },
};

static void table_levels(void)
{
	unsigned long visits = 1UL << 20, s0, s1, p0, p1;
	unsigned int i;

	printf("E. Levels (model): the gate, two domain levels visited in turn, %lu visits\n"
	       "   each; attempts per visit of each level\n\n"
	       "   ratios      exact rates      one shared state    one per level\n", visits);
	for (i = 0; i < ARRAY_LEN(level_pairs); i++) {
		levels(level_pairs[i][0], level_pairs[i][1], true, visits, &s0, &s1);
		levels(level_pairs[i][0], level_pairs[i][1], false, visits, &p0, &p1);
		printf("   %4u/%-4u   %.4f/%.4f    %.4f/%.4f       %.4f/%.4f\n",
		       level_pairs[i][0], level_pairs[i][1], (1 + level_pairs[i][0]) / 1024.0,
		       (1 + level_pairs[i][1]) / 1024.0, (double)s0 / visits, (double)s1 / visits,
		       (double)p0 / visits, (double)p1 / visits);
	}
}

/* ------------------------------------------------------------------------
 * G. Timeline, and F. the cost of a decision
 */

/* One line per visit at one ratio: who attempts (1) or skips (0). */
static int timeline(unsigned int ratio, unsigned int visits)
{
	struct gate dice;
	u32 one = newidle_gate_init(0, 1), zero[4], stag[4];
	unsigned int v, i;

	gate_init(&dice, DICE73, 0, 1, 99);
	for (i = 0; i < 4; i++) {
		zero[i] = newidle_gate_init(0, 1);
		stag[i] = newidle_gate_init(i, 4);
	}
	printf("# visit v7.3-dice gate gate-4cpus-zero-offsets gate-4cpus-spread (ratio %u)\n",
	       ratio);
	for (v = 0; v < visits; v++) {
		unsigned int z = 0, s = 0;

		for (i = 0; i < 4; i++) {
			z += newidle_gate(&zero[i], ratio);
			s += newidle_gate(&stag[i], ratio);
		}
		printf("%u %d %d %u %u\n", v, gate_visit(&dice, ratio), newidle_gate(&one, ratio),
		       z, s);
	}
	return 0;
}

/*
 * @visits decisions at @ratio, each design in its own loop, for callgrind to
 * count; the ratio comes from the command line, as the kernel reads it from
 * memory, so that the compiler cannot fold it in.
 */
static int cost(const char *what, unsigned int ratio, unsigned long visits)
{
	unsigned long v, n = 0;
	struct gate g;

	if (!strcmp(what, "dice")) {
		gate_init(&g, DICE73, 0, 1, 5);
		for (v = 0; v < visits; v++)
			n += !(taus_next(&g.dice) % 1024 > 1 + ratio);
	} else if (!strcmp(what, "plain")) {
		gate_init(&g, PLAIN, 0, 1, 5);
		for (v = 0; v < visits; v++)
			n += plain_visit(&g.pos, ratio);
	} else if (!strcmp(what, "golden")) {
		gate_init(&g, GOLDEN, 0, 1, 5);
		for (v = 0; v < visits; v++)
			n += golden_visit(&g, ratio);
	} else if (!strcmp(what, "gate")) {
		gate_init(&g, GATE, 0, 1, 5);
		for (v = 0; v < visits; v++)
			n += newidle_gate(&g.state, ratio);
	} else {
		return 2;
	}
	printf("%lu attempts\n", n);
	return 0;
}

/* ------------------------------------------------------------------------
 * The checks: the series' claims on the gate, each with a negative control
 * that shows the same check failing where it should
 */

static int nr_test, nr_fail;

static void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	nr_test++;
	nr_fail += !ok;
	printf("%sok %d - ", ok ? "" : "not ", nr_test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/*
 * Does gate_skip() leave the state and count the attempts that as many
 * gate_visit() calls do? @extra gives the latter one visit more, once.
 */
static bool skip_matches(enum design d, bool extra)
{
	struct gate a, b;
	unsigned int chunk;
	struct rng r;

	gate_init(&a, d, 1, 4, 1);
	gate_init(&b, d, 1, 4, 1);
	rng_seed(&r, 55 + d);
	for (chunk = 0; chunk < 20000; chunk++) {
		unsigned int ratio = rng_below(&r, 1100);	/* 1024 and over too */
		unsigned long n = rng_below(&r, 3000), i, na, nb = 0;

		na = gate_skip(&a, ratio, n, true);
		if (extra && ratio < SCALE) {
			gate_visit(&b, ratio);
			extra = false;
		}
		for (i = 0; i < n; i++)
			nb += gate_visit(&b, ratio);
		if (na != nb || a.state != b.state || a.pos != b.pos || a.gpos != b.gpos ||
		    a.d != b.d)
			return false;
	}
	return true;
}

static void check_model(void)
{
	static const enum design det[] = { PLAIN, GOLDEN, GATE };
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(det); i++)
		tap(skip_matches(det[i], false),
		    "model: %s: skipping visits leaves what visiting them does",
		    design_name[det[i]]);
	tap(!skip_matches(GATE, true),
	    "negative control: that comparison sees one visit more");
}

static void check_lockon(void)
{
	static const unsigned int ks[] = {
		2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 48, 64, 96, 100, 128,
		192, 256, 300, 384, 500, 512, 768, 1000, 1024,
	};
	static const unsigned int rates[] = { 0, 24 };
	struct lockon l = {
		.ks = ks, .nk = ARRAY_LEN(ks),
		.rates = rates, .nrate = ARRAY_LEN(rates),
		.jitters = lockon_jitters, .njit = ARRAY_LEN(lockon_jitters),
		.seeds = 3, .target = 1000, .cap = 1UL << 26,
	};
	unsigned int r, j, v;

	lockon_compute(&l);
	for (r = 0; r < l.nrate; r++) {
		for (j = 0; j < l.njit; j++) {
			struct rel rel = lockon_rel(&l, r, j, LV_GATE);

			tap(lockon_pass(rel),
			    "lock-on: %s catches >= 50%% of %s's pulls at every k, >= 90%% on average (T=%u, jitter %.0f%%): worst %.1f%% (k=%u), mean %.1f%%",
			    variant_name(&lockon_variants[LV_GATE]),
			    variant_name(&lockon_variants[0]),
			    rates[r], 100 * lockon_jitters[j], 100 * rel.worst, rel.worst_k,
			    100 * rel.mean);
		}
	}
	/* the designs that lock on must be caught by the same criterion */
	for (v = LV_PLAIN; v <= LV_GOLDEN; v++) {
		struct rel worst = { 1, 1, 0 };
		unsigned int wr = 0, wj = 0;

		for (r = 0; r < l.nrate; r++) {
			for (j = 0; j < l.njit; j++) {
				struct rel rel = lockon_rel(&l, r, j, v);

				if (lockon_pass(rel))
					continue;
				if (lockon_pass(worst) || rel.worst < worst.worst) {
					worst = rel;
					wr = r;
					wj = j;
				}
			}
		}
		tap(!lockon_pass(worst),
		    "negative control: %s misses the lock-on claim: worst %.1f%% (k=%u), mean %.1f%% (T=%u, jitter %.0f%%)",
		    variant_name(&lockon_variants[v]), 100 * worst.worst, worst.worst_k,
		    100 * worst.mean, rates[wr], 100 * lockon_jitters[wj]);
	}
	munmap(l.pulls, (size_t)l.nrate * l.njit * l.nk * l.seeds * NR_LV * sizeof(*l.pulls));
}

/*
 * Of variant @v: whether every p settles within the claim, and the p that
 * comes closest to missing it (or misses it furthest).
 */
static bool estimator_worst(const struct estimator *s, unsigned int v, double *err, double *p)
{
	double margin = -INFINITY;
	bool ok = true;
	unsigned int pi;

	*err = 0;
	*p = 0;
	for (pi = 0; pi < ARRAY_LEN(est_probs); pi++) {
		double r = s->ratio[pi * NR_EV + v], x = r - 1024 * est_probs[pi];
		double m = fabs(x) - fmax(8, 0.02 * 1024 * est_probs[pi]);

		ok &= settle_ok(r, est_probs[pi]);
		if (m > margin) {
			margin = m;
			*err = x;
			*p = est_probs[pi];
		}
	}
	return ok;
}

static void check_estimator(void)
{
	struct estimator s = { .windows = 1 << 14 };
	unsigned int v;
	double err, p;
	bool ok;

	estimator_compute(&s);
	for (v = 0; v < NR_EV; v++) {
		const struct variant *va = &est_variants[v];

		if (va->design != GATE || !va->shift)
			continue;
		ok = estimator_worst(&s, v, &err, &p);
		tap(ok,
		    "estimator: %s settles within 2%% or 8 of 1024 p at every p: closest %+.1f at p=%.3f",
		    variant_name(va), err, p);
	}
	for (v = 0; v < NR_EV; v++) {
		const struct variant *va = &est_variants[v];

		if (va->design != GATE || va->shift)
			continue;
		ok = estimator_worst(&s, v, &err, &p);
		tap(!ok, "negative control: %s (whole successes) misses that: %+.1f at p=%.3f",
		    variant_name(va), err, p);
	}
	munmap(s.ratio, ARRAY_LEN(est_probs) * NR_EV * sizeof(*s.ratio));
}

static void check_exactness(void)
{
	struct exactness *x = exactness_compute(1UL << 22, 1UL << 20, 20000);
	double seq_max[NR_DESIGNS] = { 0 }, bias_max[NR_DESIGNS] = { 0 };
	double win_max[NR_DESIGNS] = { 0 };
	unsigned int i, d, seq_at[NR_DESIGNS] = { 0 }, win_at[NR_DESIGNS] = { 0 };

	for (d = 0; d < NR_DESIGNS; d++) {
		for (i = 0; i < NR_SEQ; i++) {
			if (x->seq[i][d].max > seq_max[d]) {
				seq_max[d] = x->seq[i][d].max;
				seq_at[d] = i;
			}
		}
		for (i = 0; i < NR_BR; i++)
			if (fabs(x->bias[i][d]) > bias_max[d])
				bias_max[d] = fabs(x->bias[i][d]);
		for (i = 0; i < NR_WL; i++) {
			if (x->win[i][d].max > win_max[d]) {
				win_max[d] = x->win[i][d].max;
				win_at[d] = window_lens[i];
			}
		}
	}
	tap(seq_max[GATE] <= 1,
	    "exactness: gate stays within 1 of sum (1 + ratio) / 1024 on every sequence: %.3f (%s)",
	    seq_max[GATE], seq_name[seq_at[GATE]]);
	tap(seq_max[DICE73] > 1,
	    "negative control: v7.3 dice strays further: %.1f (%s)", seq_max[DICE73],
	    seq_name[seq_at[DICE73]]);
	tap(bias_max[GATE] <= 1, "exactness: gate's bias at a constant ratio is at most 1: %.3f",
	    bias_max[GATE]);
	tap(bias_max[DICE73] > 1, "negative control: v7.3 dice's bias is not: %.1f",
	    bias_max[DICE73]);
	/* not below 1: two attempts can come on consecutive visits, see table C */
	tap(win_max[GATE] < 2,
	    "exactness: gate's error over a window is below 2 (windows of 100, 333, 512, 1000): %.3f (%u)",
	    win_max[GATE], win_at[GATE]);
	tap(win_max[DICE] >= 2, "negative control: fixed dice's window error is not: %.1f (%u)",
	    win_max[DICE], win_at[DICE]);
	tap(x->win[0][PLAIN].max <= 0.5 && win_max[PLAIN] > 0.5,
	    "plain's window error is 0.5 only for windows of 512: %.3f, else up to %.3f (%u)",
	    x->win[0][PLAIN].max, win_max[PLAIN], win_at[PLAIN]);
	munmap(x, sizeof(*x));
}

static void check_lockstep(void)
{
	struct lockstep *l = lockstep_compute(1 << 16, NR_LK);
	int excess[NR_LK];
	unsigned int c, r, k, at_n[NR_LK] = { 0 }, at_r[NR_LK] = { 0 };

	for (k = 0; k < NR_LK; k++) {
		excess[k] = -1000;
		for (c = 0; c < NR_LC; c++) {
			for (r = 0; r < NR_LR; r++) {
				unsigned int n = ls_cpus[c];
				int x = (int)l->most[c][r][k];

				x -= (int)lockstep_ceil_at(n, ls_ratios[r]);

				if (x > excess[k]) {
					excess[k] = x;
					at_n[k] = n;
					at_r[k] = ls_ratios[r];
				}
			}
		}
	}
	for (k = 0; k < NR_LK; k++)
		if (ls_kinds[k].design == GATE)
			tap(excess[k] <= 1,
			    "lockstep: gate: at most ceil(N (1 + ratio) / 1024) + 1 CPUs attempt in a round: +%d (N=%u, ratio %u)",
			    excess[k], at_n[k], at_r[k]);
	for (k = 0; k < NR_LK; k++)
		if (ls_kinds[k].design == DICE73 || ls_kinds[k].zero)
			tap(excess[k] > 1,
			    "negative control: %s exceeds that: %+d (N=%u, ratio %u)",
			    ls_kinds[k].name, excess[k], at_n[k], at_r[k]);
	munmap(l, sizeof(*l));
}

static void check_levels(void)
{
	unsigned long visits = 1UL << 20, n0, n1;
	double worst_own = 0, worst_shared = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(level_pairs); i++) {
		double e0 = visits * (1 + level_pairs[i][0]) / 1024.0;
		double e1 = visits * (1 + level_pairs[i][1]) / 1024.0;

		levels(level_pairs[i][0], level_pairs[i][1], false, visits, &n0, &n1);
		worst_own = fmax(worst_own, fmax(fabs(n0 - e0), fabs(n1 - e1)));
		levels(level_pairs[i][0], level_pairs[i][1], true, visits, &n0, &n1);
		worst_shared = fmax(worst_shared, fmax(fabs(n0 - e0), fabs(n1 - e1)));
	}
	tap(worst_own <= 1,
	    "levels: a gate per level attempts at each level's own rate: off by %.3f", worst_own);
	tap(worst_shared > 1, "negative control: one state shared by two levels is off by %.0f",
	    worst_shared);
}

static int check(void)
{
	check_model();
	check_lockon();
	check_estimator();
	check_exactness();
	check_lockstep();
	check_levels();
	printf("1..%d\n# %d passed, %d failed\n", nr_test, nr_test - nr_fail, nr_fail);
	return nr_fail != 0;
}

static int table(int argc, char **argv)
{
	static const struct {
		char letter;
		void (*print)(void);
	} tables[] = {
		{ 'A', table_lockon },
		{ 'B', table_estimator },
		{ 'C', table_exactness },
		{ 'D', table_lockstep },
		{ 'E', table_levels },
	};
	unsigned int i;
	int a;

	for (i = 0; i < ARRAY_LEN(tables); i++) {
		bool wanted = argc == 0;

		for (a = 0; a < argc; a++)
			wanted |= argv[a][0] == tables[i].letter;
		if (!wanted)
			continue;
		tables[i].print();
		printf("\n");
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "check"))
		return check();
	if (argc < 2 || !strcmp(argv[1], "table"))
		return table(argc > 2 ? argc - 2 : 0, argv + 2);
	if (!strcmp(argv[1], "timeline") && argc == 4)
		return timeline(atoi(argv[2]), atoi(argv[3]));
	if (!strcmp(argv[1], "cost") && argc == 5 &&
	    !cost(argv[2], atoi(argv[3]), strtoul(argv[4], NULL, 10)))
		return 0;
	fprintf(stderr, "usage: gate_sim [table [A|B|C|D|E]... | check | timeline RATIO VISITS |\n"
		"                 cost dice|plain|golden|gate RATIO VISITS]\n");
	return 2;
}
