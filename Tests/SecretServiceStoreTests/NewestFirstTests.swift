import Testing
@testable import SecretServiceStore

/// Which of several items is the most recently stored, whatever their object paths say:
/// KeePassXC makes them random, gnome-keyring numbers them in order, the specification
/// promises nothing. End to end against both providers: ProtocolTests
/// (withoutUsernameTheMostRecentlyStoredMatchIsReturned).
@Suite struct NewestFirstTests {
    /// One of git's items for alice: created in `second` (the service's Created), with our
    /// stored time when `stored` is given, at `path`.
    func item(_ path: String, second: UInt64, stored: UInt64?) -> SecretServiceStore.Item {
        var attributes = ["xdg:schema": "org.git.Password", "protocol": "https", "server": "example.com", "user": path]
        attributes[ItemLayout.storedAttribute] = stored.map(String.init)
        return SecretServiceStore.Item(.init(path: "/org/freedesktop/secrets/collection/c/\(path)", attributes: attributes,
                                             label: nil, created: second, locked: false))!
    }

    func order(_ items: [SecretServiceStore.Item]) -> [String] {
        SecretServiceStore.newestFirst(items).map { String($0.path.split(separator: "/").last!) }
    }

    @Test func withinASecondOurStoredTimeDecidesNotThePath() {
        let second: UInt64 = 1_800_000_000
        let older = item("b", second: second, stored: second * 1_000_000_000 + 100)
        let newer = item("a", second: second, stored: second * 1_000_000_000 + 200)
        #expect(order([older, newer]) == ["a", "b"])
        #expect(order([newer, older]) == ["a", "b"])
        let newerWithGreaterPath = item("c", second: second, stored: second * 1_000_000_000 + 300)
        #expect(order([older, newerWithGreaterPath, newer]) == ["c", "a", "b"])
    }

    @Test func theServicesSecondComesFirst() {
        // Our stored time is written before the service creates the item: one stored at the
        // end of a second may be created in the next; still newer than all of the earlier one.
        let earlier = item("a", second: 10, stored: 10_999_999_999)
        let later = item("b", second: 11, stored: 10_999_999_000)
        #expect(order([earlier, later]) == ["b", "a"])
    }

    /// Another program's item has no stored time: it counts as the newest of its second, and
    /// only among such items do the paths decide, the same way every time.
    @Test func anItemWithoutOurTimeIsTheNewestOfItsSecond() {
        let ours = item("z", second: 20, stored: 20_500_000_000)
        let theirs = item("a", second: 20, stored: nil)
        let theirsBefore = item("b", second: 19, stored: nil)
        #expect(order([ours, theirs, theirsBefore]) == ["a", "z", "b"])
        #expect(order([item("a", second: 5, stored: nil), item("b", second: 5, stored: nil)]) == ["b", "a"])
        let notANumber = SecretServiceStore.Item(.init(path: "/c/x", attributes: ["xdg:schema": "org.git.Password",
                                                   ItemLayout.storedAttribute: "soon"], label: nil, created: 20, locked: false))!
        #expect(notANumber.stored == 0)
    }
}
