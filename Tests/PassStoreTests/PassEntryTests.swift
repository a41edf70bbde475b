import CredentialCore
import Testing
@testable import PassStore

/// How a credential is named and written in the password store, and read back: no
/// process, no store (PassHelperTests drives pass and gpg for real).
@Suite("PassEntry: entry name <-> credential, contents <-> credential")
struct PassEntryTests {
    static func credential(_ scheme: Value = "https", host: Value? = "example.com", path: Value? = nil,
                           user: Value? = "alice", password: Value? = "secret") -> Credential {
        Credential(protocol: scheme, host: host, path: path, username: user, password: password)
    }

    /// What the name alone says: the key fields, no password.
    static func keyFields(_ credential: Credential) -> Credential {
        Credential(protocol: credential.protocol, host: credential.host, path: credential.path, username: credential.username)
    }

    @Test func namesReadAsGCMNamesItsEntries() {
        #expect(PassEntry.name(of: Self.credential()) == "git/https/example.com/alice")
        #expect(PassEntry.name(of: Self.credential(host: "example.com:8443")) == "git/https/example.com:8443/alice")
        #expect(PassEntry.name(of: Self.credential(path: "org/repo.git")) == "git/https/example.com/org/repo.git/alice")
        #expect(PassEntry.name(of: Self.credential(user: "alice@corp.example")) == "git/https/example.com/alice@corp.example")
        #expect(PassEntry.hostDirectory(protocol: "https", host: "example.com:8443") == "git/https/example.com:8443")
    }

    @Test func aCredentialWithoutProtocolHasNoEntry() {
        #expect(PassEntry.name(of: Credential(host: "example.com", username: "alice")) == nil)
    }

    /// Absent and empty are different names, and neither can come out of encoding a value.
    @Test func absentEmptyAndPercentAreThreeNames() {
        let absent = PassEntry.name(of: Self.credential(host: nil, user: nil))
        let empty = PassEntry.name(of: Self.credential(host: "", user: ""))
        let percent = PassEntry.name(of: Self.credential(host: "%", user: "%none"))
        #expect(absent == "git/https/%none/%none")
        #expect(empty == "git/https/%/%")
        #expect(percent == "git/https/%25/%25none")
        #expect(Set([absent, empty, percent]).count == 3)
    }

    /// Bytes that are not plainly safe in a file name are %XX: a slash never splits a part,
    /// a leading dot never hides an entry, and names stay ASCII.
    @Test func oddBytesArePercentEncoded() {
        #expect(PassEntry.name(of: Self.credential(user: "a/b")) == "git/https/example.com/a%2Fb")
        #expect(PassEntry.name(of: Self.credential(user: ".hidden")) == "git/https/example.com/%2Ehidden")
        #expect(PassEntry.name(of: Self.credential(user: "..")) == "git/https/example.com/%2E.")
        #expect(PassEntry.name(of: Self.credential(user: "a.b")) == "git/https/example.com/a.b", "a dot inside stays")
        #expect(PassEntry.name(of: Self.credential(user: "a b\t%")) == "git/https/example.com/a%20b%09%25")
        #expect(PassEntry.name(of: Self.credential(user: "é")) == "git/https/example.com/%C3%A9")
        #expect(PassEntry.name(of: Self.credential(user: Value([0xFF, 0x00]))) == "git/https/example.com/%FF%00")
        #expect(PassEntry.name(of: Self.credential(host: "[::1]:8443")) == "git/https/%5B::1%5D:8443/alice")
        for byte in UInt8(0)...UInt8(255) {
            let name = PassEntry.name(of: Self.credential(user: Value([byte]))) ?? ""
            #expect(name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "byte \(byte): \(name)")
            #expect(name.split(separator: "/").count == 4, "byte \(byte): \(name)")
        }
    }

