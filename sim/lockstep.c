// SPDX-License-Identifier: GPL-2.0
#include "model.h"
/* D. Lockstep: N CPUs making the same visits (one waker's workers): merged? attempting at once? */

enum scen { CONSTANT, MOVING, DECAY, NR_SCEN };

static const char *const scen_name[NR_SCEN] = { "constant", "moving", "decay" };
static const unsigned int ls_cpus[] = { 224, 20 };

#define NR_LN		ARRAY_SIZE(ls_cpus)
#define LS_MAX_CPUS	224
#define LS_SEEDS	8
#define NR_SLOT		(2 + LS_SEEDS)	/* the gate, restart, the dice's seeds */
#define SLOT_DICE	2

struct lsres {
	int most;		/* the most attempting on one visit, less ceil */
	unsigned int distinct;	/* distinct states at the end */
};

struct lockstep {
	unsigned long visits;
	struct lsres r[NR_SCEN][NR_LN][NR_SLOT];
};

/* The common ratio of visit @v: the same sequence for every design */
static unsigned int scen_ratio(enum scen s, struct rng *rng, struct est *e, unsigned long v,
			       unsigned int ratio)
{
	switch (s) {
	case CONSTANT:
		return 100;
	case MOVING:
		return v % 512 ? ratio : 50 + rng_below(rng, 101);
	default:
		/* a domain build: sd_init()'s estimator, no pull ever */
		ratio = e->ratio;
		est_visits(e, 1, 0);
		return ratio;
	}
}

static void lockstep_job(unsigned int j, void *arg)
{
	struct lockstep *l = arg;
	unsigned int slot = j % NR_SLOT, ni = j / NR_SLOT % NR_LN, s = j / NR_SLOT / NR_LN;
	enum design d = slot == 0 ? GATE : slot == 1 ? RESTART : DICE;
	unsigned int n = ls_cpus[ni], c, i, ratio = 0, distinct = 0;
	struct lsres *res = &l->r[s][ni][slot];
	struct gate g[LS_MAX_CPUS];
	unsigned long v;
	struct rng rng;
	struct est e;
	int most = -1000;

	rng_seed(&rng, 900 + s);
	est_init(&e, SHIFT, 0);
	for (c = 0; c < n; c++)
		gate_init(&g[c], d, c, ((u64)(slot * NR_SCEN + s) * NR_LN + ni) * 1024 + c);
	for (v = 0; v < l->visits; v++) {
		int a = 0;

		ratio = scen_ratio(s, &rng, &e, v, ratio);
		for (c = 0; c < n; c++)
			a += gate_visit(&g[c], ratio);
		most = max(most, a - (int)((n * (1 + ratio) + SCALE - 1) / SCALE));
	}
	/* once two share a state they share it for good: the end tells */
	for (c = 0; c < n; c++) {
		for (i = 0; i < c && g[i].state != g[c].state; i++)
			;
		distinct += i == c;
	}
	res->most = most;
	res->distinct = d == DICE ? n : distinct;
}

void lockstep(bool check)
{
	struct lockstep *l = parallel(&(struct lockstep){ .visits = 1UL << (check ? 20 : 22) },
				      sizeof(*l), NR_SCEN * NR_LN * NR_SLOT, lockstep_job);
	int lo[NR_SCEN][NR_LN], hi[NR_SCEN][NR_LN];
	bool ok[NR_SCEN][NR_LN];
	unsigned int s, ni, i;

	for (s = 0; s < NR_SCEN; s++)
		for (ni = 0; ni < NR_LN; ni++) {
			const struct lsres *r = l->r[s][ni];

			/* the dice's fewest and most over the seeds */
			lo[s][ni] = 1000;
			hi[s][ni] = -1000;
			for (i = SLOT_DICE; i < NR_SLOT; i++) {
				lo[s][ni] = min(lo[s][ni], r[i].most);
				hi[s][ni] = max(hi[s][ni], r[i].most);
			}
			/* the claims: no state shared, no more at once than the dice's worst seed */
			ok[s][ni] = r[0].distinct == ls_cpus[ni] && r[0].most <= hi[s][ni];
		}
	if (check) {
		for (s = 0; s < NR_SCEN; s++)
			tap(l->r[s][0][0].distinct == ls_cpus[0] && l->r[s][1][0].distinct == ls_cpus[1],
			    "no merging: gate, %s ratio: the CPUs' states stay distinct: %u/%u, %u/%u",
			    scen_name[s], l->r[s][0][0].distinct, ls_cpus[0], l->r[s][1][0].distinct,
			    ls_cpus[1]);
		for (s = MOVING; s <= DECAY; s++)
			tap(l->r[s][0][1].distinct < ls_cpus[0],
			    "negative: restart merges under a %s ratio: %u distinct of %u", scen_name[s],
			    l->r[s][0][1].distinct, ls_cpus[0]);
		for (s = 0; s < NR_SCEN; s++)
			tap(ok[s][0] && ok[s][1],
			    "together: gate, %s ratio: no more CPUs attempt at once than the dice's worst of %u seeds: N=%u %+d (dice %+d..%+d), N=%u %+d (dice %+d..%+d)",
			    scen_name[s], LS_SEEDS, ls_cpus[0], l->r[s][0][0].most, lo[s][0], hi[s][0],
			    ls_cpus[1], l->r[s][1][0].most, lo[s][1], hi[s][1]);
		for (s = MOVING; s <= DECAY; s++)
			tap(l->r[s][0][1].most > hi[s][0],
			    "negative: restart exceeds that under a %s ratio: %+d (dice at most %+d, N=%u)",
			    scen_name[s], l->r[s][0][1].most, hi[s][0], ls_cpus[0]);
		return;
	}
	printf("D. Lockstep (model): CPUs 0 .. N-1 of a domain (newidle_gate_init(cpu)) make the\n"
	       "   same %lu visits at a common ratio:\n"
	       "     constant  100 throughout\n"
	       "     moving    redrawn every 512 visits, uniform in 50..150\n"
	       "     decay     a domain build: from sd_init()'s 512, update_newidle_stats()\n"
	       "               with no pull (0 after about 5000 visits)\n"
	       "   most: the most CPUs attempting on one visit less ceil(N (1 + ratio) / 1024);\n"
	       "   states: distinct states at the end (two that meet stay merged). restart is\n"
	       "   the gate restarted at the first band by each attempt (a negative control).\n"
	       "   The claim: N distinct states, and most no more than the dice's over %u seeds.\n\n"
	       "      N  scenario   gate  states   restart  states  dice, %u seeds  claim\n",
	       l->visits, LS_SEEDS, LS_SEEDS);
	for (ni = 0; ni < NR_LN; ni++)
		for (s = 0; s < NR_SCEN; s++) {
			const struct lsres *r = l->r[s][ni];

			printf("   %4u  %-8s  %+5d  %6u  %+8d  %6u   %+5d..%+-5d    %s\n",
			       ls_cpus[ni], scen_name[s], r[0].most, r[0].distinct, r[1].most,
			       r[1].distinct, lo[s][ni], hi[s][ni],
			       ok[s][ni] ? "met" : "MISSED");
		}
}
