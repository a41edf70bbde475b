#include "csecretservice.h"
#include <pthread.h>
#include <unistd.h>

static const SecretSchema git_schema = {
    .name = "org.git.Password",
    .flags = SECRET_SCHEMA_DONT_MATCH_NAME,
    .attributes = {
        { "user", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { "object", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { "protocol", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { "port", SECRET_SCHEMA_ATTRIBUTE_INTEGER },
        { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
        { NULL, 0 },
    }
};

const SecretSchema *csecretservice_git_schema(void) { return &git_schema; }

static GLogWriterOutput discard_writer(GLogLevelFlags level, const GLogField *fields, gsize count, gpointer data) {
    (void)level; (void)fields; (void)count; (void)data;
    return G_LOG_WRITER_HANDLED;
}

static void discard_handler(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

void csecretservice_silence_glib(void) {
    g_log_set_writer_func(discard_writer, NULL, NULL);
    g_log_set_default_handler(discard_handler, NULL);
}

struct deadline { GCancellable *cancellable; unsigned int seconds; };

static void *cancel_later(void *argument) {
    struct deadline *deadline = argument;
    sleep(deadline->seconds);
    g_cancellable_cancel(deadline->cancellable);
    return NULL;
}

void csecretservice_cancel_after(GCancellable *cancellable, unsigned int seconds) {
    static struct deadline deadline;  /* one per process: the helper makes one call chain */
    deadline.cancellable = g_object_ref(cancellable);
    deadline.seconds = seconds;
    pthread_t thread;
    if (pthread_create(&thread, NULL, cancel_later, &deadline) == 0) pthread_detach(thread);
}

const char *csecretservice_item_path(SecretItem *item) {
    return g_dbus_proxy_get_object_path(G_DBUS_PROXY(item));
}
