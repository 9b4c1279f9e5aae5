// SPDX-License-Identifier: GPL-2.0
/*
 * ta_debugfs.c - <debugfs>/tensorarena/<device>/arena: the arena at a glance;
 * <debugfs>/tensorarena/<device>/fast: the fast tier's, when there is one.
 */
#include <linux/debugfs.h>
#include <linux/genalloc.h>
#include <linux/seq_file.h>

#include "ta_internal.h"

static struct dentry *ta_debugfs_root;

static int ta_debugfs_arena_show(struct seq_file *m, void *unused)
{
	struct ta_device *ta = m->private;
	size_t in_use = ta_arena_in_use(ta);

	seq_printf(m, "dma_base:  %pad\n", &ta->dma_base);
	seq_printf(m, "size:      %zu\n", ta->size);
	seq_printf(m, "in_use:    %zu\n", in_use);
	seq_printf(m, "free:      %zu\n", ta->size - in_use);
	seq_printf(m, "alignment: %lu\n", PAGE_SIZE);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ta_debugfs_arena);

static int ta_debugfs_fast_show(struct seq_file *m, void *unused)
{
	struct ta_device *ta = m->private;
	size_t in_use = ta_fast_in_use(ta);

	seq_printf(m, "dma_base:  %pad\n", &ta->fast.dma_base);
	seq_printf(m, "size:      %zu\n", ta->fast.size);
	seq_printf(m, "in_use:    %zu\n", in_use);
	seq_printf(m, "free:      %zu\n", ta->fast.size - in_use);
	seq_printf(m, "largest:   %zu\n", ta_fast_largest_free(ta));
	seq_printf(m, "source:    %s\n", ta->fast.emulated ?
		   "emulated (sram_size)" : "sram (device tree)");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ta_debugfs_fast);

/**
 * ta_debugfs_register() - create the debugfs files of @ta
 * @ta: the device
 *
 * debugfs is optional: failures are not reported, as its API asks.
 */
void ta_debugfs_register(struct ta_device *ta)
{
	ta->debugfs = debugfs_create_dir(dev_name(ta->dev), ta_debugfs_root);
	debugfs_create_file("arena", 0400, ta->debugfs, ta,
			    &ta_debugfs_arena_fops);
	if (ta->fast.size)
		debugfs_create_file("fast", 0400, ta->debugfs, ta,
				    &ta_debugfs_fast_fops);
	ta_test_hooks_register(ta);
}

/**
 * ta_debugfs_unregister() - remove the debugfs files of @ta
 * @ta: the device
 */
void ta_debugfs_unregister(struct ta_device *ta)
{
	debugfs_remove_recursive(ta->debugfs);
	ta->debugfs = NULL;
}

/**
 * ta_debugfs_init() - create the module's debugfs directory
 */
void ta_debugfs_init(void)
{
	ta_debugfs_root = debugfs_create_dir(TA_DEVICE_NAME, NULL);
}

/**
 * ta_debugfs_exit() - remove the module's debugfs directory
 */
void ta_debugfs_exit(void)
{
	debugfs_remove_recursive(ta_debugfs_root);
	ta_debugfs_root = NULL;
}
