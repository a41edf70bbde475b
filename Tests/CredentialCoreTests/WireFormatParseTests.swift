import Testing
@testable import CredentialCore

@Suite("WireFormat.parse: what a request sets")
struct WireFormatParseTests {
    @Test func everyAttributeKeyIsRead() throws {
        let request = try parse("""
            capability[]=authtype
            protocol=https
            host=example.com:8443
            path=org/repo.git
            username=alice
            password=s3cret
            password_expiry_utc=1700000000
            oauth_refresh_token=refresh-me
            authtype=Bearer
            credential=token123
            ephemeral=true
            state[]=helper:abc
            continue=1
            wwwauth[]=Basic realm="example"

            """)
        #expect(request.capabilities == ["authtype"])
        #expect(request.protocol == "https")
        #expect(request.host == "example.com:8443")
        #expect(request.path == "org/repo.git")
        #expect(request.username == "alice")
        #expect(request.password == "s3cret")
        #expect(request.passwordExpiryUTC == 1_700_000_000)
        #expect(request.oauthRefreshToken == "refresh-me")
        #expect(request.authtype == "Bearer")
        #expect(request.credential == "token123")
        #expect(request.ephemeral)
        #expect(request.state == ["helper:abc"])
        #expect(request.wwwauth == [#"Basic realm="example""#])
    }

    @Test func absentKeysStayNil() throws {
        let request = try parse("protocol=https\nhost=example.com\n")
        #expect(request == Credential(protocol: "https", host: "example.com"))
        #expect(request.username == nil && request.password == nil && request.path == nil)
        #expect(!request.ephemeral)
    }

    @Test(arguments: valueKeys)
    func emptyValueIsNotAbsent(key: String) throws {
        let request = try parse("\(key)=\n")
        #expect(field(key, of: request) == Value(""))
        #expect(field(key, of: try parse("unrelated=\n")) == nil)
    }

    @Test(arguments: valueKeys)
    func lastValueWinsForSingleKeys(key: String) throws {
        let request = try parse("\(key)=first\n\(key)=second\n\(key)=third\n")
        #expect(field(key, of: request) == "third")
    }

    @Test func lastEmptyValueWins() throws {
        #expect(try parse("username=alice\nusername=\n").username == "")
    }

    @Test func valueKeepsEveryByteAfterTheFirstEquals() throws {
        let request = try parse("password= a=b== \nusername=\t\n")
        #expect(request.password == " a=b== ")
        #expect(request.username == "\t")
    }

    @Test func valueNeedNotBeUTF8() throws {
        let request = try WireFormat.parse(bytes("password=") + [0xFF, 0xFE, 0x80, 0xC3] + bytes("\n"))
        #expect(request.password == Value([0xFF, 0xFE, 0x80, 0xC3]))
    }

    @Test func keysAreCaseSensitive() throws {
        #expect(try parse("Host=example.com\nPROTOCOL=https\n") == Credential())
    }

    @Test func listKeysKeepTheirOrder() throws {
        let request = try parse("""
            capability[]=authtype
            capability[]=state
            wwwauth[]=Bearer realm="a"
            wwwauth[]=Basic realm="b"
            state[]=one
            state[]=two

            """)
        #expect(request.capabilities == ["authtype", "state"])
        #expect(request.wwwauth == [#"Bearer realm="a""#, #"Basic realm="b""#])
        #expect(request.state == ["one", "two"])
    }

    @Test(arguments: ["capability[]", "wwwauth[]", "state[]"])
    func emptyListValueClearsTheList(key: String) throws {
        let request = try parse("\(key)=a\n\(key)=b\n\(key)=\n\(key)=c\n")
        let list = switch key {
        case "capability[]": request.capabilities
        case "wwwauth[]": request.wwwauth
        default: request.state
        }
        #expect(list == ["c"])
    }

    @Test func capabilityClearedAtTheEndLeavesNone() throws {
        let request = try parse("capability[]=authtype\ncapability[]=\nprotocol=https\n")
        #expect(request.capabilities.isEmpty)
        #expect(!request.hasCapability(Capability.authtype))
    }

    @Test func unknownKeysAreIgnored() throws {
        let request = try parse("""
            future_key=whatever
            protocol=https
            =no key at all
            password_expiry=12
            host[]=not-a-host
            hostname=not-a-host
            x=y=z

            """)
        #expect(request == Credential(protocol: "https"))
    }

    @Test func keysThatOnlyLookLikeKnownKeysAreIgnored() throws {
        let request = try WireFormat.parse(
            bytes("host") + [0xFF] + bytes("=evil\n") + bytes(" host=evil\nhost =evil\nh\u{00F6}st=evil\nprotocol=https\n"))
        #expect(request == Credential(protocol: "https"))
    }

    @Test func unknownCapabilitiesAreKeptButNotMistakenForAuthtype() throws {
        let request = try parse("capability[]=state\ncapability[]=authtype2\n")
        #expect(!request.hasCapability(Capability.authtype))
    }

    @Test func wwwauthContentNeverSetsOtherKeys() throws {
        let request = try parse("""
            protocol=https
            wwwauth[]=host=evil
            wwwauth[]=Basic realm="x", host=evil, username=mallory
            wwwauth[]=password=gotcha

            """)
        #expect(request.host == nil)
        #expect(request.username == nil)
        #expect(request.password == nil)
        #expect(request.wwwauth.count == 3)
        #expect(request.wwwauth[0] == "host=evil")
    }

    @Test func inputEndsAtTheFirstBlankLine() throws {
        let request = try parse("protocol=https\nhost=example.com\n\nhost=evil\nusername=mallory\n")
        #expect(request == Credential(protocol: "https", host: "example.com"))
    }

    @Test func bytesAfterTheBlankLineAreNotLookedAt() throws {
        // None of these would be accepted as part of the request.
        let junk = bytes("no equals sign\r\n") + [0] + bytes(filler(70_000))
        let request = try WireFormat.parse(bytes("protocol=https\n\n") + junk)
        #expect(request == Credential(protocol: "https"))
    }

    @Test func leadingBlankLineEndsAnEmptyRequest() throws {
        #expect(try parse("\nprotocol=https\n") == Credential())
    }

    @Test func inputMayEndAtEOFWithoutABlankLine() throws {
        #expect(try parse("protocol=https\nhost=example.com\n") == Credential(protocol: "https", host: "example.com"))
    }

    @Test func finalLineWithoutLFIsAccepted() throws {
        #expect(try parse("protocol=https\nhost=example.com") == Credential(protocol: "https", host: "example.com"))
        #expect(try parse("username=").username == "")
    }

    @Test func emptyInputIsAnEmptyRequest() throws {
        #expect(try WireFormat.parse([]) == Credential())
    }

    @Test func urlResetsEveryEarlierField() throws {
        let request = try parse("""
            capability[]=authtype
            protocol=http
            host=old.example
            path=old/path
            username=bob
            password=old
            password_expiry_utc=5
            oauth_refresh_token=old-refresh
            authtype=Bearer
            credential=old-token
            ephemeral=true
            wwwauth[]=Basic
            url=https://example.com/repo.git
            password=new

            """)
        var expected = Credential(protocol: "https", host: "example.com", path: "repo.git")
        expected.password = "new"
        #expect(request == expected)
    }

    @Test func fieldsAfterURLOverrideIt() throws {
        let request = try parse("url=https://alice:one@example.com\nusername=bob\nhost=other.example\n")
        #expect(request == Credential(protocol: "https", host: "other.example", username: "bob", password: "one"))
    }
}
