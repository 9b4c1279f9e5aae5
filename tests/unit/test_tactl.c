// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * test_tactl.c - tactl as a user runs it: the ASan + UBSan build in
 * tests/unit/build/tactl (the Makefile builds it), offline only, its
 * stdout, stderr and exit status.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "onnx_build.h"
#include "ta_test.h"
#include "tensorarena.h"
#include "tactl.h"

static char tdir[64];

/* A scratch directory for one test; tmp_path() names files in it. */
static int tmp_dir(void)
{
	snprintf(tdir, sizeof(tdir), "/tmp/ta_unit_tactl_XXXXXX");
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

static int write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -errno;
	if (fwrite(data, 1, len, f) != len) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) ? -errno : 0;
}

/* The whole of a file, NUL-terminated, into @buf (empty when absent). */
static void read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = 0;
}

/*
 * Run tactl with @args (shell words, in the scratch directory); its
 * stdout and stderr into @out and @err. Return: its exit status, or -1
 * when it did not exit (a sanitizer report exits 1 and shows in @err).
 */
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
	read_file(tmp_path(".out"), out, outlen);
	read_file(tmp_path(".err"), err, errlen);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * Two tensors live at once, sizes not multiples of their alignments (16
 * and 64): 20 bytes live, but whichever is on top starts aligned, so no
 * plan is below 16 + 10 = 26. auto and stack reach it and are optimal;
 * the strategies that put the 64-aligned one on top (74) are not.
 */
static int t_plan_two_aligned(void)
{
	static const char csv[] = "id,lower,upper,size,alignment\n"
				  "0,0,1,10,16\n1,0,1,10,64\n";
	static const char graph[] = "tensorarena-graph 1\n"
				    "tensor a 10 input align=16\n"
				    "tensor b 10 input align=64\n"
				    "tensor y 0 output\n"
				    "op f a b -> y\n";
	static const char *const strategies[] = {
		"auto", "pingpong", "stack", "freelist", "greedy-size",
	};
	char out[4096], err[4096], *h;
	unsigned long long height;
	size_t s;

	TA_CHECK(!tmp_dir(), "tmp");
	TA_CHECK(!write_file(tmp_path("two.csv"), csv, strlen(csv)), "write");
	TA_CHECK(!write_file(tmp_path("two.graph"), graph, strlen(graph)),
		 "write");
	for (s = 0; s < sizeof(strategies) / sizeof(strategies[0]); s++) {
		TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
			       "plan two.csv --offline --strategy %s",
			       strategies[s]) == 0, "%s", strategies[s]);
		TA_CHECK(strstr(out, "lower bound: 26\n"), "%s: %s",
			 strategies[s], out);
		h = strstr(out, "height:");
		TA_CHECK(h && sscanf(h, "height: %llu", &height) == 1, "%s", out);
		TA_CHECK(height >= 26, "%s", out);
		/* optimal exactly when at the bound (none is proven above) */
		TA_CHECK(strstr(out, height == 26 ? "optimal:     yes\n" :
				"optimal:     no\n"), "%s: %s", strategies[s],
			 out);
	}
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan two.csv --offline") == 0, "auto");
	TA_CHECK(strstr(out, "height:      26\n") &&
		 strstr(out, "ratio:       1.000000") &&
		 strstr(out, "optimal:     yes\n"), "%s", out);
	/* a graph: its zero-size output takes no room and does not count */
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan two.graph --offline --json") == 0, "graph");
	TA_CHECK(strstr(out, "\"height\":26,\"lower_bound\":26,") &&
		 strstr(out, "\"optimal\":true"), "%s", out);
	tmp_clean();
	return 0;
}

/*
 * A binary file's errors name no line ("x.tflite:0:" was printed): the
 * file and the byte offset; a text file's keep "file:line:".
 */
static int t_error_locations(void)
{
	char out[4096], err[4096], path[1200], model[64];
	static const char csv[] = "id,lower,upper,size\n0,0,1,10\n1,x,1,5\n";
	FILE *f;
	size_t n;

	TA_CHECK(!tmp_dir(), "tmp");
	/* a real model cut after 64 bytes: a table runs past the end */
	snprintf(path, sizeof(path), "%s/tests/data/offline_meta.tflite",
		 TA_REPO);
	f = fopen(path, "rb");
	TA_CHECK(f, "%s", path);
	n = fread(model, 1, sizeof(model), f);
	fclose(f);
	TA_CHECK(n == sizeof(model), "short");
	TA_CHECK(!write_file(tmp_path("cut.tflite"), model, n), "write");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan cut.tflite --offline") == 1, "cut");
	TA_CHECK(!strncmp(err, "tactl plan: cut.tflite: corrupt TFLite file at byte ",
			  52) && !strstr(err, ":0:") && !out[0], "%s", err);
	/* a CSV keeps its line */
	TA_CHECK(!write_file(tmp_path("bad.csv"), csv, strlen(csv)), "write");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan bad.csv --offline") == 1, "csv");
	TA_CHECK(!strncmp(err, "tactl plan: bad.csv:3: ", 23), "%s", err);
	tmp_clean();
	return 0;
}

/*
 * A file named *.tflite goes to the TFLite reader whatever it holds (it
 * went to the CSV reader, "no header line", when under 8 bytes), and
 * *.onnx to the ONNX reader; tactl plan and tactl import alike.
 */
static int t_model_by_name(void)
{
	static const char csv[] = "id,lower,upper,size\n0,0,1,10\n";
	char out[4096], err[4096];

	TA_CHECK(!tmp_dir(), "tmp");
	TA_CHECK(!write_file(tmp_path("x.tflite"), "abcde", 5), "write");
	TA_CHECK(!write_file(tmp_path("x.onnx"), "abcde", 5), "write");
	TA_CHECK(!write_file(tmp_path("csv.TFLite"), csv, strlen(csv)),
		 "write");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan x.tflite --offline") == 1, "plan");
	TA_CHECK(!strcmp(err, "tactl plan: x.tflite: too short to be a TFLite model (5 bytes)\n") &&
		 !out[0], "%s", err);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "import x.tflite") == 1, "import");
	TA_CHECK(!strcmp(err, "tactl import: x.tflite: too short to be a TFLite model (5 bytes)\n"),
		 "%s", err);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan x.onnx --offline") == 1, "onnx");
	TA_CHECK(strstr(err, "x.onnx: corrupt ONNX file") &&
		 !strstr(err, "header"), "%s", err);
	/* any case; a CSV so named is not taken for a trace */
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan csv.TFLite --offline") == 1, "csv");
	TA_CHECK(strstr(err, "csv.TFLite: corrupt TFLite file at byte 4: no TFL3 identifier"),
		 "%s", err);
	tmp_clean();
	return 0;
}

/*
 * tactl import's summary of a one-subgraph model: "(planned: 0)" read as
 * "none planned"; it says which one is planned.
 */
static int t_import_wording(void)
{
	char out[8192], err[4096];

	TA_CHECK(!tmp_dir(), "tmp");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "import %s/tests/data/offline_meta.tflite -o m.graph",
		       TA_REPO) == 0, "import");
	TA_CHECK(strstr(err, "offline_meta.tflite: subgraphs: 1 (planned: the main one)\n"),
		 "%s", err);
	TA_CHECK(!strstr(err, "planned: 0"), "%s", err);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "import %s/tests/data/control_flow.tflite -o m.graph",
		       TA_REPO) == 0, "import");
	TA_CHECK(strstr(err, "control_flow.tflite: subgraphs: 6 (planned: main + 4 called, inlined as 4 copies; 1 not reachable from subgraph 0, not planned)\n"),
		 "%s", err);
	/*
	 * RESHAPE, LESS, ADD, EQUAL, MUL, RELU, ADD, NEG, and WHILE and IF
	 * against their callees' outputs
	 */
	TA_CHECK(strstr(err, "control_flow.tflite: output shapes checked against what TFLite's kernels compute: 10 ops (the others' taken as recorded)\n"),
		 "%s", err);
	TA_CHECK(!strstr(err, "values ops compute"), "%s", err);
	/* shapes computed in the graph: the line says how many were folded */
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "import %s/tests/data/folded_shapes.tflite -o m.graph",
		       TA_REPO) == 0, "import");
	TA_CHECK(strstr(err, "folded_shapes.tflite: output shapes checked against what TFLite's kernels compute: 15 ops (the others' taken as recorded)\n"),
		 "%s", err);
	TA_CHECK(strstr(err, "folded_shapes.tflite: values ops compute from shapes and constants: 9 tensors, read by those checks as constants\n"),
		 "%s", err);
	tmp_clean();
	return 0;
}

/*
 * An output into a missing directory fails at once, before anything is
 * planned or printed: one line on stderr, nothing on stdout, status 1;
 * every command with an output (export needs the module, but checks its
 * -o before reaching it). A good -o still writes.
 */
static int t_bad_output(void)
{
	static const char csv[] = "id,lower,upper,size\n0,0,1,10\n1,0,2,5\n";
	static const char *const cmds[][2] = {
		{ "plan t.csv --offline -o nodir/x.csv", "nodir/x.csv" },
		{ "plan t.csv --offline --json -o nodir/x.csv", "nodir/x.csv" },
		{ "plan t.csv --offline --svg nodir/x.svg", "nodir/x.svg" },
		{ "plan t.csv --offline -o p.csv --svg nodir/x.svg",
		  "nodir/x.svg" },
		{ "plan %s/tests/data/offline_meta.tflite --offline --write-metadata nodir/m.tflite",
		  "nodir/m.tflite" },
		{ "import %s/tests/data/offline_meta.tflite -o nodir/g",
		  "nodir/g" },
		{ "draw p.csv --svg nodir/d.svg", "nodir/d.svg" },
		{ "export 1 0 -o nodir/b", "nodir/b" },
	};
	char out[8192], err[4096], want[256], args[512];
	size_t k;

	TA_CHECK(!tmp_dir(), "tmp");
	TA_CHECK(!write_file(tmp_path("t.csv"), csv, strlen(csv)), "write");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan t.csv --offline -o p.csv") == 0, "good -o");
	read_file(tmp_path("p.csv"), out, sizeof(out));
	TA_CHECK(!strncmp(out, "id,lower,upper,size,offset\n", 27), "%s", out);
	for (k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++) {
		snprintf(args, sizeof(args), cmds[k][0], TA_REPO);
		snprintf(want, sizeof(want),
			 "tactl: cannot write %s: No such file or directory\n",
			 cmds[k][1]);
		TA_CHECK(tactl(out, sizeof(out), err, sizeof(err), "%s",
			       args) == 1, "%s", args);
		TA_CHECK(!out[0] && !strcmp(err, want), "%s: out '%s' err '%s'",
			 args, out, err);
	}
	tmp_clean();
	return 0;
}

/*
 * The plan CSV's lifetime is [lower, upper): upper is one past the last
 * reader's step (tflite.md, graph-format.md). a is written by op 0 and
 * last read by op 2: 0,3.
 */
static int t_csv_lifetimes(void)
{
	static const char graph[] = "tensorarena-graph 1\n"
				    "tensor x 8 input\ntensor a 8\n"
				    "tensor b 8\ntensor y 8 output\n"
				    "op f x -> a\nop g a -> b\nop h a b -> y\n";
	char out[4096], err[4096];

	TA_CHECK(!tmp_dir(), "tmp");
	TA_CHECK(!write_file(tmp_path("l.graph"), graph, strlen(graph)),
		 "write");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan l.graph --offline -o l.csv") == 0, "%s", err);
	read_file(tmp_path("l.csv"), out, sizeof(out));
	TA_CHECK(strstr(out, "\nx,0,1,8,1,") && strstr(out, "\na,0,3,8,1,") &&
		 strstr(out, "\nb,1,3,8,1,") && strstr(out, "\ny,2,3,8,1,"),
		 "%s", out);
	tmp_clean();
	return 0;
}

const char *ta_test_shared_dir(void);

/* The "height" of tactl plan --json's line, or 0. */
static unsigned long long json_height(const char *out)
{
	const char *h = strstr(out, "\"height\":");

	return h ? strtoull(h + 9, NULL, 10) : 0;
}

static int round_trip_with(const char *model, const char *flag,
			   int *aliased);

/*
 * One model, with (@inplace) or without in-place ops: plan it, then read
 * the plan CSV back three ways. *@aliased counts the CSVs whose rows
 * share memory (an alias column).
 */
static int round_trip(const char *model, bool inplace, int *aliased)
{
	return round_trip_with(model, inplace ? "" : "--no-inplace", aliased);
}

/* round_trip(), the model planned with @flag (e.g. its fixed offsets) */
static int round_trip_with(const char *model, const char *flag, int *aliased)
{
	bool fixed = strstr(flag, "fixed");
	char out[4096], err[4096], a[1 << 16], b[1 << 16];
	unsigned long long height;

	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan '%s' --offline %s --budget-ms 100 --json -o p.csv",
		       model, flag) == 0, "%s %s: %s", model, flag, err);
	height = json_height(out);
	TA_CHECK(height, "%s: %s", model, out);
	read_file(tmp_path("p.csv"), a, sizeof(a));
	TA_CHECK(strlen(a) < sizeof(a) - 1, "%s: the CSV is too long here",
		 model);
	if (strstr(a, ",alias\n"))
		(*aliased)++;
	else
		TA_CHECK(!strstr(out, "\"aliased\":") ||
			 strstr(out, "\"aliased\":0}"),
			 "%s %s: rows share memory, the CSV does not say so: %s",
			 model, flag, out);
	/* drawn: valid at the height it was planned for */
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "draw p.csv --svg p.svg") == 0, "%s %s: %s", model,
		 flag, err);
	TA_CHECK(strtoull(strstr(out, "height ") ? strstr(out, "height ") + 7 :
			  "0", NULL, 10) == height,
		 "%s %s: drawn %s, planned %llu", model, flag, out, height);
	/* served as it is by the fixed strategy, written back the same */
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan p.csv --offline --strategy fixed --json -o q.csv") == 0,
		 "%s %s: %s", model, flag, err);
	TA_CHECK(json_height(out) == height, "%s %s: fixed %s, planned %llu",
		 model, flag, out, height);
	read_file(tmp_path("q.csv"), b, sizeof(b));
	TA_CHECK(!strcmp(a, b), "%s %s: the fixed plan's CSV differs", model,
		 flag);
	/*
	 * and planned afresh from the CSV: no taller than from the model (a
	 * fixed plan's nested tensors are planned apart then: taller)
	 */
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan p.csv --offline --budget-ms 100 --json") == 0,
		 "%s %s: %s", model, flag, err);
	TA_CHECK(json_height(out) && (fixed || json_height(out) <= height),
		 "%s %s: replanned %s, from the model %llu", model, flag, out,
		 height);
	return 0;
}

/*
 * Every model of @dir (TFLite and ONNX), with and without in-place ops
 * and, for those compiled for an NPU (@compiled: Vela's, with
 * OfflineMemoryAllocation), with their own offsets (--strategy fixed,
 * tensors inside the scratch); *@models counts them.
 */
static int round_trip_dir(const char *dir, bool compiled, int *models,
			  int *aliased, int *plain)
{
	char path[1400];
	struct dirent *e;
	DIR *d = opendir(dir);
	int junk = 0;

	TA_CHECK(d, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (!((l > 7 && !strcmp(e->d_name + l - 7, ".tflite")) ||
		      (l > 5 && !strcmp(e->d_name + l - 5, ".onnx"))))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (round_trip(path, true, aliased) ||
		    round_trip(path, false, plain) ||
		    (compiled &&
		     (round_trip_with(path, "--strategy fixed", &junk) ||
		      round_trip_with(path, "--strategy fixed --no-constants",
				      &junk)))) {
			closedir(d);
			return 1;
		}
		(*models)++;
	}
	closedir(d);
	return 0;
}

/*
 * Every shared model (TFLite and ONNX) and those of its compiled/, with
 * and without in-place ops: plan -> CSV -> draw, plan -> CSV -> fixed (the
 * same CSV again), and plan -> CSV -> auto; compiled/'s also from their
 * own offsets (Vela's, nested). With in-place ops, the CSVs of the models
 * whose reshapes share memory carry an alias column.
 */
static int t_csv_round_trip(void)
{
	const char *dir = ta_test_shared_dir();
	int models = 0, aliased = 0, plain = 0, in_compiled = 0;
	char compiled[1200];

	TA_CHECK(!tmp_dir(), "tmp");
	snprintf(compiled, sizeof(compiled), "%s/compiled", dir);
	if (round_trip_dir(dir, false, &models, &aliased, &plain) ||
	    round_trip_dir(compiled, true, &in_compiled, &aliased, &plain))
		return 1;
	tmp_clean();
	printf("# %d models, %d in compiled/, %d with rows sharing memory\n",
	       models, in_compiled, aliased);
	TA_CHECK(models >= 13 && in_compiled >= 1, "%d models in %s, %d in %s",
		 models, dir, in_compiled, compiled);
	TA_CHECK(aliased >= 3 && !plain, "%d aliased with in-place ops, %d without",
		 aliased, plain);
	return 0;
}

/*
 * The subcommands tactl --help lists, one per "  NAME  what" line after
 * "commands:", into @names (NUL-separated, an empty name last).
 */
static int tactl_commands(char *names, size_t len)
{
	char out[4096], err[4096], *line, *save = NULL, *p = names;
	bool listing = false;
	size_t n;

	if (tactl(out, sizeof(out), err, sizeof(err), "--help") != 0)
		return -1;
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, "commands:")) {
			listing = true;
			continue;
		}
		if (!listing || strncmp(line, "  ", 2) || line[2] == ' ')
			continue;
		n = strcspn(line + 2, " ");
		if (p + n + 2 > names + len)
			return -1;
		memcpy(p, line + 2, n);
		p[n] = 0;
		p += n + 1;
	}
	*p = 0;
	return p == names ? -1 : 0;
}

/*
 * Every subcommand answers -h and --help with its usage on stdout, status
 * 0; an unknown option is still a usage error: the usage on stderr, 2.
 */
static int t_help(void)
{
	static const char *const flags[] = { "--help", "-h" };
	char out[8192], err[8192], names[512];
	const char *c;
	size_t f;
	int n = 0;

	TA_CHECK(!tmp_dir(), "tmp");
	TA_CHECK(!tactl_commands(names, sizeof(names)), "tactl --help");
	for (c = names; *c; c += strlen(c) + 1, n++) {
		for (f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
			TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
				       "%s %s", c, flags[f]) == 0, "%s %s: %s",
				 c, flags[f], err);
			TA_CHECK(!strncmp(out, "usage: tactl ", 13) &&
				 strstr(out, c) && !err[0],
				 "%s %s: out '%s' err '%s'", c, flags[f], out,
				 err);
		}
		TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
			       "%s --no-such-option", c) == 2, "%s", c);
		TA_CHECK(!out[0] && strstr(err, "usage: tactl "),
			 "%s --no-such-option: out '%s' err '%s'", c, out, err);
	}
	TA_CHECK(n == 9, "%d subcommands in tactl --help", n);
	/* import reads ONNX models (and graph files) too */
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err), "--help") == 0,
		 "--help");
	TA_CHECK(strstr(out, "\n  import   write a TFLite or ONNX model as a graph file\n"),
		 "%s", out);
	tmp_clean();
	return 0;
}

