#ifndef CSECRETSERVICE_H
#define CSECRETSERVICE_H
/* The few things of libsecret/GLib that Swift cannot express itself. */
#include <libsecret/secret.h>
#include <stdint.h>

/* Drops every GLib log message (CRITICAL and WARNING included): a helper's stderr is for
   one line that we write ourselves. */
void csecretservice_silence_glib(void);

/* Watches `cancellable` from a detached thread and cancels it when a deadline passes, so
   that no call of libsecret's synchronous API can block git for long. */
void csecretservice_watch(GCancellable *cancellable);
/* Sets the deadline `seconds` from now: called before each synchronous call. */
void csecretservice_arm(unsigned int seconds);
/* The errors of a bus or a Secret Service that is not the user's (bus_ownership.c): the
   message says whose it is; nothing was sent to the service. */
#define CSECRETSERVICE_ERROR (csecretservice_error_quark())
GQuark csecretservice_error_quark(void);
enum {
    /* The session bus's socket is another user's (or its owner cannot be known). */
    CSECRETSERVICE_ERROR_FOREIGN_BUS = 1,
    /* The bus is the user's, but the Secret Service's name is owned by another user's program. */
    CSECRETSERVICE_ERROR_FOREIGN_SERVICE = 2,
};

/* The Secret Service on the session bus, as a proxy of the unique name that owns it now
   (started by D-Bus activation if no one does): every call goes to that process, never to
   one that takes the name over later. Only on a bus that the user (or root) runs, and a
   service that is the user's (else NULL with a CSECRETSERVICE_ERROR set, nothing sent to
   it). Three bus calls (Hello, GetNameOwner, GetConnectionUnixUser), where libsecret's
   secret_service_get_sync made nine (three AddMatch, StartServiceByName, the service's
   properties) and checked no one; or NULL with *error set. */
SecretService *csecretservice_connect(GCancellable *cancellable, GError **error);
/* Restarts the clock armed last whenever the service (or the bus) answers a call. */
void csecretservice_count_answers(SecretService *service);

/* Asks the service to unlock the objects (items, collections) at `paths` (it prompts, if it
   can) and waits at most `seconds` for the prompt, never cancelling (see `within` in
   csecretservice.c). Returns the paths it unlocked (g_strfreev), or NULL when the service
   did not answer. *dismissed: a prompt was shown, no one answered it in time, and it was
   dismissed, which happens only when the items' collections are unlocked (an access
   confirmation, never the keyring's unlock prompt: see dismiss_in_unlocked). */
gchar **csecretservice_unlock_paths_within(SecretService *service, const char *const *paths, unsigned int seconds,
                                           gboolean *dismissed);

/* The object paths of the items, in any collection, whose attributes include `attributes`,
   unlocked and locked (g_strfreev each), or FALSE with *error set. */
gboolean csecretservice_search_paths(SecretService *service, GHashTable *attributes, gchar ***unlocked, gchar ***locked,
                                     GCancellable *cancellable, GError **error);
/* An item's attributes (to g_hash_table_unref), label (to g_free, NULL if none), creation
   time and whether it is locked (TRUE unless the service says it is not), in one call; FALSE
   with *error set (csecretservice_is_gone: it was deleted). */
gboolean csecretservice_item_properties(SecretService *service, const char *item, GHashTable **attributes, char **label,
                                        guint64 *created, gboolean *locked, GCancellable *cancellable, GError **error);
/* Deletes the item at `item`, showing the service's prompt if it asks for one (waiting at
   most `prompt_seconds` for it, never cancelling it). */
gboolean csecretservice_delete_path(SecretService *service, const char *item, unsigned int prompt_seconds,
                                    GCancellable *cancellable, GError **error);
/* Who owns the bus name `name` (its unique name in *owner, to g_free, and its process id
   in *pid, 0 if unknown): returns 1. Returns 2 when no one owns it, 0 with *error set when
   there is no session bus, or when the bus or that owner is not the user's (a
   CSECRETSERVICE_ERROR, as csecretservice_connect checks). For `doctor`. */
int csecretservice_bus_owner(const char *name, GCancellable *cancellable, unsigned int seconds,
                             char **owner, unsigned int *pid, GError **error);
/* The D-Bus object path of the collection the "default" alias names (where new items go), or NULL with *error set;
   free it with g_free. */
char *csecretservice_default_collection_path(SecretService *service, GCancellable *cancellable, GError **error);
/* Whether the error says the object called is not there (any more): an item another
   process deleted after our search found it. */
gboolean csecretservice_is_gone(const GError *error);

/* Whether the item (or, `collection`, the collection) at `path` is locked (1) or not (0); -1
   with *error set when the service does not say (csecretservice_is_gone: it was deleted). */
int csecretservice_locked(SecretService *service, const char *path, gboolean collection, GCancellable *cancellable, GError **error);

/* Session: the service's side of the key exchange of "dh-ietf1024-sha256-aes128-cbc-pkcs7"
   (SecretSession.swift does ours). Opens a session on libsecret's connection, sending our
   public key; returns its object path (to g_free) and the service's public key in *peer_key
   (to g_bytes_unref), or NULL with *error set. */
char *csecretservice_open_session(SecretService *service, const guint8 *public_key, gsize length,
                                  GBytes **peer_key, GCancellable *cancellable, GError **error);
/* Closes a session without waiting for the answer. */
void csecretservice_close_session(SecretService *service, const char *session);
/* The secrets of `items` (object paths), encrypted for `session`: a dictionary (a{o(oayays)},
   to g_variant_unref) with no entry for an item that is locked; NULL with *error set. */
GVariant *csecretservice_get_secrets(SecretService *service, const char *const *items, gsize count, const char *session,
                                     GCancellable *cancellable, GError **error);
/* Entry `index` of that dictionary: the item's path and the secret's session (to g_free),
   its parameters (the IV) and encrypted value (to g_bytes_unref). */
void csecretservice_secret_at(GVariant *secrets, gsize index, char **item, char **session, GBytes **parameters, GBytes **value);
/* Creates an item of the git schema from `attributes` (strings, without xdg:schema), `label` and a secret encrypted for
   `session` in the default collection, never replacing one (see SecretServiceStore.create); shows the service's prompt
   if it asks for one. Returns FALSE with *error set on failure. */
gboolean csecretservice_create_item(SecretService *service, GHashTable *attributes, const char *label, const char *session,
                                    const guint8 *parameters, gsize n_parameters, const guint8 *value, gsize n_value,
                                    unsigned int prompt_seconds, GCancellable *cancellable, GError **error);

/* The byte length of the 1024-bit prime of that session's key exchange. */
#define CSECRETSERVICE_MODP_BYTES 128
/* Our public key, 2 ^ exponent modulo that prime (big-endian, padded to 128 bytes), in
   constant time. Returns 0 on failure to allocate, or for an empty exponent. */
int csecretservice_modp_public_key(const uint8_t *exponent, size_t exponent_length, uint8_t result[CSECRETSERVICE_MODP_BYTES]);
/* The shared secret, peer ^ exponent modulo that prime, likewise. Returns 0 as well when the
   peer's public key is not in 3 ... prime - 2: one that would make the secret guessable. */
int csecretservice_modp_shared_secret(const uint8_t *peer, size_t peer_length, const uint8_t *exponent,
                                      size_t exponent_length, uint8_t result[CSECRETSERVICE_MODP_BYTES]);
#endif
