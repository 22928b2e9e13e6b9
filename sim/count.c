// SPDX-License-Identifier: GPL-2.0
#include "model.h"
/* C. Count: attempts against S, the sum of (1 + ratio) / 1024; gaps at a steady ratio */

enum seq { SEQ_VISIT, SEQ_WINDOW, SEQ_WALK, SEQ_ALT, SEQ_JUMP, SEQ_BURST, SEQ_ZERO, SEQ_TOP,
	   NR_SEQ };

static const char *const seq_name[NR_SEQ] = {
	[SEQ_VISIT] = "random per visit", [SEQ_WINDOW] = "random per 512",
	[SEQ_WALK] = "random walk +-16", [SEQ_ALT] = "0, 1023 in turn",
	[SEQ_JUMP] = "0 or 1023 at random", [SEQ_BURST] = "1023 once per 1024",
	[SEQ_ZERO] = "0 throughout", [SEQ_TOP] = "1023 throughout",
};

#define CNT_CPUS	224
#define GAP_JOBS	64
#define GAP_DICE	100	/* the ratio the dice's gaps are taken at */

struct range {
	long lo, hi;	/* of attempts - floor(S), over the visits */
};

struct count {
	unsigned long visits, start_visits, gap_attempts;
	struct range gate[NR_SEQ][CNT_CPUS];	/* CPU 0 for @visits, the others fewer */
	struct range noowed[NR_SEQ];		/* CPU 0 */
	unsigned long gap[SCALE];		/* the longest gap at ratio r */
	unsigned long dice_gap;
};

static unsigned int seq_ratio(enum seq s, struct rng *r, unsigned long v, unsigned int ratio)
{
	int x;

	switch (s) {
	case SEQ_VISIT:
		return rng_below(r, SCALE);
	case SEQ_WINDOW:
		return v % 512 ? ratio : rng_below(r, SCALE);
	case SEQ_WALK:
		x = (int)ratio + (int)rng_below(r, 33) - 16;
		return clamp(x, 0, 1023);
	case SEQ_ALT:
		return v & 1 ? 1023 : 0;
	case SEQ_JUMP:
		return rng_next(r) & 1 ? 1023 : 0;
	case SEQ_BURST:
		return v % 1024 ? 0 : 1023;
	case SEQ_ZERO:
		return 0;
	default:
		return 1023;
	}
}

static void widen(struct range *all, const struct range *r)
{
	all->lo = min(all->lo, r->lo);
	all->hi = max(all->hi, r->hi);
}

static struct range count_run(enum design d, enum seq s, unsigned int cpu, unsigned long visits)
{
	unsigned long v, attempts = 0;
	struct range rg = { 0, 0 };
	unsigned int ratio = 512;
	u64 sum = 0;	/* of 1 + ratio: S = sum / 1024 */
	struct gate g;
	struct rng r;

	gate_init(&g, d, cpu, 0);
	rng_seed(&r, 100 + s);
	for (v = 0; v < visits; v++) {
		long x;

		ratio = seq_ratio(s, &r, v, ratio);
		attempts += gate_visit(&g, ratio);
		sum += 1 + ratio;
		x = (long)attempts - (long)(sum / SCALE);
		widen(&rg, &(struct range){ x, x });
	}
	return rg;
}

/* The longest gap from one attempt to the next at @ratio, over @attempts */
static unsigned long gap_run(enum design d, unsigned int ratio, unsigned int cpu,
			     unsigned long attempts)
{
	unsigned long v, last = 0, most = 0, a = 0;
	struct gate g;

	gate_init(&g, d, cpu, 77);
	for (v = 0; a < attempts; v++) {
		if (d == GATE)
			v += newidle_quiet(&g.state, ratio, ~0UL);
		if (!gate_visit(&g, ratio))
			continue;
		if (a++ && v - last > most)
			most = v - last;
		last = v;
	}
	return most;
}

static unsigned long gap_bound(unsigned int ratio)
{
	return (2047 + ratio) / (1 + ratio);	/* ceil(2047 / (1 + ratio)) */
}

static void count_job(unsigned int n, void *arg)
{
	struct count *c = arg;
	unsigned int s = n / CNT_CPUS, cpu = n % CNT_CPUS, r;
	int m = (int)n - NR_SEQ * CNT_CPUS;

	if (m < 0) {
		c->gate[s][cpu] = count_run(GATE, s, cpu, cpu ? c->start_visits : c->visits);
	} else if (m < NR_SEQ) {
		c->noowed[m] = count_run(NOOWED, m, 0, c->visits);
	} else if (m < NR_SEQ + GAP_JOBS) {
		/* each ratio from another CPU's start, so that the starts vary too */
		for (r = m - NR_SEQ; r < SCALE; r += GAP_JOBS)
			c->gap[r] = gap_run(GATE, r, r % CNT_CPUS, c->gap_attempts);
	} else {
		c->dice_gap = gap_run(DICE, GAP_DICE, 0, c->gap_attempts);
	}
}

static const char *fmt(const struct range *r)
{
	static char buf[4][48];
	static unsigned int n;
	char *b = buf[n++ % ARRAY_SIZE(buf)];

	snprintf(b, sizeof(buf[0]), "[%+ld,%+ld]", r->lo, r->hi);
	return b;
}

