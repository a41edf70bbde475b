import Foundation
import Testing

/// Programs come from where the person put them: an empty PATH entry (a trailing `:`,
/// a common slip) or a relative one (`.`) names the current directory, and git runs
/// helpers in the repository it works in. A cloned repository carrying an executable
/// `gpg2`, `pass` or `git` must not have it run by a helper, by pass under it, or by
/// credential-curl. Each planted program leaves a marker file when it runs.
@Suite struct ProgramLookupTests {
    /// PATH as a person's slip leaves it: the current directory last, first, and named.
    static let slippedPaths = [Sandbox.searchPath + ":", ":" + Sandbox.searchPath, ".:" + Sandbox.searchPath]

    /// What pass, gpg and git are looked up as, by us or by pass's bash (and by the
    /// `#!/usr/bin/env bash` that starts it), and some tools pass runs.
    static let passPrograms = ["gpg2", "gpg", "pass", "git", "bash", "gpgconf", "sed", "mkdir", "cat", "tree", "getopt", "rm", "mv", "which", "dirname"]
    /// What credential-curl runs.
    static let curlPrograms = ["git", "curl", "basic-auth-header", "sed", "awk", "tr", "od", "head", "find"]

    /// Each of `programs`, executable, in `directory`, leaving DIRECTORY/ran-NAME when run.
    static func plant(_ programs: [String], in directory: String) throws -> [String] {
        for name in programs {
            try ChildProcess.writeFile(directory + "/" + name, Array("#!/bin/sh\n/usr/bin/touch '\(directory)/ran-\(name)'\nexit 1\n".utf8), mode: 0o755)
        }
        return programs.map { directory + "/ran-" + $0 }
    }

    /// git fetch (over HTTP, with the credential from the pass store), fill and approve,
    /// run in a clone that carries its own gpg2, gpg, pass and git, with PATH naming the
    /// current directory: the real programs run, never the repository's.
    @Test(arguments: slippedPaths)
    func aRepositorysOwnProgramsNeverRunForGitCredentialPass(path: String) throws {
        let store = try PasswordStore()
        let sandbox = store.sandbox
        let server = try BasicAuthServer(sandbox: sandbox, username: "alice", password: "pass-secret")
        try server.makeRepository("project")
        try store.helper.storeAll(wire("protocol=http", "host=\(server.host)", "username=alice", "password=pass-secret"))
        try store.expectSuccess(sandbox.git(["config", "--global", "credential.helper", BuiltProducts.passHelper]))
        let clone = sandbox.root + "/clone"
        try store.expectSuccess(sandbox.git(["clone", "--quiet", server.repositoryURL("project"), clone], environment: store.environment))
        let markers = try Self.plant(Self.passPrograms, in: clone)

        let slipped = store.environment.merging(["PATH": path]) { $1 }
        let fetch = try sandbox.run("/usr/bin/git", ["fetch", "--quiet"], environment: slipped, directory: clone)
        #expect(fetch.exitCode == 0 && fetch.stderr.isEmpty, "\(fetch)")
        let fill = try sandbox.run("/usr/bin/git", ["credential", "fill"], input: wire("protocol=http", "host=\(server.host)"),
                                   environment: slipped, directory: clone)
        #expect(fill.exitCode == 0 && fill.stdoutLines.contains("password=pass-secret"), "\(fill)")
        // A store: pass encrypts (gpg2 or gpg, as its bash finds them) and commits (git).
        let approve = try sandbox.run("/usr/bin/git", ["credential", "approve"],
                                      input: wire("protocol=https", "host=new.example", "username=bob", "password=bob-secret"),
                                      environment: slipped, directory: clone)
        #expect(approve.exitCode == 0 && approve.stderr.isEmpty, "\(approve)")
        #expect(store.entryNames().contains("git/https/new.example/bob"))
        let ran = markers.filter(fileExists).map { String($0.split(separator: "/").last!.dropFirst(4)) }
        #expect(ran.isEmpty, "the repository's own programs ran: \(ran)")
    }

    /// credential-curl run in a directory carrying its own git, curl and basic-auth-header
    /// (and the text tools the script uses), with PATH naming the current directory.
    @Test(arguments: slippedPaths)
    func aDirectorysOwnProgramsNeverRunForCredentialCurl(path: String) throws {
        let machine = try ClientMachine(.sqlite)
        let server = try machine.startServer(username: "alice", password: "curl-secret")
        try machine.store(username: "alice", password: "curl-secret", for: server)
        let directory = machine.sandbox.root + "/checkout"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let markers = try Self.plant(Self.curlPrograms, in: directory)
        let slipped = ["PATH": path.replacingOccurrences(of: Sandbox.searchPath, with: BuiltProducts.directory + ":" + Sandbox.searchPath)]
        let result = try machine.credentialCurl(["-sS", "-f", server.url("/echo")], environment: slipped, directory: directory)
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "\(result)")
        #expect(server.receivedCredential == Array("alice:curl-secret".utf8), "\(server.log)")
        let ran = markers.filter(fileExists).map { String($0.split(separator: "/").last!.dropFirst(4)) }
        #expect(ran.isEmpty, "the directory's own programs ran: \(ran)")
    }

    /// doctor points out each PATH entry that names the current directory, by position,
    /// with the fix.
    @Test func doctorPointsOutPATHEntriesThatNameTheCurrentDirectory() throws {
        let sandbox = try Sandbox()
        let path = ":" + BuiltProducts.directory + "::bin:" + Sandbox.searchPath + ":"
        let doctor = try sandbox.run(BuiltProducts.sqliteHelper, ["doctor"], environment: ["PATH": path])
        let fix = "Fix: remove it from PATH where PATH is set (~/.profile, ~/.bashrc)"
        let expected = [
            "warn  PATH: entry 1 of PATH is empty (a leading ':'), which shells, git and pass read as the current directory, so a program of the repository git works in would run; these helpers skip it. \(fix)",
            "warn  PATH: entry 3 of PATH is empty (a doubled ':'), which shells, git and pass read as the current directory, so a program of the repository git works in would run; these helpers skip it. \(fix)",
            "warn  PATH: entry 4 of PATH, bin, is relative, which shells, git and pass look up from the current directory, so a program of the repository git works in would run; these helpers skip it. \(fix)",
            "warn  PATH: entry 8 of PATH is empty (a trailing ':'), which shells, git and pass read as the current directory, so a program of the repository git works in would run; these helpers skip it. \(fix)",
        ]
        let warned = doctor.stdoutLines.filter { $0.hasPrefix("warn  PATH: entry ") }
        #expect(warned == expected, "\(doctor)")
        let clean = try sandbox.run(BuiltProducts.sqliteHelper, ["doctor"], environment: ["PATH": BuiltProducts.directory + ":" + Sandbox.searchPath])
        #expect(clean.stdoutLines.filter { $0.hasPrefix("warn  PATH") }.isEmpty, "\(clean)")
    }

    /// Attack finding (issue 23, second round): a PATH directory others can write (mode
    /// 777; /tmp and below it) was searched: another user's gpg2 there got the decrypted
    /// entry, their curl the Authorization header. It is skipped, and doctor says so.
    @Test func aPATHDirectoryOthersCanWriteIsSkipped() throws {
        let store = try PasswordStore()
        try store.helper.storeAll(wire("protocol=https", "host=git.example", "username=alice", "password=alice-secret"))
        let open = store.sandbox.root + "/anyones-bin"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        #expect(chmod(open, 0o777) == 0)
        let markers = try Self.plant(Self.passPrograms + Self.curlPrograms, in: open)
        let path = open + ":" + BuiltProducts.directory + ":" + Sandbox.searchPath
        let helper = PassHelperProcess(store: store, environment: ["PATH": path])
        #expect(try helper.password(for: wire("protocol=https", "host=git.example")) == "alice-secret")
        let doctor = try helper("doctor")
        #expect(doctor.stdoutLines.contains { $0.hasPrefix("warn  PATH: entry 1 of PATH, \(open), is a directory someone else could put a program in: ") && $0.contains("so someone else's program would run; these helpers skip it") }, "\(doctor)")

        let machine = try ClientMachine(.sqlite)
        let server = try machine.startServer(username: "alice", password: "curl-secret")
        try machine.store(username: "alice", password: "curl-secret", for: server)
        let curl = try machine.credentialCurl(["-sS", "-f", server.url("/echo")], environment: ["PATH": open + ":" + BuiltProducts.directory + ":" + Sandbox.searchPath])
        #expect(curl.exitCode == 0 && server.receivedCredential == Array("alice:curl-secret".utf8), "\(curl)")
        let ran = markers.filter(fileExists).map { String($0.split(separator: "/").last!.dropFirst(4)) }
        #expect(ran.isEmpty, "programs another user could have put in PATH ran: \(ran)")
    }

    /// Attack finding (second round): a relative BASH_ENV (or ENV) names a file of the
    /// current directory, which pass's bash read at start: a repository's own.
    @Test func aRelativeBashEnvIsNotReadFromTheRepository() throws {
        let store = try PasswordStore()
        let clone = store.sandbox.root + "/clone"
        try FileManager.default.createDirectory(atPath: clone, withIntermediateDirectories: false)
        let marker = clone + "/ran-bashenv"
        try ChildProcess.writeFile(clone + "/.envrc", Array("touch '\(marker)'\n".utf8), mode: 0o644)
        let environment = store.environment.merging(["BASH_ENV": ".envrc", "ENV": ".envrc"]) { $1 }
        let stored = try store.sandbox.run(BuiltProducts.passHelper, ["store"], input: wire("protocol=https", "host=git.example", "username=alice", "password=pw"),
                                           environment: environment, directory: clone)
        #expect(stored.exitCode == 0 && stored.stderr.isEmpty, "\(stored)")
        #expect(store.entryNames() == ["git/https/git.example/alice"])
        #expect(!fileExists(marker), "pass's bash read the repository's BASH_ENV")
    }
}
