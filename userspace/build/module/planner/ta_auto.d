/work/main/userspace/build/module/planner/ta_auto.o: \
 /work/main/module/planner/ta_auto.c \
 /work/main/module/planner/ta_strategy.h \
 /work/main/module/planner/ta_planner.h \
 /work/main/module/planner/ta_env.h
/work/main/module/planner/ta_strategy.h:
/work/main/module/planner/ta_planner.h:
/work/main/module/planner/ta_env.h:
