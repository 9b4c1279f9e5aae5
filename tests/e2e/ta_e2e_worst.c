// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_worst.c - issue #9 in the kernel: the worst-case inputs of
 * userspace/lib/ta_worst.c submitted to the module over the ioctl, and how
 * fast a planning ioctl gives way to SIGKILL and SIGINT. Runs in the test
 * VM; built static like ta_e2e_lib (links libtensorarena.a):
 *
 *	gcc -O2 -Wall -Wextra -static -I uapi -I module/planner \
 *	    -I userspace/include -I userspace/lib -o ta_e2e_worst \
 *	    tests/e2e/ta_e2e_worst.c userspace/libtensorarena.a
 *
 * usage: ta_e2e_worst [--div N] [--max-s S] [--shape NAME] [--skip-timing]
 *			[--skip-signals] [--offline] [-l] [-t TEST]...
 *
 * --offline plans in this process instead (no module: a check of this
 * program on a host); the SIGINT and in-flight tests are then left out.
 * The tests (ta_harness.h, -l lists them): worst.timing (1), worst.sigkill
 * (2), worst.sigint (3), worst.inflight; --skip-timing leaves out the
 * first, --skip-signals the others. The "worst" fixture opens an ioctl
 * client for each test (none offline).
 *
 * 1. Timing: every shape x strategy as a dry run (the heights exceed any
 *    arena), one line "bench: worst SHAPE STRATEGY MS RESULT" each; a check
 *    per shape that every create ended in an accepted way (a plan,
 *    -ETIMEDOUT once the module caps planning, -EINVAL for the invalid
 *    "ranges" shape) within --max-s seconds (default 120: TCG is slow).
 *    --div N shrinks the shapes (see ta_worst_make()).
 * 2. SIGKILL: a child submits the slowest shape with the largest budget
 *    the module allows; the parent kills it after 300 ms and reaps it.
 *    "bench: worst sigkill-reap-ms MS"; fails only beyond 20 s.
 * 3. SIGINT with a handler installed (no SA_RESTART): the create fails
 *    with EINTR, and the arena's plan count and bytes in use are what they
 *    were before. "bench: worst sigint-return-ms MS".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "tensorarena.h"
#include "ta_worst.h"
#include "ta_e2e_param.h"
#include "ta_harness.h"

/* The module's default max_budget_ms. */
#define MAX_BUDGET_NS	10000000000ULL

static unsigned int opt_div = 1;
static bool opt_offline;
static double opt_max_s = 120;

/* The slow submission of tests 2 and 3: stack on "stair" (> 20 s natively
 * before #9).
 */
#define SLOW_SHAPE	"stair"
#define SLOW_STRATEGY	TA_STRATEGY_STACK

static struct ta_graph_builder *build(const struct ta_worst *w)
{
	struct ta_graph_builder *g = ta_graph_new();
	const struct ta_graph *gr = &w->graph;
	uint32_t i;

	if (!g)
		return NULL;
	for (i = 0; i < gr->n_tensors; i++)
		if (ta_graph_add_tensor(g, gr->tensors[i].size,
					gr->tensors[i].align,
					gr->tensors[i].flags) < 0)
			goto fail;
	for (i = 0; i < gr->n_ops; i++) {
		const struct ta_graph_op *op = &gr->ops[i];
		const uint32_t *r = gr->refs + op->first_ref;

		if (ta_graph_add_op(g, r, op->n_inputs, r + op->n_inputs,
				    op->n_outputs) < 0)
			goto fail;
	}
	return g;
fail:
	ta_graph_free(g);
	return NULL;
}

static int find_shape(const char *name)
{
	int i;

	for (i = 0; i < ta_worst_count(); i++)
		if (!strcmp(ta_worst_name(i), name))
			return i;
	return -1;
}

/*
 * The "ranges" shape breaks the strict form, which the library's builder
 * cannot express: submit it with the raw ioctl. Returns 0 or -errno.
 */
static int raw_create(const struct ta_worst *w, uint32_t strategy)
{
	struct ta_tensor *t = calloc(w->graph.n_tensors, sizeof(*t));
	struct ta_op *o = calloc(w->graph.n_ops, sizeof(*o));
	struct ta_plan_create c;
	uint32_t i;
	int fd, ret;

	fd = open("/dev/tensorarena", O_RDWR | O_CLOEXEC);
	if (fd < 0 || !t || !o) {
		ret = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	for (i = 0; i < w->graph.n_tensors; i++) {
		t[i].size = w->graph.tensors[i].size;
		t[i].align = w->graph.tensors[i].align;
		t[i].flags = w->graph.tensors[i].flags;
	}
	for (i = 0; i < w->graph.n_ops; i++) {
		o[i].first_ref = w->graph.ops[i].first_ref;
		o[i].n_inputs = w->graph.ops[i].n_inputs;
		o[i].n_outputs = w->graph.ops[i].n_outputs;
	}
	memset(&c, 0, sizeof(c));
	c.flags = TA_CREATE_DRY_RUN;
	c.strategy = strategy;
	c.tensors = (uintptr_t)t;
	c.n_tensors = w->graph.n_tensors;
	c.tensor_size = sizeof(*t);
	c.ops = (uintptr_t)o;
	c.n_ops = w->graph.n_ops;
	c.op_size = sizeof(*o);
	c.refs = (uintptr_t)w->graph.refs;
	c.n_refs = w->graph.n_refs;
	ret = ioctl(fd, TA_IOCTL_PLAN_CREATE, &c) < 0 ? -errno : 0;
out:
	if (fd >= 0)
		close(fd);
	free(t);
	free(o);
	return ret;
}

/* Over every shape: the creates that planned, and those cut at the limit. */
static unsigned int n_planned, n_cut, n_refused;

static void timing(struct ta_client *c, int shape)
{
	unsigned int planned = 0, cut = 0;
	struct ta_graph_builder *g = NULL;
	struct ta_worst w;
	double worst = 0;
	bool ok = true;
	char why[160] = "";
	int s, ret;

	ret = ta_worst_make(shape, opt_div, &w);
	if (ret) {
		CHECK(false, "worst %s: generate: %s", ta_worst_name(shape),
		      strerror(-ret));
		return;
	}
	if (!w.expect) {
		g = build(&w);
		if (!g) {
			CHECK(false, "worst %s: graph builder failed", w.name);
			ta_worst_free(&w);
			return;
		}
	}
	for (s = 0; s < TA_STRATEGY_COUNT; s++) {
		struct ta_plan_options o = {
			.strategy = s, .flags = TA_CREATE_DRY_RUN,
		};
		struct ta_plan *p = NULL;
		double t0 = now_s(), dt;

		if (opt_offline && !g) {
			struct ta_buffer *b = calloc(w.graph.n_tensors,
						     sizeof(*b));

			ret = b ? ta_graph_lifetimes(&w.graph, b) : -ENOMEM;
			free(b);
		} else if (opt_offline) {
			ret = ta_plan_offline(g, &o, &p);
		} else {
			ret = g ? ta_plan_submit(c, g, &o, &p) :
				  raw_create(&w, s);
		}
		dt = now_s() - t0;
		printf("bench: worst %s %s %.0f %s\n", w.name,
		       ta_strategy_str(s), dt * 1e3,
		       ret ? strerror(-ret) : "planned");
		fflush(stdout);
		if (p)
			ta_plan_free(p);
		if (dt > worst)
			worst = dt;
		if (!ret)
			planned++;
		else if (ret == -ETIMEDOUT)
			cut++;
		else if (ret == w.expect)
			n_refused++;
		if (ret != w.expect && !(ret == -ETIMEDOUT && !w.expect) &&
		    ok) {
			ok = false;
			snprintf(why, sizeof(why), "%s: %s", ta_strategy_str(s),
				 strerror(-ret));
		}
		if (dt > opt_max_s && ok) {
			ok = false;
			snprintf(why, sizeof(why), "%s took %.1f s",
				 ta_strategy_str(s), dt);
		}
	}
	n_planned += planned;
	n_cut += cut;
	if (ok)
		CHECK(true,
		      "worst %s: every strategy in %.1f s at most (%u planned, %u cut at the time limit)",
		      w.name, worst, planned, cut);
	else
		CHECK(false, "worst %s: %s", w.name, why);
	ta_graph_free(g);
	ta_worst_free(&w);
}

/* Submit the slow shape with the largest budget; -errno. */
static int slow_submit(struct ta_client *c, const struct ta_graph_builder *g,
		       uint32_t flags)
{
	struct ta_plan_options o = {
		.strategy = SLOW_STRATEGY, .flags = flags,
		.budget_ns = MAX_BUDGET_NS,
	};
	struct ta_plan *p = NULL;
	int ret;

	if (opt_offline)
		return ta_plan_offline(g, &o, &p);
	ret = ta_plan_submit(c, g, &o, &p);
	if (ret == -EINVAL) {	/* a lower max_budget_ms: its default */
		o.budget_ns = 0;
		ret = ta_plan_submit(c, g, &o, &p);
	}
	if (p) {
		if (ta_plan_id(p))
			ta_plan_destroy(p);
		ta_plan_free(p);
	}
	return ret;
}

static void sigkill_test(const struct ta_graph_builder *g)
{
	double t0, dt;
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0) {
		CHECK(false, "worst sigkill: fork: %s", strerror(errno));
		return;
	}
	if (!pid) {
		struct ta_client *c = NULL;

		if (!opt_offline && ta_client_open(TA_TRANSPORT_IOCTL, &c))
			_exit(3);
		slow_submit(c, g, TA_CREATE_DRY_RUN);
		_exit(0);
	}
	usleep(300000);
	t0 = now_s();
	kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) != pid) {
		CHECK(false, "worst sigkill: waitpid: %s", strerror(errno));
		return;
	}
	dt = now_s() - t0;
	printf("bench: worst sigkill-reap-ms %.0f\n", dt * 1e3);
	if (WIFEXITED(status))
		CHECK(false,
		      "worst sigkill: the child finished (status %d) before the kill: shape too fast",
		      WEXITSTATUS(status));
	else
		CHECK(dt < 20, "worst sigkill: reaped %.0f ms after SIGKILL",
		      dt * 1e3);
}