/* Does @text hold @opt as a word of its own ("--no" is not in "--no-x")? */
static bool has_option(const char *text, const char *opt)
{
	size_t n = strlen(opt);
	const char *p;

	for (p = strstr(text, opt); p; p = strstr(p + 1, opt)) {
		char before = p == text ? ' ' : p[-1];
		char after = p[n];

		if (!(before == '-' || (before >= 'a' && before <= 'z')) &&
		    !(after == '-' || (after >= 'a' && after <= 'z')))
			return true;
	}
	return false;
}

/*
 * Every long option a command's parser compares its arguments with (the
 * '"--name")' of its source file, as in strcmp(a, "--name")) appears in
 * the usage its --help prints, both in the synopsis (up to the first
 * blank line) and in the option list after it. list, show and destroy
 * share the parser of cmd_plans.c, which refuses --json for destroy
 * (checked here).
 */
static int t_help_options(void)
{
	static const char *const cmds[][2] = {
		{ "info", "cmd_info.c" },	{ "plan", "cmd_plan.c" },
		{ "list", "cmd_plans.c" },	{ "show", "cmd_plans.c" },
		{ "destroy", "cmd_plans.c" },	{ "export", "cmd_export.c" },
		{ "watch", "cmd_watch.c" },	{ "draw", "cmd_draw.c" },
		{ "import", "cmd_import.c" },
	};
	static char src[65536];
	char out[8192], err[8192], names[512], path[1200], opt[64];
	const char *c, *p, *q;
	char *rest;
	size_t k, n;
	int found;

	TA_CHECK(!tmp_dir(), "tmp");
	/* the table above covers every subcommand tactl --help lists */
	TA_CHECK(!tactl_commands(names, sizeof(names)), "tactl --help");
	for (c = names, n = 0; *c; c += strlen(c) + 1, n++) {
		for (k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++)
			if (!strcmp(c, cmds[k][0]))
				break;
		TA_CHECK(k < sizeof(cmds) / sizeof(cmds[0]),
			 "%s: not in the test's table", c);
	}
	TA_CHECK(n == sizeof(cmds) / sizeof(cmds[0]), "%zu commands", n);
	for (k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++) {
		snprintf(path, sizeof(path), "%s/userspace/tactl/%s", TA_REPO,
			 cmds[k][1]);
		read_file(path, src, sizeof(src));
		TA_CHECK(src[0], "%s", path);
		TA_CHECK(tactl(out, sizeof(out), err, sizeof(err), "%s --help",
			       cmds[k][0]) == 0, "%s --help", cmds[k][0]);
		rest = strstr(out, "\n\n");
		TA_CHECK(rest, "%s --help: no blank line:\n%s", cmds[k][0], out);
		*rest++ = 0;
		found = 0;
		for (p = strstr(src, ", \"--"); p; p = strstr(p + 1, ", \"--")) {
			p += 3;
			q = strchr(p, '"');
			TA_CHECK(q && q[1] == ')' && (size_t)(q - p) < sizeof(opt),
				 "%s: %.40s", cmds[k][1], p);
			memcpy(opt, p, q - p);
			opt[q - p] = 0;
			found++;
			if (!strcmp(opt, "--help"))
				continue;
			if (!strcmp(cmds[k][0], "destroy") &&
			    !strcmp(opt, "--json"))
				continue;
			TA_CHECK(has_option(out, opt),
				 "%s --help: the synopsis lacks %s:\n%s",
				 cmds[k][0], opt, out);
			TA_CHECK(has_option(rest, opt),
				 "%s --help: the option list lacks %s:\n%s",
				 cmds[k][0], opt, rest);
		}
		TA_CHECK(found, "%s: no long options found", cmds[k][1]);
	}
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "destroy 1 --json") == 2, "destroy --json");
	TA_CHECK(!out[0] && strstr(err, "usage: tactl destroy"), "%s", err);
	tmp_clean();
	return 0;
}

/*
 * A number argument that is not one (a word, trailing garbage, a sign,
 * blanks, beyond its range) is a usage error naming the option and the
 * value, status 2, before anything is read or the module is reached; a
 * good one still works.
 */
