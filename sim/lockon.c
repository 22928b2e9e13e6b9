// SPDX-License-Identifier: GPL-2.0
#include "model.h"
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

void table_lockon(void)
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


void check_lockon(void)
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

