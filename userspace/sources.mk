# SPDX-License-Identifier: GPL-2.0 OR MIT
# Every userspace source, listed once: included by userspace/Makefile,
# tests/unit/Makefile and tests/fuzz/Makefile, which set TOP to the
# repository root first. Paths are relative to TOP. tests/lib-install-test.sh
# checks that every .c of these directories is listed here, and that the
# planner list is module/Makefile's planner objects.

# The planner core, shared with the module (module/Makefile lists it for
# kbuild).
TA_PLANNER_SRCS := \
	module/planner/ta_alias.c \
	module/planner/ta_auto.c \
	module/planner/ta_bits.c \
	module/planner/ta_bound.c \
	module/planner/ta_climb.c \
	module/planner/ta_contract.c \
	module/planner/ta_contain.c \
	module/planner/ta_fit.c \
	module/planner/ta_fixed.c \
	module/planner/ta_freelist.c \
	module/planner/ta_graph.c \
	module/planner/ta_greedy_size.c \
	module/planner/ta_group.c \
	module/planner/ta_group_check.c \
	module/planner/ta_group_layout.c \
	module/planner/ta_pingpong.c \
	module/planner/ta_plan.c \
	module/planner/ta_runs.c \
	module/planner/ta_search.c \
	module/planner/ta_search_memo.c \
	module/planner/ta_search_order.c \
	module/planner/ta_search_ordered.c \
	module/planner/ta_search_parts.c \
	module/planner/ta_search_propagate.c \
	module/planner/ta_search_prune.c \
	module/planner/ta_search_skyline.c \
	module/planner/ta_search_slab.c \
	module/planner/ta_search_state.c \
	module/planner/ta_skyline.c \
	module/planner/ta_sort.c \
	module/planner/ta_stack.c \
	module/planner/ta_tier.c \
	module/planner/ta_tier_bound.c \
	module/planner/ta_tier_check.c \
	module/planner/ta_tier_unit.c \
	module/planner/ta_tile.c \
	module/planner/ta_validate.c \
	module/planner/ta_work.c

# The file readers and writers (graph files, traces, TFLite, ONNX) and the
# environment they run in: what the unit tests and fuzzers exercise.
TA_READER_SRCS := \
	userspace/lib/ta_env_user.c \
	userspace/lib/ta_graphfile.c \
	userspace/lib/ta_input.c \
	userspace/lib/ta_onnx.c \
	userspace/lib/ta_onnx_conv.c \
	userspace/lib/ta_onnx_index.c \
	userspace/lib/ta_onnx_infer.c \
	userspace/lib/ta_onnx_msg.c \
	userspace/lib/ta_onnx_quant.c \
	userspace/lib/ta_onnx_random.c \
	userspace/lib/ta_onnx_reduce.c \
	userspace/lib/ta_onnx_shape.c \
	userspace/lib/ta_onnx_signal.c \
	userspace/lib/ta_onnx_wire.c \
	userspace/lib/ta_reader.c \
	userspace/lib/ta_tflite.c \
	userspace/lib/ta_tflite_data.c \
	userspace/lib/ta_tflite_fb.c \
	userspace/lib/ta_tflite_fold.c \
	userspace/lib/ta_tflite_inline.c \
	userspace/lib/ta_tflite_sg.c \
	userspace/lib/ta_tflite_shape.c \
	userspace/lib/ta_tflite_shape_index.c \
	userspace/lib/ta_tflite_type.c \
	userspace/lib/ta_tflite_write.c \
	userspace/lib/ta_trace.c

# libtensorarena: the readers, the planner, the transports and the API.
TA_LIB_SRCS := \
	$(TA_READER_SRCS) \
	userspace/lib/ta_events.c \
	userspace/lib/ta_ioctl_transport.c \
	userspace/lib/ta_lib.c \
	userspace/lib/ta_lib_group.c \
	userspace/lib/ta_lib_tier.c \
	userspace/lib/ta_load.c \
	userspace/lib/ta_netlink.c \
	userspace/lib/ta_netlink_group.c \
	userspace/lib/ta_svg.c \
	userspace/lib/ta_worst.c \
	$(TA_PLANNER_SRCS)

TA_TACTL_SRCS := \
	userspace/tactl/cmd_draw.c \
	userspace/tactl/cmd_export.c \
	userspace/tactl/cmd_import.c \
	userspace/tactl/cmd_info.c \
	userspace/tactl/cmd_plan.c \
	userspace/tactl/cmd_plan_group.c \
	userspace/tactl/cmd_plan_tier.c \
	userspace/tactl/cmd_plans.c \
	userspace/tactl/cmd_watch.c \
	userspace/tactl/main.c \
	userspace/tactl/strategy.c

TA_BENCH_SRCS := \
	userspace/bench/ta_bench.c \
	userspace/bench/ta_bench_group.c \
	userspace/bench/ta_bench_scale.c \
	userspace/bench/ta_bench_tier.c \
	userspace/bench/ta_bench_tier_models.c \
	userspace/bench/ta_bench_worst.c
