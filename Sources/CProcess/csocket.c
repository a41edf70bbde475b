#define _GNU_SOURCE
#include "csocket.h"
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int address(struct sockaddr_un *a, const char *path) {
    size_t length = strlen(path);
    if (length == 0 || length >= sizeof a->sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    memcpy(a->sun_path, path, length);
    return 0;
}

static int fail(int fd) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

int csocket_connect(const char *path) {
    struct sockaddr_un a;
    if (address(&a, path) < 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) return fail(fd);
    return fd;
}

int csocket_listen(const char *path, int backlog) {
    struct sockaddr_un a;
    if (address(&a, path) < 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, backlog) < 0) return fail(fd);
    return fd;
}

int csocket_accept(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

long csocket_peer_uid(int fd) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) < 0) return -1;
    return (long)credentials.uid;
}
