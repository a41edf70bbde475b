import Foundation
import Testing
@testable import SQLiteStore

/// The list of stores beside a key file: only a list written whole, and started with its
/// key file, lets a conversion wipe the key file.
@Suite struct KeyFileUsersTests {
    @Test func onlyAWholeListStartedWithItsKeyFileIsComplete() {
        let whole = KeyFileUsers.completeHeader + "\n/a/one.db\n/b/two.db\n" + KeyFileUsers.end + "\n"
        #expect(KeyFileUsers.parse(Array(whole.utf8)) == .init(complete: true, databases: ["/a/one.db", "/b/two.db"]))
        // Cut short by a crash: the names it holds still count, the list is not complete.
        let cut = KeyFileUsers.completeHeader + "\n/a/one.db\n/b/tw"
        #expect(KeyFileUsers.parse(Array(cut.utf8)) == .init(complete: false, databases: ["/a/one.db", "/b/tw"]))
        let partial = KeyFileUsers.partialHeader + "\n/a/one.db\n" + KeyFileUsers.end + "\n"
        #expect(KeyFileUsers.parse(Array(partial.utf8)).complete == false)
        #expect(KeyFileUsers.parse(Array("garbage\n".utf8)).complete == false)
    }
}
