/* util_rlock.c -- the thread names of util_rlock.h. */
#include "util_rlock.h"

_Thread_local char util_rlock_me;
_Thread_local const struct util_rlock *util_rlock_destroyed;
