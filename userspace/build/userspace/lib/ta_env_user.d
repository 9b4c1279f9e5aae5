/work/main/userspace/build/userspace/lib/ta_env_user.o: \
 /work/main/userspace/lib/ta_env_user.c \
 /work/main/module/planner/ta_env.h
/work/main/module/planner/ta_env.h:
