import Foundation
import Testing

/// Other programs that keep passwords in the Secret Service, as they write their items:
/// a small C program, compiled against libsecret once per test run, that stores an item
/// with each program's schema, attributes and label, the way their sources do it. Its
/// secret is read from stdin, byte for byte. Stored in the default collection.
struct OtherKeyringClients {
    let sandbox: Sandbox
    let bus: SessionBus

    /// GVFS (Files/Nautilus mounting smb://, davs://, ftp://, sftp://): libsecret's
    /// compatibility network schema, org.gnome.keyring.NetworkPassword, attributes user,
    /// server, domain, protocol, object, authtype, port (the ones given), label
    /// `user@server[:port][/object]` (daemon/gvfskeyring.c).
    func gvfs(user: String?, server: String, domain: String? = nil, protocol: String, object: String? = nil,
              authtype: String? = nil, port: Int = 0, secret: String) throws {
        try store(["gvfs", user ?? "", server, domain ?? "", `protocol`, object ?? "", authtype ?? "", String(port)], secret)
    }

    /// Dino (XMPP): org.gnome.keyring.NetworkPassword with user, server and protocol
    /// `xmpp`, label `XMPP account user@server`.
    func dino(user: String, server: String, secret: String) throws {
        try store(["dino", user, server], secret)
    }

    /// Evolution's e-passwords: its own schema, org.gnome.Evolution.Password, with
    /// attributes that look like git's (application, user, server, protocol from the
    /// account's URI), labelled with that URI.
    func evolution(uri: String, secret: String) throws {
        try store(["evolution", uri], secret)
    }

    /// NetworkManager (nm-applet's agent): org.freedesktop.NetworkManager.Connection with
    /// connection-uuid, setting-name, setting-key, label `Network secret for ID/SETTING/KEY`.
    func networkManager(uuid: String, id: String, secret: String) throws {
        try store(["networkmanager", uuid, id, "802-11-wireless-security", "psk"], secret)
    }

    /// git 2.39's contrib git-credential-libsecret, with its schema (org.git.Password) or
    /// with the older network schema: attributes and label as its make_attr_list and
    /// make_label build them from `protocol://user@server[:port]/path`.
    func git(schema: GitSchema, protocol: String, server: String, port: Int = 0, path: String? = nil, user: String,
             secret: String) throws {
        try store(["git", schema.rawValue, `protocol`, server, String(port), path ?? "", user], secret)
    }

    enum GitSchema: String { case git, network }

    /// Git Credential Manager (SecretServiceCollection.AddOrUpdate): secret_service_store_sync
    /// on a service opened with OPEN_SESSION | LOAD_COLLECTIONS, its schema
    /// com.microsoft.GitCredentialManager (DONT_MATCH_NAME; attributes service, account),
    /// `service` = "NAMESPACE:URL" (CreateServiceName), `account` only when not blank, the
    /// label the service, the default collection, content type "plain/text".
    func gcm(service: String, account: String?, secret: String) throws {
        try store(["gcm", service, account ?? ""], secret)
    }

