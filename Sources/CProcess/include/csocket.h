#ifndef CSOCKET_H
#define CSOCKET_H
#include <sys/types.h>

/* Unix stream sockets for git-credential-forward: the address (sun_path) and the peer's
   credentials are C structures, so these few calls are C; everything else is Swift.
   Each returns -1 with errno set on failure. */

/* A connected socket, non-blocking (a full backlog is EAGAIN, never a wait). */
int csocket_connect(const char *path);
/* A listening socket bound at path (which must not exist), blocking, close-on-exec. */
int csocket_listen(const char *path, int backlog);
/* The next connection, non-blocking and close-on-exec. */
int csocket_accept(int fd);
/* The uid of the process at the other end, as the kernel recorded it when it connected
   (or listened): SO_PEERCRED, which no one can claim falsely. */
long csocket_peer_uid(int fd);

/* Whether a listening socket is bound to the file of this device and inode (stat's):
   1 yes, 0 no, -1 when the kernel's list cannot be read (a sandbox without netlink). */
int csocket_listening(unsigned long long device, unsigned long long inode);

#endif
