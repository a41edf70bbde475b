import Foundation
import Testing

/// A Secret Service that answers, but not as gnome-keyring does, and another program on
/// the same bus: neither may keep a helper, and so git, waiting (attack findings, stop 20).
@Suite struct SecretServiceHostileServiceTests {
    let sandbox: Sandbox
    let bus: PrivateSessionBus

    init() throws {
        sandbox = try Sandbox()
        bus = try PrivateSessionBus(sandbox: sandbox, services: .none)
    }

    /// A helper run against `service` (the program below, in that mode), with `spam` running too.
    func run(_ service: String, spam: Bool = false, _ body: (SecretServiceHelper) throws -> Void) throws {
        let program = try Self.program()
        let environment = sandbox.environment.merging(bus.bus.environment) { $1 }
        let fake = try BackgroundProcess(program, [service], environment: environment)
        #expect(try fake.firstLine(timeout: 10) == "ready")
        let spammer = spam ? try BackgroundProcess(program, ["spam"], environment: environment) : nil
        defer { spammer?.stop(); fake.stop() }
        try body(SecretServiceHelper(sandbox: sandbox, bus: bus.bus))
    }

    /// CreateItem asks for a prompt that never completes: libsecret, cancelled by our
    /// watchdog, sent Dismiss and then waited for ever for the Completed signal.
    @Test func aPromptThatNeverCompletesEndsTheStore() throws {
        try run("prompt") { helper in
            let start = Date()
            let result = try helper.store(wire("protocol=https", "host=x.example", "username=u", "password=never-shown"))
            #expect(Date().timeIntervalSince(start) < 20, "took \(Date().timeIntervalSince(start)) s")
            #expect(result.exitCode == 1 && result.stderrLines.count == 1
                    && result.stderrText.contains("no one answered the Secret Service's prompt within 5 seconds"), "\(result)")
            #expect(!result.stderrText.contains("never-shown"))
        }
    }

    /// A search the service never answers, while another program sends the helper replies
    /// to calls it never made: those restarted the 5-second clock (25 s: GDBus's own limit).
    @Test func anotherProgramsRepliesDoNotKeepAHelperWaiting() throws {
        try run("wedged", spam: true) { helper in
            let start = Date()
            let result = try helper.get(wire("protocol=https", "host=x.example"))
            #expect(Date().timeIntervalSince(start) < 12, "took \(Date().timeIntervalSince(start)) s: \(result)")
            #expect(result.exitCode == 0 && result.stdout.isEmpty, "\(result)")
        }
    }

    /// gnome-keyring learns of a new caller in an idle callback that races its first calls,
    /// and answers one that loses "Method SearchItems is not implemented" (an erase in CI,
    /// four helpers at once, exit 1). `late` answers each caller's first search so: the
    /// helper asks once more, and neither get nor erase says anything.
    @Test func aServiceThatDoesNotYetKnowTheCallerIsAskedOnceMore() throws {
        try run("late") { helper in
            let got = try helper.get(wire("protocol=https", "host=x.example"))
            #expect(got.exitCode == 0 && got.stdout.isEmpty && got.stderr.isEmpty, "\(got)")
            let erased = try helper.erase(wire("protocol=https", "host=x.example", "username=u"))
            #expect(erased.exitCode == 0 && erased.stderr.isEmpty, "\(erased)")
        }
    }

    private static let compiled = CompiledProgram(name: "hostile-secret-service", source: source, package: "gio-2.0")

    static func program() throws -> String { try compiled.path() }

    /// `prompt`: owns org.freedesktop.secrets, finds nothing, and answers CreateItem with a
    /// prompt whose Prompt and Dismiss it acknowledges but never completes. `wedged`: never
    /// answers a search. `late`: answers each caller's first search as gnome-keyring does
    /// when it has not registered the caller yet. `spam`: sends every other program on the bus method replies and
    /// errors to calls they never made, five times a second.
    static let source = #"""
    #include <gio/gio.h>
    #include <stdio.h>
    #include <string.h>

    static const char *mode;

    static GDBusMessage *serve(GDBusConnection *bus, GDBusMessage *call, gboolean incoming, gpointer data) {
        (void)data;
        if (!incoming || g_dbus_message_get_message_type(call) != G_DBUS_MESSAGE_TYPE_METHOD_CALL) return call;
        if (g_strcmp0(g_dbus_message_get_sender(call), "org.freedesktop.DBus") == 0) return call;
        const char *method = g_dbus_message_get_member(call);
        if (strcmp(method, "SearchItems") == 0 && strcmp(mode, "wedged") == 0) return NULL;
        static GHashTable *searched = NULL;
        if (searched == NULL) searched = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        if (strcmp(method, "SearchItems") == 0 && strcmp(mode, "late") == 0
            && g_hash_table_add(searched, g_strdup(g_dbus_message_get_sender(call)))) {
            GDBusMessage *error = g_dbus_message_new_method_error(call, "org.freedesktop.DBus.Error.UnknownMethod",
                "Method SearchItems is not implemented on interface org.freedesktop.Secret.Service");
            g_dbus_connection_send_message(bus, error, 0, NULL, NULL);
            g_object_unref(error);
            return NULL;
        }
        GDBusMessage *reply = g_dbus_message_new_method_reply(call);
        GVariant *body = NULL;
        if (strcmp(method, "GetAll") == 0) {
            body = g_variant_new("(@a{sv})", g_variant_new_array(G_VARIANT_TYPE("{sv}"), NULL, 0));
        } else if (strcmp(method, "SearchItems") == 0) {
            body = g_variant_new("(@ao@ao)", g_variant_new_array(G_VARIANT_TYPE_OBJECT_PATH, NULL, 0),
                                 g_variant_new_array(G_VARIANT_TYPE_OBJECT_PATH, NULL, 0));
        } else if (strcmp(method, "OpenSession") == 0) {
            guint8 key[128];
            memset(key, 7, sizeof key);
            body = g_variant_new("(vo)", g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, key, sizeof key, 1),
                                 "/org/freedesktop/secrets/session/s1");
        } else if (strcmp(method, "CreateItem") == 0) {
            body = g_variant_new("(oo)", "/", "/org/freedesktop/secrets/prompt/p1");
        } else if (strcmp(method, "ReadAlias") == 0) {
            body = g_variant_new("(o)", "/org/freedesktop/secrets/collection/login");
        } else if (strcmp(method, "Prompt") != 0 && strcmp(method, "Dismiss") != 0 && strcmp(method, "Close") != 0) {
            g_object_unref(reply);
            reply = g_dbus_message_new_method_error(call, "org.freedesktop.DBus.Error.UnknownMethod", "not here");
        }
        if (body != NULL) g_dbus_message_set_body(reply, body);
        g_dbus_connection_send_message(bus, reply, 0, NULL, NULL);
        g_object_unref(reply);
        return NULL;
    }

    static void spam(GDBusConnection *bus) {
        const char *self = g_dbus_connection_get_unique_name(bus);
        for (guint32 serial = 1000000;; serial++) {
            GVariant *names = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus", "ListNames", NULL, G_VARIANT_TYPE("(as)"), 0, -1, NULL, NULL);
            GVariantIter *iterator;
            const char *name;
            g_variant_get(names, "(as)", &iterator);
            while (g_variant_iter_next(iterator, "&s", &name)) {
                if (name[0] != ':' || strcmp(name, self) == 0) continue;
                for (int error = 0; error < 2; error++) {
                    GDBusMessage *message = g_dbus_message_new();
                    g_dbus_message_set_message_type(message, error ? G_DBUS_MESSAGE_TYPE_ERROR : G_DBUS_MESSAGE_TYPE_METHOD_RETURN);
                    g_dbus_message_set_flags(message, G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED);
                    g_dbus_message_set_reply_serial(message, serial);
                    if (error) {
                        g_dbus_message_set_error_name(message, "org.example.Error");
                        g_dbus_message_set_body(message, g_variant_new("(s)", "unasked"));
                    }
                    g_dbus_message_set_destination(message, name);
                    g_dbus_connection_send_message(bus, message, 0, NULL, NULL);
                    g_object_unref(message);
                }
            }
            g_variant_iter_free(iterator);
            g_variant_unref(names);
            g_usleep(200000);
        }
    }

    int main(int argc, char **argv) {
        mode = argc > 1 ? argv[1] : "prompt";
        GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL);
        if (bus == NULL) return 1;
        if (strcmp(mode, "spam") == 0) spam(bus);
        g_dbus_connection_add_filter(bus, serve, NULL, NULL);
        GVariant *owned = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "RequestName", g_variant_new("(su)", "org.freedesktop.secrets", 4), G_VARIANT_TYPE("(u)"), 0, -1, NULL, NULL);
        guint32 result = 0;
        if (owned != NULL) g_variant_get(owned, "(u)", &result);
        if (result != 1) return 1;
        printf("ready\n");
        fflush(stdout);
        g_main_loop_run(g_main_loop_new(NULL, FALSE));
        return 0;
    }
    """#
}
