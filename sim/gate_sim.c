// SPDX-License-Identifier: GPL-2.0
/*
 * Model of the newidle balance gate: the series' accumulator, built from the
 * kernel tree's own kernel/sched/newidle.h, against a model of the v7.3 dice
 * (prandom_u32_state() % 1024, attempt when d1k <= 1 + ratio).
 *
 * Usage: gate_sim [table|check|timeline RATIO VISITS|cost dice|acc VISITS]
 *   table     the tables (default)
 *   check     the model's invariants and negative controls, as TAP
 *   timeline  one line per visit: visit dice acc lockstep-zero lockstep-staggered
 *   cost      VISITS gate decisions of one kind, for callgrind to count
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include NEWIDLE_H	/* "<kernel tree>/kernel/sched/newidle.h", from the Makefile */

/*
 * The dice's generator: prandom_u32_state() is L'Ecuyer's combined
 * Tausworthe generator of period 2^113 ("taus113"); written here from
 * the published recurrence.
 */
struct taus {
	uint32_t s1, s2, s3, s4;
};

static uint32_t taus_step(uint32_t s, int q, int shift, int k, uint32_t mask)
{
	return ((s & mask) << k) ^ (((s << q) ^ s) >> shift);
}

static uint32_t taus_next(struct taus *t)
{
	t->s1 = taus_step(t->s1, 6, 13, 18, 4294967294U);
	t->s2 = taus_step(t->s2, 2, 27, 2, 4294967288U);
	t->s3 = taus_step(t->s3, 13, 21, 7, 4294967280U);
	t->s4 = taus_step(t->s4, 3, 12, 13, 4294967168U);
	return t->s1 ^ t->s2 ^ t->s3 ^ t->s4;
}

static void taus_seed(struct taus *t, uint64_t seed)
{
	int i;

	/* any state with s1 > 1, s2 > 7, s3 > 15, s4 > 127 is valid */
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	t->s1 = (uint32_t)seed | 2;
	t->s2 = (uint32_t)(seed >> 32) | 8;
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	t->s3 = (uint32_t)seed | 16;
	t->s4 = (uint32_t)(seed >> 32) | 128;
	for (i = 0; i < 10; i++)
		taus_next(t);
}

/* A gate: the kernel's accumulator, or the v7.3 dice. */
struct gate {
	bool dice;
	unsigned int pos;
	struct taus rnd;
};

static bool gate(struct gate *g, unsigned int ratio)
{
	if (!g->dice)
		return newidle_gate(&g->pos, ratio);
	if (ratio >= NEWIDLE_SCALE)
		return true;
	return taus_next(&g->rnd) % 1024 <= 1 + ratio;	/* v7.3: skip if d1k > 1 + ratio */
}

static void gate_init(struct gate *g, bool dice, unsigned int pos, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->dice = dice;
	g->pos = pos;
	taus_seed(&g->rnd, seed);
}

/* The review's experiment: windows of 512 visits, a new uniform ratio each. */
static void windows(bool dice, unsigned int nwin, double *max, double *mean, double *bias)
{
	struct taus pick;
	struct gate g;
	long long total = 0, sum_abs = 0, worst = 0;
	unsigned int w, v;

	taus_seed(&pick, 12345);
	gate_init(&g, dice, 0, 777);
	for (w = 0; w < nwin; w++) {
		unsigned int r = taus_next(&pick) % 1024;
		long long err = 0;	/* in 1/1024 attempts */

		for (v = 0; v < 512; v++)
			err += gate(&g, r) * 1024LL - (1 + r);
		sum_abs += llabs(err);
		if (llabs(err) > worst)
			worst = llabs(err);
		total += err;
	}
	*max = worst / 1024.0;
	*mean = sum_abs / 1024.0 / nwin;
	*bias = total / 1024.0;
}

enum phase { DICE, ZERO, STAGGERED };

/* N CPUs going newly idle in the same rounds: attempts per round. */
static void lockstep(enum phase kind, unsigned int n, unsigned int r, unsigned int rounds,
		     double *mean, unsigned int *most)
{
	struct gate *g = calloc(n, sizeof(*g));
	unsigned long long sum = 0;
	unsigned int i, k;

	*most = 0;
	for (i = 0; i < n; i++)
		gate_init(&g[i], kind == DICE, kind == STAGGERED ? newidle_gate_phase(i, n) : 0,
			  1000 + i);
	for (k = 0; k < rounds; k++) {
		unsigned int fired = 0;

		for (i = 0; i < n; i++)
			fired += gate(&g[i], r);
		sum += fired;
		if (fired > *most)
			*most = fired;
	}
	*mean = (double)sum / rounds;
	free(g);
}

/* Two levels visited in turn; one accumulator each, or one shared. */
static void levels(unsigned int r0, unsigned int r1, bool shared, unsigned int visits,
		   double *rate0, double *rate1)
{
	unsigned int pos[2] = { 0, 0 }, n0 = 0, n1 = 0, v;

	for (v = 0; v < visits; v++) {
		n0 += newidle_gate(&pos[0], r0);
		n1 += newidle_gate(&pos[shared ? 0 : 1], r1);
	}
	*rate0 = (double)n0 / visits;
	*rate1 = (double)n1 / visits;
}

static int table(void)
{
	static const unsigned int cpus[] = { 8, 20, 64, 160, 224 };
	static const unsigned int ratios[] = { 10, 100, 511 };
	static const unsigned int pairs[][2] = { { 511, 511 }, { 100, 900 }, { 0, 1023 } };
	double mx, mean, bias;
	unsigned int c, i;

	printf("Review experiment: 20000 windows of 512 visits, ratio uniform in [0,1023] per window\n\n");
	printf("  gate         max window error   mean window error   total bias (attempts)\n");
	windows(true, 20000, &mx, &mean, &bias);
	printf("  v7.3 dice    %16.3f   %17.3f   %+21.3f\n", mx, mean, bias);
	windows(false, 20000, &mx, &mean, &bias);
	printf("  accumulator  %16.3f   %17.3f   %+21.3f\n", mx, mean, bias);
	printf("\n  (the dice attempts (2 + ratio) / 1024 of the visits, 1/1024 too many below\n"
	       "   ratio 1023: about +%.0f over these %u visits)\n", 20000 * 512 / 1024.0, 20000 * 512);

	printf("\nLockstep: N CPUs newly idle in the same rounds, 4096 rounds; attempts per round\n\n");
	printf("     N  ratio   dice mean/max   zero-phase mean/max   staggered mean/max   optimum\n");
	for (c = 0; c < sizeof(cpus) / sizeof(cpus[0]); c++) {
		for (i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++) {
			unsigned int n = cpus[c], r = ratios[i], md, mz, ms;
			double ad, az, as;

			lockstep(DICE, n, r, 4096, &ad, &md);
			lockstep(ZERO, n, r, 4096, &az, &mz);
			lockstep(STAGGERED, n, r, 4096, &as, &ms);
			printf("  %4u  %5u   %7.2f/%-5u   %11.2f/%-5u      %9.2f/%-5u     %5u\n",
			       n, r, ad, md, az, mz, as, ms, (n * (1 + r) + 1023) / 1024);
		}
	}

	printf("\nLevels: two domain levels visited in turn, 1M visits; attempt rate per level\n\n");
	printf("  ratios      exact rates      one shared accumulator   one per level\n");
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		double s0, s1, p0, p1;

		levels(pairs[i][0], pairs[i][1], true, 1 << 20, &s0, &s1);
		levels(pairs[i][0], pairs[i][1], false, 1 << 20, &p0, &p1);
		printf("  %4u/%-4u   %.4f/%.4f    %.4f/%.4f            %.4f/%.4f\n",
		       pairs[i][0], pairs[i][1], (1 + pairs[i][0]) / 1024.0,
		       (1 + pairs[i][1]) / 1024.0, s0, s1, p0, p1);
	}
	return 0;
}

