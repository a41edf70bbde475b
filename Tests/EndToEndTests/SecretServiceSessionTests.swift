import Foundation
import Testing

/// Secrets cross the session bus encrypted, in the session the helper opens itself
/// ("dh-ietf1024-sha256-aes128-cbc-pkcs7"; SecretSession.swift): any program of the same
/// user can watch the bus (dbus-monitor needs no privilege there), so a "plain" session
/// would show it every password stored or read.
@Suite struct SecretServiceSessionTests {
    @Test func noSecretCrossesTheBusInClear() throws {
        let world = try KeyringWorld(), sandbox = world.sandbox, session = world.session
        let helper = world.secretService, tool = world.secretTool
        let host = "session-\(UUID().uuidString.prefix(8)).example.com", password = "pw-\(UUID().uuidString)"
        let theirs = "theirs-\(UUID().uuidString)"
        try tool.store(label: "Git: https://\(host)/", secret: theirs, schema: "org.git.Password",
                       ["protocol": "https", "server": host, "user": "bob"])

        let monitor = try SecretRequests(sandbox: sandbox, bus: session.bus, methods: nil)
        let request = wire("protocol=https", "host=\(host)", "username=alice", "password=\(password)")
        expectSuccess(try helper.store(request))
        expectSuccess(try helper.store(request))  // unchanged: compared with the stored secret, which is read
        #expect(try helper.password(for: wire("protocol=https", "host=\(host)", "username=alice")) == password)
        #expect(try helper.password(for: wire("protocol=https", "host=\(host)", "username=bob")) == theirs)
        let listed = try helper.list()
        #expect(listed.exitCode == 0 && listed.stdoutText.contains(host), "\(listed)")
        let seen = monitor.stopAndRead()

        #expect(seen.contains("string \"dh-ietf1024-sha256-aes128-cbc-pkcs7\""), "no session opened? \(seen.prefix(2000))")
        #expect(!seen.contains("string \"plain\""))
        #expect(seen.contains("member=GetSecrets") && seen.contains("member=CreateItem"))
        // dbus-monitor shows bytes as text when they all are printable, else in hex.
        let hex = seen.filter { !$0.isWhitespace }.lowercased()
        for secret in [password, theirs] {
            #expect(!seen.contains(secret), "a secret in clear on the bus")
            #expect(!hex.contains(secret.utf8.map { String(format: "%02x", $0) }.joined()), "a secret in clear on the bus, in hex")
        }
        // What libsecret's clients read is what was stored, through their own sessions.
        #expect(try tool.lookup(["server": host, "user": "alice"]) == password)
    }
}
