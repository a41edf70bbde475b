/* libsecret's by-path calls (secret-paths.h: search, unlock, prompts) are declared only for callers
   who accept its "unstable" label; libsecret itself is built on them. */
#define SECRET_API_SUBJECT_TO_CHANGE
#include "csecretservice.h"
#include "bus_ownership.h"
#include <pthread.h>
#include <string.h>

/* The schema of git's items (ItemLayout.gitSchema), which CreateItem records as libsecret does. */
static const char git_schema[] = "org.git.Password";

static GLogWriterOutput discard_writer(GLogLevelFlags level, const GLogField *fields, gsize count, gpointer data) {
    (void)level; (void)fields; (void)count; (void)data;
    return G_LOG_WRITER_HANDLED;
}

static void discard_handler(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

void csecretservice_silence_glib(void) {
    /* GLib aborts when the writer is set twice (doctor connects more than once). */
    static gsize done = 0;
    if (g_once_init_enter(&done)) {
        g_log_set_writer_func(discard_writer, NULL, NULL);
        g_log_set_default_handler(discard_handler, NULL);
        g_once_init_leave(&done, 1);
    }
}

static GCancellable *_Atomic watched;
static _Atomic gint64 deadline = G_MAXINT64;

static void *watch(void *unused) {
    (void)unused;
    for (;;) {
        g_usleep(50000);
        if (g_get_monotonic_time() > deadline) {
            deadline = G_MAXINT64;
            g_cancellable_cancel(watched);
        }
    }
    return NULL;
}

void csecretservice_watch(GCancellable *cancellable) {
    /* One watcher thread; a later call watches the new cancellable instead. The old one
       keeps the reference taken here (the thread may be using it): a few bytes, once. */
    GCancellable *previous = watched;
    watched = g_object_ref(cancellable);
    if (previous != NULL) return;
    pthread_t thread;
    if (pthread_create(&thread, NULL, watch, NULL) == 0) pthread_detach(thread);
}

static _Atomic gint64 armed_for = 0;

void csecretservice_arm(unsigned int seconds) {
    armed_for = (gint64)seconds * G_USEC_PER_SEC;
    deadline = g_get_monotonic_time() + armed_for;
}

/* The unique name that owned the service at connection: only its answers (and the bus
   daemon's) restart the clock, not messages another program of the bus sends us. */
static char *service_owner;

/* Each answer that arrives starts the clock again: the limit is on silence, not on the
   whole of a call. libsecret's search of thousands of items is thousands of calls under
   one of ours (5,000 items took over 5 s), and a service that answers is not wedged. */
static GDBusMessage *restart_clock(GDBusConnection *connection, GDBusMessage *message, gboolean incoming, gpointer data) {
    (void)connection; (void)data;
    GDBusMessageType type = g_dbus_message_get_message_type(message);
    const char *sender = g_dbus_message_get_sender(message);
    gboolean from_service = sender != NULL && ((service_owner != NULL && strcmp(sender, service_owner) == 0)
                                               || strcmp(sender, "org.freedesktop.DBus") == 0);
    if (incoming && from_service && (type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN || type == G_DBUS_MESSAGE_TYPE_ERROR)
        && deadline != G_MAXINT64)
        deadline = g_get_monotonic_time() + armed_for;
    return message;
}

void csecretservice_count_answers(SecretService *service) {
    service_owner = g_strdup(g_dbus_proxy_get_name(G_DBUS_PROXY(service)));
    g_dbus_connection_add_filter(g_dbus_proxy_get_connection(G_DBUS_PROXY(service)), restart_clock, NULL, NULL);
}

/* The unique name of whoever owns `name` now, starting it by D-Bus activation if no one
   does (as a proxy's auto-start would). */
static char *owner_of(GDBusConnection *bus, const char *name, GCancellable *cancellable, GError **error) {
    for (int attempt = 0; attempt < 2; attempt++) {
        GVariant *reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus", "GetNameOwner", g_variant_new("(s)", name), G_VARIANT_TYPE("(s)"),
            G_DBUS_CALL_FLAGS_NONE, -1, cancellable, error);
        if (reply != NULL) {
            char *owner = NULL;
            g_variant_get(reply, "(s)", &owner);
            g_variant_unref(reply);
            return owner;
        }
        if (attempt > 0 || !g_error_matches(*error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER)) break;
        g_clear_error(error);
        reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
            "org.freedesktop.DBus", "StartServiceByName", g_variant_new("(su)", name, 0), G_VARIANT_TYPE("(u)"),
            G_DBUS_CALL_FLAGS_NONE, -1, cancellable, error);
        if (reply == NULL) break;
        g_variant_unref(reply);
    }
    g_dbus_error_strip_remote_error(*error);
    return NULL;
}

/* libsecret's SecretService as we make it: its constructor (0.20) sets the well-known name,
   loading of properties, signals and auto-start over whatever it was given; this one sets
   back the name and flags given to it (construct-only properties may be set until the
   outermost constructor returns). */
typedef struct { SecretService parent; } DirectService;
typedef struct { SecretServiceClass parent_class; } DirectServiceClass;
G_DEFINE_TYPE(DirectService, direct_service, SECRET_TYPE_SERVICE)

static GObject *direct_service_constructor(GType type, guint count, GObjectConstructParam *given) {
    GObject *object = G_OBJECT_CLASS(direct_service_parent_class)->constructor(type, count, given);
    for (guint index = 0; index < count; index++) {
        const char *name = given[index].pspec->name;
        if (strcmp(name, "g-name") == 0 || strcmp(name, "g-flags") == 0) g_object_set_property(object, name, given[index].value);
    }
    return object;
}

static void direct_service_class_init(DirectServiceClass *class) {
    G_OBJECT_CLASS(class)->constructor = direct_service_constructor;
}

static void direct_service_init(DirectService *service) { (void)service; }

SecretService *csecretservice_connect(GCancellable *cancellable, GError **error) {
    /* The bus must be ours before we send it anything, and the service's owner ours
       before anything goes to the service. */
    GDBusConnection *bus = csecretservice_session_bus(cancellable, error);
    if (bus == NULL) return NULL;
    const char *variable = g_getenv("SECRET_SERVICE_BUS_NAME");  /* as libsecret: for a service under test */
    const char *name = variable != NULL ? variable : "org.freedesktop.secrets";
    char *owner = owner_of(bus, name, cancellable, error);
    /* Also a service just started by activation: our bus starts it as us, but another
       user's program could have taken the name first. */
    if (owner != NULL && !csecretservice_check_owner(bus, name, owner, -1, cancellable, error)) g_clear_pointer(&owner, g_free);
    SecretService *service = NULL;
    if (owner != NULL) {
        /* On the same connection: GLib shares one per bus while it is referenced. */
        service = g_initable_new(direct_service_get_type(), cancellable, error, "g-name", owner,
            "g-flags", G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES | G_DBUS_PROXY_FLAGS_DO_NOT_CONNECT_SIGNALS
                       | G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START, NULL);
    }
    g_free(owner);
    g_object_unref(bus);
    return service;
}

/* One asynchronous call of libsecret's, run in a main context of our own and waited for
   at most `seconds`. Never cancelled: cancelling a prompt or an unlock sends Dismiss, after
   which gnome-keyring 42 exits (taking the user's unlocked keyring with it) and libsecret
   waits, with no limit, for a Completed signal that a hostile or broken service never
   sends. A call given up on is dropped when the helper exits, which services handle. */
struct waiting {
    GMainLoop *loop;
    GAsyncResult *result;
};

static void finished(GObject *source, GAsyncResult *result, gpointer data) {
    (void)source;
    struct waiting *wait = data;
    wait->result = g_object_ref(result);
    g_main_loop_quit(wait->loop);
}

static gboolean give_up(gpointer data) {
    g_main_loop_quit(((struct waiting *)data)->loop);
    return G_SOURCE_REMOVE;
}

typedef void (*starter)(SecretService *service, const void *argument, GAsyncReadyCallback callback, gpointer data);

/* The call's result (to g_object_unref, for its _finish), or NULL when it gave up. */
static GAsyncResult *within(SecretService *service, starter start, const void *argument, unsigned int seconds) {
    GMainContext *context = g_main_context_new();
    g_main_context_push_thread_default(context);
    /* Left allocated when we give up: the pending call still refers to it until exit. */
    struct waiting *wait = g_new0(struct waiting, 1);
    wait->loop = g_main_loop_new(context, FALSE);
    start(service, argument, finished, wait);
    GSource *timeout = g_timeout_source_new_seconds(seconds);
    g_source_set_callback(timeout, give_up, wait, NULL);
    g_source_attach(timeout, context);
    g_main_loop_run(wait->loop);
    g_source_destroy(timeout);
    g_source_unref(timeout);
    g_main_context_pop_thread_default(context);
    GAsyncResult *result = wait->result;
    if (result != NULL) {
        g_main_loop_unref(wait->loop);
        g_free(wait);
    }
    return result;
}

struct prompt_call {
    const char *path;
    const GVariantType *type;
};

static void start_prompt(SecretService *service, const void *argument, GAsyncReadyCallback callback, gpointer data) {
    const struct prompt_call *prompt = argument;
    secret_service_prompt_at_dbus_path(service, prompt->path, prompt->type, NULL, callback, data);
}

/* Where calls go: the proxy's name, the unique name of the process that owned the
   service's name when we connected (csecretservice_connect). */
static const char *destination(GDBusProxy *proxy) {
    return g_dbus_proxy_get_name(proxy);
}

/* Whether the collection at `path` (or an alias) says it is unlocked, asked with a 2 s limit;
   FALSE when it says otherwise or nothing. */
static gboolean unlocked_collection(SecretService *service, const char *path) {
    if (path == NULL || !g_variant_is_object_path(path)) return FALSE;
    GDBusProxy *proxy = G_DBUS_PROXY(service);
    GVariant *reply = g_dbus_connection_call_sync(g_dbus_proxy_get_connection(proxy), destination(proxy), path,
        "org.freedesktop.DBus.Properties", "Get", g_variant_new("(ss)", "org.freedesktop.Secret.Collection", "Locked"),
        G_VARIANT_TYPE("(v)"), G_DBUS_CALL_FLAGS_NO_AUTO_START, 2000, NULL, NULL);
    if (reply == NULL) return FALSE;
    GVariant *value = NULL;
    g_variant_get(reply, "(v)", &value);
    gboolean unlocked = g_variant_is_of_type(value, G_VARIANT_TYPE_BOOLEAN) && !g_variant_get_boolean(value);
    g_variant_unref(value);
    g_variant_unref(reply);
    return unlocked;
}

/* Prompt.Dismiss of a prompt we gave up on, so that it does not stay on the screen for someone
   to answer later for nothing (KeePassXC's access and deletion confirmations stay open until
   answered). Only when every collection it concerns (`collections`, NULL-terminated: the
   items', or an alias) is unlocked: a prompt for a locked one is the keyring's unlock prompt,
   and gnome-keyring 42 exits when that is dismissed, taking the login session's unlock with
   it. Waits at most 2 s for the answer, never for the Completed signal (a hostile service
   never sends it). Only ever sent here, after our own wait: never by cancelling libsecret's
   call. Returns whether the service took the Dismiss. */
static gboolean dismiss_in_unlocked(SecretService *service, const char *prompt, char **collections) {
    if (collections == NULL || collections[0] == NULL) return FALSE;
    for (char **collection = collections; *collection != NULL; collection++) {
        if (!unlocked_collection(service, *collection)) return FALSE;
    }
    GDBusProxy *proxy = G_DBUS_PROXY(service);
    GVariant *reply = g_dbus_connection_call_sync(g_dbus_proxy_get_connection(proxy), destination(proxy), prompt,
        "org.freedesktop.Secret.Prompt", "Dismiss", NULL, NULL, G_DBUS_CALL_FLAGS_NO_AUTO_START, 2000, NULL, NULL);
    if (reply == NULL) return FALSE;
    g_variant_unref(reply);
    return TRUE;
}

/* The collections of the items at `items` (each path without its last element; the root for
   a path that has no parent), NULL-terminated, to g_strfreev. */
static char **collections_of(const char *const *items) {
    GPtrArray *collections = g_ptr_array_new();
    for (const char *const *item = items; *item != NULL; item++) {
        const char *slash = strrchr(*item, '/');
        g_ptr_array_add(collections, slash != NULL && slash != *item ? g_strndup(*item, (gsize)(slash - *item)) : g_strdup("/"));
    }
    g_ptr_array_add(collections, NULL);
    return (char **)g_ptr_array_free(collections, FALSE);
}

/* Shows the service's prompt at `prompt` and waits at most `seconds` for it to complete; when
   no one answered by then, dismisses it if the `collections` it concerns are unlocked
   (dismiss_in_unlocked): the error is G_IO_ERROR_TIMED_OUT, or G_IO_ERROR_CANCELLED once
   dismissed. */
static GVariant *prompt_within(SecretService *service, const char *prompt, const GVariantType *type, unsigned int seconds,
                               char **collections, GError **error) {
    csecretservice_arm(G_MAXUINT / 2);
    struct prompt_call call = { prompt, type };
    GAsyncResult *result = within(service, start_prompt, &call, seconds);
    if (result == NULL) {
        gboolean dismissed = dismiss_in_unlocked(service, prompt, collections);
        g_set_error(error, G_IO_ERROR, dismissed ? G_IO_ERROR_CANCELLED : G_IO_ERROR_TIMED_OUT,
                    "no one answered the Secret Service's prompt within %u seconds%s", seconds, dismissed ? "; it was dismissed" : "");
        return NULL;
    }
    GVariant *value = secret_service_prompt_at_dbus_path_finish(service, result, error);
    g_object_unref(result);
    return value;
}

/* Service.Unlock, then its prompt through prompt_within (libsecret's unlock call kept the
   prompt to itself: one given up on could not be dismissed). The prompt concerns the
   collections of the items at `paths`; a path that is a collection has for "collection" a
   path that is none, whose Locked property no one answers: never dismissed. */
gchar **csecretservice_unlock_paths_within(SecretService *service, const char *const *paths, unsigned int seconds,
                                           gboolean *dismissed) {
    *dismissed = FALSE;
    GDBusProxy *proxy = G_DBUS_PROXY(service);
    GVariant *reply = g_dbus_connection_call_sync(g_dbus_proxy_get_connection(proxy), destination(proxy), "/org/freedesktop/secrets",
        "org.freedesktop.Secret.Service", "Unlock", g_variant_new("(^ao)", paths), G_VARIANT_TYPE("(aoo)"),
        G_DBUS_CALL_FLAGS_NO_AUTO_START, (int)seconds * 1000, NULL, NULL);
    if (reply == NULL) return NULL;
    GPtrArray *unlocked = g_ptr_array_new();
    GVariantIter *at_once = NULL;
    const char *prompt = NULL, *path = NULL;
    g_variant_get(reply, "(ao&o)", &at_once, &prompt);
    while (g_variant_iter_next(at_once, "&o", &path)) g_ptr_array_add(unlocked, g_strdup(path));
    g_variant_iter_free(at_once);
    if (strcmp(prompt, "/") != 0) {
        GError *error = NULL;
        char **collections = collections_of(paths);
        GVariant *result = prompt_within(service, prompt, G_VARIANT_TYPE("ao"), seconds, collections, &error);
        g_strfreev(collections);
        *dismissed = g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
        g_clear_error(&error);
        if (result != NULL) {
            GVariantIter after_prompt;
            g_variant_iter_init(&after_prompt, result);
            while (g_variant_iter_next(&after_prompt, "&o", &path)) g_ptr_array_add(unlocked, g_strdup(path));
            g_variant_unref(result);
        }
    }
    g_variant_unref(reply);
    g_ptr_array_add(unlocked, NULL);
    return (gchar **)g_ptr_array_free(unlocked, FALSE);
}

/* Who owns `name` on the session bus, for `doctor`. Each call has its own D-Bus timeout;
   connecting to the bus is bounded by the watchdog on `cancellable`. */
int csecretservice_bus_owner(const char *name, GCancellable *cancellable, unsigned int seconds,
                             char **owner, unsigned int *pid, GError **error) {
    *owner = NULL;
    *pid = 0;
    csecretservice_arm(seconds);
    GDBusConnection *bus = csecretservice_session_bus(cancellable, error);
    if (bus == NULL) return 0;
    GVariant *reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
        "org.freedesktop.DBus", "GetNameOwner", g_variant_new("(s)", name), G_VARIANT_TYPE("(s)"),
        G_DBUS_CALL_FLAGS_NO_AUTO_START, (int)seconds * 1000, NULL, NULL);
    if (reply == NULL) {
        g_object_unref(bus);
        return 2;
    }
    g_variant_get(reply, "(s)", owner);
    g_variant_unref(reply);
    if (!csecretservice_check_owner(bus, name, *owner, (int)seconds * 1000, NULL, error)) {
        g_clear_pointer(owner, g_free);
        g_object_unref(bus);
        return 0;
    }
    reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
        "org.freedesktop.DBus", "GetConnectionUnixProcessID", g_variant_new("(s)", *owner), G_VARIANT_TYPE("(u)"),
        G_DBUS_CALL_FLAGS_NONE, (int)seconds * 1000, NULL, NULL);
    if (reply != NULL) {
        g_variant_get(reply, "(u)", pid);
        g_variant_unref(reply);
    }
    g_object_unref(bus);
    return 1;
}

/* gnome-keyring learns of each new caller in an idle callback that races the caller's
   first calls (gkd-secret-service.c: service_message_filter); a call that loses is answered
   UnknownMethod, "Method SearchItems is not implemented", by a service that implements it
   (CI: one erase in 450, four helpers at once). Such a call is made once more, 50 ms later:
   true when `attempt` was the first and the error says so (it is then cleared). */
static gboolean once_more(int attempt, GError **error) {
    if (attempt > 0 || error == NULL || !g_error_matches(*error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD)) return FALSE;
    g_clear_error(error);
    g_usleep(50000);
    return TRUE;
}

/* A method call to the service on libsecret's own connection, so that a session opened
   here is one the service knows for the calls libsecret makes too. Errors the service sends
   read as its text alone, without GDBus's "GDBus.Error:name:" prefix. */
static GVariant *call(SecretService *service, const char *path, const char *interface, const char *method,
                      GVariant *parameters, const GVariantType *reply_type, GCancellable *cancellable, GError **error) {
    GDBusProxy *proxy = G_DBUS_PROXY(service);
    GVariant *reply = NULL;
    if (parameters != NULL) g_variant_ref_sink(parameters);  /* kept for a second attempt */
    for (int attempt = 0; reply == NULL; attempt++) {
        reply = g_dbus_connection_call_sync(g_dbus_proxy_get_connection(proxy), destination(proxy), path, interface, method,
                                            parameters, reply_type, G_DBUS_CALL_FLAGS_NONE, -1, cancellable, error);
        if (reply == NULL && !once_more(attempt, error)) break;
    }
    if (parameters != NULL) g_variant_unref(parameters);
    if (reply == NULL && error != NULL && *error != NULL) g_dbus_error_strip_remote_error(*error);
    return reply;
}

gboolean csecretservice_is_gone(const GError *error) {
    return error != NULL && (g_error_matches(error, SECRET_ERROR, SECRET_ERROR_NO_SUCH_OBJECT)
        || g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD)
        || g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT)
        || g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_INTERFACE));
}

static GVariant *bytes(const guint8 *data, gsize length) {
    return g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, data, length, 1);
}

int csecretservice_locked(SecretService *service, const char *path, gboolean collection, GCancellable *cancellable, GError **error) {
    const char *interface = collection ? "org.freedesktop.Secret.Collection" : "org.freedesktop.Secret.Item";
    GVariant *reply = call(service, path, "org.freedesktop.DBus.Properties", "Get",
                           g_variant_new("(ss)", interface, "Locked"), G_VARIANT_TYPE("(v)"),
                           cancellable, error);
    if (reply == NULL) return -1;
    GVariant *value = NULL;
    g_variant_get(reply, "(v)", &value);
    /* Anything but a boolean false is taken for locked: never guessed readable. */
    int locked = g_variant_is_of_type(value, G_VARIANT_TYPE_BOOLEAN) ? g_variant_get_boolean(value) != 0 : 1;
    g_variant_unref(value);
    g_variant_unref(reply);
    return locked;
}

char *csecretservice_open_session(SecretService *service, const guint8 *public_key, gsize length,
                                  GBytes **peer_key, GCancellable *cancellable, GError **error) {
    GVariant *reply = call(service, "/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "OpenSession",
                           g_variant_new("(sv)", "dh-ietf1024-sha256-aes128-cbc-pkcs7", bytes(public_key, length)),
                           G_VARIANT_TYPE("(vo)"), cancellable, error);
    if (reply == NULL) return NULL;
    GVariant *output = NULL;
    char *path = NULL;
    g_variant_get(reply, "(vo)", &output, &path);
    g_variant_unref(reply);
    if (!g_variant_is_of_type(output, G_VARIANT_TYPE_BYTESTRING)) {
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the service answered OpenSession with no public key");
        g_variant_unref(output);
        g_free(path);
        return NULL;
    }
    *peer_key = g_variant_get_data_as_bytes(output);
    g_variant_unref(output);
    return path;
}

void csecretservice_close_session(SecretService *service, const char *session) {
    /* No callback: sent without waiting for (or asking for) an answer. */
    GDBusProxy *proxy = G_DBUS_PROXY(service);
    g_dbus_connection_call(g_dbus_proxy_get_connection(proxy), destination(proxy), session,
                           "org.freedesktop.Secret.Session", "Close", NULL, NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL, NULL);
}

GVariant *csecretservice_get_secrets(SecretService *service, const char *const *items, gsize count, const char *session,
                                     GCancellable *cancellable, GError **error) {
    GVariant *reply = call(service, "/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "GetSecrets",
                           g_variant_new("(@aoo)", g_variant_new_objv(items, (gssize)count), session),
                           G_VARIANT_TYPE("(a{o(oayays)})"), cancellable, error);
    if (reply == NULL) return NULL;
    GVariant *secrets = g_variant_get_child_value(reply, 0);
    g_variant_unref(reply);
    return secrets;
}

void csecretservice_secret_at(GVariant *secrets, gsize index, char **item, char **session, GBytes **parameters, GBytes **value) {
    GVariant *entry = g_variant_get_child_value(secrets, index);
    GVariant *p = NULL, *v = NULL;
    g_variant_get(entry, "{o(o@ay@ays)}", item, session, &p, &v, NULL);
    *parameters = g_variant_get_data_as_bytes(p);
    *value = g_variant_get_data_as_bytes(v);
    g_variant_unref(p);
    g_variant_unref(v);
    g_variant_unref(entry);
}

/* The collection addressed by its alias path, as libsecret's own secret_password_store
   does: one CreateItem, where secret_item_create first reads the alias (ReadAlias), loads
   the collection's properties, and afterwards those of the new item (3 round trips). */
gboolean csecretservice_create_item(SecretService *service, GHashTable *attributes, const char *label, const char *session,
                                    const guint8 *parameters, gsize n_parameters, const guint8 *value, gsize n_value,
                                    unsigned int prompt_seconds, GCancellable *cancellable, GError **error) {
    GVariantBuilder builder;
    g_variant_builder_init(&builder, G_VARIANT_TYPE("a{ss}"));
    GHashTableIter iterator;
    gpointer name, text;
    g_hash_table_iter_init(&iterator, attributes);
    while (g_hash_table_iter_next(&iterator, &name, &text)) g_variant_builder_add(&builder, "{ss}", name, text);
    /* What marks the item as git's (ItemLayout.isGits), as secret_item_create adds it. */
    g_variant_builder_add(&builder, "{ss}", "xdg:schema", git_schema);
    GVariant *item_attributes = g_variant_builder_end(&builder);
    g_variant_builder_init(&builder, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&builder, "{sv}", "org.freedesktop.Secret.Item.Label", g_variant_new_string(label));
    g_variant_builder_add(&builder, "{sv}", "org.freedesktop.Secret.Item.Attributes", item_attributes);
    GVariant *secret = g_variant_new("(o@ay@ays)", session, bytes(parameters, n_parameters), bytes(value, n_value), "text/plain");
    GVariant *parameters_of_call = g_variant_ref_sink(g_variant_new("(a{sv}@(oayays)b)", &builder, secret, FALSE));
    GVariant *reply = NULL;
    /* Once more if the collection was not there: gnome-keyring said so once (in CI, four
       processes storing and erasing at once), of a collection that was there before and after. */
    for (int attempt = 0; reply == NULL && attempt < 2; attempt++) {
        if (attempt > 0) {
            if (error == NULL || !csecretservice_is_gone(*error)) break;
            g_clear_error(error);
            g_usleep(50000);
        }
        reply = call(service, "/org/freedesktop/secrets/aliases/default", "org.freedesktop.Secret.Collection", "CreateItem",
                     parameters_of_call, G_VARIANT_TYPE("(oo)"), cancellable, error);
    }
    g_variant_unref(parameters_of_call);
    if (reply == NULL) return FALSE;
    const char *prompt = NULL;
    g_variant_get(reply, "(&o&o)", NULL, &prompt);
    gboolean created = TRUE;
    if (strcmp(prompt, "/") != 0) {
        /* The service asks someone first (to unlock the keyring): libsecret shows the prompt. */
        char *collections[] = { "/org/freedesktop/secrets/aliases/default", NULL };
        GVariant *result = prompt_within(service, prompt, G_VARIANT_TYPE("o"), prompt_seconds, collections, error);
        created = result != NULL && strcmp(g_variant_get_string(result, NULL), "/") != 0;
        if (!created && error != NULL && *error == NULL)
            g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "no one answered the prompt to unlock the keyring");
        if (result != NULL) g_variant_unref(result);
    }
    g_variant_unref(reply);
    return created;
}

