/work/main/userspace/build/userspace/tactl/cmd_info.o: \
 /work/main/userspace/tactl/cmd_info.c \
 /work/main/uapi/linux/tensorarena.h /work/main/userspace/tactl/tactl.h
/work/main/uapi/linux/tensorarena.h:
/work/main/userspace/tactl/tactl.h:
