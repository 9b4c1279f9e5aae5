// SPDX-License-Identifier: GPL-2.0
/*
 * ta_access.c - the one access policy of both transports.
 *
 * /dev/tensorarena is created (by devtmpfs, see ta_chardev.c) owned by root,
 * with the group and mode of the module parameters "group" (default 0) and
 * "mode" (default 0660). The VFS applies them to the device; the netlink
 * family applies the same rule through ta_access_allowed(): a caller may use
 * it when it could open the device node read-write as the kernel made it, or
 * is an admin. The family only exists in the initial network namespace.
 *
 * Identities: a plan belongs to the effective uid of whoever opened the file
 * or socket the request came through (the opener's credentials, not those
 * of whichever task issues the call: a descriptor handed to a more
 * privileged process must not gain that process's rights, the CVE-2014-0181
 * pattern). Admin rights are CAP_SYS_ADMIN in the initial user namespace,
 * held by the opener and by the caller; CAP_SYS_ADMIN in a child user
 * namespace (unshare -U) counts for nothing here.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/stat.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "ta_internal.h"

/**
 * ta_cred_is_admin() - CAP_SYS_ADMIN in the initial user namespace
 * @cred: the credentials (any task's, not only current's)
 *
 * The capability rule of cap_capable() for the initial namespace: the
 * credentials must belong to it and hold the capability; credentials of a
 * child user namespace hold no capability there. (The LSM hook behind
 * security_capable() is not exported to modules; where the credentials
 * are those of a file or of current, callers use file_ns_capable() and
 * capable(), which run it.)
 *
 * Return: true when @cred holds it.
 */
bool ta_cred_is_admin(const struct cred *cred)
{
	return cred->user_ns == &init_user_ns &&
	       cap_raised(cred->cap_effective, CAP_SYS_ADMIN);
}

/* in_group_p() for any credentials, not only current's. */
static bool ta_cred_in_group(const struct cred *cred, kgid_t gid)
{
	const struct group_info *groups = cred->group_info;
	int i;

	if (gid_eq(cred->fsgid, gid))
		return true;
	for (i = 0; i < groups->ngroups; i++)
		if (gid_eq(groups->gid[i], gid))
			return true;
	return false;
}

/**
 * ta_access_allowed() - may @cred use tensorarena (the netlink family)?
 * @cred: the credentials
 *
 * The rule of the device node as ta_chardev.c creates it: owner root, group
 * and mode from the module parameters; read and write needed. Admins are
 * always allowed.
 *
 * Return: true when allowed.
 */
bool ta_access_allowed(const struct cred *cred)
{
	unsigned int mode = READ_ONCE(ta_dev_mode);
	kgid_t gid = make_kgid(&init_user_ns, READ_ONCE(ta_dev_gid));

	if (ta_cred_is_admin(cred))
		return true;
	if (uid_eq(cred->fsuid, GLOBAL_ROOT_UID))
		return (mode & 0600) == 0600;
	if (gid_valid(gid) && ta_cred_in_group(cred, gid))
		return (mode & 0060) == 0060;
	return (mode & 0006) == 0006;
}

/**
 * ta_owner_of_file() - the identity of requests made through an open file
 * @file: /dev/tensorarena, opened by someone
 *
 * Return: the opener's effective uid; admin when both the opener and the
 * current task hold CAP_SYS_ADMIN in the initial user namespace; the file
 * as the key of the plans made through it, and its plan count.
 */
struct ta_owner ta_owner_of_file(struct file *file)
{
	struct ta_file *tf = file->private_data;

	return (struct ta_owner){
		.uid = file->f_cred->euid,
		.admin = ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN) &&
			 file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN),
		.key = (unsigned long)file,
		.n_plans = &tf->n_plans,
	};
}

/**
 * ta_owner_of_driver_file() - the identity of a kernel-API request
 * @file: the file the accelerator driver acts for (its own device's file,
 *	  through which the plan ID came), not tensorarena's
 * @owner: out, the identity: the opener's effective uid; admin when both
 *	   the opener and the current task hold CAP_SYS_ADMIN in the initial
 *	   user namespace; no key (such a caller creates nothing)
 *
 * The device's rule applied to the file the driver serves, as if it were a
 * descriptor of /dev/tensorarena: its opener must be allowed by the group
 * and mode (ta_access_allowed()), and it must be open for writing, since
 * what the driver gets (a read-write dma-buf, DMA addresses) writes into
 * the plan. The opener counts, not the task that makes the call: a
 * descriptor handed to a more privileged process gains nothing.
 *
 * Return: 0; -EACCES when the opener could not use the device; -EBADF when
 * @file is not open for writing.
 */
int ta_owner_of_driver_file(struct file *file, struct ta_owner *owner)
{
	if (!ta_access_allowed(file->f_cred))
		return -EACCES;
	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	*owner = (struct ta_owner){
		.uid = file->f_cred->euid,
		.admin = ta_cred_is_admin(file->f_cred) &&
			 ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN),
	};
	return 0;
}