static int t_bad_numbers(void)
{
	static const char csv[] = "id,lower,upper,size\n0,0,1,10\n";
	static const char graph[] = "tensorarena-graph 1\n"
				    "tensor a 10 input\ntensor b 10 input\n"
				    "tensor y 0 output\nop f a b -> y\n";
	static const char *const cases[][2] = {
		{ "plan t.csv --offline --hold x", "plan: bad --hold 'x'" },
		{ "plan t.csv --hold 5s", "plan: bad --hold '5s'" },
		{ "plan t.csv --hold 4294967296",
		  "plan: bad --hold '4294967296'" },
		{ "plan t.csv --offline --budget-ms -1",
		  "plan: bad --budget-ms '-1'" },
		{ "plan t.csv --offline --budget-ms ' 7'",
		  "plan: bad --budget-ms ' 7'" },
		{ "plan t.csv --offline --align 0", "plan: bad --align '0'" },
		{ "import t.csv --align 99999999999999999999",
		  "import: bad --align '99999999999999999999'" },
		{ "watch --count x", "watch: bad --count 'x'" },
		{ "watch --count -1", "watch: bad --count '-1'" },
		{ "watch --timeout 10x", "watch: bad --timeout '10x'" },
		{ "watch --timeout 2147483648",
		  "watch: bad --timeout '2147483648'" },
		{ "show 0", "show: bad ID '0'" },
		{ "show 0x", "show: bad ID '0x'" },
		{ "destroy 4294967296", "destroy: bad ID '4294967296'" },
		{ "export 1 x", "export: bad TENSOR 'x'" },
		{ "export 1x 0", "export: bad ID '1x'" },
	};
	char out[4096], err[4096], want[128];
	size_t k;

	TA_CHECK(!tmp_dir(), "tmp");
	TA_CHECK(!write_file(tmp_path("t.csv"), csv, strlen(csv)), "write");
	TA_CHECK(!write_file(tmp_path("t.graph"), graph, strlen(graph)),
		 "write");
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		snprintf(want, sizeof(want), "tactl %s (wants a number from ",
			 cases[k][1]);
		TA_CHECK(tactl(out, sizeof(out), err, sizeof(err), "%s",
			       cases[k][0]) == 2, "%s: %s", cases[k][0], err);
		TA_CHECK(!out[0] && !strncmp(err, want, strlen(want)) &&
			 strchr(err, '\n') && !strchr(err, '\n')[1],
			 "%s: out '%s' err '%s'",
			 cases[k][0], out, err);
	}
	/* 16-byte aligned: the one on top starts at 16 */
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan t.graph --offline --budget-ms 50 --align 0x10") == 0,
		 "%s", err);
	TA_CHECK(strstr(out, "lower bound: 26\n"), "%s", out);
	tmp_clean();
	return 0;
}

/*
 * tactl list and show print a plan's strategy through tactl_strategy_str():
 * a number without a name (a newer module's) is "strategy N", not a NULL
 * handed to printf("%s").
 */
static int t_strategy_str(void)
{
	char buf[TACTL_STRATEGY_LEN];
	uint32_t s;

	for (s = 0; s <= TA_STRATEGY_FIXED; s++)
		TA_CHECK(!strcmp(tactl_strategy_str(s, buf, sizeof(buf)),
				 ta_strategy_name(s)), "%u", s);
	TA_CHECK(!ta_strategy_str(TA_STRATEGY_FIXED + 1), "a name for %u",
		 TA_STRATEGY_FIXED + 1);
	TA_CHECK(tactl_strategy_str(7, buf, sizeof(buf)) == buf &&
		 !strcmp(buf, "strategy 7"), "%s", buf);
	TA_CHECK(!strcmp(tactl_strategy_str(UINT32_MAX, buf, sizeof(buf)),
			 "strategy 4294967295"), "%s", buf);
	return 0;
}

