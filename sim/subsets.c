// SPDX-License-Identifier: GPL-2.0
#include "model.h"
/* ------------------------------------------------------------------------
 * D2. Subsets in lockstep: some CPUs of a domain, not all, go newly idle in
 * the same rounds (the workers of one waker bound to CPUs in turn, the SMT
 * siblings or the cache of a busy core): how many attempt at once
 */

enum sskind { SS_DICE, SS_V4, SS_LINEAR, SS_BITREV, SS_GATE, NR_SSK };

static const char *const ss_name[NR_SSK] = {
	[SS_DICE] = "fixed dice",
	[SS_V4] = "plain, zero",
	[SS_LINEAR] = "gate, linear",
	[SS_BITREV] = "gate, bitrev",
	[SS_GATE] = "gate",
};

/*
 * The place of @rank of @nr that an earlier version of the series dealt:
 * the first half of the ranks the even places, each half dealt alike (a
 * bit reversal for a power of two). It put x86's SMT siblings, @nr / 2
 * apart, on neighbouring places.
 */
static unsigned int bitrev_place(unsigned int rank, unsigned int nr)
{
	unsigned int place = 0, bit = 1;

	while (nr > 1) {
		unsigned int even = (nr + 1) / 2;

		if (rank < even) {
			nr = even;
		} else {
			rank -= even;
			nr /= 2;
			place |= bit;
		}
		bit <<= 1;
	}
	return place;
}

/* the gate of @rank of @weight with the places dealt by @place */
static void gate_placed(struct gate *g, unsigned int rank, unsigned int weight,
			unsigned int place)
{
	unsigned int offset = place * SCALE / weight;

	gate_init(g, GATE, rank, weight, 0);
	g->state = newidle_gate_pack(offset, offset, 0);
}

/*
 * The CPUs of ranks @rank[0 .. n - 1] of a domain of @weight at @ratio for
 * @rounds rounds: the most that attempt in one round, less the fewest a
 * round can have at most, ceil(n (1 + ratio) / 1024). "gate, linear"
 * starts them at offsets rank * 1024 / weight, "gate, bitrev" at the places
 * of bitrev_place(), as earlier versions of the series did.
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
			gate_placed(&g, rank[i], weight, rank[i]);
			break;
		case SS_BITREV:
			gate_placed(&g, rank[i], weight, bitrev_place(rank[i], weight));
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

/*
 * runs of consecutive ranks, aligned blocks of them, x86 cores (a run of n / 2
 * ranks and the ranks half the span above them, their SMT siblings as x86
 * numbers CPUs), random sets
 */
enum sstype { SS_RUN, SS_BLOCK, SS_CORES, SS_RANDOM, NR_SST };

static const char *const ss_type[NR_SST] = { "runs", "aligned", "x86 cores", "random" };

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
		} else if (type == SS_CORES) {
			if (first + n / 2 > SS_WEIGHT / 2)
				break;
			for (i = 0; i < n; i++)
				rank[i] = first + i / 2 + i % 2 * (SS_WEIGHT / 2);
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

/* ------------------------------------------------------------------------
 * D3. SMT siblings as x86 numbers them, ranks i and i + weight / 2, going
 * newly idle together: on how many of the first one's attempts the second
 * attempts too, in 1/1024. A dice gives 1 + ratio.
 */
static unsigned int pair_together(enum sskind kind, unsigned int rank, unsigned int weight,
				  unsigned int ratio, unsigned int rounds)
{
	unsigned int r[2] = { rank, rank + weight / 2 }, i, v, one = 0, both = 0;
	struct gate g[2];

	for (i = 0; i < 2; i++) {
		switch (kind) {
		case SS_DICE:
			gate_init(&g[i], DICE, r[i], weight, 4096ULL * weight + r[i]);
			break;
		case SS_BITREV:
			gate_placed(&g[i], r[i], weight, bitrev_place(r[i], weight));
			break;
		default:
			gate_init(&g[i], GATE, r[i], weight, 0);
			break;
		}
	}
	for (v = 0; v < rounds; v++) {
		bool a = gate_visit(&g[0], ratio), b = gate_visit(&g[1], ratio);

		one += a;
		both += a && b;
	}
	return (u64)both * SCALE / (one ? one : 1);
}

static const enum sskind pair_kinds[] = { SS_DICE, SS_BITREV, SS_GATE };
static const unsigned int pair_spans[] = { 8, 20, 64, 224 };
static const unsigned int pair_ratios[] = { 10, 100, 300 };

#define NR_PK	ARRAY_LEN(pair_kinds)
#define NR_PS	ARRAY_LEN(pair_spans)
#define NR_PR	ARRAY_LEN(pair_ratios)

struct pairs {
	unsigned int rounds;
	unsigned int mean[NR_PS][NR_PR][NR_PK], worst[NR_PS][NR_PR][NR_PK];
};

static void pairs_job(unsigned int job, void *arg)
{
	struct pairs *s = arg;
	unsigned int k = job % NR_PK, r = job / NR_PK % NR_PR, w = job / NR_PK / NR_PR;
	unsigned int rank, x, sum = 0, most = 0, span = pair_spans[w];

	for (rank = 0; rank < span / 2; rank++) {
		x = pair_together(pair_kinds[k], rank, span, pair_ratios[r], s->rounds);
		sum += x;
		most = x > most ? x : most;
	}
	s->mean[w][r][k] = sum / (span / 2);
	s->worst[w][r][k] = most;
}

static struct pairs *pairs_compute(unsigned int rounds)
{
	struct pairs *s = shared(sizeof(*s));

	s->rounds = rounds;
	parallel(NR_PS * NR_PR * NR_PK, pairs_job, s);
	return s;
}

static void table_pairs(void)
{
	struct pairs *s = pairs_compute(1 << 16);
	unsigned int w, r, k;

	printf("\nD3. SMT siblings in lockstep (model): CPUs i and i + span / 2 (x86's\n"
	       "   numbering) at a common ratio, %u rounds: on how many of the first's\n"
	       "   attempts the second attempts too, per 1024, mean / worst over i. A dice\n"
	       "   gives 1 + ratio.\n\n   span  ratio", s->rounds);
	for (k = 0; k < NR_PK; k++)
		printf(" %14s", ss_name[pair_kinds[k]]);
	printf("\n");
	for (w = 0; w < NR_PS; w++) {
		for (r = 0; r < NR_PR; r++) {
			printf("   %4u  %5u", pair_spans[w], pair_ratios[r]);
			for (k = 0; k < NR_PK; k++)
				printf("      %4u/%4u", s->mean[w][r][k], s->worst[w][r][k]);
			printf("\n");
		}
	}
	munmap(s, sizeof(*s));
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
	       "   ranks over the band in order (rank * 1024 / weight), 'gate, bitrev' deals\n"
	       "   the places in bit-reversed order (earlier versions of the series); 'gate'\n"
	       "   by the golden stride (newidle_gate_place()). x86 cores: n / 2 consecutive\n"
	       "   ranks and their SMT siblings, half the span above.\n\n", SS_DRAWS);
	printf("      n  sets     ");
	for (k = 0; k < NR_SSK; k++)
		printf(" %12s", ss_name[k]);
	printf("\n");
	for (size = 0; size < NR_SS; size++) {
		for (type = 0; type < NR_SST; type++) {
			printf("   %4u  %-10s", ss_sizes[size], ss_type[type]);
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
	table_pairs();
}

void check_subsets(void)
{
	struct subsets *s = subsets_compute(1 << 11);
	struct runs *u = runs_compute(1 << 10, RUN_SPANS_CHECK);
	int runs = -1000, blocks = -1000, cores = -1000, linear = -1000, gate = 0, bitrev = 0;
	unsigned int size, k, at = 0, w, r, bound;
	struct pairs *p;

	for (size = 0; size < NR_SS; size++) {
		runs = s->worst[size][SS_RUN][SS_GATE] > runs ? s->worst[size][SS_RUN][SS_GATE] : runs;
		linear = s->worst[size][SS_RUN][SS_LINEAR] > linear ?
			 s->worst[size][SS_RUN][SS_LINEAR] : linear;
		/* aligned blocks of a power of two */
		if (ss_sizes[size] & (ss_sizes[size] - 1))
			continue;
		blocks = s->worst[size][SS_BLOCK][SS_GATE] > blocks ?
			 s->worst[size][SS_BLOCK][SS_GATE] : blocks;
		cores = s->worst[size][SS_CORES][SS_GATE] > cores ?
			s->worst[size][SS_CORES][SS_GATE] : cores;
	}
	for (k = 0; k < u->nspans; k++)
		if (u->worst[k] > u->worst[at])
			at = k;
	tap(runs <= 5 && u->worst[at] <= 5,
	    "subsets: gate: a run of n consecutive CPUs of a span attempts at most ceil(n (1 + ratio) / 1024) + 5 at once: %+d of 224, %+d at worst (span %u, n %u, ratio %u)",
	    runs, u->worst[at], run_spans[at], u->at_n[at], u->at_ratio[at]);
	tap(blocks <= 4 && cores <= 4,
	    "subsets: gate: an aligned block or x86 cores of 2, 4, 8 or 64 CPUs of 224 attempt at most ceil + 4 at once: %+d, %+d",
	    blocks, cores);
	tap(linear > 4,
	    "negative control: the gate with linear offsets exceeds the runs' bound: %+d", linear);
	munmap(s, sizeof(*s));
	munmap(u, sizeof(*u));

	p = pairs_compute(1 << 16);
	for (w = 0; w < NR_PS; w++) {
		for (r = 0; r < NR_PR; r++) {
			bound = (1 + pair_ratios[r]) / 4;
			gate = p->worst[w][r][2] > bound ? 1 : gate;
			bitrev = p->worst[w][r][1] > bound ? 1 : bitrev;
		}
	}
	tap(!gate, "subsets: gate: SMT siblings half the span apart (8, 20, 64, 224) attempt together under a quarter as often as with a dice");
	tap(bitrev, "negative control: bit-reversed places put some siblings together more often than that");
	munmap(p, sizeof(*p));
}
