/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ta_internal.h - what the parts of tensorarena.ko share.
 */
#ifndef TA_INTERNAL_H
#define TA_INTERNAL_H

#include <linux/device.h>
#include <linux/miscdevice.h>
#include <linux/types.h>

#include <linux/tensorarena.h>

struct dentry;
struct gen_pool;

/**
 * struct ta_device - one arena and the character device that serves it
 * @dev: the platform device that owns the DMA memory
 * @cpu_base: kernel virtual address of the arena
 * @dma_base: DMA address of the arena
 * @size: bytes in the arena
 * @pool: genalloc pool over the arena; slices for plans come from it.
 *	  genalloc serialises its own updates (see lib/genalloc.c), so the
 *	  pool needs no lock of ours.
 * @misc: /dev/tensorarena
 * @debugfs: the device's debugfs directory
 *
 * Everything here is set at probe and constant until remove, so it is read
 * without a lock.
 */
struct ta_device {
	struct device *dev;
	void *cpu_base;
	dma_addr_t dma_base;
	size_t size;
	struct gen_pool *pool;
	struct miscdevice misc;
	struct dentry *debugfs;
};

/* ta_params.c */
int ta_parse_size(const char *str, u64 *bytes);
extern u64 ta_arena_size;

/* ta_arena.c */
int ta_arena_init(struct ta_device *ta, u64 size);
size_t ta_arena_in_use(struct ta_device *ta);
void ta_arena_fill_info(struct ta_device *ta, struct ta_info *info);

/* ta_ioctl.c */
long ta_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/**
 * struct ta_ioctl_desc - how one ioctl is decoded and served
 * @cmd: the ioctl number as defined by the uAPI header
 * @min_size: the smallest struct size accepted (the first ABI version's)
 * @handler: serves the call on a kernel copy of the argument
 */
struct ta_ioctl_desc {
	unsigned int cmd;
	size_t min_size;
	int (*handler)(struct ta_device *ta, void *arg);
};

const struct ta_ioctl_desc *ta_ioctl_lookup(unsigned int cmd);
int ta_ioctl_info(struct ta_device *ta, void *arg);

/* ta_chardev.c */
int ta_chardev_register(struct ta_device *ta);
void ta_chardev_unregister(struct ta_device *ta);

/* ta_debugfs.c */
void ta_debugfs_register(struct ta_device *ta);
void ta_debugfs_unregister(struct ta_device *ta);
void ta_debugfs_init(void);
void ta_debugfs_exit(void);

/* ta_main.c: the device the module created from its parameters, or NULL */
extern struct ta_device *ta_param_device;

#endif /* TA_INTERNAL_H */
