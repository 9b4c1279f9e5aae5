// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ta_e2e_camera.c - zero copy from a camera into an input tensor, inside the
 * test VM: vivid (the kernel's virtual camera) captures with
 * V4L2_MEMORY_DMABUF into the dma-buf of one tensor of a plan
 * (TA_IOCTL_TENSOR_EXPORT), then the reference NPU runs an op that reads
 * that tensor, and the test checks that the bytes the camera wrote are the
 * bytes the NPU read:
 *  - vivid's pattern is set steady (75% colour bars, no on-screen text), so
 *    a second capture into vivid's own buffer gives the same frame: it
 *    matches what landed in the tensor (and the tensor's old filler is gone);
 *  - the NPU's output is the keyed mix of its input (ta_npu_mix.h): the
 *    userspace reference computes it from the captured frame, bit for bit.
 *
 * One test: each step needs the one before it. The "camera" fixture opens
 * the device, the reference NPU and vivid's capture node and sets vivid's
 * format, and closes them after.
 *
 * usage: ta_e2e_camera [-l] [-t TEST]...
 * Prints "e2e: ok - camera: ..." / "e2e: not ok - camera: ..." lines, a
 * plan and a line per test (ta_harness.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/tensorarena.h>
#include <linux/videodev2.h>

#include "ta_npu_mix.h"
#include "ta_npu_sim.h"
#include "ta_e2e_drm.h"
#include "ta_harness.h"

#define JOB_KEY		0xca3e7a0ULL
#define OUT_SIZE	4096
#define FILLER		0xa5
/* vivid's private controls (drivers/media/test-drivers/vivid/vivid-ctrls.c) */
#define VIVID_CID_VIVID_BASE		(0x00f00000 | 0xf000)
#define VIVID_CID_TEST_PATTERN		(VIVID_CID_VIVID_BASE + 0)
#define VIVID_CID_OSD_TEXT_MODE		(VIVID_CID_VIVID_BASE + 1)
#define VIVID_PATTERN_75_COLORBAR	0
#define VIVID_OSD_NONE			2

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do {
		r = ioctl(fd, req, arg);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : 0;
}

/* vivid's single-planar video capture node, or -1. */
static int open_vivid(void)
{
	glob_t g;
	size_t i;
	int fd = -1;

	if (glob("/dev/video*", 0, NULL, &g))
		return -1;
	for (i = 0; i < g.gl_pathc && fd < 0; i++) {
		struct v4l2_capability cap = { 0 };

		fd = open(g.gl_pathv[i], O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (xioctl(fd, VIDIOC_QUERYCAP, &cap) ||
		    strcmp((char *)cap.driver, "vivid") ||
		    !(cap.device_caps & V4L2_CAP_VIDEO_CAPTURE) ||
		    !(cap.device_caps & V4L2_CAP_STREAMING)) {
			close(fd);
			fd = -1;
		}
	}
	globfree(&g);
	return fd;
}

static int set_ctrl(int fd, uint32_t id, int32_t value)
{
	struct v4l2_control c = { .id = id, .value = value };

	return xioctl(fd, VIDIOC_S_CTRL, &c);
}

/* Webcam input, YUYV 640x480, a steady pattern. */
static int camera_setup(int cam, struct v4l2_format *fmt)
{
	int input = 0, err;

	err = xioctl(cam, VIDIOC_S_INPUT, &input);
	memset(fmt, 0, sizeof(*fmt));
	fmt->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	fmt->fmt.pix.width = 640;
	fmt->fmt.pix.height = 480;
	fmt->fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	fmt->fmt.pix.field = V4L2_FIELD_NONE;
	if (!err)
		err = xioctl(cam, VIDIOC_S_FMT, fmt);
	if (!err)
		err = set_ctrl(cam, VIVID_CID_TEST_PATTERN,
			       VIVID_PATTERN_75_COLORBAR);
	if (!err)
		err = set_ctrl(cam, VIVID_CID_OSD_TEXT_MODE, VIVID_OSD_NONE);
	return err;
}

static int reqbufs(int cam, uint32_t memory, uint32_t count)
{
	struct v4l2_requestbuffers r = {
		.count = count,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = memory,
	};

	return xioctl(cam, VIDIOC_REQBUFS, &r);
}

/* Stream on, take one filled buffer (its index and bytes used), stream off. */
static int capture_one(int cam, uint32_t memory, uint32_t *index,
		       uint32_t *bytesused)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, err;
	struct v4l2_buffer b = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = memory,
	};

	err = xioctl(cam, VIDIOC_STREAMON, &type);
	if (err)
		return err;
	err = poll_fd(cam, POLLIN, 30 * 1000) == 1 ? 0 : -ETIMEDOUT;
	if (!err)
		err = xioctl(cam, VIDIOC_DQBUF, &b);
	if (!err && (b.flags & V4L2_BUF_FLAG_ERROR))
		err = -EIO;
	*index = b.index;
	*bytesused = b.bytesused;
	xioctl(cam, VIDIOC_STREAMOFF, &type);
	return err;
}

/* The frame again, into vivid's own (MMAP) buffer, copied to @frame. */
static int capture_mmap(int cam, uint8_t *frame, size_t size)
{
	struct v4l2_buffer b = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	uint32_t index, used;
	void *map;
	int err;

	err = reqbufs(cam, V4L2_MEMORY_MMAP, 1);
	if (!err)
		err = xioctl(cam, VIDIOC_QUERYBUF, &b);
	if (err)
		return err;
	map = mmap(NULL, b.length, PROT_READ, MAP_SHARED, cam, b.m.offset);
	if (map == MAP_FAILED)
		return -errno;
	err = xioctl(cam, VIDIOC_QBUF, &b);
	if (!err)
		err = capture_one(cam, V4L2_MEMORY_MMAP, &index, &used);
	if (!err && used != size)
		err = -EPROTO;
	if (!err)
		memcpy(frame, map, size);
	munmap(map, b.length);
	reqbufs(cam, V4L2_MEMORY_MMAP, 0);
	return err;
}

/* The device, the reference NPU, vivid's node set to its steady frame. */
FIXTURE(camera) {
	int ta, npu, cam;
	struct v4l2_format fmt;
};

FIXTURE_SETUP(camera)
{
	size_t size;
	int err;

	self->ta = open("/dev/" TA_DEVICE_NAME, O_RDWR | O_CLOEXEC);
	self->npu = drm_open_driver(TA_NPU_DRIVER_NAME, false);
	self->cam = open_vivid();
	CHECK(self->ta >= 0 && self->npu >= 0 && self->cam >= 0,
	      "camera: open /dev/tensorarena, the reference NPU and vivid's capture node");
	if (self->ta < 0 || self->npu < 0 || self->cam < 0)
		SKIP("a device is missing");
	err = camera_setup(self->cam, &self->fmt);
	size = self->fmt.fmt.pix.sizeimage;
	CHECK(!err && size > 0,
	      "camera: vivid set to YUYV %ux%u (%zu bytes a frame), 75%% colour bars, no on-screen text%s%s",
	      self->fmt.fmt.pix.width, self->fmt.fmt.pix.height, size,
	      err ? ": " : "", err ? strerror(-err) : "");
	if (err || !size)
		SKIP("vivid could not be set up");
}

FIXTURE_TEARDOWN(camera)
{
	if (self->cam >= 0)
		close(self->cam);
	if (self->npu >= 0)
		close(self->npu);
	if (self->ta >= 0)
		close(self->ta);
}

/*
 * vivid captures into the tensor's dma-buf, the NPU reads the tensor, and
 * again behind a foreign fence.
 */
TEST_F(camera, capture_into_tensor_npu_reads)
{
	struct ta_tensor tensors[2] = { { 0 } };
	struct ta_op op = { .first_ref = 0, .n_inputs = 1, .n_outputs = 1 };
	uint32_t refs[2] = { 0, 1 };
	struct ta_placement place[2];
	struct ta_plan_create create = { 0 };
	struct ta_plan_get get = { 0 };
	struct ta_plan_export pexp = { 0 };
	struct ta_tensor_export texp = { 0 };
	struct drm_ta_npu_submit job = { 0 };
	struct drm_ta_npu_bo bo = { 0 };
	struct v4l2_format fmt;
	uint32_t plan_handle = 0, tensor_handle = 0, index = 0, used = 0;
	uint8_t *map = MAP_FAILED, *frame = NULL, *again = NULL;
	uint8_t want[OUT_SIZE];
	long page = sysconf(_SC_PAGESIZE);
	int ta, npu, cam, err, vgem = -1, sync;
	uint32_t fence = 0;
	size_t size, map_len = 0;
	uint64_t h;
	off_t end;

	ta = self->ta;
	npu = self->npu;
	cam = self->cam;
	fmt = self->fmt;
	size = fmt.fmt.pix.sizeimage;
	frame = malloc(size);
	again = malloc(size);
	if (!frame || !again) {
		CHECK(false, "camera: %zu bytes for two frames", 2 * size);
		goto out_free;
	}

	/* A graph: the frame (exportable input) -> one op -> an output. */
	tensors[0].size = size;
	tensors[0].flags = TA_TENSOR_INPUT | TA_TENSOR_EXPORTABLE;
	tensors[1].size = OUT_SIZE;
	tensors[1].flags = TA_TENSOR_OUTPUT;
	create.tensors = (uintptr_t)tensors;
	create.n_tensors = 2;
	create.tensor_size = sizeof(tensors[0]);
	create.ops = (uintptr_t)&op;
	create.n_ops = 1;
	create.op_size = sizeof(op);
	create.refs = (uintptr_t)refs;
	create.n_refs = 2;
	err = xioctl(ta, TA_IOCTL_PLAN_CREATE, &create);
	get.plan_id = create.plan_id;
	get.placements = (uintptr_t)place;
	get.n_placements = 2;
	get.placement_size = sizeof(place[0]);
	if (!err)
		err = xioctl(ta, TA_IOCTL_PLAN_GET, &get);
	CHECK(!err, "camera: a plan whose input tensor is exportable (height %llu)%s%s",
	      (unsigned long long)create.height, err ? ": " : "",
	      err ? strerror(-err) : "");
	if (err)
		goto out_free;
	CHECK(place[0].offset % page == 0,
	      "camera: the exportable tensor starts on a page (offset %llu)",
	      (unsigned long long)place[0].offset);

	map_len = (create.height + page - 1) / page * page;
	map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED, ta,
		   create.mmap_offset);
	pexp.plan_id = create.plan_id;
	pexp.flags = TA_EXPORT_CLOEXEC;
	texp.plan_id = create.plan_id;
	texp.tensor = 0;
	texp.flags = TA_EXPORT_CLOEXEC;
	err = map == MAP_FAILED ? -errno : 0;
	if (!err)
		err = xioctl(ta, TA_IOCTL_PLAN_EXPORT, &pexp);
	if (!err)
		err = xioctl(ta, TA_IOCTL_TENSOR_EXPORT, &texp);
	CHECK(!err, "camera: the plan mapped, its dma-buf and the tensor's dma-buf exported%s%s",
	      err ? ": " : "", err ? strerror(-err) : "");
	if (err)
		goto out_free;
	end = lseek(texp.fd, 0, SEEK_END);
	CHECK(end >= 0 && (uint64_t)end == texp.size &&
	      texp.size == (size + page - 1) / page * page &&
	      texp.offset == place[0].offset,
	      "camera: the tensor's dma-buf is its whole pages (%lld bytes) at its offset",
	      (long long)end);

	/* The camera writes into the tensor: DMABUF capture. */
	memset(map + place[0].offset, FILLER, size);
	err = reqbufs(cam, V4L2_MEMORY_DMABUF, 1);
	if (!err) {
		struct v4l2_buffer b = {
			.index = 0,
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_DMABUF,
			.m.fd = texp.fd,
			.length = texp.size,
		};

		err = xioctl(cam, VIDIOC_QBUF, &b);
	}
	if (!err)
		err = capture_one(cam, V4L2_MEMORY_DMABUF, &index, &used);
	reqbufs(cam, V4L2_MEMORY_DMABUF, 0);
	CHECK(!err && used == size,
	      "camera: vivid captured a frame into the tensor's dma-buf (V4L2_MEMORY_DMABUF, %u bytes)%s%s",
	      used, err ? ": " : "", err ? strerror(-err) : "");
	memcpy(frame, map + place[0].offset, size);
	{
		size_t i, filler = 0;

		for (i = 0; i < size; i++)
			filler += frame[i] == FILLER;
		CHECK(filler < size / 2,
		      "camera: the frame replaced the tensor's filler (%zu of %zu bytes still 0x%x)",
		      filler, size, FILLER);
	}
	err = capture_mmap(cam, again, size);
	CHECK(!err && !memcmp(frame, again, size),
	      "camera: the same frame captured again into vivid's own buffer is byte for byte what the tensor holds%s%s",
	      err ? ": " : "", err ? strerror(-err) : "");

	/* The NPU reads the tensor: one op, synchronised with its buffer. */
	err = drm_prime_import(npu, pexp.fd, &plan_handle);
	if (!err)
		err = drm_prime_import(npu, texp.fd, &tensor_handle);
	bo.handle = tensor_handle;
	bo.flags = TA_NPU_BO_READ;
	job.flags = TA_NPU_SUBMIT_WAIT;
	job.plan_handle = plan_handle;
	job.n_tensors = 2;
	job.key = JOB_KEY;
	job.ops = (uintptr_t)&op;
	job.n_ops = 1;
	job.op_size = sizeof(op);
	job.refs = (uintptr_t)refs;
	job.n_refs = 2;
	job.bos = (uintptr_t)&bo;
	job.n_bos = 1;
	if (!err)
		err = xioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job);
	CHECK(!err && job.bytes_read == size && job.bytes_written == OUT_SIZE,
	      "camera: the NPU ran on the plan, naming the tensor's buffer as its input (read %llu bytes)%s%s",
	      (unsigned long long)job.bytes_read, err ? ": " : "",
	      err ? strerror(-err) : "");
	h = ta_npu_digest_begin(JOB_KEY, 0);
	h = ta_npu_digest_input(h, frame, size);
	ta_npu_fill_output(h, 0, want, OUT_SIZE);
	CHECK(!err && !memcmp(want, map + place[1].offset, OUT_SIZE),
	      "camera: the NPU's output is the reference's on the captured frame: it read the bytes the camera wrote");

	/*
	 * Again, held back by a foreign (vgem) fence on the plan's buffer: the
	 * job's fence goes on the tensor's buffer with read usage (the tensor
	 * is an input), so meanwhile a reader of it need not wait while a
	 * writer (the camera's next frame) must.
	 */
	memset(map + place[1].offset, 0, OUT_SIZE);
	err = vgem_hold(pexp.fd, &vgem, &fence);
	job.flags = 0;
	if (!err)
		err = xioctl(npu, DRM_IOCTL_TA_NPU_SUBMIT, &job);
	CHECK(!err, "camera: a job queued behind a vgem fence on the plan's buffer%s%s",
	      err ? ": " : "", err ? strerror(-err) : "");
	sync = err ? -1 : dmabuf_export_sync_file(texp.fd, true);
	CHECK(!err && poll_fd(texp.fd, POLLIN, 0) == 1 && sync >= 0 &&
	      sync_file_status(sync) == 0 && poll_fd(texp.fd, POLLOUT, 0) == 0,
	      "camera: meanwhile the input tensor's buffer is ready for readers, not for writers (the job's fence there has read usage)");
	CHECK(vgem >= 0 && !vgem_fence_signal(vgem, fence) && sync >= 0 &&
	      poll_fd(sync, POLLIN, 120 * 1000) == 1 &&
	      sync_file_status(sync) == 1,
	      "camera: once vgem signals, the writer's sync_file signals with the job");
	CHECK(poll_fd(pexp.fd, POLLIN, 120 * 1000) == 1 &&
	      !memcmp(want, map + place[1].offset, OUT_SIZE),
	      "camera: and the output is there again, bit for bit");
	if (sync >= 0)
		close(sync);
	if (vgem >= 0)
		close(vgem);

	if (tensor_handle)
		drm_gem_close_handle(npu, tensor_handle);
	if (plan_handle)
		drm_gem_close_handle(npu, plan_handle);
	close(texp.fd);
	close(pexp.fd);
	munmap(map, map_len);
	{
		struct ta_plan_destroy d = { .plan_id = create.plan_id };

		CHECK(!xioctl(ta, TA_IOCTL_PLAN_DESTROY, &d),
		      "camera: the plan is destroyed");
	}
out_free:
	free(frame);
	free(again);
}

int main(int argc, char **argv)
{
	return ta_harness_main(argc - 1, argv + 1) ? 1 : 0;
}
