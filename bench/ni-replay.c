// SPDX-License-Identifier: GPL-2.0
/*
 * A newidle recording (bench/ni-record.sh, under NO_NI_RANDOM: every visit that passed the
 * cost check attempted) replayed per CPU and level through candidate throttles. A rule
 * attempts or skips each visit its walk reaches; an attempt takes the recorded outcome, and
 * feeds the rule's estimate: v7.3's (a success weighs (1024 + w / 2) / w visits, w = 1 +
 * ratio), kept in 1/64ths by newidle.h's newidle_count() and newidle_window_end(): v7.3's
 * ratio bit for bit, NI_RATE's bonus too. First order: what an attempt changes later (who
 * runs, avg_idle, the cost check) is not replayed. The waker is the task pulled most (at
 * sembench-ng 815/101, whose workers are pinned, the only task a pull can move): a first
 * pass finds it, so the recording is a file. Usage: ni-replay [-l] [-s SEED] <RECORDING
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <linux/bitops.h>	/* lab/host/include's, then the kernel's types */
#include NEWIDLE_H		/* the series' kernel/sched/newidle.h */

enum rule { DICE, FIXED, GATE, FOUND, ALWAYS, HALF, NR_RULES };

static const char *const rule_name[NR_RULES] = {
	"v7.3-dice", "fixed-rate", "gate", "NI_FOUND", "NO_NI_RANDOM", "every-2nd",
};

#define MAX_CPUS	2048
#define MAX_LVL		8
#define MAX_PID		(1 << 22)	/* PID_MAX_LIMIT */

/* A line of the recording: an attempt under NO_NI_RANDOM, the domain's state at its entry */
struct rec {
	unsigned int cpu, lvl, ratio, call, succ, moved, waker;
	unsigned long long t, stamp, cost;	/* us, ns, us */
	int pid;
	char out, comm[16];
};

struct dom {
	struct sched_domain sd;
	u64 dice;		/* the dice's generator */
	unsigned long visits;	/* every-2nd's count */
};

/* per rule and level: attempts, pulls, waker pulls, time, unseen, tasks moved */
enum { ATT, PULL, WAKER, COST, UNSEEN, MOVED, NR_SUMS };
static double sum[NR_RULES][MAX_LVL + 1][NR_SUMS];	/* [MAX_LVL]: all levels */
static struct dom dom[NR_RULES][MAX_CPUS][MAX_LVL];
static bool seen[MAX_CPUS][MAX_LVL], stopped[MAX_CPUS][NR_RULES];
static unsigned int walk[MAX_CPUS];	/* a CPU's walk: 1 + its last level, 0 when ended */
static unsigned long lines, calls, off, ends, met[MAX_LVL], cans, ended, seed = 1;
static unsigned int ncpus = MAX_CPUS, cpus, top;
static char secs[32], wcomm[16] = "-";
static int rate, wpid = -1;
static unsigned int pulls[MAX_PID];	/* the first pass's pulls per task */

/* splitmix64: v7.3's sched_rng() state is unknowable, any good generator draws alike */
static u32 dice_next(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31)) >> 32;
}

/* Does the rule attempt this visit? */
static bool decide(enum rule r, struct dom *d)
{
	unsigned int ratio = d->sd.newidle_ratio;

	if (r == ALWAYS || r == HALF)
		return r == ALWAYS || d->visits++ % 2;
	if (ratio >= NEWIDLE_SCALE)
		return true;
	if (r == GATE)
		return newidle_gate(&d->sd.newidle_gate, ratio);
	/* d1k = rnd % 1024: v7.3 skips when d1k > 1 + ratio, patch 3 when d1k >= 1 + ratio */
	return dice_next(&d->dice) % 1024 <= ratio + (r == DICE);
}

/* A "#" line: "# cpus=N", "# ni_rate=0|1", the seconds for the title, the last line */
static bool header(const char *buf)
{
	ended += !strncmp(buf, "# schedstat", 11);	/* the recorder's last line */
	sscanf(buf, "# seconds=%31s", secs);
	return !(sscanf(buf, "# cpus=%u", &ncpus) == 1 && (!ncpus || ncpus > MAX_CPUS)) &&
	       !(sscanf(buf, "# ni_rate=%d", &rate) == 1 && rate != !!rate);
}