char *csecretservice_default_collection_path(SecretService *service, GCancellable *cancellable, GError **error) {
    return secret_service_read_alias_dbus_path_sync(service, "default", cancellable, error);
}

/* SearchItems, one call: the paths, not libsecret's item proxies, each of which cost six
   bus calls (two AddMatch and RemoveMatch among them: with thousands of items, the bus
   daemon's match rules made a search take 17 s). */
gboolean csecretservice_search_paths(SecretService *service, GHashTable *attributes, gchar ***unlocked, gchar ***locked,
                                     GCancellable *cancellable, GError **error) {
    for (int attempt = 0;; attempt++) {
        if (secret_service_search_for_dbus_paths_sync(service, NULL, attributes, cancellable, unlocked, locked, error)) return TRUE;
        if (!once_more(attempt, error)) return FALSE;
    }
}

gboolean csecretservice_item_properties(SecretService *service, const char *item, GHashTable **attributes, char **label,
                                        guint64 *created, gboolean *locked, GCancellable *cancellable, GError **error) {
    GVariant *reply = call(service, item, "org.freedesktop.DBus.Properties", "GetAll",
                           g_variant_new("(s)", "org.freedesktop.Secret.Item"), G_VARIANT_TYPE("(a{sv})"), cancellable, error);
    if (reply == NULL) return FALSE;
    GVariant *properties = g_variant_get_child_value(reply, 0);
    g_variant_unref(reply);
    *attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    *label = NULL;
    *created = 0;
    *locked = TRUE;  /* unless the service says otherwise: never guessed readable */
    GVariantIter iterator;
    const char *name;
    GVariant *value;
    g_variant_iter_init(&iterator, properties);
    while (g_variant_iter_next(&iterator, "{&sv}", &name, &value)) {
        if (strcmp(name, "Attributes") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE("a{ss}"))) {
            GVariantIter pairs;
            const char *key, *text;
            g_variant_iter_init(&pairs, value);
            while (g_variant_iter_next(&pairs, "{&s&s}", &key, &text)) g_hash_table_insert(*attributes, g_strdup(key), g_strdup(text));
        } else if (strcmp(name, "Label") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE_STRING)) {
            g_free(*label);
            *label = g_variant_dup_string(value, NULL);
        } else if (strcmp(name, "Created") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE_UINT64)) {
            *created = g_variant_get_uint64(value);
        } else if (strcmp(name, "Locked") == 0 && g_variant_is_of_type(value, G_VARIANT_TYPE_BOOLEAN)) {
            *locked = g_variant_get_boolean(value);
        }
        g_variant_unref(value);
    }
    g_variant_unref(properties);
    return TRUE;
}

gboolean csecretservice_delete_path(SecretService *service, const char *item, unsigned int prompt_seconds,
                                    GCancellable *cancellable, GError **error) {
    GVariant *reply = call(service, item, "org.freedesktop.Secret.Item", "Delete", NULL, G_VARIANT_TYPE("(o)"), cancellable, error);
    if (reply == NULL) return FALSE;
    const char *prompt = NULL;
    g_variant_get(reply, "(&o)", &prompt);
    gboolean deleted = TRUE;
    if (strcmp(prompt, "/") != 0) {
        const char *items[] = { item, NULL };
        char **collections = collections_of(items);
        GVariant *result = prompt_within(service, prompt, NULL, prompt_seconds, collections, error);
        g_strfreev(collections);
        deleted = result != NULL;
        if (result != NULL) g_variant_unref(result);
    }
    g_variant_unref(reply);
    return deleted;
}
