// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_runtime.c - end-to-end tests of the runtime side, inside the test
 * VM: in-place ops planned by the module, fixed plans (TA_STRATEGY_FIXED)
 * over both transports with every refusal checked case by case (errno,
 * the kernel's message, nothing changed), events through the library, and
 * graphs loaded from files.
 *
 * The "ioctl" and "netlink" fixtures (ta_e2e_client.h) open a client for
 * each test, "abi" a descriptor of /dev/tensorarena.
 *
 * usage: ta_e2e_runtime [MODEL-OR-GRAPH...] [-l] [-t TEST]...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tensorarena.h"
#include "ta_files.h"
#include "ta_harness.h"
#include "ta_e2e_client.h"

/* x(in, 10) -> a(100, align 8) -view-> b(100, align 16) -> y(out, 10) */
static struct ta_graph_builder *view_graph(bool inplace)
{
	struct ta_graph_builder *g = ta_graph_new();
	uint32_t x, a, b, y;
	int op;

	x = ta_graph_add_tensor(g, 10, 1, TA_TENSOR_INPUT);
	a = ta_graph_add_tensor(g, 100, 8, 0);
	b = ta_graph_add_tensor(g, 100, 16, 0);
	y = ta_graph_add_tensor(g, 10, 1, TA_TENSOR_OUTPUT);
	ta_graph_add_op(g, &x, 1, &a, 1);
	op = ta_graph_add_op(g, &a, 1, &b, 1);
	ta_graph_add_op(g, &b, 1, &y, 1);
	if (inplace)
		ta_graph_set_op_flags(g, op, TA_OP_INPLACE);
	return g;
}

/* Formatted extack messages exist from 6.2 (see module ta_compat.h). */
static bool kernel_names_tensors(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 2);
}

struct arena_state {
	uint64_t in_use;
	int plans;
};

static int count_plan(const struct ta_plan_get *g, void *arg)
{
	(void)g;
	++*(int *)arg;
	return 0;
}

static struct arena_state arena_state(struct ta_client *c)
{
	struct arena_state s = { ~0ULL, -1 };
	struct ta_info info;

	memset(&info, 0, sizeof(info));
	if (!ta_client_info(c, &info))
		s.in_use = info.bytes_in_use;
	s.plans = 0;
	ta_client_list(c, count_plan, &s.plans);
	return s;
}

static void test_inplace(struct ta_client *c, const char *tname)
{
	struct ta_graph_builder *g = view_graph(true), *plain = view_graph(false);
	struct ta_plan *p = NULL, *q = NULL;
	int err;

	err = ta_plan_submit(c, g, NULL, &p);
	CHECK(!err && ta_plan_offset(p, 1) == ta_plan_offset(p, 2) &&
	      ta_plan_lower_bound(p) == 110 && ta_plan_height(p) <= 126,
	      "%s inplace: the module shares a view's bytes with its input (offsets %llu %llu, height %llu, lower bound %llu)",
	      tname, p ? (unsigned long long)ta_plan_offset(p, 1) : 0,
	      p ? (unsigned long long)ta_plan_offset(p, 2) : 0,
	      p ? (unsigned long long)ta_plan_height(p) : 0,
	      p ? (unsigned long long)ta_plan_lower_bound(p) : 0);
	err = ta_plan_submit(c, plain, NULL, &q);
	CHECK(!err && ta_plan_offset(q, 1) != ta_plan_offset(q, 2) &&
	      ta_plan_lower_bound(q) == 204, /* 200 live, aligned 8 and 16 */
	      "%s inplace: without the flag no sharing (lower bound %llu)",
	      tname, q ? (unsigned long long)ta_plan_lower_bound(q) : 0);
	if (p)
		ta_plan_destroy(p);
	if (q)
		ta_plan_destroy(q);
	ta_plan_free(p);
	ta_plan_free(q);
	ta_graph_free(plain);
	ta_graph_free(g);
}

/* A refused fixed plan: -EINVAL, the kernel's words, nothing changed. */
static void fixed_refused(struct ta_client *c, const char *tname,
			  struct ta_graph_builder *g, const uint64_t *off,
			  uint64_t height, const char *what, const char *says)
{
	struct arena_state before = arena_state(c), after;
	struct ta_plan *p = NULL;
	char msg[256];
	bool words;
	int err;

	err = ta_plan_submit_fixed(c, g, off, height, 0, &p);
	/* the next request clears it: keep a copy */
	snprintf(msg, sizeof(msg), "%s", ta_client_last_error(c));
	after = arena_state(c);
	if (ta_client_transport(c) != TA_TRANSPORT_NETLINK)
		words = true;
	else if (kernel_names_tensors())
		words = strstr(msg, says) != NULL;
	else
		words = strstr(msg, "kernel log") != NULL;
	CHECK(err == -EINVAL && !p && words &&
	      after.in_use == before.in_use && after.plans == before.plans,
	      "%s fixed: %s: -EINVAL, nothing changed (%d: %s)", tname, what,
	      err, msg[0] ? msg : "no message, ioctl");
	ta_plan_free(p);
}