/* The gate from CPUs 0 .. @cpus - 1 on sequence @s (NR_SEQ: all); @bad: starts off [@lo, @hi] */
static struct range count_all(const struct count *c, unsigned int s, unsigned int cpus,
			      long lo, long hi, unsigned int *bad)
{
	struct range all = { 0, 0 }, one;
	unsigned int i, cpu;

	for (*bad = 0, cpu = 0; cpu < cpus; cpu++) {
		one = (struct range){ 0, 0 };
		for (i = 0; i < NR_SEQ; i++)
			if (s == NR_SEQ || s == i)
				widen(&one, &c->gate[i][cpu]);
		*bad += one.lo < lo || one.hi > hi;
		widen(&all, &one);
	}
	return all;
}

/* The ratio whose longest gap comes nearest its bound (or passes it furthest) */
static unsigned int gap_worst(const struct count *c)
{
	unsigned int r, at = 0;

	for (r = 1; r < SCALE; r++)
		if (c->gap[r] * gap_bound(at) > c->gap[at] * gap_bound(r))
			at = r;
	return at;
}

void count(bool check)
{
	struct count *c = parallel(&(struct count){ .visits = 1UL << (check ? 21 : 24),
		.start_visits = 1UL << (check ? 17 : 20), .gap_attempts = 1UL << (check ? 14 : 17) },
		sizeof(*c), NR_SEQ * CNT_CPUS + NR_SEQ + GAP_JOBS + 1, count_job);
	unsigned int s, bad0, bad, stray, at = gap_worst(c);
	struct range r0 = count_all(c, NR_SEQ, 1, 0, 1, &bad0), r = count_all(c, NR_SEQ, CNT_CPUS, -1, 2, &bad);
	struct range no = { 0, 0 }, rs;

	for (s = 0; s < NR_SEQ; s++)
		widen(&no, &c->noowed[s]);
	if (check) {
		tap(!bad0, "count: gate, CPU 0 (a band's start): attempts are floor(S) or floor(S) + 1 at every visit, %u ratio sequences: [%+ld,%+ld]",
		    NR_SEQ, r0.lo, r0.hi);
		tap(no.lo < -1 || no.hi > 2, "negative: the gate without its owed bit is not within two: [%+ld,%+ld]",
		    no.lo, no.hi);
		tap(!bad, "count: gate, from every CPU's start (0..%u): within two, floor(S) - 1 to floor(S) + 2: [%+ld,%+ld], %u starts stray",
		    CNT_CPUS - 1, r.lo, r.hi, bad);
		tap(c->gap[at] <= gap_bound(at),
		    "gaps: gate: at a steady ratio r no gap exceeds ceil(2047 / (1 + r)) visits, r = 0..1023: nearest %lu of %lu (r=%u)",
		    c->gap[at], gap_bound(at), at);
		tap(c->dice_gap > gap_bound(GAP_DICE), "negative: the fixed dice exceeds it: %lu of %lu (r=%u)",
		    c->dice_gap, gap_bound(GAP_DICE), GAP_DICE);
		return;
	}
	printf("C. Count (model): attempts counted from the domain's start less floor(S), S the\n"
	       "   sum over the visits of (1 + ratio) / 1024: the fewest and most over every visit.\n"
	       "   The claim: within two of S, -1 and +2, from every CPU's start; 0 and +1 from\n"
	       "   CPU 0's, which starts at a band's start. CPU 0: %lu visits; CPUs 0..%u: the\n"
	       "   gate from every CPU's start, %lu visits each.\n\n"
	       "   ratios                  gate, CPU 0    no owed, CPU 0   CPUs 0..%u\n",
	       c->visits, CNT_CPUS - 1, c->start_visits, CNT_CPUS - 1);
	for (s = 0; s < NR_SEQ; s++) {
		rs = count_all(c, s, CNT_CPUS, -1, 2, &stray);
		printf("   %-21s  %12s  %15s  %11s\n", seq_name[s], fmt(&c->gate[s][0]),
		       fmt(&c->noowed[s]), fmt(&rs));
	}
	printf("\n   count, CPU 0:         [%+ld,%+ld]  %s\n", r0.lo, r0.hi, bad0 ? "MISSED" : "met");
	printf("   count, CPUs 0..%u:   [%+ld,%+ld]  %u of %u starts stray  %s\n", CNT_CPUS - 1,
	       r.lo, r.hi, bad, CNT_CPUS, bad ? "MISSED" : "met");
	printf("\n   Gaps at a steady ratio r, %lu attempts each, r = 0..1023 (ratio r from CPU\n"
	       "   r %% %u's start): the longest against ceil(2047 / (1 + r)), the claim\n\n"
	       "   gaps, gate:          %lu visits of %lu at most (r=%u)  %s\n"
	       "   gaps, fixed dice:    %lu visits of %lu (r=%u)\n",
	       c->gap_attempts, CNT_CPUS, c->gap[at], gap_bound(at), at,
	       c->gap[at] <= gap_bound(at) ? "met" : "MISSED", c->dice_gap, gap_bound(GAP_DICE),
	       GAP_DICE);
}
