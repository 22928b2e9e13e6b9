// SPDX-License-Identifier: GPL-2.0
#include "model.h"
/* ------------------------------------------------------------------------
 * D2. Subsets in lockstep: some CPUs of a domain, not all, go newly idle in
 * the same rounds (the workers of one waker bound to CPUs in turn, the SMT
 * siblings or the cache of a busy core): how many attempt at once
 */

enum sskind { SS_DICE, SS_V4, SS_LINEAR, SS_GATE, NR_SSK };

static const char *const ss_name[NR_SSK] = {
	[SS_DICE] = "fixed dice",
	[SS_V4] = "plain, zero",
	[SS_LINEAR] = "gate, linear",
	[SS_GATE] = "gate",
};

/*
 * The CPUs of ranks @rank[0 .. n - 1] of a domain of @weight at @ratio for
 * @rounds rounds: the most that attempt in one round, less the fewest a
 * round can have at most, ceil(n (1 + ratio) / 1024). "gate, linear"
 * starts them at offsets rank * 1024 / weight, as the series did before it
 * dealt the places out in bit-reversed order.
 */
static int subset_excess(enum sskind kind, const unsigned int *rank, unsigned int n,
			 unsigned int weight, unsigned int ratio, unsigned int rounds, u64 key)
{
	unsigned short *fired = calloc(rounds, sizeof(*fired));
	unsigned int i, v, most = 0;
	struct gate g;

	if (!fired)
		fail("out of memory");
	for (i = 0; i < n; i++) {
		switch (kind) {
		case SS_DICE:
			gate_init(&g, DICE, rank[i], weight, key * 4096 + rank[i]);
			break;
		case SS_V4:
			gate_init(&g, PLAIN, 0, 1, 0);
			break;
		case SS_LINEAR:
			gate_init(&g, GATE, rank[i], weight, 0);
			g.state = newidle_gate_pack(spread(rank[i], weight), spread(rank[i], weight), 0);
			break;
		default:
			gate_init(&g, GATE, rank[i], weight, 0);
			break;
		}
		for (v = 0; v < rounds; v++)
			fired[v] += gate_visit(&g, ratio);
	}
	for (v = 0; v < rounds; v++)
		most = fired[v] > most ? fired[v] : most;
	free(fired);
	return (int)most - (int)((n * (1 + ratio) + SCALE - 1) / SCALE);
}

enum sstype { SS_RUN, SS_BLOCK, SS_RANDOM, NR_SST };

static const char *const ss_type[NR_SST] = { "runs", "aligned", "random" };

static const unsigned int ss_sizes[] = { 2, 4, 8, 20, 64 };
static const unsigned int ss_ratios[] = { 10, 100, 511, 700 };

#define SS_WEIGHT	224
#define SS_DRAWS	20
#define NR_SS		ARRAY_LEN(ss_sizes)

struct subsets {
	unsigned int rounds;
	int worst[NR_SS][NR_SST][NR_SSK];	/* over the ratios and the sets */
};

/* every run of n consecutive ranks, every aligned block, SS_DRAWS random sets */
static void subsets_job(unsigned int job, void *arg)
{
	struct subsets *s = arg;
	unsigned int kind = job % NR_SSK, size = job / NR_SSK % NR_SS;
	unsigned int type = job / NR_SSK / NR_SS, n = ss_sizes[size], rank[SS_WEIGHT];
	unsigned int first, r, i, sets;
	int worst = -1000;
	struct rng rnd;

	rng_seed(&rnd, 7000 + size);
	sets = type == SS_RANDOM ? SS_DRAWS : SS_WEIGHT - n + 1;
	for (first = 0; first < sets; first++) {
		if (type == SS_BLOCK && first % n)
			continue;
		if (type == SS_RANDOM) {
			bool taken[SS_WEIGHT] = { false };

			for (i = 0; i < n; i++) {
				do
					rank[i] = rng_below(&rnd, SS_WEIGHT);
				while (taken[rank[i]]);
				taken[rank[i]] = true;
			}
		} else {
			for (i = 0; i < n; i++)
				rank[i] = first + i;
		}
		for (r = 0; r < ARRAY_LEN(ss_ratios); r++) {
			int x = subset_excess(kind, rank, n, SS_WEIGHT, ss_ratios[r], s->rounds,
					      first * 8 + r);

			worst = x > worst ? x : worst;
		}
	}
	s->worst[size][type][kind] = worst;
}

static struct subsets *subsets_compute(unsigned int rounds)
{
	struct subsets *s = shared(sizeof(*s));

	s->rounds = rounds;
	parallel(NR_SSK * NR_SS * NR_SST, subsets_job, s);
	return s;
}

/*
 * The claim for runs: spans of @weight, runs of n consecutive ranks at every
 * start, n = 2..min(64, weight - 1) and weight / 2; the worst excess.
 */
static const unsigned int run_spans[] = { 20, 48, 224, 4, 6, 8, 12, 16, 24, 32, 64, 96, 128, 160, 192, 256 };
#define RUN_SPANS_CHECK	3	/* the check's: the first three */
static const unsigned int run_ratios[] = { 0, 10, 24, 100, 300, 511, 700, 1000 };

