// SPDX-License-Identifier: GPL-2.0
/*
 * ta_of_kunit.c - KUnit suite for the device-tree path: the compatible
 * (ta_platform_driver's of_match_table and the platform bus), the checks
 * and sizing of a memory-region (ta_of.c), and probes through the driver
 * core of nodes without a usable memory-region, which must fail with the
 * right errno and leave nothing behind, and the one-arena-device rule.
 *
 * The test kernel is x86: it boots without a device tree and has no
 * CONFIG_OF_RESERVED_MEM, so a region is never assigned here (booting a
 * memory-region on arm64 is for the arm64 board model). The nodes are built
 * in memory and attached to no tree: a phandle resolves to nothing, which
 * the "points at no node" case relies on, and the region checks are handed
 * the region's node and a &struct reserved_mem directly. Such a node has no
 * sysfs directory, so adding its device logs "Error -2 creating of_node
 * link" (harmless: the device has no of_node link in sysfs).
 */
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/of.h>
#include <linux/of_reserved_mem.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>

#include "../ta_internal.h"

#ifdef CONFIG_OF

/* No real tree uses it: dtc numbers phandles from 1 upwards. */
#define TA_DANGLING_PHANDLE	0xfffffff0U

static void ta_node_release(struct kobject *kobj)
{
	/* The node's memory is the test's (kunit_kzalloc()). */
}

static const struct kobj_type ta_node_ktype = {
	.release = ta_node_release,
};

/*
 * A node as of_node_init() makes one, but with a ktype of ours: of_node_ktype
 * is not exported, and the node is freed with the test, not on its last
 * of_node_put() (references only count with CONFIG_OF_DYNAMIC).
 */
static struct device_node *ta_node_new(struct kunit *test,
				       struct device_node *parent,
				       const char *name)
{
	struct device_node *np;

	np = kunit_kzalloc(test, sizeof(*np), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, np);
	np->full_name = name;
	np->parent = parent;
	fwnode_init(&np->fwnode, &of_fwnode_ops);
#ifdef CONFIG_OF_KOBJ
	kobject_init(&np->kobj, &ta_node_ktype);
#endif
	return np;
}

static void ta_node_prop(struct kunit *test, struct device_node *np,
			 const char *name, const void *value, int length)
{
	struct property *pp;

	pp = kunit_kzalloc(test, sizeof(*pp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pp);
	pp->name = (char *)name;
	pp->value = (void *)value;
	pp->length = length;
	pp->next = np->properties;
	np->properties = pp;
}

static void ta_node_str(struct kunit *test, struct device_node *np,
			const char *name, const char *value)
{
	ta_node_prop(test, np, name, value, strlen(value) + 1);
}

/* memory-region = <phandle>, ... of @n dangling phandles. */
static void ta_node_regions(struct kunit *test, struct device_node *np,
			    unsigned int n)
{
	__be32 *cells;
	unsigned int i;

	cells = kunit_kcalloc(test, n + 1, sizeof(*cells), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cells);
	for (i = 0; i < n; i++)
		cells[i] = cpu_to_be32(TA_DANGLING_PHANDLE - i);
	ta_node_prop(test, np, "memory-region", cells, n * sizeof(*cells));
}

/**
 * struct ta_of_fixture - what a test of the suite made
 * @root: the root of the test's nodes (prints as "/")
 * @msg_pdev: a device, bound to no driver, for ta_of_region_check()'s
 *	      messages
 * @pdevs: devices the test added; unregistered (and unbound) at its end
 * @n_pdevs: entries in @pdevs
 * @driver: ta_of_test_driver is registered and is unregistered at the end
 * @saved: the module's own arena device, set aside for the test (see
 *	   ta_of_init())
 */
struct ta_of_fixture {
	struct device_node *root;
	struct platform_device *msg_pdev;
	struct platform_device *pdevs[4];
	unsigned int n_pdevs;
	bool driver;
	struct ta_device *saved;
};

/*
 * The module's driver under another name: on kernels that run a module's
 * suites after its init (6.12), ta_platform_driver is registered already.
 */
static struct platform_driver ta_of_test_driver;

static int ta_of_init(struct kunit *test)
{
	struct ta_of_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	/*
	 * 6.1 runs the suites before module init, 6.12 after it: then the
	 * module's own device is set aside while the tests bind theirs (the
	 * VM runs the suites at insmod, when nothing else uses the module).
	 */
	f->saved = READ_ONCE(ta_default_device);
	WRITE_ONCE(ta_default_device, NULL);
	f->root = ta_node_new(test, NULL, "");
	f->msg_pdev = platform_device_register_simple("tensorarena-kunit",
						      PLATFORM_DEVID_AUTO,
						      NULL, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f->msg_pdev));
	test->priv = f;
	return 0;
}

static void ta_of_exit(struct kunit *test)
{
	struct ta_of_fixture *f = test->priv;

	while (f->n_pdevs)
		platform_device_unregister(f->pdevs[--f->n_pdevs]);
	if (f->driver)
		platform_driver_unregister(&ta_of_test_driver);
	platform_device_unregister(f->msg_pdev);
	KUNIT_EXPECT_NULL(test, READ_ONCE(ta_default_device));
	WRITE_ONCE(ta_default_device, f->saved);
}

static void ta_of_register_driver(struct kunit *test)
{
	struct ta_of_fixture *f = test->priv;

	/*
	 * Without an owner: on 6.1 the suites run while the module is still
	 * coming up, before its sysfs directory exists, and registering with
	 * THIS_MODULE would link the driver into it (module_add_driver()).
	 */
	ta_of_test_driver = (struct platform_driver){
		.probe = ta_platform_driver.probe,
		.remove = ta_platform_driver.remove,
		.driver = {
			.name = "tensorarena-kunit-driver",
			.of_match_table = ta_platform_driver.driver.of_match_table,
			.dev_groups = ta_platform_driver.driver.dev_groups,
			.probe_type = ta_platform_driver.driver.probe_type,
			.suppress_bind_attrs = true,
			/*
			 * What __platform_driver_register() sets, without
			 * an owner; its arguments differ between 6.12 and
			 * 7.2 (7.2 takes the module's name too).
			 */
			.bus = &platform_bus_type,
		},
	};
	KUNIT_ASSERT_EQ(test, driver_register(&ta_of_test_driver.driver), 0);
	f->driver = true;
}

/*
 * Add a platform device for @np (NULL: none, the arena_size path). With
 * the driver registered, a device whose node matches is probed right away.
 */
static struct platform_device *ta_of_add_pdev(struct kunit *test,
					      struct device_node *np)
{
	struct ta_of_fixture *f = test->priv;
	struct platform_device *pdev;

	KUNIT_ASSERT_LT(test, f->n_pdevs, (unsigned int)ARRAY_SIZE(f->pdevs));
	pdev = platform_device_alloc("tensorarena-kunit-of", PLATFORM_DEVID_AUTO);
	KUNIT_ASSERT_NOT_NULL(test, pdev);
	if (np)
		device_set_node(&pdev->dev, of_fwnode_handle(of_node_get(np)));
	if (platform_device_add(pdev)) {
		platform_device_put(pdev);
		KUNIT_FAIL(test, "platform_device_add() failed");
		return NULL;
	}
	f->pdevs[f->n_pdevs++] = pdev;
	return pdev;
}

/* A "linux,tensorarena" node, child of the root. */
static struct device_node *ta_of_arena_node(struct kunit *test)
{
	struct ta_of_fixture *f = test->priv;
	struct device_node *np = ta_node_new(test, f->root, "npu-arena");

	ta_node_str(test, np, "compatible", "linux,tensorarena");
	return np;
}

struct ta_bytes_case {
	u64 region;
	bool reusable;
	u64 bytes;
};

static const struct ta_bytes_case ta_bytes_cases[] = {
	{ 0, true, 0 },
	{ 0, false, 0 },
	{ PAGE_SIZE - 1, true, 0 },
	{ PAGE_SIZE - 1, false, 0 },
	{ PAGE_SIZE, true, PAGE_SIZE },
	{ PAGE_SIZE, false, PAGE_SIZE },
	{ 3 * PAGE_SIZE, false, 2 * PAGE_SIZE },
	{ 3 * PAGE_SIZE + 1, true, 3 * PAGE_SIZE },
	{ SZ_16M, true, SZ_16M },
	{ SZ_16M, false, SZ_16M },
	{ SZ_32M + SZ_16M, true, SZ_32M + SZ_16M },
	{ SZ_32M + SZ_16M, false, SZ_32M },
	{ SZ_64M - PAGE_SIZE, false, SZ_32M },
	{ 1ULL << 40, false, 1ULL << 40 },
	{ (1ULL << 40) + SZ_1G, false, 1ULL << 40 },
};

static void ta_bytes_case_desc(const struct ta_bytes_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%llu-byte %s region -> %llu",
		 c->region, c->reusable ? "CMA" : "pool", c->bytes);
}

KUNIT_ARRAY_PARAM(ta_bytes, ta_bytes_cases, ta_bytes_case_desc);

static void ta_of_arena_bytes_test(struct kunit *test)
{
	const struct ta_bytes_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ta_of_arena_bytes(c->region, c->reusable),
			c->bytes);
}

/* A reserved-memory node and what the kernel would have set up for it. */
struct ta_region_case {
	const char *desc;
	const char *compatible;
	int compatible_len;
	bool reusable;
	bool disabled;
	bool cma_default;
	bool reserved;
	bool pool;
	u64 size;
	int err;
	u64 bytes;
};

#define TA_COMPAT(s)	.compatible = (s), .compatible_len = sizeof(s)
#define TA_POOL		TA_COMPAT("shared-dma-pool")

static const struct ta_region_case ta_region_cases[] = {
	{ .desc = "reusable (CMA), 16 MiB", TA_POOL, .reusable = true,
	  .reserved = true, .pool = true, .size = SZ_16M, .bytes = SZ_16M },
	{ .desc = "no-map pool, 64 MiB", TA_POOL,
	  .reserved = true, .pool = true, .size = SZ_64M, .bytes = SZ_64M },
	{ .desc = "no-map pool, 48 MiB: the largest power of two", TA_POOL,
	  .reserved = true, .pool = true, .size = SZ_32M + SZ_16M,
	  .bytes = SZ_32M },
	{ .desc = "shared-dma-pool after another compatible",
	  TA_COMPAT("acme,npu-pool\0shared-dma-pool"), .reusable = true,
	  .reserved = true, .pool = true, .size = SZ_16M, .bytes = SZ_16M },
	{ .desc = "restricted-dma-pool", TA_COMPAT("restricted-dma-pool"),
	  .reserved = true, .pool = true, .size = SZ_16M, .err = -EINVAL },
	{ .desc = "no compatible", .reusable = true,
	  .reserved = true, .pool = true, .size = SZ_16M, .err = -EINVAL },
	{ .desc = "disabled", TA_POOL, .reusable = true, .disabled = true,
	  .reserved = true, .pool = true, .size = SZ_16M, .err = -ENODEV },
	{ .desc = "the kernel's default CMA area", TA_POOL, .reusable = true,
	  .cma_default = true, .reserved = true, .pool = true,
	  .size = SZ_16M, .err = -EINVAL },
	{ .desc = "not reserved at boot", TA_POOL, .reusable = true,
	  .size = SZ_16M, .err = -ENODEV },
	{ .desc = "refused at boot (no pool)", TA_POOL, .reusable = true,
	  .reserved = true, .size = SZ_16M, .err = -ENODEV },
	{ .desc = "smaller than a page", TA_POOL,
	  .reserved = true, .pool = true, .size = PAGE_SIZE / 2,
	  .err = -EINVAL },
};

static void ta_region_case_desc(const struct ta_region_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s -> %d", c->desc, c->err);
}

KUNIT_ARRAY_PARAM(ta_region, ta_region_cases, ta_region_case_desc);

/* Not called: a pool set up at boot has ops; the check only looks at them. */
static const struct reserved_mem_ops ta_fake_rmem_ops;

static void ta_of_region_check_test(struct kunit *test)
{
	const struct ta_region_case *c = test->param_value;
	struct ta_of_fixture *f = test->priv;
	struct device_node *rmem_np, *np;
	struct reserved_mem rmem = {
		.name = "npu@90000000",
		.base = 0x90000000,
		.size = c->size,
		.ops = c->pool ? &ta_fake_rmem_ops : NULL,
	};
	u64 bytes = 12345;

	rmem_np = ta_node_new(test, f->root, "reserved-memory");
	np = ta_node_new(test, rmem_np, "npu@90000000");
	if (c->compatible)
		ta_node_prop(test, np, "compatible", c->compatible,
			     c->compatible_len);
	if (c->reusable)
		ta_node_prop(test, np, "reusable", "", 0);
	else
		ta_node_prop(test, np, "no-map", "", 0);
	if (c->disabled)
		ta_node_str(test, np, "status", "disabled");
	if (c->cma_default)
		ta_node_prop(test, np, "linux,cma-default", "", 0);

	KUNIT_EXPECT_EQ(test, ta_of_region_check(&f->msg_pdev->dev, np,
						 c->reserved ? &rmem : NULL,
						 &bytes),
			c->err);
	KUNIT_EXPECT_EQ(test, bytes, c->err ? 12345ULL : c->bytes);
}