/* An attempt as ni-record.sh writes it; fields it may add at the end are not read */
static bool parse(const char *buf, struct rec *l)
{
	int n;

	return sscanf(buf, "%u %llu %u %u %u %u %llu %llu %c %u%n %d %u %15s", &l->cpu, &l->t,
		      &l->lvl, &l->ratio, &l->call, &l->succ, &l->stamp, &l->cost, &l->out,
		      &l->moved, &n, &l->pid, &l->waker, l->comm) == 13 &&
	       l->pid >= -1 && l->pid < MAX_PID && (l->out == 'P' || l->pid < 0) &&
	       strcspn(buf, "-") >= (size_t)n && strchr("PBGQARHF", l->out) &&
	       (l->out == 'P') == (l->moved > 0) && l->waker <= (l->out == 'P' ? 1U : 0) &&
	       l->cpu < ncpus && l->lvl < MAX_LVL && l->ratio <= NEWIDLE_SCALE &&
	       l->call < NEWIDLE_SCALE && l->succ < 1 << 25;
}

static void add(enum rule r, unsigned int lvl, const double *v)
{
	for (int i = 0; i < NR_SUMS; i++) {
		sum[r][lvl][i] += v[i];
		sum[r][MAX_LVL][i] += v[i];
	}
}

static void replay(const struct rec *l)
{
	unsigned int cpu = l->cpu, lvl = l->lvl;
	enum rule r;

	lines++;
	met[lvl] += l->out == 'R' || l->out == 'H';
	cans += !!strchr("ARHF", l->out);	/* can_migrate_task() seen */
	if (!walk[cpu] || lvl < walk[cpu]) {	/* a new newidle call: its walk starts */
		calls++;
		memset(stopped[cpu], 0, sizeof(stopped[cpu]));
	}
	walk[cpu] = l->out == 'P' || l->out == 'B' ? 0 : lvl + 1;
	cpus += !memchr(seen[cpu], true, sizeof(seen[cpu]));
	top = lvl > top ? lvl : top;
	/* each rule from the kernel's state, the dice alike, the gate as the kernel starts it */
	for (r = 0; !seen[cpu][lvl] && r < NR_RULES; r++)
		dom[r][cpu][lvl] = (struct dom){ .sd = { .newidle_call = l->call,
			.newidle_success = l->succ << NEWIDLE_SUCCESS_SHIFT,
			.newidle_ratio = l->ratio, .newidle_stamp = l->stamp,
			.newidle_gate = newidle_gate_init(cpu + lvl * ncpus) },
			.dice = (seed * MAX_CPUS + cpu) * MAX_LVL + lvl };
	seen[cpu][lvl] = true;
	for (r = 0; r < NR_RULES; r++) {
		struct dom *d = &dom[r][cpu][lvl];
		unsigned int w = 1 + d->sd.newidle_ratio;
		bool go, hit = l->out == 'P' || (r == FOUND && (l->out == 'R' || l->out == 'H'));

		if (stopped[cpu][r])	/* the rule's walk ended lower down */
			continue;
		if (r == ALWAYS)	/* the kernel's state before this visit? (1/64ths: whole) */
			off += d->sd.newidle_call != l->call || d->sd.newidle_ratio != l->ratio ||
			       d->sd.newidle_success >> NEWIDLE_SUCCESS_SHIFT != l->succ;
		/* v7.3's weight of a success: 1 without the dice, or at ratio 1024 */
		w = r == ALWAYS || w > NEWIDLE_SCALE ? 1 : (NEWIDLE_SCALE + w / 2) / w;
		go = decide(r, d);
		/* update_newidle_stats(): a skip counts at the visit, an attempt at its end */
		if (newidle_count(&d->sd, go && hit ? w << NEWIDLE_SUCCESS_SHIFT : 0)) {
			newidle_window_end(&d->sd, (l->t + (go ? l->cost : 0)) * 1000, rate);
			ends += r == ALWAYS;	/* the estimate moves only here */
		}
		stopped[cpu][r] = go && !walk[cpu];
		/* a skip where the recorded walk ended: this rule's goes on, unrecorded */
		add(r, lvl, (double [NR_SUMS]){ go, go && l->out == 'P',
			go && l->out == 'P' && wpid >= 0 && l->pid == wpid,
			go ? l->cost : 0, !go && !walk[cpu], go ? l->moved : 0 });
	}
}