struct runs {
	unsigned int rounds, nspans;
	int worst[ARRAY_LEN(run_spans)];
	unsigned int at_n[ARRAY_LEN(run_spans)], at_first[ARRAY_LEN(run_spans)];
	unsigned int at_ratio[ARRAY_LEN(run_spans)];
};

static void runs_job(unsigned int job, void *arg)
{
	struct runs *s = arg;
	unsigned int w = run_spans[job], n, first, r, i, rank[256];
	int worst = -1000;

	for (n = 2; n < w; n++) {
		if (n > 64 && n != w / 2)
			continue;
		for (first = 0; first + n <= w; first++) {
			for (i = 0; i < n; i++)
				rank[i] = first + i;
			for (r = 0; r < ARRAY_LEN(run_ratios); r++) {
				int x = subset_excess(SS_GATE, rank, n, w, run_ratios[r], s->rounds, 0);

				if (x > worst) {
					worst = x;
					s->at_n[job] = n;
					s->at_first[job] = first;
					s->at_ratio[job] = run_ratios[r];
				}
			}
		}
	}
	s->worst[job] = worst;
}

static struct runs *runs_compute(unsigned int rounds, unsigned int nspans)
{
	struct runs *s = shared(sizeof(*s));

	s->rounds = rounds;
	s->nspans = nspans;
	parallel(nspans, runs_job, s);
	return s;
}

void table_subsets(void)
{
	struct subsets *s = subsets_compute(1 << 12);
	struct runs *u = runs_compute(1 << 12, ARRAY_LEN(run_spans));
	unsigned int size, type, k;

	printf("D2. Subsets in lockstep (model): n of %u CPUs (ranks) of one domain go newly\n"
	       "   idle in the same rounds, %u rounds, at a common ratio: the most that attempt\n"
	       "   in one round less ceil(n (1 + ratio) / 1024), the worst over ratios",
	       SS_WEIGHT, s->rounds);
	for (k = 0; k < ARRAY_LEN(ss_ratios); k++)
		printf("%s%u", k ? ", " : " ", ss_ratios[k]);
	printf("\n   and over the sets: every run of n consecutive ranks, every aligned block\n"
	       "   (first rank a multiple of n), %u random sets. 'gate, linear' spreads the\n"
	       "   ranks over the band in order (rank * 1024 / weight, the series before);\n"
	       "   'gate' deals them the places in bit-reversed order.\n\n", SS_DRAWS);
	printf("      n  sets   ");
	for (k = 0; k < NR_SSK; k++)
		printf(" %12s", ss_name[k]);
	printf("\n");
	for (size = 0; size < NR_SS; size++) {
		for (type = 0; type < NR_SST; type++) {
			printf("   %4u  %-8s", ss_sizes[size], ss_type[type]);
			for (k = 0; k < NR_SSK; k++)
				printf(" %+12d", s->worst[size][type][k]);
			printf("\n");
		}
	}
	printf("\n   The gate's runs of consecutive ranks in spans of other sizes (n = 2..64\n"
	       "   and half the span, every start, ratios");
	for (k = 0; k < ARRAY_LEN(run_ratios); k++)
		printf("%s%u", k ? ", " : " ", run_ratios[k]);
	printf("):\n\n   span  worst  (n, first rank, ratio)\n");
	for (k = 0; k < u->nspans; k++)
		printf("   %4u  %+5d  (%u, %u, %u)\n", run_spans[k], u->worst[k], u->at_n[k],
		       u->at_first[k], u->at_ratio[k]);
	munmap(s, sizeof(*s));
	munmap(u, sizeof(*u));
}

void check_subsets(void)
{
	struct subsets *s = subsets_compute(1 << 11);
	struct runs *u = runs_compute(1 << 10, RUN_SPANS_CHECK);
	int runs = -1000, blocks = -1000, linear = -1000;
	unsigned int size, k, at = 0;

	for (size = 0; size < NR_SS; size++) {
		runs = s->worst[size][SS_RUN][SS_GATE] > runs ? s->worst[size][SS_RUN][SS_GATE] : runs;
		linear = s->worst[size][SS_RUN][SS_LINEAR] > linear ?
			 s->worst[size][SS_RUN][SS_LINEAR] : linear;
		/* aligned blocks of a power of two */
		if (!(ss_sizes[size] & (ss_sizes[size] - 1)))
			blocks = s->worst[size][SS_BLOCK][SS_GATE] > blocks ?
				 s->worst[size][SS_BLOCK][SS_GATE] : blocks;
	}
	for (k = 0; k < u->nspans; k++)
		if (u->worst[k] > u->worst[at])
			at = k;
	tap(runs <= 5 && u->worst[at] <= 5,
	    "subsets: gate: a run of n consecutive CPUs of a span attempts at most ceil(n (1 + ratio) / 1024) + 5 at once: %+d of 224, %+d at worst (span %u, n %u, ratio %u)",
	    runs, u->worst[at], run_spans[at], u->at_n[at], u->at_ratio[at]);
	tap(blocks <= 3,
	    "subsets: gate: an aligned block of 2, 4, 8 or 64 CPUs of 224 attempts at most ceil + 3 at once: %+d",
	    blocks);
	tap(linear > 4,
	    "negative control: the gate with linear offsets exceeds the runs' bound: %+d", linear);
	munmap(s, sizeof(*s));
	munmap(u, sizeof(*u));
}
