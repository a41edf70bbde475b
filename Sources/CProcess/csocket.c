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

/* The kernel's list of listening Unix sockets (sock_diag, as ss -xl reads it), each with
   the device and inode of the file it is bound to (UNIX_DIAG_VFS): a file is live when
   one of them is bound to it. Nothing connects, so nothing at the other end of a
   forwarded socket (ssh) is told of a connection it would fail to pass on. */
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <netinet/tcp.h>
#include <sys/sysmacros.h>

int csocket_listening(unsigned long long device, unsigned long long inode) {
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (fd < 0) return -1;
    struct {
        struct nlmsghdr header;
        struct unix_diag_req request;
    } message;
    memset(&message, 0, sizeof message);
    message.header.nlmsg_len = sizeof message;
    message.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    message.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    message.request.sdiag_family = AF_UNIX;
    message.request.udiag_states = 1 << TCP_LISTEN;
    message.request.udiag_show = UDIAG_SHOW_VFS;
    struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
    if (sendto(fd, &message, sizeof message, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) return fail(fd);
    /* The kernel's dev_t (major << 20 | minor), as stat's is made of the same two. */
    unsigned long long wanted = ((unsigned long long)major(device) << 20) | minor(device);
    long buffer[8192];
    int found = 0;
    for (;;) {
        ssize_t length = recv(fd, buffer, sizeof buffer, 0);
        if (length <= 0) return fail(fd);
        for (struct nlmsghdr *header = (struct nlmsghdr *)buffer; NLMSG_OK(header, length); header = NLMSG_NEXT(header, length)) {
            if (header->nlmsg_type == NLMSG_DONE) {
                close(fd);
                return found;
            }
            if (header->nlmsg_type == NLMSG_ERROR) {
                errno = EPROTO;
                return fail(fd);
            }
            struct unix_diag_msg *socket_message = NLMSG_DATA(header);
            int rest = header->nlmsg_len - NLMSG_LENGTH(sizeof *socket_message);
            for (struct rtattr *attribute = (struct rtattr *)(socket_message + 1); RTA_OK(attribute, rest); attribute = RTA_NEXT(attribute, rest)) {
                if (attribute->rta_type != UNIX_DIAG_VFS) continue;
                struct unix_diag_vfs *file = RTA_DATA(attribute);
                if (file->udiag_vfs_ino == inode && file->udiag_vfs_dev == wanted) found = 1;
            }
        }
    }
}
