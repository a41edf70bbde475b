import Foundation
import Testing

/// Two executables, each several programs chosen by the name it is run by (MultiCall).
/// Every name a program had behaves as before (the rest of the suite runs them by those
/// names); any other name, a copied or renamed file, is refused with one line that names
/// the names the executable answers to, and nothing runs.
@Suite struct MultiCallTests {
    let sandbox: Sandbox

    init() throws { sandbox = try Sandbox() }

    static let staticNames = "git-credential-sqlite, git-credential-pass, basic-auth-header, credential-curl"
    static let libsecretNames = "git-credential-secretservice, git-credential-keyring"

    /// The executable (by a name of it in the build), the name it is run by, the names the line lists.
    static let strangers: [(executable: String, name: String, names: String)] = [
        ("git-credential-sqlite", "credential-helpers", staticNames),  // the executable's own file name
        ("git-credential-sqlite", "git-credential-sqlite.old", staticNames),  // a renamed copy
        ("git-credential-sqlite", "git-credential-keyring", staticNames),  // a name of the other executable
        ("git-credential-keyring", "credential-helpers-libsecret", libsecretNames),
        ("git-credential-keyring", "basic-auth-header", libsecretNames),
        ("git-credential-secretservice", "sqlite", libsecretNames),
    ]

    @Test(arguments: strangers.indices)
    func anotherNameGetsOneLineNamingItsNames(index: Int) throws {
        let (executable, name, names) = Self.strangers[index]
        let bin = sandbox.root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: BuiltProducts.directory + "/" + executable, toPath: bin + "/" + name)
        let line = "\(name): this executable runs only by the name of one of its programs (\(names)), not by this one."
            + " Fix: run it by one of those names, a hard link to it (make install makes them)\n"
        let credential = wire("protocol=https", "host=example.com", "username=alice", "password=secret")
        for arguments in [["store"], ["--version"], ["--help"], []] {
            let result = try sandbox.run(bin + "/" + name, arguments, input: credential)
            #expect(result.exitCode == 2 && result.stdout.isEmpty && result.stderrText == line, "\(arguments): \(result)")
        }
        // Run by its full path as git runs a helper of configure's line, and by a bare name on PATH.
        let onPath = try sandbox.run("/bin/sh", ["-c", #"exec "$0" store"#, name], input: credential,
                                     environment: ["PATH": bin + ":" + Sandbox.searchPath])
        #expect(onPath.exitCode == 2 && onPath.stderrText == line, "\(onPath)")
        #expect(!fileExists(sandbox.database) && !fileExists(sandbox.keyFile), "a refused name stored")
    }

    /// argv[0] is the caller's to choose: empty, or with control characters, it still makes one line.
    @Test func anArgumentZeroOfNoNameOrControlCharactersMakesOneLine() throws {
        let names = [("", "''"), ("evil\u{1b}[31m\nname", "evil\\033[31m name")]
        for (name, shown) in names {
            let result = try sandbox.run("/bin/bash", ["-c", #"exec -a "$1" "$0" store"#, BuiltProducts.sqliteHelper, name],
                                         input: wire("protocol=https", "host=example.com", "username=alice", "password=secret"))
            #expect(result.exitCode == 2 && result.stdout.isEmpty
                    && result.stderrText.hasPrefix(shown + ": this executable runs only by the name of one of its programs (")
                    && result.stderrText.filter({ $0 == "\n" }).count == 1, "\(result)")
        }
        #expect(!fileExists(sandbox.database) && !fileExists(sandbox.keyFile), "a refused name stored")
    }

    /// Each name of the build is a program of its own (its --version line), and the names of
    /// one executable are one file: the build's layout is the installed one (make names).
    @Test func eachNameIsItsProgramAndOneFileOfItsExecutable() throws {
        for (executable, names) in [("credential-helpers", Self.staticNames), ("credential-helpers-libsecret", Self.libsecretNames)] {
            let file = try FileManager.default.attributesOfItem(atPath: BuiltProducts.directory + "/" + executable)
            for name in names.components(separatedBy: ", ") {
                let link = try FileManager.default.attributesOfItem(atPath: BuiltProducts.directory + "/" + name)
                #expect(link[.systemFileNumber] as? UInt64 == file[.systemFileNumber] as? UInt64, "\(name) is not a link of \(executable)")
                let version = try sandbox.run(BuiltProducts.directory + "/" + name, ["--version"])
                #expect(version.exitCode == 0 && version.stdoutText.hasPrefix(name + " "), "\(name): \(version)")
            }
        }
    }
}