static volatile sig_atomic_t got_sigint;

static void on_sigint(int sig)
{
	(void)sig;
	got_sigint = 1;
}

static void sigint_test(struct ta_client *c, const struct ta_graph_builder *g)
{
	struct sigaction sa, old;
	struct ta_info a, b;
	double t0, dt;
	pid_t pid;
	int ret, status;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;	/* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, &old) || ta_client_info(c, &a)) {
		CHECK(false, "worst sigint: setup: %s", strerror(errno));
		return;
	}
	got_sigint = 0;
	pid = fork();
	if (pid < 0) {
		CHECK(false, "worst sigint: fork: %s", strerror(errno));
		sigaction(SIGINT, &old, NULL);
		return;
	}
	if (!pid) {
		usleep(300000);
		kill(getppid(), SIGINT);
		_exit(0);
	}
	t0 = now_s();
	/* not a dry run: a plan that got through would change the arena */
	ret = slow_submit(c, g, 0);
	dt = now_s() - t0;
	waitpid(pid, &status, 0);
	sigaction(SIGINT, &old, NULL);
	printf("bench: worst sigint-return-ms %.0f\n", dt * 1e3);
	if (ta_client_info(c, &b)) {
		CHECK(false, "worst sigint: info after: %s", strerror(errno));
		return;
	}
	if (ret != -EINTR || !got_sigint)
		CHECK(false,
		      "worst sigint: create returned %s after %.0f ms, handler %s",
		      ret ? strerror(-ret) : "a plan", dt * 1e3,
		      got_sigint ? "ran" : "did not run");
	else if (a.n_plans != b.n_plans || a.bytes_in_use != b.bytes_in_use)
		CHECK(false,
		      "worst sigint: plans %u -> %u, bytes in use %llu -> %llu",
		      a.n_plans, b.n_plans, (unsigned long long)a.bytes_in_use,
		      (unsigned long long)b.bytes_in_use);
	else
		CHECK(true,
		      "worst sigint: EINTR %.0f ms after the signal, arena unchanged",
		      (dt - 0.3) * 1e3);
}