/* The offset column of a group CSV's row of member @m, id @id; ~0 if none. */
static unsigned long long csv_offset(const char *csv, unsigned int m,
				     const char *id)
{
	unsigned long long size, off;
	unsigned int mm, lo, hi;
	char name[64];
	const char *p;

	for (p = csv; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (sscanf(p, "%u,%63[^,],%u,%u,%llu,%llu", &mm, name, &lo, &hi,
			   &size, &off) == 6 && mm == m && !strcmp(name, id))
			return off;
	return ~0ULL;
}

/*
 * tactl plan A B: a group (cmd_plan_group.c). One lane shares bytes (the
 * larger member), --lane puts a member beside the others, --link by name
 * is one offset in -o's member column, --svg draws it; bad group flags
 * are usage errors with a message.
 */
static int t_plan_group(void)
{
	static const char ga[] = "tensorarena-graph 1\n"
				 "tensor image 1000 input\n"
				 "tensor feat 3000\n"
				 "tensor box 100 output\n"
				 "op conv image -> feat\n"
				 "op head feat -> box\n";
	static const char gb[] = "tensorarena-graph 1\n"
				 "tensor crop 100 input\n"
				 "tensor h 2000\n"
				 "tensor y 10 output\n"
				 "op a crop -> h\n"
				 "op b h -> y\n";
	static const struct {
		const char *args, *msg;
	} bad[] = {
		{ "a.graph --lane 1 --offline", "give two files or more" },
		{ "a.graph b.graph --lane 8 --offline", "bad --lane '8'" },
		{ "a.graph b.graph --lanes 0,x --offline", "bad --lanes '0,x'" },
		{ "a.graph b.graph --lanes 0,1,1 --offline", "--lanes gives 3 lanes for 2 files" },
		{ "a.graph b.graph --link 0:nope=1:crop --offline", "member 0 (a.graph) has no tensor 'nope'" },
		{ "a.graph b.graph --link 0:box=2:crop --offline", "no member 2" },
		{ "a.graph b.graph --link 0:box --offline", "is not M:TENSOR=M:TENSOR" },
		{ "a.graph b.graph --shared x=0:box --offline", "is not KEY=M:TENSOR" },
		{ "a.graph b.graph --strategy fixed --offline", "--strategy fixed" },
		{ "a.graph b.graph --strategy pingpong --offline", "not fixed or pingpong" },
		{ "a.graph b.graph --capacity 100 --offline", "more than --capacity 100" },
	};
	char out[8192], err[4096], csv[4096];
	size_t i;
	int st;

	TA_CHECK(!tmp_dir(), "tmp");
	TA_CHECK(!write_file(tmp_path("a.graph"), ga, strlen(ga)), "write");
	TA_CHECK(!write_file(tmp_path("b.graph"), gb, strlen(gb)), "write");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan a.graph b.graph --offline") == 0, "%s", err);
	TA_CHECK(strstr(out, "group:       2 members, 1 lane, 0 links, 0 shared\n") &&
		 strstr(out, "height:      4000\n") &&
		 strstr(out, "sum alone:   6100 ") &&
		 strstr(out, "largest:     4000\n"), "%s", out);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan a.graph --lane 1 b.graph --offline --json") == 0,
		 "%s", err);
	TA_CHECK(strstr(out, "\"height\":6100,") &&
		 strstr(out, "\"lane\":1,"), "%s", out);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan a.graph b.graph --link 0:box=1:crop --offline -o g.csv --svg g.svg") == 0,
		 "%s", err);
	read_file(tmp_path("g.csv"), csv, sizeof(csv));
	TA_CHECK(!strncmp(csv, "member,id,lower,upper,size,offset\n", 34), "%s", csv);
	TA_CHECK(csv_offset(csv, 0, "box") != ~0ULL &&
		 csv_offset(csv, 0, "box") == csv_offset(csv, 1, "crop"),
		 "%s", csv);
	read_file(tmp_path("g.svg"), csv, sizeof(csv));
	TA_CHECK(strstr(csv, "<svg") && strstr(csv, "member 1, lane 0: b.graph"),
		 "svg");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		st = tactl(out, sizeof(out), err, sizeof(err), "plan %s",
			   bad[i].args);
		TA_CHECK(st == 2 || (st == 1 && strstr(bad[i].args, "capacity")),
			 "%s: status %d", bad[i].args, st);
		TA_CHECK(strstr(err, bad[i].msg), "%s: %s", bad[i].args, err);
	}
	tmp_clean();
	return 0;
}

/* An ONNX model in @file: input @in of @dims (2 of them) -> Relu -> @out. */
static int relu_model(const char *file, const char *in, const s64 *dims,
		      const char *out)
{
	struct pbw g = { 0 }, m;
	int ret;

	input(&g, in, dims, 2);
	node(&g, "Relu", "", in, out, NULL);
	output(&g, out);
	m = model(&g, 13);
	ret = write_file(tmp_path(file), m.b, m.n);
	free(m.b);
	return ret;
}

/*
 * --dim NAME=SIZE: an ONNX model's symbolic batch N sized at import and
 * at plan; without it import's summary and plan's stderr name N and how to
 * size it; a name no input has, a malformed --dim, a model that is not
 * ONNX, a group: refused. A dimension without a name: named and sized by
 * position (INPUT[AXIS]); a static one's position refused.
 */
static int t_import_dim(void)
{
	static const s64 x[] = { SYM, 2 }, anon[] = { SYM_ANON, 6 };
	static const char csv[] = "id,lower,upper,size\n0,0,1,10\n";
	char out[8192], err[4096], graph[4096];

	TA_CHECK(!tmp_dir(), "tmp");
	TA_CHECK(!relu_model("sym.onnx", "x", x, "y"), "write");
	TA_CHECK(!write_file(tmp_path("t.csv"), csv, strlen(csv)), "write");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "import sym.onnx -o a.graph") == 0, "%s", err);
	TA_CHECK(strstr(err, "sym.onnx: 1 symbolic input dimension taken as 1 ('N'): the plan is for inputs of that size; give the size the model will run at with --dim N=SIZE\n"),
		 "%s", err);
	read_file(tmp_path("a.graph"), graph, sizeof(graph));
	TA_CHECK(strstr(graph, "tensor x 8 align=64 input  # FLOAT [1,2]\n"),
		 "%s", graph);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "import sym.onnx --dim N=16 -o b.graph") == 0, "%s", err);
	TA_CHECK(strstr(err, "; symbolic input dimensions sized by --dim\n") &&
		 !strstr(err, "taken as 1"), "%s", err);
	read_file(tmp_path("b.graph"), graph, sizeof(graph));
	TA_CHECK(strstr(graph, "tensor x 128 align=64 input  # FLOAT [16,2]\n") &&
		 strstr(graph, "tensor y 128 align=64 output  # FLOAT [16,2]\n"),
		 "%s", graph);
	/* x and y live at the Relu: 128 each, 64-aligned */
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan sym.onnx --offline --dim N=16 --strategy greedy-size") == 0,
		 "%s", err);
	TA_CHECK(strstr(out, "height:      256\n") && !strstr(err, "taken as 1"),
		 "%s%s", out, err);
	/* plan, too, says what it took as 1 (on stderr: --json stays JSON) */
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan sym.onnx --offline --json --strategy greedy-size") == 0,
		 "%s", err);
	TA_CHECK(out[0] == '{' && strstr(out, "\"height\":72,") &&
		 strstr(err, "sym.onnx: 1 symbolic input dimension taken as 1 ('N'): the plan is for inputs of that size; give the size the model will run at with --dim N=SIZE\n"),
		 "%s%s", out, err);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "import sym.onnx --dim M=16") == 1 &&
		 !strcmp(err, "tactl import: sym.onnx: dimension 'M' was given a size, but no graph input has a symbolic dimension of that name, or of that INPUT[AXIS]\n"),
		 "%s", err);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "import sym.onnx --dim N") == 2 &&
		 strstr(err, "tactl import: bad --dim 'N' (wants NAME=SIZE"),
		 "%s", err);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan sym.onnx --offline --dim N=-1") == 2 &&
		 strstr(err, "tactl plan: bad --dim size '-1'"), "%s", err);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan t.csv --offline --dim N=2") == 1 &&
		 strstr(err, "t.csv: sizes of symbolic dimensions are for an ONNX model"),
		 "%s", err);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "import %s/tests/data/offline_meta.tflite --dim N=2",
		       TA_REPO) == 2 &&
		 strstr(err, "--dim is for an ONNX model"), "%s", err);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan sym.onnx sym.onnx --offline --dim N=2") == 2 &&
		 strstr(err, "a group of files takes no"), "%s", err);
	/* a dimension without a name: named, and sized, by its position */
	TA_CHECK(!relu_model("anon.onnx", "a", anon, "b"), "write");
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "import anon.onnx -o c.graph") == 0 &&
		 strstr(err, "anon.onnx: 1 symbolic input dimension taken as 1 ('a[0]'): the plan is for inputs of that size; give the size the model will run at with --dim 'a[0]=SIZE'\n"),
		 "%s", err);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "import anon.onnx --dim 'a[0]=4' -o c.graph") == 0 &&
		 !strstr(err, "taken as 1"), "%s", err);
	read_file(tmp_path("c.graph"), graph, sizeof(graph));
	TA_CHECK(strstr(graph, "tensor b 96 align=64 output  # FLOAT [4,6]\n"),
		 "%s", graph);
	TA_CHECK(tactl(out, sizeof(out), err, sizeof(err),
		       "plan anon.onnx --offline --dim 'a[1]=4'") == 1 &&
		 strstr(err, "dimension 1 of graph input 'a' is 6, not symbolic: it takes no size"),
		 "%s", err);
	tmp_clean();
	return 0;
}

const struct ta_test ta_tactl_tests[] = {
	{ "tactl plan: 2 aligned tensors, bound 26, optimal when reached",
	  t_plan_two_aligned },
	{ "tactl plan: binary files' errors name no line", t_error_locations },
	{ "tactl plan, import: *.tflite and *.onnx by name, short files",
	  t_model_by_name },
	{ "tactl import: which subgraphs are planned, in words",
	  t_import_wording },
	{ "tactl import, plan --dim: a symbolic batch sized, bad sizes refused",
	  t_import_dim },
	{ "tactl plan, import, draw, export: a bad output fails first",
	  t_bad_output },
	{ "tactl plan -o: lifetimes [lower, upper), upper exclusive",
	  t_csv_lifetimes },
	{ "tactl plan -o -> draw, -> fixed, -> auto: every shared model and compiled/'s",
	  t_csv_round_trip },
	{ "tactl: every subcommand answers -h/--help on stdout, status 0",
	  t_help },
	{ "tactl: every long option a command parses is in its --help",
	  t_help_options },
	{ "tactl: a bad number argument is a usage error naming it",
	  t_bad_numbers },
	{ "tactl plan A B: a group, lanes, a link by name, -o and --svg, bad flags",
	  t_plan_group },
	{ "tactl list, show: an unknown strategy number is \"strategy N\"",
	  t_strategy_str },
	{ NULL, NULL },
};
