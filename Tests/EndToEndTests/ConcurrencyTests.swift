import Foundation
import Testing

/// Several git processes at once on one store: they wait for each other (busy timeout,
/// immediate write transactions) and none fails with "database is locked".
@Suite struct ConcurrencyTests {
    let sandbox: Sandbox

    init() throws { sandbox = try Sandbox() }

    @Test func parallelStoresAndGetsAllSucceed() async throws {
        let writers = 4, each = 25
        // Each writer is a shell loop of whole helper processes, as git would start them.
        let loop = """
            i=0
            while [ $i -lt \(each) ]; do
              printf 'protocol=https\\nhost=w%s-%s.example\\nusername=u\\npassword=p%s\\n\\n' "$1" $i $i | "$0" store || exit 1
              printf 'protocol=https\\nhost=w%s-%s.example\\n\\n' "$1" $i | "$0" get | grep -qx "password=p$i" || exit 2
              i=$((i + 1))
            done
            """
        let environment = sandbox.environment, home = sandbox.home
        let results = await withTaskGroup(of: ProcessResult?.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    try? ChildProcess.run("/bin/sh", ["-c", loop, BuiltProducts.sqliteHelper, String(writer)],
                                          environment: environment, directory: home, timeout: 120)
                }
            }
            return await group.reduce(into: [ProcessResult?]()) { $0.append($1) }
        }
        for result in results {
            let result = try #require(result)
            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
        }
        let listed = try sandbox.sqlite().list()
        #expect(listed.stdoutLines.count == writers * each + 1, "every store kept (plus the header line)")
    }
}