/*
 * A chain of 1,000 tensors all at offset 0: its offsets (8,000 bytes)
 * take more than a page of the netlink request, and the refusal must
 * still come from the transport asked for (its words), not from the ioctl
 * the library falls back to when a request is full.
 */
static void fixed_refused_long(struct ta_client *c, const char *tname)
{
	struct ta_graph_builder *g = ta_graph_new();
	uint64_t *off = calloc(1000, sizeof(*off));
	uint32_t i, in, out;

	CHECK(g && off, "%s fixed: memory for 1,000 tensors", tname);
	if (!g || !off)
		goto out;
	ta_graph_add_tensor(g, 64, 0, TA_TENSOR_INPUT);
	for (i = 1; i < 1000; i++) {
		ta_graph_add_tensor(g, 64, 0, i == 999 ? TA_TENSOR_OUTPUT : 0);
		in = i - 1;
		out = i;
		ta_graph_add_op(g, &in, 1, &out, 1);
	}
	fixed_refused(c, tname, g, off, 0,
		      "1,000 tensors at offset 0 (offsets beyond a page)",
		      "are both live at step");
out:
	free(off);
	ta_graph_free(g);
}

static void test_fixed(struct ta_client *c, const char *tname)
{
	struct ta_graph_builder *g = view_graph(true);
	uint64_t off[4] = { 0, 16, 16, 128 };
	struct ta_plan *p = NULL, *o = NULL;
	uint32_t i;
	int err;

	err = ta_plan_submit_fixed(c, g, off, 0, 0, &p);
	CHECK(!err && ta_plan_height(p) == 138 &&
	      ta_plan_strategy(p) == TA_STRATEGY_FIXED &&
	      ta_plan_offset(p, 0) == 0 && ta_plan_offset(p, 1) == 16 &&
	      ta_plan_offset(p, 2) == 16 && ta_plan_offset(p, 3) == 128,
	      "%s fixed: served as given (height %llu)", tname,
	      p ? (unsigned long long)ta_plan_height(p) : 0);
	err = p ? ta_plan_map(p) : -1;
	if (!err) {
		unsigned char *b = ta_plan_tensor(p, 2);

		memset(ta_plan_tensor(p, 1), 0x5a, 100);
		CHECK(b[0] == 0x5a && b[99] == 0x5a,
		      "%s fixed: the view's bytes are its input's, through mmap",
		      tname);
	} else {
		CHECK(false, "%s fixed: map", tname);
	}
	if (p)
		ta_plan_destroy(p);
	ta_plan_free(p);
	p = NULL;

	err = ta_plan_submit_fixed(c, g, off, 4096, 0, &p);
	CHECK(!err && ta_plan_height(p) == 4096,
	      "%s fixed: the caller's height is the plan's (%llu)", tname,
	      p ? (unsigned long long)ta_plan_height(p) : 0);
	if (p)
		ta_plan_destroy(p);
	ta_plan_free(p);
	p = NULL;

	fixed_refused(c, tname, g, off, 137, "a tensor above the height",
		      "tensor 3 does not end within the height");
	off[1] = 24;
	off[2] = 24;
	fixed_refused(c, tname, g, off, 0, "an offset off its alignment",
		      "tensor 2's offset is not a multiple");
	off[1] = 0;
	off[2] = 0;
	fixed_refused(c, tname, g, off, 0, "two live tensors overlapping",
		      "tensors 0 and 1 are both live at step 0");
	fixed_refused_long(c, tname);

	/* unfixed tensors are placed around the fixed ones, as offline */
	off[0] = 200;
	off[1] = TA_OFFSET_UNFIXED;
	off[2] = 0;
	off[3] = TA_OFFSET_UNFIXED;
	err = ta_plan_submit_fixed(c, g, off, 0, 0, &p);
	if (!err)
		err = ta_plan_submit_fixed(NULL, g, off, 0, 0, &o);
	for (i = 0; !err && i < 4; i++)
		if (ta_plan_offset(p, i) != ta_plan_offset(o, i))
			err = -ESTALE;
	CHECK(!err && ta_plan_offset(p, 0) == 200 && ta_plan_offset(p, 2) == 0,
	      "%s fixed: unfixed tensors placed around the fixed ones, as offline (height %llu)",
	      tname, p ? (unsigned long long)ta_plan_height(p) : 0);
	if (p)
		ta_plan_destroy(p);
	ta_plan_free(p);
	ta_plan_free(o);
	ta_graph_free(g);
}