/* A dry-run create of a two-tensor graph on a new client; -errno. */
static int small_submit(enum ta_transport transport)
{
	struct ta_plan_options o = { .strategy = TA_STRATEGY_GREEDY_SIZE,
				     .flags = TA_CREATE_DRY_RUN };
	struct ta_graph_builder *g = ta_graph_new();
	struct ta_client *c = NULL;
	struct ta_plan *p = NULL;
	uint32_t in, out;
	int ret = -ENOMEM;

	if (!g)
		return ret;
	in = ta_graph_add_tensor(g, 4096, 64, TA_TENSOR_INPUT);
	out = ta_graph_add_tensor(g, 4096, 64, TA_TENSOR_OUTPUT);
	if (ta_graph_add_op(g, &in, 1, &out, 1) < 0)
		goto free_graph;
	ret = ta_client_open(transport, &c);
	if (ret)
		goto free_graph;
	ret = ta_plan_submit(c, g, &o, &p);
	ta_plan_free(p);
	ta_client_close(c);
free_graph:
	ta_graph_free(g);
	return ret;
}

#define INFLIGHT_CASES	5

/*
 * max_user_creates (issue 25): with it at 1, a uid whose one create is
 * planning is refused another at once (EBUSY, either transport) before
 * anything of the request is copied, another uid is served meanwhile, and
 * the slot comes back when the create ends.
 */
