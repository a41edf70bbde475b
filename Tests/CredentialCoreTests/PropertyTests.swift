import PropertyBased
import Testing
@testable import CredentialCore

/// Generators for the properties below.
enum Generators {
    static let anyByte = Gen<UInt8>.value(in: 0...255)
    /// Any byte but LF, CR and NUL (those become '@', 'J' and 'M').
    static let lineByte = anyByte.map { $0 == 0 || $0 == 0x0A || $0 == 0x0D ? $0 | 0x40 : $0 }
    /// Bytes that matter to the parser, often, and any byte sometimes.
    static let trickyByte = Gen.frequency(
        (weight: 3, gen: Gen<UInt8?>.element(of: bytes("=\n\r\0%:@/?#[] a0A") + [0xFF, 0xC3]).map { $0! }),
        (weight: 1, gen: anyByte))

    static let value = lineByte.array(of: 0...12).map { Value($0) }
    static let optionalValue = value.optional
    static let nonEmptyValue = lineByte.array(of: 1...8).map { Value($0) }
    /// Values from a tiny alphabet, so that generated fields often coincide.
    static let smallOptionalValue = Gen<Character?>.element(of: Array("ab")).map { $0! }.string(of: 0...2).map { Value($0) }.optional
    static let anyValue = anyByte.array(of: 0...6).map { Value($0) }.optional

    /// A credential whose every part can be written in the wire format.
    static let credential = zip(
        zip(optionalValue, optionalValue, optionalValue, optionalValue, optionalValue),
        zip(Gen<UInt64>.value(in: 1...UInt64.max).optional, optionalValue, optionalValue, optionalValue),
        nonEmptyValue.array(of: 0...3), Gen.bool
    ).map { keys, rest, capabilities, ephemeral in
        var credential = Credential(
            protocol: keys.0, host: keys.1, path: keys.2, username: keys.3, password: keys.4,
            passwordExpiryUTC: rest.0, oauthRefreshToken: rest.1, authtype: rest.2, credential: rest.3)
        credential.capabilities = capabilities
        credential.ephemeral = ephemeral
        return credential
    }

    /// Stored items whose fields may collide with each other.
    static let item = zip(
        smallOptionalValue, smallOptionalValue, smallOptionalValue, smallOptionalValue,
        smallOptionalValue, smallOptionalValue
    ).map { p, h, path, u, pw, c in
        Credential(protocol: p, host: h, path: path, username: u, password: pw, credential: c)
    }

    static let keyName = Gen<String?>.element(of: [
        "protocol", "host", "path", "username", "password", "password_expiry_utc", "oauth_refresh_token",
        "authtype", "credential", "ephemeral", "capability[]", "state[]", "wwwauth[]", "url", "", "x",
    ]).map { $0! }
    /// Mostly `key=value` lines, with every hazard in the values, and raw bytes.
    static let request = Gen.frequency(
        (weight: 3, gen: zip(keyName, trickyByte.array(of: 0...20)).map { key, value in bytes(key + "=") + value }
            .array(of: 0...8).map { Array($0.joined(separator: [0x0A])) }),
        (weight: 1, gen: trickyByte.array(of: 0...64)),
        (weight: 1, gen: anyByte.array(of: 0...64)))
}

@Suite("Properties")
struct PropertyTests {
    @Test func requestRoundTripsThroughParse() async {
        await propertyCheck(count: 300, input: Generators.credential) { credential in
            let parsed = try WireFormat.parse(WireFormat.request(credential))
            #expect(parsed == credential)
        }
    }

    @Test func parseAnswersEveryInputWithACredentialOrAProtocolError() async {
        await propertyCheck(count: 1000, input: Generators.request) { input in
            switch Result(catching: { () throws(ProtocolError) in try WireFormat.parse(input) }) {
            case .success(let credential):
                let values = [credential.protocol, credential.host, credential.path, credential.username, credential.password,
                              credential.oauthRefreshToken, credential.authtype, credential.credential].compactMap { $0 }
                    + credential.capabilities + credential.state + credential.wwwauth
                #expect(values.allSatisfy { isWritable($0.bytes) })
            case .failure(let error):
                #expect(error.message.hasPrefix("line "))
            }
        }
    }

    @Test func wwwauthNeverSetsAnotherField() async {
        await propertyCheck(input: Generators.value) { header in
            let parsed = try WireFormat.parse(bytes("protocol=https\nwwwauth[]=") + header.bytes + [0x0A])
            var expected = Credential(protocol: "https")
            expected.wwwauth = header.isEmpty ? [] : [header]
            #expect(parsed == expected)
        }
    }

    @Test func responseLeavesOutExactlyTheValuesThatAreNotOneLine() async {
        await propertyCheck(input: Generators.anyValue, Generators.anyValue, Generators.anyValue, Generators.anyValue) {
            username, password, refresh, token in
            let item = Credential(
                protocol: "https", host: "example.com", username: username, password: password,
                oauthRefreshToken: refresh, authtype: "Bearer", credential: token)
            var request = Credential(protocol: "https", host: "example.com")
            request.capabilities = ["authtype"]
            let parsed = try WireFormat.parse(WireFormat.response(item, for: request))
            func kept(_ value: Value?) -> Value? { value.flatMap { $0.isWritable ? $0 : nil } }
            #expect(parsed.username == kept(username))
            #expect(parsed.password == kept(password))
            #expect(parsed.oauthRefreshToken == kept(refresh))
            #expect(parsed.credential == kept(token))
        }
    }

    @Test func expiryIsTheLeadingNumberWhateverFollows() async {
        await propertyCheck(input: Gen<UInt64>.value(in: 1...UInt64.max), Generators.value) { expiry, suffix in
            let tail = suffix.bytes.drop { (0x30...0x39).contains($0) }
            let parsed = try WireFormat.parse(bytes("password_expiry_utc=\(expiry)") + tail)
            #expect(parsed.passwordExpiryUTC == expiry)
        }
    }

    @Test func base64DecodeInvertsEncode() async {
        await propertyCheck(count: 300, input: Generators.anyByte.array(of: 0...100)) { data in
            let encoded = Base64.encode(data)
            #expect(encoded.utf8.count == (data.count + 2) / 3 * 4)
            #expect(Base64.decode(encoded) == data)
        }
    }

    @Test func itemMatchesEveryRequestMadeOfItsOwnFields() async {
        await propertyCheck(count: 300, input: Generators.item, Gen<UInt8>.value(in: 0...63)) { item, mask in
            func pick(_ bit: Int, _ value: Value?) -> Value? { mask & (1 << bit) != 0 ? value : nil }
            let request = Credential(
                protocol: pick(0, item.protocol), host: pick(1, item.host), path: pick(2, item.path),
                username: pick(3, item.username), password: pick(4, item.password), credential: pick(5, item.credential))
            #expect(item.isMatched(by: request, for: .lookup))
            #expect(item.isMatched(by: request, for: .erase))
            #expect(item.hasSameKey(as: item))
        }
    }

    @Test func itemNeverMatchesARequestThatDiffersInOneField() async {
        await propertyCheck(count: 300, input: Generators.item, Gen.int(in: 0...5)) { item, field in
            // Differ: one byte more than the stored value, or empty where it is absent.
            func other(_ value: Value?) -> Value { value.map { Value($0.bytes + [0x21]) } ?? "" }
            var request = Credential()
            switch field {
            case 0: request.protocol = other(item.protocol)
            case 1: request.host = other(item.host)
            case 2: request.path = other(item.path)
            case 3: request.username = other(item.username)
            case 4: request.password = other(item.password)
            default: request.credential = other(item.credential)
            }
            #expect(!item.isMatched(by: request, for: .erase))
            #expect(item.isMatched(by: request, for: .lookup) == (field >= 4))
        }
    }
}