int main(int argc, char **argv)
{
	unsigned long nr = 0;
	char buf[1024];
	struct rec l;
	int r, levels = 0, pass;
	struct stat st;

	while ((r = getopt(argc, argv, "ls:")) != -1) {
		if (r != 'l' && r != 's')
			return fprintf(stderr, "usage: ni-replay [-l] [-s SEED] <RECORDING\n"), 2;
		levels |= r == 'l';
		seed = r == 's' ? strtoul(optarg, NULL, 0) : seed;
	}
	for (pass = 0; pass < 2; pass++) {
		if (!pass && (fstat(0, &st) || !S_ISREG(st.st_mode)))
			return fprintf(stderr, "ni-replay: the recording is read twice: "
				       "a file, not a pipe\n"), 2;
		if (pass && (nr = ended = 0, fseek(stdin, 0, SEEK_SET)))
			return fprintf(stderr, "ni-replay: the recording could not be read again\n"), 2;
		while (fgets(buf, sizeof(buf), stdin)) {
			nr++;
			if ((!strchr(buf, '\n') && !feof(stdin)) ||	/* too long */
			    !(buf[0] == '#' ? header(buf) : parse(buf, &l))) {
				fprintf(stderr, "ni-replay: line %lu is not ni-record.sh's: %s",
					nr, buf);
				return 2;
			}
			if (buf[0] == '#')
				continue;
			if (pass)
				replay(&l);
			else if (l.pid >= 0 && ++pulls[l.pid] > (wpid < 0 ? 0 : pulls[wpid]))
				wpid = l.pid, memcpy(wcomm, l.comm, sizeof(wcomm));
		}
	}
	if (!lines)
		return fprintf(stderr, "ni-replay: no attempts in the recording\n"), 2;
	if (levels) {
		printf("# per level, replayed: newidle lb_count (attempts), lb_gained (moved), "
		       "the waker's pulls\nlevel rule          lb_count  lb_gained      waker\n");
		for (l.lvl = 0; l.lvl <= top; l.lvl++)
			for (r = 0; r < NR_RULES; r++)
				printf("%5u %-12s %10.0f %10.0f %10.0f\n", l.lvl, rule_name[r],
				       sum[r][l.lvl][ATT], sum[r][l.lvl][MOVED], sum[r][l.lvl][WAKER]);
		return 0;
	}
	if (!ended)
		fprintf(stderr, "ni-replay: no \"# schedstat\" line at the end: the recording cut short?\n");
	printf("Newidle recording replayed, first order, NI_RATE %s%s%s%s, seed %lu\n",
	       rate ? "on" : "off", *secs ? ", " : "", secs, *secs ? " s" : "", seed);
	printf("%lu attempts, %.0f pulls, %u CPUs, %lu window ends; %lu off the kernel's\n",
	       lines, sum[ALWAYS][MAX_LVL][PULL], cpus, ends, off);
	printf("%-23s %8s %8s %8s %8s %8s\n", "share of NO_NI_RANDOM's", "attempts", "pulls",
	       "waker", "time", "unseen");
	for (r = 0; r < HALF; r++) {	/* every-2nd, a control, in -l's output alone */
		double *s = sum[r][MAX_LVL], of;

		s[UNSEEN] -= sum[r][top][UNSEEN];	/* the top: no level to go on to */
		printf("%-23s", rule_name[r]);
		for (int c = ATT; c <= UNSEEN; c++) {
			of = c == UNSEEN ? calls : sum[ALWAYS][MAX_LVL][c];
			if (of)
				printf(" %8.3f", s[c] / of);
			else
				printf(" %8s", "-");
		}
		printf("\n");
	}
	if (wpid < 0)
		printf("waker: none, no pull of a task recorded\n");
	else
		printf("waker: %d %s, the task pulled most: %.0f of %.0f pulls\n", wpid, wcomm,
		       sum[ALWAYS][MAX_LVL][WAKER], sum[ALWAYS][MAX_LVL][PULL]);
	if (!cans) {	/* no probe of can_migrate_task(): R and H unknown, not none */
		printf("NI_FOUND's count per pull: not recorded (no can_migrate_task())\n");
		return 0;
	}
	printf("NI_FOUND's count per pull, by level:");
	for (l.lvl = 0; l.lvl <= top; l.lvl++)
		if (sum[ALWAYS][l.lvl][PULL])
			printf(" %u=%.2f", l.lvl, met[l.lvl] / sum[ALWAYS][l.lvl][PULL]);
		else if (sum[ALWAYS][l.lvl][ATT])
			printf(" %u=no pull (%lu)", l.lvl, met[l.lvl]);
	printf("\n");
	return 0;
}
