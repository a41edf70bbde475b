#ifndef CTERMINAL_H
#define CTERMINAL_H
#include <termios.h>
/* A terminal whose settings a prompt changed (echo off) gets them back if a signal
   (SIGINT, SIGTERM, SIGHUP, SIGQUIT) ends the process meanwhile: the handler restores
   `saved` on `fd`, then the signal does what it did before (by default, kills the process,
   which so dies of it as before). In C: a signal handler may touch only what is
   async-signal-safe, which Swift does not promise. Signals that were ignored stay ignored. */
void cterminal_guard(int fd, const struct termios *saved);
/* Puts the earlier handlers back; call after restoring the settings. */
void cterminal_release(void);
#endif
