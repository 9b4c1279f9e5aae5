/work/main/userspace/build/userspace/tactl/main.o: \
 /work/main/userspace/tactl/main.c /work/main/userspace/tactl/tactl.h
/work/main/userspace/tactl/tactl.h:
