// SPDX-License-Identifier: GPL-2.0
#include "model.h"

/* One line per visit at one ratio: who attempts, for the chart */
static int timeline(unsigned int ratio, unsigned int visits)
{
	struct gate dice, gate[4];
	unsigned int v, i;

	gate_init(&dice, DICE73, 0, 99);
	for (i = 0; i < 4; i++)
		gate_init(&gate[i], GATE, i, 0);
	printf("# visit v7.3-dice gate-cpu0 gate-cpus0-3 (ratio %u)\n", ratio);
	for (v = 0; v < visits; v++) {
		bool d = gate_visit(&dice, ratio), one = gate_visit(&gate[0], ratio);
		unsigned int n = one;

		for (i = 1; i < 4; i++)
			n += gate_visit(&gate[i], ratio);
		printf("%u %d %d %u\n", v, d, one, n);
	}
	return 0;
}

/*
 * @visits decisions at @ratio for callgrind; @ratio from the command line, as
 * the kernel reads it from memory, so that the compiler cannot fold it in.
 */
static int cost(const char *what, unsigned int ratio, unsigned long visits)
{
	unsigned long v, n = 0;
	struct gate g;

	gate_init(&g, DICE73, 1, 5);
	if (!strcmp(what, "dice")) {
		for (v = 0; v < visits; v++)
			n += !(taus_next(&g.dice) % 1024 > 1 + ratio);
	} else if (!strcmp(what, "plain")) {
		for (v = 0; v < visits; v++)
			n += plain_visit(&g.pos, ratio);
	} else if (!strcmp(what, "gate")) {
		for (v = 0; v < visits; v++)
			n += newidle_gate(&g.state, ratio);
	} else {
		return 2;
	}
	printf("%lu attempts\n", n);
	return 0;
}

static int nr_test, nr_fail;

void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	nr_fail += !ok;
	printf("%sok %d - ", ok ? "" : "not ", ++nr_test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Do gate_skip() and as many gate_visit() calls agree? @extra: the latter one visit more, once */
static bool skip_matches(enum design d, bool extra)
{
	unsigned int chunk;
	struct gate a, b;
	struct rng r;

	gate_init(&a, d, 1, 1);
	gate_init(&b, d, 1, 1);
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
		if (na != nb || a.state != b.state || a.pos != b.pos)
			return false;
	}
	return true;
}

static int check(void)
{
	tap(skip_matches(GATE, false) && skip_matches(PLAIN, false) && skip_matches(GOLDEN, false) &&
	    skip_matches(RESTART, false) && skip_matches(NOOWED, false),
	    "model: skipping visits of gate and plain leaves what visiting them does");
	tap(!skip_matches(GATE, true), "negative: that comparison sees one visit more");
	lockstep(true);
	lockon(true);
	count(true);
	estimator(true);
	printf("1..%d\n# %d passed, %d failed\n", nr_test, nr_test - nr_fail, nr_fail);
	return nr_fail != 0;
}

/* The tables A, B, C, D: those named, or every one */
static int table(int argc, char **argv)
{
	static void (*const print[])(bool check) = { lockon, estimator, count, lockstep };
	unsigned int i;
	int a;

	for (i = 0; i < ARRAY_SIZE(print); i++) {
		bool wanted = argc == 0;

		for (a = 0; a < argc; a++)
			wanted |= argv[a][0] == 'A' + (int)i;
		if (wanted) {
			print[i](false);
			printf("\n");
		}
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
	fprintf(stderr, "usage: gate_sim [table [A|B|C|D]... | check | timeline RATIO VISITS |\n"
		"                 cost dice|plain|gate RATIO VISITS]\n");
	return 2;
}
