// SPDX-License-Identifier: GPL-2.0
#include "model.h"
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

static const unsigned int ls_cpus[] = { 2, 8, 20, 64, 160, 224, 512, 1024 };
static const unsigned int ls_ratios[] = { 0, 10, 100, 511, 700, 1000 };
/* unequal ratios: r +/- up to 10 % for these r, then uniform in 0..1023 */
static const unsigned int ls_spread[] = { 10, 100, 511, 700 };

#define NR_LC		ARRAY_LEN(ls_cpus)
#define NR_LR		ARRAY_LEN(ls_ratios)
#define NR_LS		(ARRAY_LEN(ls_spread) + 1)
#define LS_SEEDS	3
#define LS_MAX_CPUS	1024

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

void table_lockstep(void)
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


void check_lockstep(void)
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

