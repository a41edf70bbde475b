import Testing
@testable import CredentialCore

@Suite("WireFormat.response and WireFormat.request")
struct WireFormatWriteTests {
    static let plainRequest = Credential(protocol: "https", host: "example.com")
    static var authtypeRequest: Credential {
        var request = plainRequest
        request.capabilities = ["authtype", "state"]
        return request
    }

    static let fullItem = Credential(
        protocol: "https", host: "example.com", path: "repo", username: "alice", password: "s3cret",
        passwordExpiryUTC: 1_700_000_000, oauthRefreshToken: "refresh", authtype: "Bearer", credential: "token")

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    // MARK: response

    @Test func responseListsTheSecretsInOrderWithoutKeyFields() {
        let out = WireFormat.response(Self.fullItem, for: Self.plainRequest)
        #expect(Self.text(out) == """
            username=alice
            password=s3cret
            password_expiry_utc=1700000000
            oauth_refresh_token=refresh

            """)
    }

    @Test func responseLeavesOutAbsentFieldsButKeepsEmptyOnes() {
        let item = Credential(protocol: "https", host: "example.com", username: "", password: "")
        #expect(Self.text(WireFormat.response(item, for: Self.plainRequest)) == "username=\npassword=\n")
    }

    @Test func responseAnnouncesAuthtypeFirstWhenTheRequestCarriedIt() {
        let out = WireFormat.response(Self.fullItem, for: Self.authtypeRequest)
        #expect(Self.text(out) == """
            capability[]=authtype
            authtype=Bearer
            credential=token
            username=alice
            password=s3cret
            password_expiry_utc=1700000000
            oauth_refresh_token=refresh

            """)
    }

    @Test func responseWithholdsAuthtypeFromARequestWithoutTheCapability() {
        let out = Self.text(WireFormat.response(Self.fullItem, for: Self.plainRequest))
        #expect(!out.contains("capability[]"))
        #expect(!out.contains("authtype="))
        #expect(!out.contains("credential="))
    }

    @Test func responseDoesNotAnnounceAuthtypeForAnItemWithoutCredential() {
        let item = Credential(protocol: "https", host: "example.com", username: "alice", password: "pw")
        #expect(Self.text(WireFormat.response(item, for: Self.authtypeRequest)) == "username=alice\npassword=pw\n")
    }

    @Test func responseDoesNotEchoOtherCapabilities() {
        var request = Self.plainRequest
        request.capabilities = ["state", "future"]
        let out = Self.text(WireFormat.response(Self.fullItem, for: request))
        #expect(!out.contains("capability"))
    }

    @Test(arguments: [[0x0A], [0x0D], [0x00], [0x0D, 0x0A]] as [[UInt8]])
    func responseLeavesOutValuesThatAreNotOneLine(bad: [UInt8]) {
        let hostile = Value(bytes("x") + bad + bytes("host=evil"))
        var item = Self.fullItem
        item.password = hostile
        item.oauthRefreshToken = hostile
        let out = WireFormat.response(item, for: Self.plainRequest)
        #expect(Self.text(out) == "username=alice\npassword_expiry_utc=1700000000\n")

        item = Self.fullItem
        item.username = hostile
        item.credential = hostile
        let withCapability = WireFormat.response(item, for: Self.authtypeRequest)
        #expect(!withCapability.contains(0) && !withCapability.contains(0x0D))
        #expect(!Self.text(withCapability).contains("host=evil"))
        #expect(!Self.text(withCapability).contains("username="))
    }

    @Test func responseParsesBackToTheItemsSecrets() throws {
        let parsed = try WireFormat.parse(WireFormat.response(Self.fullItem, for: Self.authtypeRequest))
        #expect(parsed.username == "alice")
        #expect(parsed.password == "s3cret")
        #expect(parsed.passwordExpiryUTC == 1_700_000_000)
        #expect(parsed.oauthRefreshToken == "refresh")
        #expect(parsed.authtype == "Bearer")
        #expect(parsed.credential == "token")
        #expect(parsed.capabilities == ["authtype"])
    }

    // MARK: request

    @Test func requestWritesCapabilitiesFirstAndEndsWithABlankLine() {
        var credential = Self.fullItem
        credential.capabilities = ["authtype"]
        credential.ephemeral = true
        #expect(Self.text(WireFormat.request(credential)) == """
            capability[]=authtype
            protocol=https
            host=example.com
            path=repo
            username=alice
            password=s3cret
            password_expiry_utc=1700000000
            oauth_refresh_token=refresh
            authtype=Bearer
            credential=token
            ephemeral=true


            """)
    }

    @Test func requestOfAnEmptyCredentialIsABlankLine() {
        #expect(WireFormat.request(Credential()) == [0x0A])
    }

    @Test func requestRoundTripsThroughParse() throws {
        var credential = Self.fullItem
        credential.capabilities = ["authtype", "state"]
        credential.ephemeral = true
        #expect(try WireFormat.parse(WireFormat.request(credential)) == credential)

        let sparse = Credential(protocol: "cert", host: "", path: "/home/me/cert.p12", username: "")
        #expect(try WireFormat.parse(WireFormat.request(sparse)) == sparse)
    }

    /// git dies rather than write such a value (credential_write_item); a request must
    /// never let a value become extra lines that set other keys.
    @Test(arguments: [[0x0A], [0x0D], [0x00]] as [[UInt8]])
    func requestNeverSplitsAValueIntoExtraLines(bad: [UInt8]) throws {
        let credential = Credential(
            protocol: "https", host: "example.com", username: "alice",
            password: Value(bytes("pw") + bad + bytes("host=evil")))
        let out = WireFormat.request(credential)
        #expect(!out.contains(0) && !out.contains(0x0D))
        #expect(!Self.text(out).contains("\nhost=evil"))
        let parsed = try WireFormat.parse(out)
        #expect(parsed.host == "example.com")
    }
}