/* One line per visit at one ratio: who attempts (1) or skips (0). */
static int timeline(unsigned int r, unsigned int visits)
{
	struct gate dice, acc;
	unsigned int pz[4] = { 0 }, ps[4], v, i;

	gate_init(&dice, true, 0, 99);
	gate_init(&acc, false, 0, 0);
	for (i = 0; i < 4; i++)
		ps[i] = newidle_gate_phase(i, 4);
	printf("# visit dice accumulator zero-phase-4cpus staggered-4cpus (ratio %u)\n", r);
	for (v = 0; v < visits; v++) {
		unsigned int z = 0, s = 0;

		for (i = 0; i < 4; i++) {
			z += newidle_gate(&pz[i], r);
			s += newidle_gate(&ps[i], r);
		}
		printf("%u %d %d %u %u\n", v, gate(&dice, r), gate(&acc, r), z, s);
	}
	return 0;
}

/* VISITS decisions at ratio 100, for instruction counting. */
static int cost(bool dice, unsigned long visits)
{
	struct gate g;
	unsigned long v, n = 0;

	gate_init(&g, dice, 0, 5);
	for (v = 0; v < visits; v++)
		n += gate(&g, 100);
	printf("%lu attempts\n", n);
	return 0;
}

static int nr_test, nr_fail;

static void tap(bool ok, const char *what, double got, double bound)
{
	nr_test++;
	nr_fail += !ok;
	printf("%sok %d - %s (%.3f vs %.3f)\n", ok ? "" : "not ", nr_test, what, got, bound);
}

/*
 * The model's invariants, and the same measurements catching the dice,
 * equal phases and a shared accumulator (each must be caught).
 */
static int check(void)
{
	static const unsigned int cpus[] = { 8, 20, 64, 160, 224 };
	static const unsigned int ratios[] = { 10, 100, 511 };
	double mx, mean, bias, r0, r1, zero_over = 0, stag_over = 0;
	unsigned int c, i, most;

	windows(false, 20000, &mx, &mean, &bias);
	tap(mx <= 0.5, "accumulator: max window error <= 0.5", mx, 0.5);
	tap(bias > -1 && bias < 1, "accumulator: |total bias| < 1", bias, 1);
	windows(true, 20000, &mx, &mean, &bias);
	tap(mx > 0.5, "negative control: dice max window error > 0.5", mx, 0.5);
	tap(bias >= 1000, "negative control: dice bias shows its (2 + ratio) / 1024 rate", bias, 1000);

	for (c = 0; c < sizeof(cpus) / sizeof(cpus[0]); c++) {
		for (i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++) {
			unsigned int n = cpus[c], r = ratios[i], opt = (n * (1 + r) + 1023) / 1024;

			lockstep(STAGGERED, n, r, 4096, &mean, &most);
			if (most > opt + stag_over)
				stag_over = most - opt;
			lockstep(ZERO, n, r, 4096, &mean, &most);
			if (most > opt + zero_over)
				zero_over = most - opt;
		}
	}
	tap(stag_over == 0, "staggered phases: never above ceil(N(1+r)/1024)", stag_over, 0);
	tap(zero_over > 0, "negative control: zero phases exceed the optimum", zero_over, 0);

	levels(511, 511, false, 1 << 20, &r0, &r1);
	tap(r0 == 0.5 && r1 == 0.5, "per-level accumulators: 511/511 each attempt half", r0, 0.5);
	levels(511, 511, true, 1 << 20, &r0, &r1);
	tap(r0 < 0.01, "negative control: a shared accumulator starves the lower level", r0, 0.5);

	printf("1..%d\n# %d passed, %d failed\n", nr_test, nr_test - nr_fail, nr_fail);
	return nr_fail != 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "check"))
		return check();
	if (argc < 2 || !strcmp(argv[1], "table"))
		return table();
	if (!strcmp(argv[1], "timeline") && argc == 4)
		return timeline(atoi(argv[2]), atoi(argv[3]));
	if (!strcmp(argv[1], "cost") && argc == 4)
		return cost(!strcmp(argv[2], "dice"), strtoul(argv[3], NULL, 10));
	fprintf(stderr, "usage: gate_sim [table | check | timeline RATIO VISITS | cost dice|acc VISITS]\n");
	return 2;
}
