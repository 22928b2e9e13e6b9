/* SPDX-License-Identifier: GPL-2.0 */
/* KUnit's API as the series' suite uses it, for lab/host/kunit.sh: the suite
 * against gates that must fail it, without a kernel build per gate. */
#ifndef _LAB_HOST_KUNIT_TEST_H
#define _LAB_HOST_KUNIT_TEST_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#define KUNIT_PARAM_DESC_SIZE	128

struct kunit {
	const void *param_value;
	bool failed;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(struct kunit *test, const void *prev, char *desc);
};

struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(f)			{ .run_case = f, .name = #f }
#define KUNIT_CASE_PARAM(f, gen)	\
	{ .run_case = f, .name = #f, .generate_params = gen }

#define KUNIT_ARRAY_PARAM(name, array, get_desc)					\
	static const void *name##_gen_params(struct kunit *test __maybe_unused,	\
					     const void *prev, char *desc)		\
	{										\
		typeof((array)[0]) *next = prev ? ((typeof(next))prev) + 1 : (array);	\
		void (*get)(typeof(next), char *) = get_desc;				\
		if (next - (array) >= (long)ARRAY_SIZE(array))				\
			return NULL;							\
		if (get)								\
			get(next, desc);						\
		return next;								\
	}

#define KUNIT_FAIL_AT(test, fmt, ...) do {						\
		printf("    # %s:%d: " fmt "\n", __FILE__, __LINE__, ##__VA_ARGS__);	\
		(test)->failed = true;							\
	} while (0)

#define KUNIT_FAIL(test, fmt, ...)	KUNIT_FAIL_AT(test, fmt, ##__VA_ARGS__)

#define KUNIT_CMP_MSG(test, l, op, r, fmt, ...) do {					\
		long long _l = (long long)(l), _r = (long long)(r);			\
		if (!(_l op _r))							\
			KUNIT_FAIL_AT(test, "expected %s %s %s: %lld vs %lld; " fmt,	\
				      #l, #op, #r, _l, _r, ##__VA_ARGS__);		\
	} while (0)

#define KUNIT_EXPECT_EQ_MSG(t, l, r, ...)	KUNIT_CMP_MSG(t, l, ==, r, __VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, l, r, ...)	KUNIT_CMP_MSG(t, l, <=, r, __VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, ...)	KUNIT_CMP_MSG(t, l, <, r, __VA_ARGS__)
#define KUNIT_EXPECT_EQ(t, l, r)		KUNIT_CMP_MSG(t, l, ==, r, "")
#define KUNIT_EXPECT_TRUE(t, c)			KUNIT_CMP_MSG(t, !!(c), ==, 1, "")

/* TAP: a line per case, a parameterised case failing when one of its values does */
static inline int kunit_host_run(struct kunit_suite *suite)
{
	struct kunit_case *c;
	int n = 0, failed = 0;

	for (c = suite->test_cases; c->run_case; c++)
		n++;
	printf("TAP version 13\n1..%d\n# suite %s (host build)\n", n, suite->name);
	for (c = suite->test_cases, n = 0; c->run_case; c++) {
		struct kunit test = { 0 };
		char desc[KUNIT_PARAM_DESC_SIZE];
		const void *p = NULL;

		if (!c->generate_params) {
			c->run_case(&test);
		} else {
			while ((p = c->generate_params(&test, p, desc))) {
				struct kunit one = { .param_value = p };

				c->run_case(&one);
				if (one.failed)
					printf("    # %s: %s failed\n", c->name, desc);
				test.failed |= one.failed;
			}
		}
		printf("%sok %d %s\n", test.failed ? "not " : "", ++n, c->name);
		fflush(stdout);
		failed += test.failed;
	}
	return failed != 0;
}

#define kunit_test_suite(suite)	\
	int main(void) { return kunit_host_run(&(suite)); }
#define MODULE_DESCRIPTION(x)
#define MODULE_LICENSE(x)

#endif