static void inflight_test(const struct ta_graph_builder *slow)
{
	long long creates = ta_e2e_param_read("max_user_creates");
	long long plan_ms = ta_e2e_param_read("max_plan_ms");
	int ret, status, cases = 0, other = -1;
	pid_t pid, kid;

	if (creates < 1 || plan_ms < 1 || ta_e2e_param_write("max_user_creates", 1) ||
	    ta_e2e_param_write("max_plan_ms", 10000)) {
		CHECK(false,
		      "worst in flight: max_user_creates %lld, max_plan_ms %lld: set up",
		      creates, plan_ms);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (!pid) {
		struct ta_client *c = NULL;

		if (ta_client_open(TA_TRANSPORT_IOCTL, &c))
			_exit(3);
		slow_submit(c, slow, TA_CREATE_DRY_RUN);
		_exit(0);
	}
	usleep(500000);
	ret = small_submit(TA_TRANSPORT_IOCTL);
	CHECK(ret == -EBUSY,
	      "worst in flight: the same uid's second create while one plans, max_user_creates 1: EBUSY (got %s)",
	      strerror(-ret));
	cases++;
	ret = small_submit(TA_TRANSPORT_NETLINK);
	CHECK(ret == -EBUSY,
	      "worst in flight: ... and over netlink: EBUSY (got %s)",
	      strerror(-ret));
	cases++;
	kid = fork();
	if (!kid) {
		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(100);
		_exit(-small_submit(TA_TRANSPORT_IOCTL));
	}
	if (kid > 0 && waitpid(kid, &status, 0) == kid && WIFEXITED(status))
		other = WEXITSTATUS(status);
	CHECK(other == 0,
	      "worst in flight: uid 1000 is served meanwhile (exit %d)", other);
	cases++;
	status = -1;
	ret = pid > 0 && waitpid(pid, &status, WNOHANG) == 0;
	CHECK(ret,
	      "worst in flight: the slow create was still planning throughout");
	cases++;
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	ret = small_submit(TA_TRANSPORT_IOCTL);
	CHECK(!ret,
	      "worst in flight: once it ends, the uid's slot is back (%s)",
	      strerror(-ret));
	cases++;
	ta_e2e_param_write("max_plan_ms", plan_ms);
	ta_e2e_param_write("max_user_creates", creates);
	CHECK(cases == INFLIGHT_CASES, "worst in flight: %d of %d cases ran",
	      cases, INFLIGHT_CASES);
}

FIXTURE(worst) {
	struct ta_client *c;
};

FIXTURE_SETUP(worst)
{
	int ret = opt_offline ? 0 : ta_client_open(TA_TRANSPORT_IOCTL, &self->c);

	if (ret) {
		self->c = NULL;
		CHECK(false, "worst: open /dev/tensorarena: %s", strerror(-ret));
		SKIP("no ioctl client");
	}
}

FIXTURE_TEARDOWN(worst)
{
	if (self->c)
		ta_client_close(self->c);
}

/* The slow shape the signal tests submit, or NULL after a failed check. */
static struct ta_graph_builder *slow_shape(void)
{
	struct ta_graph_builder *slow;
	struct ta_worst w;
	int ret;

	ret = ta_worst_make(find_shape(SLOW_SHAPE), opt_div, &w);
	slow = ret ? NULL : build(&w);
	if (!slow)
		CHECK(false, "worst: cannot build the slow shape");
	if (!ret)
		ta_worst_free(&w);
	return slow;
}

static const char *opt_only;

TEST_F(worst, timing)
{
	int i;

	for (i = 0; i < ta_worst_count(); i++)
		if (!opt_only || !strcmp(opt_only, ta_worst_name(i)))
			timing(self->c, i);
	/*
	 * A create cut at the time limit is a correct outcome, but a run in
	 * which every create was cut (or refused) planned nothing.
	 */
	CHECK(n_planned > 0,
	      "worst: %u creates planned, %u cut at the time limit, %u refused as they must be",
	      n_planned, n_cut, n_refused);
}

TEST_F(worst, sigkill)
{
	struct ta_graph_builder *slow = slow_shape();

	if (slow)
		sigkill_test(slow);
	ta_graph_free(slow);
}

TEST_F(worst, sigint)
{
	struct ta_graph_builder *slow = slow_shape();

	if (slow)
		sigint_test(self->c, slow);
	ta_graph_free(slow);
}

TEST_F(worst, inflight)
{
	struct ta_graph_builder *slow = slow_shape();

	if (slow)
		inflight_test(slow);
	ta_graph_free(slow);
}

int main(int argc, char **argv)
{
	bool skip_timing = false, skip_signals = false;
	int i, n = 0, n_tests = 0, rc;
	struct ta_test *t;
	char **args;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--div") && i + 1 < argc)
			opt_div = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--max-s") && i + 1 < argc)
			opt_max_s = strtod(argv[++i], NULL);
		else if (!strcmp(argv[i], "--shape") && i + 1 < argc)
			opt_only = argv[++i];
		else if (!strcmp(argv[i], "--skip-timing"))
			skip_timing = true;
		else if (!strcmp(argv[i], "--skip-signals"))
			skip_signals = true;
		else if (!strcmp(argv[i], "--offline"))
			opt_offline = true;
		else if (!strcmp(argv[i], "-l") || !strcmp(argv[i], "-t") ||
			 !strcmp(argv[i], "--"))
			break;
		else {
			fprintf(stderr, "usage: %s [--div N] [--max-s S] [--shape NAME] [--skip-timing] [--skip-signals] [--offline] [-l] [-t TEST]...\n",
				argv[0]);
			return 2;
		}
	}
	for (t = ta_tests; t; t = t->next)
		n_tests++;
	args = calloc(2 * n_tests + argc + 1, sizeof(*args));
	if (!args)
		return 1;
	/* Without -t, the tests the options leave in. */
	if (i == argc || strcmp(argv[i], "-t"))
		for (t = ta_tests; t; t = t->next) {
			bool is_timing = !strcmp(t->name, "worst.timing");
			bool needs_module = !strcmp(t->name, "worst.sigint") ||
					    !strcmp(t->name, "worst.inflight");

			if (is_timing ? skip_timing :
			    skip_signals || (needs_module && opt_offline))
				continue;
			args[n++] = "-t";
			args[n++] = (char *)t->name;
		}
	while (i < argc)
		args[n++] = argv[i++];
	rc = ta_harness_main(n, args);
	free(args);
	return rc ? 1 : 0;
}
