#include "cterminal.h"
#include <errno.h>
#include <signal.h>

static const int guarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
enum { GUARDED = sizeof guarded / sizeof guarded[0] };
static struct sigaction previous[GUARDED];
static int installed[GUARDED];
static volatile sig_atomic_t guarded_fd = -1;
static struct termios guarded_settings;

static void restore_then_resend(int signal) {
    int saved_errno = errno;
    if (guarded_fd >= 0) tcsetattr(guarded_fd, TCSANOW, &guarded_settings);
    for (int i = 0; i < GUARDED; i++) {
        if (guarded[i] == signal && installed[i]) {
            sigaction(signal, &previous[i], 0);
            installed[i] = 0;
        }
    }
    /* Blocked while this handler runs: delivered, to the earlier handler or the default
       action, as soon as it returns. */
    raise(signal);
    errno = saved_errno;
}

void cterminal_guard(int fd, const struct termios *saved) {
    guarded_settings = *saved;
    guarded_fd = fd;
    struct sigaction action = {0};
    action.sa_handler = restore_then_resend;
    sigfillset(&action.sa_mask);
    for (int i = 0; i < GUARDED; i++) {
        struct sigaction earlier;
        if (sigaction(guarded[i], 0, &earlier) != 0 || earlier.sa_handler == SIG_IGN) continue;
        installed[i] = sigaction(guarded[i], &action, &previous[i]) == 0;
    }
}

void cterminal_release(void) {
    for (int i = 0; i < GUARDED; i++) {
        if (installed[i]) {
            sigaction(guarded[i], &previous[i], 0);
            installed[i] = 0;
        }
    }
    guarded_fd = -1;
}
