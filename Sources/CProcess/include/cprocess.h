#ifndef CPROCESS_H
#define CPROCESS_H
/* Named here too: an incremental build then sees the newer header of the module. */
#include "cterminal.h"
#include "csocket.h"
/* What Swift cannot call itself: prctl(2) is variadic. */
/* Turns core dumps off and makes the process non-dumpable (no ptrace by the same user,
   /proc/PID/mem and environ unreadable). Returns 0, or -1 with errno set. */
int cprocess_harden(void);
/* A descriptor that becomes readable when process `pid` ends (pidfd_open(2), Linux 5.3;
   syscall(2) is variadic). -1 with errno set: no such process, or no pidfd here. */
int cprocess_pidfd(int pid);
#endif
