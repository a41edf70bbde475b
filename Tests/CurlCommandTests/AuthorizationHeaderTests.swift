import CredentialCore
@testable import CurlCommand
import Testing

/// The header made of git's answer, and the curl config it goes in: no process.
@Suite struct AuthorizationHeaderTests {
    /// The header for an answer of these lines, or why there is none.
    static func header(_ lines: [String]) throws -> Result<String, HelperError> {
        let credential = try WireFormat.parse(Array((lines.joined(separator: "\n") + "\n\n").utf8))
        do throws(HelperError) {
            return .success(try AuthorizationHeader.of(credential).header)
        } catch {
            return .failure(error)
        }
    }

    @Test func aHelpersAuthtypeAndCredentialComeBeforeBasic() throws {
        #expect(try Self.header(["authtype=Bearer", "credential=tok.en-1", "username=a", "password=b"]) == .success("Authorization: Bearer tok.en-1"))
        #expect(try Self.header(["username=alice", "password=pw"]) == .success("Authorization: Basic YWxpY2U6cHc="))
        // One of the two alone is no bearer credential: Basic, from username and password.
        #expect(try Self.header(["authtype=Bearer", "username=alice", "password=pw"]) == .success("Authorization: Basic YWxpY2U6cHc="))
    }

    @Test(arguments: [
        (["authtype=Bear er", "credential=t"], "the helper's authtype holds a space or a control character, or is empty"),
        (["authtype=Bearer\u{1}", "credential=t"], "the helper's authtype holds a space or a control character, or is empty"),
        (["authtype=Bearer", "credential=t\u{7f}"], "the helper's credential (for authtype Bearer) holds a control character"),
        // Attack round: `Bearer:` passed as a scheme, an empty token made `Bearer ` alone.
        (["authtype=Bearer:", "credential=t"], "the helper's authtype holds a space or a control character, or is empty or no HTTP token"),
        (["authtype=Bearer", "credential="], "the helper's credential (for authtype Bearer) is empty"),
        (["username=a:b", "password=p"], "the username contains ':', which Basic authentication cannot carry"),
        (["username=a"], "git credential fill gave no password"),
    ])
    func whatCannotBeOneHeaderLineIsRefused(lines: [String], message: String) throws {
        let result = try Self.header(lines)
        guard case .failure(let error) = result else {
            Issue.record("made a header: \(result)")
            return
        }
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }

    /// A config string cannot end its line: the caller's --write-out format stays one value.
    @Test func curlConfigStringsStayOneLine() {
        let line = CurlConfig.line("write-out", Array("a\"b\\c\nurl = \"x\"\r".utf8))
        #expect(String(decoding: line, as: UTF8.self) == #"write-out = "a\"b\\c\nurl = \"x\"\r""# + "\n")
    }
}
