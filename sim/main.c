// SPDX-License-Identifier: GPL-2.0
#include "model.h"
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

void tap(bool ok, const char *fmt, ...)
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

static int check(void)
{
	check_model();
	check_lockon();
	check_estimator();
	check_exactness();
	check_lockstep();
	check_subsets();
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
		{ 'D', table_subsets },
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