/* The ioctl's own checks of the new fields, with the raw ABI. */
FIXTURE(abi) {
	int fd;
};

FIXTURE_SETUP(abi)
{
	self->fd = open("/dev/tensorarena", O_RDWR | O_CLOEXEC);
	CHECK(self->fd >= 0, "abi: /dev/tensorarena opens");
	if (self->fd < 0)
		SKIP("no /dev/tensorarena");
}

FIXTURE_TEARDOWN(abi)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(abi, fixed)
{
	struct ta_tensor t[2] = {
		{ .size = 64, .align = 1, .flags = TA_TENSOR_INPUT },
		{ .size = 64, .align = 1, .flags = TA_TENSOR_OUTPUT },
	};
	struct ta_op op = { .first_ref = 0, .n_inputs = 1, .n_outputs = 1 };
	uint32_t refs[2] = { 0, 1 };
	uint64_t off[2] = { 0, 64 };
	struct ta_plan_create a;
	int fd = self->fd, ret;

#define CREATE_INIT() do {						\
		memset(&a, 0, sizeof(a));				\
		a.tensors = (uintptr_t)t;				\
		a.n_tensors = 2;					\
		a.tensor_size = sizeof(t[0]);				\
		a.ops = (uintptr_t)&op;					\
		a.n_ops = 1;						\
		a.op_size = sizeof(op);					\
		a.refs = (uintptr_t)refs;				\
		a.n_refs = 2;						\
		a.flags = TA_CREATE_DRY_RUN;				\
	} while (0)
	CREATE_INIT();
	a.strategy = TA_STRATEGY_FIXED;
	ret = ioctl(fd, TA_IOCTL_PLAN_CREATE, &a);
	CHECK(ret < 0 && errno == EINVAL,
	      "abi: strategy fixed without offsets: EINVAL");
	CREATE_INIT();
	a.offsets = (uintptr_t)off;
	ret = ioctl(fd, TA_IOCTL_PLAN_CREATE, &a);
	CHECK(ret < 0 && errno == EINVAL,
	      "abi: offsets with strategy auto: EINVAL");
	CREATE_INIT();
	a.fixed_height = 4096;
	ret = ioctl(fd, TA_IOCTL_PLAN_CREATE, &a);
	CHECK(ret < 0 && errno == EINVAL,
	      "abi: fixed_height with strategy auto: EINVAL");
	CREATE_INIT();
	a.strategy = TA_STRATEGY_FIXED;
	a.offsets = 8;	/* unmapped */
	ret = ioctl(fd, TA_IOCTL_PLAN_CREATE, &a);
	CHECK(ret < 0 && errno == EFAULT,
	      "abi: offsets at a bad address: EFAULT");
	CREATE_INIT();
	a.strategy = TA_STRATEGY_FIXED;
	a.offsets = (uintptr_t)off;
	ret = ioctl(fd, TA_IOCTL_PLAN_CREATE, &a);
	CHECK(!ret && a.height == 128 && a.lower_bound == 128 && a.optimal,
	      "abi: a fixed dry run (height %llu)",
	      (unsigned long long)a.height);
	CREATE_INIT();
	a.strategy = TA_STRATEGY_FIXED + 1;
	ret = ioctl(fd, TA_IOCTL_PLAN_CREATE, &a);
	CHECK(ret < 0 && errno == EINVAL, "abi: strategy beyond fixed: EINVAL");
	CREATE_INIT();
	op.flags = 0x2;
	ret = ioctl(fd, TA_IOCTL_PLAN_CREATE, &a);
	CHECK(ret < 0 && errno == EINVAL, "abi: unknown op flag: EINVAL");
	op.flags = TA_OP_INPLACE;
	CREATE_INIT();
	ret = ioctl(fd, TA_IOCTL_PLAN_CREATE, &a);
	CHECK(!ret,
	      "abi: TA_OP_INPLACE accepted (an output may not alias: height %llu)",
	      (unsigned long long)a.height);
	op.flags = 0;
	CREATE_INIT();
	a.reserved = 1;
	ret = ioctl(fd, TA_IOCTL_PLAN_CREATE, &a);
	CHECK(ret < 0 && errno == EINVAL, "abi: reserved still checked: EINVAL");