static const char ta_compat_fallback[] = "acme,npu-arena\0linux,tensorarena";

static void ta_of_match_test(struct kunit *test)
{
	const struct of_device_id *table =
		ta_platform_driver.driver.of_match_table;
	struct ta_of_fixture *f = test->priv;
	struct platform_device *pdev;
	struct device_node *np;

	KUNIT_ASSERT_NOT_NULL(test, table);
	np = ta_of_arena_node(test);
	KUNIT_EXPECT_NOT_NULL(test, of_match_node(table, np));

	/* A board's own compatible first, ours as the fallback. */
	np = ta_node_new(test, f->root, "npu-arena");
	ta_node_prop(test, np, "compatible", ta_compat_fallback,
		     sizeof(ta_compat_fallback));
	KUNIT_EXPECT_NOT_NULL(test, of_match_node(table, np));

	np = ta_node_new(test, f->root, "npu-arena");
	ta_node_str(test, np, "compatible", "tensorarena");
	KUNIT_EXPECT_NULL(test, of_match_node(table, np));
	np = ta_node_new(test, f->root, "npu-arena");
	ta_node_str(test, np, "compatible", "linux,tensorarena-v2");
	KUNIT_EXPECT_NULL(test, of_match_node(table, np));

	/*
	 * The platform bus binds a device of that node to the driver by the
	 * compatible alone (the device's name is not the driver's).
	 */
	pdev = ta_of_add_pdev(test, ta_of_arena_node(test));
	KUNIT_ASSERT_NOT_NULL(test, pdev);
	KUNIT_EXPECT_TRUE(test, platform_bus_type.match(&pdev->dev,
							&ta_platform_driver.driver));
	pdev = ta_of_add_pdev(test, np);
	KUNIT_ASSERT_NOT_NULL(test, pdev);
	KUNIT_EXPECT_FALSE(test, platform_bus_type.match(&pdev->dev,
							 &ta_platform_driver.driver));
}

/* memory-region cases of a probe that must fail: how many entries. */
struct ta_probe_case {
	const char *desc;
	int entries;	/* -1: no memory-region property */
};

static const struct ta_probe_case ta_probe_cases[] = {
	{ "no memory-region", -1 },
	{ "empty memory-region", 0 },
	{ "memory-region points at no node", 1 },
	{ "memory-region with two entries", 2 },
};

static void ta_probe_case_desc(const struct ta_probe_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s -> -EINVAL", c->desc);
}

KUNIT_ARRAY_PARAM(ta_probe, ta_probe_cases, ta_probe_case_desc);

/*
 * The node's device is probed when added (the driver is registered) and
 * again by device_driver_attach(), which returns probe's errno. Neither
 * binds it, and nothing stays: no default device, no /dev/tensorarena, no
 * lock held (a device of the arena_size path binds right after).
 */
static void ta_of_probe_fails_test(struct kunit *test)
{
	const struct ta_probe_case *c = test->param_value;
	struct platform_device *pdev, *plain;
	struct device_node *np;

	ta_of_register_driver(test);
	np = ta_of_arena_node(test);
	if (c->entries >= 0)
		ta_node_regions(test, np, c->entries);
	pdev = ta_of_add_pdev(test, np);
	KUNIT_ASSERT_NOT_NULL(test, pdev);
	KUNIT_EXPECT_NULL(test, pdev->dev.driver);
	KUNIT_EXPECT_EQ(test, device_driver_attach(&ta_of_test_driver.driver,
						   &pdev->dev), -EINVAL);
	KUNIT_EXPECT_NULL(test, pdev->dev.driver);
	KUNIT_EXPECT_NULL(test, platform_get_drvdata(pdev));
	KUNIT_EXPECT_NULL(test, READ_ONCE(ta_default_device));

	plain = ta_of_add_pdev(test, NULL);
	KUNIT_ASSERT_NOT_NULL(test, plain);
	KUNIT_EXPECT_EQ(test, device_driver_attach(&ta_of_test_driver.driver,
						   &plain->dev), 0);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(ta_default_device),
			    (struct ta_device *)platform_get_drvdata(plain));
}

