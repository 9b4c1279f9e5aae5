// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_tactl_tier.c - tactl plan --sram, offline, as a user runs it (the
 * ASan + UBSan build in tests/unit/build/tactl): the figures, the tier
 * column of -o read back and checked by tactl draw (ta_tier_check()), the
 * picture's two tiers, pin failures naming the tensor and the shortfall,
 * and the usage errors, case by case.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ta_test.h"

static char tdir[64];

static int tmp_dir(void)
{
	snprintf(tdir, sizeof(tdir), "/tmp/ta_unit_tier_XXXXXX");
	return mkdtemp(tdir) ? 0 : -errno;
}

static const char *tmp_path(const char *name)
{
	static char paths[4][256];
	static int k;
	char *p = paths[k++ % 4];

	snprintf(p, sizeof(paths[0]), "%s/%s", tdir, name);
	return p;
}

static void tmp_clean(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tdir);
	if (system(cmd))
		printf("# could not remove %s\n", tdir);
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

static void read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = 0;
}

/* Run tactl in the scratch directory: its exit status, stdout, stderr. */
static int __attribute__((format(printf, 5, 6)))
tactl(char *out, size_t outlen, char *err, size_t errlen, const char *fmt, ...)
{
	char args[1024], cmd[1600];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "cd '%s' && %s %s >'%s/.out' 2>'%s/.err'",
		 tdir, TA_TACTL, args, tdir, tdir);
	st = system(cmd);
	read_text(tmp_path(".out"), out, outlen);
	read_text(tmp_path(".err"), err, errlen);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* test_lib_tier.c's diamond as a graph file (weights 2000, 9000, 4000,
 * 1000, 100: 16100).
 */
static const char diamond[] =
	"tensorarena-graph 1\n"
	"tensor in 1000 input\n"
	"tensor a 3000\n"
	"tensor b 2000\n"
	"tensor c 500\n"
	"tensor out 100 output\n"
	"op f in -> a\n"
	"op g a -> b\n"
	"op h a b -> c\n"
	"op k c -> out\n";

static unsigned int count_lines(const char *text, const char *word)
{
	unsigned int n = 0;
	const char *p;

	for (p = strstr(text, word); p; p = strstr(p + 1, word))
		n++;
	return n;
}

/*
 * 5000 bytes of SRAM: in, a, b and out there (15100 of 16100), c in DRAM
 * (500 bytes, without the tier 5500); the JSON says the same, -o writes a
 * tier column that tactl draw reads back, checks and draws in two panels,
 * as --svg does; "5K" is 5120 bytes.
 */
static int t_tactl_tier_plan(void)
{
	char out[8192], err[4096], csv[4096], svg[65536];

	TA_CHECK(!tmp_dir(), "tmp");
	TA_CHECK(!write_text(tmp_path("d.graph"), diamond), "write");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan d.graph --offline --sram 5000 -o d.csv --svg d.svg") == 0,
		 "%s", err);
	TA_CHECK(strstr(out, "height:      500 (DRAM)\n") &&
		 strstr(out, "sram:        5000 bytes, 5000 used by 4 tensors\n") &&
		 strstr(out, "from sram:   93.79 % of the weight (15100 of 16100)\n") &&
		 strstr(out, "dram height: 500, without the tier 5500 (-90.91 %)\n") &&
		 strstr(out, "sram bound:  "), "%s", out);
	read_text(tmp_path("d.csv"), csv, sizeof(csv));
	TA_CHECK(!strncmp(csv, "id,lower,upper,size,alignment,offset,tier\n",
			  42), "%s", csv);
	TA_CHECK(count_lines(csv, ",fast\n") == 4 &&
		 count_lines(csv, ",slow\n") == 1 && strstr(csv, "\nc,"),
		 "%s", csv);
	TA_CHECK(strstr(strstr(csv, "\nc,"), ",slow\n"), "%s", csv);
	read_text(tmp_path("d.svg"), svg, sizeof(svg));
	TA_CHECK(strstr(svg, "fast tier (SRAM)") && strstr(svg, "arena (DRAM)") &&
		 count_lines(svg, " in SRAM</title>") == 4 &&
		 count_lines(svg, " in DRAM</title>") == 1, "svg");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "draw d.csv --svg e.svg") == 0, "%s", err);
	TA_CHECK(strstr(out, "height 500, lower bound 500, SRAM height 5000 ->"),
		 "%s", out);
	read_text(tmp_path("e.svg"), svg, sizeof(svg));
	TA_CHECK(count_lines(svg, " in SRAM</title>") == 4, "draw svg");
	/* a tier column that breaks the plan: c into SRAM over a and b */
	TA_CHECK(!write_text(tmp_path("bad.csv"),
			     "id,lower,upper,size,offset,tier\n"
			     "a,0,3,3000,0,fast\nb,1,3,2000,3000,fast\n"
			     "c,2,4,500,0,fast\n"), "write");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "draw bad.csv --svg f.svg") == 1 &&
		 strstr(err, "not a valid plan"), "%s", err);
	TA_CHECK(!write_text(tmp_path("word.csv"),
			     "id,lower,upper,size,offset,tier\na,0,3,3000,0,sram\n"),
		 "write");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "draw word.csv --svg f.svg") == 1 &&
		 strstr(err, "tier is neither fast nor slow"), "%s", err);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan d.graph --offline --sram 5000 --json") == 0, "%s", err);
	TA_CHECK(strstr(out, "\"sram\":5000,\"fast_height\":5000,\"n_fast\":4,"
			"\"weight_total\":16100,\"weight_fast\":15100,") &&
		 strstr(out, "\"height_without_tier\":5500}\n"), "%s", out);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan d.graph --offline --sram 5K --json") == 0, "%s", err);
	TA_CHECK(strstr(out, "\"sram\":5120,"), "%s", out);
	tmp_clean();
	return 0;
}

