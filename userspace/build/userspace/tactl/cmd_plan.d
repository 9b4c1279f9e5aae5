/work/main/userspace/build/userspace/tactl/cmd_plan.o: \
 /work/main/userspace/tactl/cmd_plan.c /work/main/userspace/tactl/tactl.h
/work/main/userspace/tactl/tactl.h:
