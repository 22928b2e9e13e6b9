// SPDX-License-Identifier: GPL-2.0
#include "model.h"
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

void table_exactness(void)
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


void check_exactness(void)
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