/*
 * Pins and weights by name and by index; pins that cannot be met fail
 * (status 1) with the tensor and the shortfall, before any output.
 */
static int t_tactl_tier_pins(void)
{
	static const struct {
		const char *args;
		const char *want;
	} fails[] = {
		{ "--sram 2500 --pin a=fast",
		  "tensor 1 (a), pinned fast, does not fit the SRAM: it is 500 bytes larger than its 2500" },
		{ "--sram 4000 --pin a=fast --pin 2=fast",
		  "need 1000 bytes more than the SRAM's 4000; tensor 2 (b) is the last of them to start" },
	};
	char out[8192], err[4096];
	size_t k;

	TA_CHECK(!tmp_dir(), "tmp");
	TA_CHECK(!write_text(tmp_path("d.graph"), diamond), "write");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan d.graph --offline --sram 5000 --pin a=slow --pin c=fast -o -") == 0,
		 "%s", err);
	TA_CHECK(strstr(out, "\na,0,3,3000,1,") && strstr(out, "\nc,2,4,500,1,"),
		 "%s", out);
	TA_CHECK(strstr(strstr(out, "\na,"), ",slow\n") &&
		 strstr(strstr(out, "\nc,"), ",fast\n"), "%s", out);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan d.graph --offline --sram 5000 --weight a=1 --json") == 0,
		 "%s", err);
	TA_CHECK(strstr(out, "\"weight_total\":7101,\"weight_fast\":7100,"),
		 "%s", out);
	for (k = 0; k < sizeof(fails) / sizeof(fails[0]); k++) {
		TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
			       "plan d.graph --offline %s", fails[k].args) == 1,
			 "%s", fails[k].args);
		TA_CHECK(!out[0] && strstr(err, fails[k].want) &&
			 !strncmp(err, "tactl plan: d.graph: ", 21),
			 "%s: %s", fails[k].args, err);
	}
	TA_CHECK(k == 2, "%zu", k);
	tmp_clean();
	return 0;
}

/* Usage errors: status 2, one line naming the option, nothing planned. */
static int t_tactl_tier_usage(void)
{
	static const struct {
		const char *args;
		const char *want;
	} cases[] = {
		{ "--pin a=fast", "--pin and --weight are for a plan across tiers" },
		{ "--weight a=5", "--pin and --weight are for a plan across tiers" },
		{ "--sram 0", "bad --sram '0' (wants a number from 1 to" },
		{ "--sram 5X", "bad --sram '5X' (wants a number from 1 to" },
		{ "--sram K", "bad --sram 'K' (wants bytes" },
		{ "--sram 5000 --pin a=medium", "bad --pin 'a=medium' (wants TENSOR=fast|slow)" },
		{ "--sram 5000 --pin a", "bad --pin 'a' (wants TENSOR=fast|slow)" },
		{ "--sram 5000 --pin zz=fast", "--pin 'zz=fast': no tensor 'zz'" },
		{ "--sram 5000 --pin 5=fast", "--pin '5=fast': no tensor '5'" },
		{ "--sram 5000 --weight a=0", "bad --weight '0' (wants a number from 1 to" },
		{ "--sram 5000 --weight a=x", "bad --weight 'x'" },
		{ "--sram 5000 --strategy fixed", "--sram plans one file with a strategy (not fixed)" },
		{ "d.graph --sram 5000", "--sram plans one file" },
		{ "--sram 5000 --write-metadata x.tflite", "--sram plans one file" },
	};
	char out[4096], err[4096];
	size_t k;

	TA_CHECK(!tmp_dir(), "tmp");
	TA_CHECK(!write_text(tmp_path("d.graph"), diamond), "write");
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
			       "plan d.graph --offline %s", cases[k].args) == 2,
			 "%s: %s", cases[k].args, err);
		TA_CHECK(!out[0] && strstr(err, cases[k].want) &&
			 strchr(err, '\n') && !strchr(err, '\n')[1],
			 "%s: out '%s' err '%s'", cases[k].args, out, err);
	}
	TA_CHECK(k == 14, "%zu", k);
	tmp_clean();
	return 0;
}

const struct ta_test ta_tactl_tier_tests[] = {
	{ "tactl_tier_plan", t_tactl_tier_plan },
	{ "tactl_tier_pins", t_tactl_tier_pins },
	{ "tactl_tier_usage", t_tactl_tier_usage },
	{ NULL, NULL },
};