    /// Any program: an item of `schema` with these attributes and label, exactly.
    func raw(schema: String, label: String, _ attributes: [String: String], secret: [UInt8]) throws {
        try store(["raw", schema, label] + attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }, secret)
    }

    private func store(_ arguments: [String], _ secret: String) throws { try store(arguments, Array(secret.utf8)) }

    private func store(_ arguments: [String], _ secret: [UInt8]) throws {
        let result = try sandbox.run(try Self.program(), arguments, input: secret, environment: bus.environment)
        guard result.exitCode == 0 else { throw SpawnError(description: "other-keyring-client \(arguments): \(result)") }
    }

    // MARK: The program

    private static let compiled = CompiledProgram(name: "other-keyring-client", source: source, package: "libsecret-1")

    /// The compiled program, built on first use in a directory of the test run's own.
    static func program() throws -> String { try compiled.path() }

    static let source = #"""
    #include <libsecret/secret.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>

    /* "" on the command line is an absent value. */
    static const char *given(const char *value) { return value[0] ? value : NULL; }

    static void put(GHashTable *attributes, const char *key, const char *value) {
        if (value) g_hash_table_insert(attributes, g_strdup(key), g_strdup(value));
    }

    static const SecretSchema dino_schema = {
        "org.gnome.keyring.NetworkPassword", SECRET_SCHEMA_NONE,
        { { "user", SECRET_SCHEMA_ATTRIBUTE_STRING }, { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
          { "protocol", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } }
    };
    static const SecretSchema evolution_schema = {
        "org.gnome.Evolution.Password", SECRET_SCHEMA_DONT_MATCH_NAME,
        { { "application", SECRET_SCHEMA_ATTRIBUTE_STRING }, { "user", SECRET_SCHEMA_ATTRIBUTE_STRING },
          { "server", SECRET_SCHEMA_ATTRIBUTE_STRING }, { "protocol", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } }
    };
    static const SecretSchema network_manager_schema = {
        "org.freedesktop.NetworkManager.Connection", SECRET_SCHEMA_DONT_MATCH_NAME,
        { { "connection-uuid", SECRET_SCHEMA_ATTRIBUTE_STRING }, { "setting-name", SECRET_SCHEMA_ATTRIBUTE_STRING },
          { "setting-key", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } }
    };
    static const SecretSchema git_schema = {
        "org.git.Password", SECRET_SCHEMA_DONT_MATCH_NAME,
        { { "user", SECRET_SCHEMA_ATTRIBUTE_STRING }, { "object", SECRET_SCHEMA_ATTRIBUTE_STRING },
          { "protocol", SECRET_SCHEMA_ATTRIBUTE_STRING }, { "port", SECRET_SCHEMA_ATTRIBUTE_INTEGER },
          { "server", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } }
    };

    static const SecretSchema gcm_schema = {
        "com.microsoft.GitCredentialManager", SECRET_SCHEMA_DONT_MATCH_NAME,
        { { "service", SECRET_SCHEMA_ATTRIBUTE_STRING }, { "account", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } }
    };

    int main(int argc, char **argv) {
        if (argc < 2) return 2;
        GString *secret = g_string_new(NULL);
        char buffer[65536];
        size_t count;
        while ((count = fread(buffer, 1, sizeof buffer, stdin)) > 0) g_string_append_len(secret, buffer, count);

        const SecretSchema *schema = NULL;
        const char *collection = SECRET_COLLECTION_DEFAULT;
        char *label = NULL;
        GHashTable *attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        const char *mode = argv[1];
        if (strcmp(mode, "gcm") == 0 && argc == 4) {
            /* service account: GCM's AddOrUpdate, call for call */
            GError *error = NULL;
            SecretService *service = secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION | SECRET_SERVICE_LOAD_COLLECTIONS, NULL, &error);
            if (!service) { fprintf(stderr, "other-keyring-client: %s\n", error->message); return 1; }
            put(attributes, "service", argv[2]);
            put(attributes, "account", given(argv[3]));
            SecretValue *value = secret_value_new(secret->str, (gssize)secret->len, "plain/text");
            gboolean stored = secret_service_store_sync(service, &gcm_schema, attributes, NULL, argv[2], value, NULL, &error);
            if (!stored) { fprintf(stderr, "other-keyring-client: %s\n", error ? error->message : "not stored"); return 1; }
            return 0;
        }
        if (strcmp(mode, "gvfs") == 0 && argc == 9) {
            /* user server domain protocol object authtype port */
            const char *user = given(argv[2]), *server = argv[3], *object = given(argv[6]);
            int port = atoi(argv[8]);
            schema = SECRET_SCHEMA_COMPAT_NETWORK;
            put(attributes, "user", user);
            put(attributes, "server", server);
            put(attributes, "domain", given(argv[4]));
            put(attributes, "protocol", given(argv[5]));
            put(attributes, "object", object);
            put(attributes, "authtype", given(argv[7]));
            if (port != 0) g_hash_table_insert(attributes, g_strdup("port"), g_strdup_printf("%d", port));
            GString *name = g_string_new(NULL);
            if (user) {
                g_string_append_uri_escaped(name, user, G_URI_RESERVED_CHARS_ALLOWED_IN_USERINFO, TRUE);
                g_string_append(name, "@");
            }
            g_string_append(name, server);
            if (port != 0) g_string_append_printf(name, ":%d", port);
            if (object) g_string_append_printf(name, "/%s", object);
            label = g_string_free(name, FALSE);
        } else if (strcmp(mode, "dino") == 0 && argc == 4) {
            schema = &dino_schema;
            put(attributes, "user", argv[2]);
            put(attributes, "server", argv[3]);
            put(attributes, "protocol", "xmpp");
            label = g_strdup_printf("XMPP account %s@%s", argv[2], argv[3]);
        } else if (strcmp(mode, "evolution") == 0 && argc == 3) {
            GUri *uri = g_uri_parse(argv[2], G_URI_FLAGS_PARSE_RELAXED, NULL);
            if (!uri) return 2;
            schema = &evolution_schema;
            put(attributes, "application", "Evolution");
            put(attributes, "user", g_uri_get_user(uri));
            put(attributes, "server", g_uri_get_host(uri));
            put(attributes, "protocol", g_uri_get_scheme(uri));
            label = g_strdup(argv[2]);
            g_uri_unref(uri);
        } else if (strcmp(mode, "networkmanager") == 0 && argc == 6) {
            /* uuid id setting key */
            schema = &network_manager_schema;
            put(attributes, "connection-uuid", argv[2]);
            put(attributes, "setting-name", argv[4]);
            put(attributes, "setting-key", argv[5]);
            label = g_strdup_printf("Network secret for %s/%s/%s", argv[3], argv[4], argv[5]);
        } else if (strcmp(mode, "git") == 0 && argc == 8) {
            /* schema protocol server port path user: git 2.39's make_attr_list and make_label */
            const char *protocol = argv[3], *server = argv[4], *path = given(argv[6]);
            unsigned short port = (unsigned short)atoi(argv[5]);
            schema = strcmp(argv[2], "network") == 0 ? SECRET_SCHEMA_COMPAT_NETWORK : &git_schema;
            collection = NULL;  /* as git does: the default collection */
            put(attributes, "user", argv[7]);
            put(attributes, "protocol", protocol);
            put(attributes, "server", server);
            if (port) g_hash_table_insert(attributes, g_strdup("port"), g_strdup_printf("%hu", port));
            put(attributes, "object", path);
            label = port ? g_strdup_printf("Git: %s://%s:%hu/%s", protocol, server, port, path ? path : "")
                         : g_strdup_printf("Git: %s://%s/%s", protocol, server, path ? path : "");
        } else if (strcmp(mode, "raw") == 0 && argc >= 4 && argc % 2 == 0) {
            /* schema label key value ...: any attributes, as strings, in a schema of that name */
            GHashTable *types = g_hash_table_new(g_str_hash, g_str_equal);
            for (int i = 4; i + 1 < argc; i += 2) {
                put(attributes, argv[i], argv[i + 1]);
                g_hash_table_insert(types, argv[i], GINT_TO_POINTER(SECRET_SCHEMA_ATTRIBUTE_STRING));
            }
            schema = secret_schema_newv(argv[2], SECRET_SCHEMA_NONE, types);
            label = g_strdup(argv[3]);
        } else {
            fprintf(stderr, "other-keyring-client: unknown mode or wrong arguments\n");
            return 2;
        }
        GError *error = NULL;
        SecretValue *value = secret_value_new(secret->str, (gssize)secret->len, "text/plain");
        gboolean stored = secret_password_storev_binary_sync(schema, attributes, collection, label, value, NULL, &error);
        if (!stored) {
            fprintf(stderr, "other-keyring-client: %s\n", error ? error->message : "not stored");
            return 1;
        }
        secret_value_unref(value);
        g_hash_table_unref(attributes);
        g_free(label);
        g_string_free(secret, TRUE);
        return 0;
    }
    """#
}
