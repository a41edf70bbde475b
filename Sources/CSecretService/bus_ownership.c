/* Whose bus and whose Secret Service: checked before anything is sent to the service.

   Debian's dbus-run-session and dbus-launch listen on /tmp/dbus-XXXXXXXXXX, and remove
   that socket when the session ends; a shell or tmux older than that keeps
   DBUS_SESSION_BUS_ADDRESS. Anyone may then bind the same path in /tmp, with a bus of
   their own that lets other users in and a keyring of their own on it: every credential
   stored there would be theirs, every answer to a get would come from them. The kernel
   says who listens on the socket (SO_PEERCRED), and our own bus daemon says whose process
   owns the service's name. */
#include "bus_ownership.h"
#include <pwd.h>
#include <unistd.h>

G_DEFINE_QUARK(csecretservice-error-quark, csecretservice_error)

/* "uid 65534 (nobody)", or "uid 65534" for a uid without a name. */
static char *user_text(uid_t uid) {
    struct passwd entry, *found = NULL;
    char buffer[1024];
    if (getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found != NULL)
        return g_strdup_printf("uid %u (%s)", (unsigned)uid, found->pw_name);
    return g_strdup_printf("uid %u", (unsigned)uid);
}

/* Where the bus listens, as the kernel names the peer: its socket's path (@name for an
   abstract socket), or the address we were given. */
static char *bus_text(GSocket *socket) {
    GSocketAddress *address = socket != NULL ? g_socket_get_remote_address(socket, NULL) : NULL;
    char *text = NULL;
    if (address != NULL && G_IS_UNIX_SOCKET_ADDRESS(address)) {
        GUnixSocketAddress *local = G_UNIX_SOCKET_ADDRESS(address);
        const char *path = g_unix_socket_address_get_path(local);
        gsize length = g_unix_socket_address_get_path_len(local);
        if (length > 0)
            text = g_unix_socket_address_get_address_type(local) == G_UNIX_SOCKET_ADDRESS_PATH
                ? g_strndup(path, length) : g_strdup_printf("@%.*s", (int)length, path);
    }
    if (address != NULL) g_object_unref(address);
    if (text == NULL) text = g_strdup(g_getenv("DBUS_SESSION_BUS_ADDRESS") ? g_getenv("DBUS_SESSION_BUS_ADDRESS") : "its address");
    return text;
}

/* Whether whoever listens on `stream`'s socket is the user or root. */
static gboolean check_stream(GIOStream *stream, GError **error) {
    GSocket *socket = G_IS_SOCKET_CONNECTION(stream) ? g_socket_connection_get_socket(G_SOCKET_CONNECTION(stream)) : NULL;
    /* SO_PEERCRED: who called listen() on the socket, which no one else can claim to be. */
    GCredentials *credentials = socket != NULL ? g_socket_get_credentials(socket, NULL) : NULL;
    uid_t uid = credentials != NULL ? g_credentials_get_unix_user(credentials, NULL) : (uid_t)-1;
    if (credentials != NULL) g_object_unref(credentials);
    /* Root may run the bus: root can read the user's keyring files anyway. */
    if (uid != (uid_t)-1 && (uid == geteuid() || uid == 0)) return TRUE;
    char *where = bus_text(socket);
    if (uid == (uid_t)-1) {
        g_set_error(error, CSECRETSERVICE_ERROR, CSECRETSERVICE_ERROR_FOREIGN_BUS,
                    "cannot tell who runs the session bus at %s (not a local socket, whose owner the kernel would say), "
                    "so nothing was sent to it", where);
    } else {
        char *who = user_text(uid);
        g_set_error(error, CSECRETSERVICE_ERROR, CSECRETSERVICE_ERROR_FOREIGN_BUS,
                    "the session bus at %s belongs to %s, not to you: an address left from a session that has ended, "
                    "which another user has taken since, so nothing was sent to it", where, who);
        g_free(who);
    }
    g_free(where);
    return FALSE;
}

/* One method of the bus daemon's that takes a unique name and answers a uint32. */
static gboolean ask_bus(GDBusConnection *bus, const char *method, const char *unique_name, int timeout_ms,
                        GCancellable *cancellable, guint32 *answer, GError **error) {
    GVariant *reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
        method, g_variant_new("(s)", unique_name), G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, timeout_ms, cancellable, error);
    if (reply == NULL) return FALSE;
    g_variant_get(reply, "(u)", answer);
    g_variant_unref(reply);
    return TRUE;
}

gboolean csecretservice_check_owner(GDBusConnection *bus, const char *name, const char *owner, int timeout_ms,
                                    GCancellable *cancellable, GError **error) {
    /* The bus is ours (csecretservice_check_bus), so its answer is true; a unique name is
       never given to another connection, so it holds for every call sent to `owner`. */
    guint32 uid = 0;
    GError *failure = NULL;
    if (ask_bus(bus, "GetConnectionUnixUser", owner, timeout_ms, cancellable, &uid, &failure)) {
        if (uid == geteuid()) return TRUE;
        guint32 pid = 0;
        char *program = NULL;
        if (ask_bus(bus, "GetConnectionUnixProcessID", owner, timeout_ms, cancellable, &pid, NULL)) {
            char *path = g_strdup_printf("/proc/%u/comm", pid);
            if (g_file_get_contents(path, &program, NULL, NULL)) g_strchomp(program);
            g_free(path);
        }
        char *who = user_text(uid);
        char *what = pid == 0 ? g_strdup("a program") : g_strdup_printf("%s (pid %u)", program ? program : "a program", pid);
        g_set_error(error, CSECRETSERVICE_ERROR, CSECRETSERVICE_ERROR_FOREIGN_SERVICE,
                    "%s on your session bus is owned by %s of %s, not by you: another user's program, which would get "
                    "every credential sent to it, so nothing was sent", name, what, who);
        g_free(what);
        g_free(who);
        g_free(program);
        return FALSE;
    }
    if (g_cancellable_is_cancelled(cancellable)) {  /* the watchdog's: no answer in time */
        g_propagate_error(error, failure);
        return FALSE;
    }
    g_dbus_error_strip_remote_error(failure);
    g_set_error(error, CSECRETSERVICE_ERROR, CSECRETSERVICE_ERROR_FOREIGN_SERVICE,
                "cannot tell whose program owns %s on the session bus (%s), so nothing was sent to it",
                name, failure->message);
    g_error_free(failure);
    return FALSE;
}

gboolean csecretservice_check_bus(GDBusConnection *bus, GError **error) {
    return check_stream(g_dbus_connection_get_stream(bus), error);
}

GDBusConnection *csecretservice_session_bus(GCancellable *cancellable, GError **error) {
    /* Before a byte is sent (the credentials byte, AUTH EXTERNAL with our uid, Hello): a
       connection of our own to the address GLib would use, whose listener the kernel names
       (a tcp: address none: refused with nothing sent but the handshake). */
    char *address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, cancellable, error);
    if (address == NULL) return NULL;
    GIOStream *probe = g_dbus_address_get_stream_sync(address, NULL, cancellable, error);
    g_free(address);
    if (probe == NULL) return NULL;
    gboolean ours = check_stream(probe, error);
    g_io_stream_close(probe, NULL, NULL);
    g_object_unref(probe);
    if (!ours) return NULL;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, cancellable, error);
    /* Again on the connection itself: the socket could have been bound anew in between. */
    if (bus != NULL && !csecretservice_check_bus(bus, error)) g_clear_object(&bus);
    return bus;
}