    /// Paths keep their slashes as directories; an empty segment is `%`.
    @Test func pathsAreDirectories() {
        #expect(PassEntry.name(of: Self.credential(path: "a//b/")) == "git/https/example.com/a/%/b/%/alice")
        #expect(PassEntry.name(of: Self.credential(path: "")) == "git/https/example.com/%/alice")
        #expect(PassEntry.name(of: Self.credential("cert", host: "", path: "etc/cert.pem", user: nil))
                == "git/cert/%/etc/cert.pem/%none")
    }

    /// Every name read back gives the credential's key fields exactly.
    @Test(arguments: [
        credential(), credential(host: "example.com:8443"), credential(path: "org/repo.git"), credential(path: "a//b/"),
        credential(path: ""), credential(host: nil, user: nil), credential(host: "", user: ""), credential(host: "%", user: "%none"),
        credential(user: "a/b"), credential(user: ".."), credential(user: "é \t%2F"), credential(user: Value([0xFF, 0x00, 0x0A])),
        credential("cert", host: "", path: "etc/cert.pem", user: nil), credential(host: "[::1]:8443", user: "x:y@z"),
    ])
    func aNameReadsBackAsItsKeyFields(credential: Credential) throws {
        let name = try #require(PassEntry.name(of: credential))
        #expect(PassEntry.credential(named: name) == Self.keyFields(credential), "\(name)")
    }

    /// Names `name(of:)` never makes are nobody's credential.
    @Test(arguments: ["", "git", "git/https", "git/https/example.com", "other/https/example.com/alice",
                      "git/%none/example.com/alice", "git/https/example.com/%4", "git/https/example.com/%zz",
                      "git/https/example.com/%none/alice"])
    func namesNeverMadeReadAsNothing(name: String) {
        #expect(PassEntry.credential(named: name) == nil, "\(name)")
    }

    /// A name read back is not stricter than the encoder: lowercase hex and plain bytes decode too.
    @Test func namesWrittenByHandDecode() {
        #expect(PassEntry.credential(named: "git/https/example.com/a%2fb")?.username == "a/b")
        #expect(PassEntry.credential(named: "git/https/example.com/ali ce")?.username == "ali ce")
    }

    // MARK: Contents

    @Test func contentsArePasswordFirstThenEveryField() {
        var credential = Self.credential(path: "org/repo")
        credential.passwordExpiryUTC = 4102444800
        credential.oauthRefreshToken = "refresh"
        #expect(PassEntry.contents(of: credential) == Array("""
            secret
            protocol: https
            host: example.com
            path: org/repo
            username: alice
            password_expiry_utc: 4102444800
            oauth_refresh_token: refresh

            """.utf8))
        #expect(PassEntry.contents(of: Credential(protocol: "https", authtype: "Bearer", credential: "token"))
                == Array("\nprotocol: https\nauthtype: Bearer\ncredential: token\n".utf8))
    }

    @Test(arguments: [
        credential(), credential(path: "a//b/"), credential(host: nil, user: nil), credential(host: "", user: "", password: ""),
        credential(user: "é", password: "pass word: with colon"), credential(password: Value([0xFF, 0xFE])),
        Credential(protocol: "https", host: "example.com", authtype: "Bearer", credential: "token"),
        Credential(protocol: "https", host: "example.com", username: "alice", password: "p", passwordExpiryUTC: 4102444800, oauthRefreshToken: "r"),
    ])
    func contentsReadBackAsTheCredential(credential: Credential) {
        #expect(PassEntry.credential(from: PassEntry.contents(of: credential)) == credential)
    }

    /// A field given twice says two things: the whole text is the password, which never answers.
    @Test func aFieldGivenTwiceMakesTheWholeTextThePassword() throws {
        let text = Array("secret\nprotocol: https\nhost: example.com\nhost: evil.example\nusername: alice\n".utf8)
        let read = try #require(PassEntry.credential(from: text))
        #expect(read.password == Value(text) && read.passwordExpiryUTC == StoredExpiry.unreadable)
        #expect(read.host == "evil.example" && read.username == "alice")
    }

    @Test func unknownLinesAndLinesWithoutColonAreIgnored() throws {
        let read = try #require(PassEntry.credential(from: Array("pw\nnote: hello\nfree text\nprotocol:https\nhost: h\n".utf8)))
        #expect(read == Credential(protocol: "https", host: "h", password: "pw"))
    }

    @Test func anEmptyFirstLineIsAnEmptyPasswordUnlessACredentialStandsForIt() throws {
        #expect(PassEntry.credential(from: Array("\nprotocol: https\n".utf8))?.password == "")
        #expect(PassEntry.credential(from: Array("\nprotocol: https\ncredential: t\n".utf8))?.password == nil)
    }

    /// GCM's entries: service=URL and account=USER; anything else is not git's.
    @Test func gcmEntriesAreRead() throws {
        let gcm = try #require(PassEntry.credential(from: Array("gho_x\nservice=https://github.com:8443/org\naccount=alice\n".utf8)))
        #expect(gcm == Credential(protocol: "https", host: "github.com:8443", path: "org", username: "alice", password: "gho_x"))
        #expect(PassEntry.credential(from: Array("gho_x\nSERVICE=https://github.com\n".utf8))?.host == "github.com", "keys in any case")
        #expect(PassEntry.credential(from: Array("gho_x\nservice=https://bob:pw@github.com\n".utf8)) == nil, "a password in the URL")
        #expect(PassEntry.credential(from: Array("gho_x\nservice=not a url\n".utf8)) == nil)
        #expect(PassEntry.credential(from: Array("just a password\n".utf8)) == nil)
        #expect(PassEntry.credential(from: []) == nil)
    }
}