/*
 * One arena device at a time: while one is bound, any other probe fails
 * with -EBUSY before reserving anything; once it is gone the next binds.
 */
static void ta_of_one_device_test(struct kunit *test)
{
	struct ta_of_fixture *f = test->priv;
	struct platform_device *first, *second, *node;
	struct ta_device *ta;

	ta_of_register_driver(test);
	first = ta_of_add_pdev(test, NULL);
	KUNIT_ASSERT_NOT_NULL(test, first);
	KUNIT_ASSERT_EQ(test, device_driver_attach(&ta_of_test_driver.driver,
						   &first->dev), 0);
	ta = platform_get_drvdata(first);
	KUNIT_ASSERT_NOT_NULL(test, ta);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(ta_default_device), ta);
	KUNIT_EXPECT_NULL(test, ta->region);
	KUNIT_EXPECT_EQ(test, (u64)ta->size, ta_arena_size);

	second = ta_of_add_pdev(test, NULL);
	KUNIT_ASSERT_NOT_NULL(test, second);
	KUNIT_EXPECT_EQ(test, device_driver_attach(&ta_of_test_driver.driver,
						   &second->dev), -EBUSY);
	KUNIT_EXPECT_NULL(test, second->dev.driver);

	/* A node without a memory-region: -EBUSY comes first. */
	node = ta_of_add_pdev(test, ta_of_arena_node(test));
	KUNIT_ASSERT_NOT_NULL(test, node);
	KUNIT_EXPECT_EQ(test, device_driver_attach(&ta_of_test_driver.driver,
						   &node->dev), -EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(ta_default_device), ta);

	/* The first goes (and leaves the fixture's list). */
	f->pdevs[0] = f->pdevs[--f->n_pdevs];
	platform_device_unregister(first);
	KUNIT_EXPECT_NULL(test, READ_ONCE(ta_default_device));
	KUNIT_EXPECT_EQ(test, device_driver_attach(&ta_of_test_driver.driver,
						   &second->dev), 0);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(ta_default_device),
			    (struct ta_device *)platform_get_drvdata(second));
}

/*
 * The fast tier of a node (ta_fast_init_of()): none without an sram
 * property; -ENODEV, and still none, for a phandle that names no SRAM pool
 * (here a dangling one: no sram driver bound a region for it).
 */
static void ta_of_fast_test(struct kunit *test)
{
	struct ta_of_fixture *f = test->priv;
	struct device_node *np = ta_of_arena_node(test);
	__be32 *cell;
	struct ta_device *ta;

	ta = kunit_kzalloc(test, sizeof(*ta), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ta);
	ta->dev = &f->msg_pdev->dev;
	KUNIT_EXPECT_EQ(test, ta_fast_init_of(ta, np), 0);
	KUNIT_EXPECT_EQ(test, ta->fast.size, (size_t)0);
	KUNIT_EXPECT_NULL(test, ta->fast.pool);

	cell = kunit_kzalloc(test, sizeof(*cell), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cell);
	*cell = cpu_to_be32(TA_DANGLING_PHANDLE);
	ta_node_prop(test, np, "sram", cell, sizeof(*cell));
	KUNIT_EXPECT_EQ(test, ta_fast_init_of(ta, np), -ENODEV);
	KUNIT_EXPECT_EQ(test, ta->fast.size, (size_t)0);
	KUNIT_EXPECT_NULL(test, ta->fast.pool);
	KUNIT_EXPECT_EQ(test, ta->fast.flags, 0U);
}

static struct kunit_case ta_of_cases[] = {
	KUNIT_CASE_PARAM(ta_of_arena_bytes_test, ta_bytes_gen_params),
	KUNIT_CASE_PARAM(ta_of_region_check_test, ta_region_gen_params),
	KUNIT_CASE(ta_of_match_test),
	KUNIT_CASE_PARAM(ta_of_probe_fails_test, ta_probe_gen_params),
	KUNIT_CASE(ta_of_one_device_test),
	KUNIT_CASE(ta_of_fast_test),
	{}
};

static struct kunit_suite ta_of_suite = {
	.name = "tensorarena-of",
	.init = ta_of_init,
	.exit = ta_of_exit,
	.test_cases = ta_of_cases,
};

kunit_test_suite(ta_of_suite);

#endif /* CONFIG_OF */