#undef CREATE_INIT
}

static void test_events(struct ta_client *c)
{
	struct ta_graph_builder *g = view_graph(false);
	struct ta_events *ev = NULL;
	struct ta_plan *p = NULL;
	struct ta_event e;
	uint32_t id = 0;
	int err;

	err = ta_events_open(&ev);
	CHECK(!err && ta_events_fd(ev) >= 0, "events: subscribed (%d)", err);
	if (err)
		goto out;
	CHECK(ta_events_next(ev, &e, 0) == 0, "events: none yet");
	err = ta_plan_submit(c, g, NULL, &p);
	if (!err)
		id = ta_plan_id(p);
	err = ta_events_next(ev, &e, 5000);
	CHECK(err == 1 && e.type == TA_EVENT_PLAN_CREATED && e.plan_id == id &&
	      e.n_tensors == 4 && e.height == ta_plan_height(p),
	      "events: plan %u created (tensors %u, height %llu)", id,
	      e.n_tensors, (unsigned long long)e.height);
	if (p)
		ta_plan_destroy(p);
	err = ta_events_next(ev, &e, 5000);
	CHECK(err == 1 && e.type == TA_EVENT_PLAN_DESTROYED &&
	      e.plan_id == id, "events: plan %u destroyed", id);
out:
	ta_events_close(ev);
	ta_plan_free(p);
	ta_graph_free(g);
}

/* ta_graph_load(): the library reads a file as tactl does. */
static void test_load(struct ta_client *c, const char *path)
{
	struct ta_load_options nc = { .flags = TA_LOAD_NO_CONSTANTS };
	struct ta_plan_options dry = { .flags = TA_CREATE_DRY_RUN };
	struct ta_graph_builder *g = NULL, *h = NULL;
	struct ta_plan *p = NULL;
	struct ta_input in;
	char err[256] = "";
	int ret;

	ret = ta_graph_load(path, NULL, &g, err, sizeof(err));
	if (!ret && !ta_input_read(path, &in, err, sizeof(err))) {
		ret = ta_graph_tensor_count(g) == in.prob.n_buffers ? 0 : -ESTALE;
		ta_input_free(&in);
	}
	CHECK(!ret, "load %s: %u tensors, as tactl reads it %s", path,
	      g ? ta_graph_tensor_count(g) : 0, err);
	if (!ret)
		ret = ta_plan_submit(c, g, &dry, &p);
	CHECK(!ret, "load %s: planned in the module, a dry run (height %llu)",
	      path, p ? (unsigned long long)ta_plan_height(p) : 0);
	if (p)
		ta_plan_destroy(p);
	ta_plan_free(p);
	/*
	 * A model has constants: without them, fewer tensors. A trace has
	 * none to drop, and the load says so.
	 */
	ret = ta_graph_load(path, &nc, &h, err, sizeof(err));
	if (strlen(path) > 4 && !strcmp(path + strlen(path) - 4, ".csv"))
		CHECK(ret && !h,
		      "load %s: without constants: refused, a trace has none (%s)",
		      path, err);
	else
		CHECK(!ret && g && ta_graph_tensor_count(h) < ta_graph_tensor_count(g),
		      "load %s: without constants, %u tensors of %u %s", path,
		      h ? ta_graph_tensor_count(h) : 0,
		      g ? ta_graph_tensor_count(g) : 0, err);
	ta_graph_free(h);
	ta_graph_free(g);
}

/* The models and graphs the program was given. */
static char **files;
static int n_files;

TEST_F(ioctl, inplace) { test_inplace(self->c, "ioctl"); }
TEST_F(ioctl, fixed) { test_fixed(self->c, "ioctl"); }
TEST_F(ioctl, events) { test_events(self->c); }

TEST_F(ioctl, load)
{
	int i;

	for (i = 0; i < n_files; i++)
		test_load(self->c, files[i]);
}

TEST_F(netlink, inplace) { test_inplace(self->c, "netlink"); }
TEST_F(netlink, fixed) { test_fixed(self->c, "netlink"); }

TEST(load_missing)
{
	struct ta_graph_builder *g = NULL;
	char err[128];

	CHECK(ta_graph_load("/nonexistent.tflite", NULL, &g, err,
			    sizeof(err)) == -ENOENT && !g && err[0],
	      "load: a missing file: -ENOENT (%s)", err);
}

int main(int argc, char **argv)
{
	int a = 1;

	files = argv + a;
	while (a < argc && argv[a][0] != '-')
		a++;
	n_files = argv + a - files;
	return ta_harness_main(argc - a, argv + a) ? 1 : 0;
}
