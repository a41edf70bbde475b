@testable import ForwardCommand
import CredentialCore
import Testing

/// Where the person's git picks a host's account by the repository's path, read from
/// `git config -z --get-regexp '^credential\.'` as git writes it (no process here).
@Suite struct AccountsByPathTests {
    /// git's -z listing: each entry the key, a newline and the value (a bare boolean: the key alone), NUL-ended.
    func listing(_ entries: [(String, String?)]) -> [UInt8] {
        entries.flatMap { key, value in Array(key.utf8) + (value.map { [0x0A] + Array($0.utf8) } ?? []) + [0] }
    }

    func matters(_ entries: [(String, String?)], _ scheme: String = "https", _ host: String = "github.com") -> Bool {
        let found = AccountsByPath.configured(in: listing(entries))
        return found.everywhere || found.places.contains { ($0.scheme.map { $0 == scheme } ?? true) && AccountsByPath.hostMatches($0.host, host) }
    }

    @Test func aUsernameLineWithAPathOrUseHttpPathMakesThePathMatter() {
        #expect(matters([("credential.https://github.com.username", "alice"), ("credential.https://github.com/acme.username", "alice-work")]))
        #expect(matters([("credential.https://github.com.usehttppath", "true")]))
        #expect(matters([("credential.usehttppath", nil)]), "a bare boolean is true")
        #expect(matters([("credential.usehttppath", "1")]) && matters([("credential.useHttpPath", "yes")]))
        #expect(matters([("credential.https://alice@GitHub.com/acme/.helper", "sqlite")]), "a user and a host's case do not matter, nor a trailing slash")
        #expect(matters([("credential.https://*.github.com/x.username", "a")], "https", "gist.github.com"), "*. stands for one label")
        #expect(matters([("credential.github.com/acme.username", "a")]), "git's older form, a host without a scheme")
    }

    @Test func linesWithoutAPathOrForAnotherPlaceDoNot() {
        #expect(!matters([]))
        #expect(!matters([("credential.helper", "sqlite"), ("credential.https://github.com.username", "alice")]))
        #expect(!matters([("credential.https://github.com/.username", "alice")]), "a slash alone is no path")
        #expect(!matters([("credential.usehttppath", "false"), ("credential.https://github.com.usehttppath", "0")]))
        #expect(!matters([("credential.https://gitlab.com/acme.username", "a")]), "another host")
        #expect(!matters([("credential.http://github.com/acme.username", "a")]), "another scheme")
        #expect(!matters([("credential.https://github.com:8443/acme.username", "a")]), "another port")
        #expect(!matters([("credential.https://*.github.com/x.username", "a")], "https", "a.b.github.com"), "*. is one label only")
    }
}

/// What serve's children share (ServeMemory), without a process.
@Suite struct ServeMemoryTests {
    @Test func anAnswerIsTakenOnceAndOnlyAsAnswered() {
        let memory = ServeMemory()
        let request = Credential(protocol: "https", host: "example.com", path: "org/app.git")
        var answer = Credential(username: "alice", password: "s3cret")
        answer.passwordExpiryUTC = 4102444800
        memory.remember(answer, for: request)
        var store = Credential(protocol: "https", host: "example.com", path: "org/app.git", username: "alice", password: "s3cret")
        var other = store
        other.password = "s3creT"
        #expect(memory.answered(other).0 == false)
        other = store
        other.path = "org/other.git"
        #expect(memory.answered(other).0 == false)
        other = store
        other.host = "Example.com"
        #expect(memory.answered(other).0 == false, "another spelling of the host is another item for a helper")
        let taken = memory.answered(store)
        #expect(taken.0 && taken.expiry == 4102444800)
        #expect(memory.answered(store).0 == false, "taken twice")
        store.username = "bob"
        #expect(memory.answered(store).0 == false)
    }

    @Test func eachSortOfLineHasItsBoundAMinuteButANewKindIsAlwaysWritten() {
        let memory = ServeMemory()
        let flood = memory.digest(["get", "https", "example.com", "alice", "refused"])
        let refused = (0..<25).map { _ in memory.admit(refusal: true, kind: flood, perMinute: 20) }
        // The minute may turn during the loop: then all are written.
        #expect(refused.filter(\.write).count == 20 || refused.allSatisfy(\.write))
        // Another kind of line, a refusal or an answer, is written whatever the flood.
        let other = memory.admit(refusal: true, kind: memory.digest(["get", "https", "example.com", "bob", "refused"]), perMinute: 20)
        #expect(other.write && (other.untold.refused == 5 || refused.allSatisfy(\.write)))
        let answered = memory.admit(refusal: false, kind: memory.digest(["get", "https", "example.com", "alice", nil]), perMinute: 120)
        #expect(answered.write && answered.untold == (0, 0))
        _ = memory.admit(refusal: true, kind: flood, perMinute: 20)
        #expect(memory.takeUntold().refused <= 1 && memory.takeUntold() == (0, 0), "taken once")
    }
}
