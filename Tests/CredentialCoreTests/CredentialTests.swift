import Testing
@testable import CredentialCore

@Suite("Value, Credential and Capability")
struct CredentialTests {
    static let full: Credential = {
        var credential = Credential(
            protocol: "https", host: "example.com", path: "repo", username: "alice", password: "s3cret",
            passwordExpiryUTC: 100, oauthRefreshToken: "refresh", authtype: "Bearer", credential: "token")
        credential.capabilities = ["authtype"]
        credential.state = ["state"]
        credential.wwwauth = ["Basic"]
        credential.ephemeral = true
        return credential
    }()

    @Test func valueKeepsBytesAndIsWritableOnlyWithoutLFCRAndNul() {
        #expect(Value("héllo").bytes == [0x68, 0xC3, 0xA9, 0x6C, 0x6C, 0x6F])
        #expect(Value([0xFF, 0x3D, 0x20]).isWritable)
        #expect(Value("").isWritable && Value("").isEmpty)
        #expect(!Value("a\nb").isWritable)
        #expect(!Value("a\rb").isWritable)
        #expect(!Value([0x61, 0]).isWritable)
    }

    @Test func valueTextRepairsInvalidUTF8() {
        #expect(Value([0x61, 0xFF, 0x62]).text == "a\u{FFFD}b")
    }

    @Test func emptyAndAbsentAreDifferentCredentials() {
        #expect(Credential(username: "") != Credential())
    }

    @Test func expiredOnlyStrictlyBeforeNow() {
        let credential = Credential(passwordExpiryUTC: 100)
        #expect(!credential.isExpired(now: 99))
        #expect(!credential.isExpired(now: 100))
        #expect(credential.isExpired(now: 101))
        #expect(!Credential().isExpired(now: .max))
    }

    @Test func storableKeepsKeyFieldsAndSecretsOnly() {
        let storable = Self.full.storable
        #expect(storable == Credential(
            protocol: "https", host: "example.com", path: "repo", username: "alice", password: "s3cret",
            passwordExpiryUTC: 100, oauthRefreshToken: "refresh", authtype: "Bearer", credential: "token"))
        #expect(storable.capabilities.isEmpty && storable.state.isEmpty && storable.wwwauth.isEmpty && !storable.ephemeral)
    }

    @Test func withoutSecretsDropsEverySecret() {
        let listed = Self.full.withoutSecrets
        #expect(listed.password == nil && listed.oauthRefreshToken == nil && listed.credential == nil)
        #expect(listed.protocol == "https" && listed.host == "example.com" && listed.path == "repo" && listed.username == "alice")
        #expect(listed.passwordExpiryUTC == 100 && listed.authtype == "Bearer")
    }

    @Test func hasCapabilityIsExact() {
        var credential = Credential()
        credential.capabilities = ["state", "authtypes", "Authtype"]
        #expect(!credential.hasCapability(Capability.authtype))
        credential.capabilities.append("authtype")
        #expect(credential.hasCapability(Capability.authtype))
    }

    @Test func capabilityAnnouncement() {
        #expect(Capability.announcement == "version 0\ncapability authtype\n")
    }
}
