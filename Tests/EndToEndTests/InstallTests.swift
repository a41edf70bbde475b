import Foundation
import Testing

/// `make install` and `make uninstall` into a temporary DESTDIR with PREFIX=/usr, as a
/// package build runs them: the tree, the release binaries (static Swift runtime,
/// stripped), each installed command run, man and the shells finding what was installed,
/// and nothing left after uninstall.
@Suite struct InstallTests {
    let sandbox: Sandbox
    var destdir: String { sandbox.root + "/destdir" }
    var prefix: String { destdir + "/usr" }

    init() throws { sandbox = try Sandbox() }

    /// Every program of packaging/programs.
    static let executables = ProgramTable.names
    static let commands = executables
    /// Linked with no shared library at all (Package.swift: staticPIE).
    static let staticPIEs = Set(ProgramTable.names(of: "credential-helpers"))
    /// The names of each executable (Makefile: STATIC_NAMES, LIBSECRET_NAMES), installed as
    /// hard links of one file.
    static let executableNames = [ProgramTable.names(of: "credential-helpers"), ProgramTable.names(of: "credential-helpers-libsecret")]

    /// Every file install puts under PREFIX, and its mode.
    static let tree: [String: Int] = {
        var tree: [String: Int] = [:]
        for command in commands {
            tree["bin/\(command)"] = 0o755
            tree["share/man/man1/\(command).1"] = 0o644
            tree["share/bash-completion/completions/\(command)"] = 0o644
            tree["share/zsh/site-functions/_\(command)"] = 0o644
            tree["share/fish/vendor_completions.d/\(command).fish"] = 0o644
        }
        return tree
    }()

    func make(_ arguments: [String]) throws -> ProcessResult {
        try sandbox.run(Sandbox.which("make") ?? "/usr/bin/make",
                        ["--no-print-directory", "-C", SourceTree.root] + arguments + ["DESTDIR=\(destdir)", "PREFIX=/usr"],
                        environment: ["PATH": "/opt/swift/usr/bin:" + Sandbox.searchPath], timeout: 120)
    }

    @Test func installsRunsAndUninstallsCleanly() throws {
        // Building inside `swift test` would wait forever for SwiftPM's lock: make test
        // builds the release binaries first; here they must be current.
        let current = try make(["--question", "build"])
        try #require(current.exitCode == 0, "the release build is not current: run `make build` first (make test does)")

        // Over an earlier release, whose basic-auth-header was a file of its own.
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try ChildProcess.writeFile(prefix + "/bin/basic-auth-header", Array("#!/bin/sh\necho earlier\n".utf8), mode: 0o755)
        for _ in 1...2 {  // and over itself
            let install = try make(["install"])
            try #require(install.exitCode == 0, "make install: \(install)")
            #expect(installedFiles() == Self.tree, "installed: \(installedFiles())")
            try expectOneFilePerExecutable()
        }

        for executable in Self.executables {
            try expectStaticAndStripped(prefix + "/bin/" + executable)
            try expectHardenedAndLinkedForStartup(prefix + "/bin/" + executable)
        }
        try expectInstalledCommandsRun()
        try expectManFindsThePages()
        try expectShellsFindTheCompletions()

        let uninstall = try make(["uninstall"])
        #expect(uninstall.exitCode == 0, "make uninstall: \(uninstall)")
        #expect(installedFiles().isEmpty, "left after uninstall: \(installedFiles())")
    }

    /// The names of one executable are one file, with no other link; the two executables
    /// are two files; and together no larger than measured, so that growth is noticed.
    func expectOneFilePerExecutable() throws {
        var files: [UInt64: Int] = [:]
        for names in Self.executableNames {
            let infos = try names.map { try FileManager.default.attributesOfItem(atPath: prefix + "/bin/" + $0) }
            let inodes = Set(infos.map { $0[.systemFileNumber] as? UInt64 ?? 0 })
            #expect(inodes.count == 1 && infos.allSatisfy { $0[.referenceCount] as? Int == names.count },
                    "\(names) are not one file: \(infos)")
            for info in infos { files[info[.systemFileNumber] as? UInt64 ?? 0] = info[.size] as? Int ?? 0 }
        }
        #expect(files.count == Self.executableNames.count, "executables share a file: \(files)")
        let size = files.values.reduce(0, +)
        #expect(size <= Self.installedSizeBound, "the executables take \(size) bytes, more than \(Self.installedSizeBound)")
    }

    /// The installed executables' bytes, at most: 21.3 MB (with git-credential-pass) +
    /// 19.6 MB measured (74 MB as four executables, without pass); what stands between this
    /// and 30 MB: Makefile, STATIC_NAMES.
    static let installedSizeBound = 41_500_000

    /// The files (not directories) under PREFIX, relative to it, with their modes.
    func installedFiles() -> [String: Int] {
        guard let walker = FileManager.default.enumerator(atPath: prefix) else { return [:] }
        var found: [String: Int] = [:]
        for case let path as String in walker {
            let mode = permissions(of: prefix + "/" + path) ?? 0
            var info = stat()
            if lstat(prefix + "/" + path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR { found[path] = mode }
        }
        return found
    }

    /// The code of get, store and erase placed together (Makefile: --symbol-ordering-file,
    /// packaging/hot-symbols.txt), in SwiftPM's executables, which keep their symbols: most
    /// listed functions still exist (else the list is stale: scripts/hot-symbols), and nine
    /// in ten of them lie in the first 6 MB of 14 MB of code (without the order: all over).
    @Test func everydayCodeIsPlacedTogether() throws {
        let current = try make(["--question", "build"])
        try #require(current.exitCode == 0, "the release build is not current: run `make build` first (make test does)")
        let hot = try String(contentsOfFile: SourceTree.root + "/packaging/hot-symbols.txt", encoding: .utf8).split(separator: "\n").map(String.init)
        for executable in ["credential-helpers", "credential-helpers-libsecret"] {
            let path = SourceTree.root + "/.build/release/" + executable
            let symbols = try sandbox.run("/usr/bin/nm", ["--defined-only", path])
            let sections = try sandbox.run("/usr/bin/readelf", ["--section-headers", "--wide", path])
            try #require(symbols.exitCode == 0 && sections.exitCode == 0, "\(symbols) \(sections)")
            var address: [String: UInt64] = [:]
            for line in symbols.stdoutLines {
                let fields = line.split(separator: " ")
                if fields.count == 3, "tTwW".contains(fields[1]), let value = UInt64(fields[0], radix: 16) { address[String(fields[2])] = value }
            }
            let text = sections.stdoutLines.first { $0.contains(" .text ") }?.split(separator: " ").map(String.init) ?? []
            let start = text.firstIndex(of: ".text").flatMap { UInt64(text[$0 + 2], radix: 16) } ?? 0
            let offsets = hot.compactMap { address[$0].map { $0 - start } }.sorted()
            #expect(Double(offsets.count) >= 0.85 * Double(hot.count),
                    "\(executable): \(offsets.count) of \(hot.count) hot functions exist: run scripts/hot-symbols")
            let ninetiethPercentile = offsets.isEmpty ? UInt64.max : offsets[offsets.count * 9 / 10]
            #expect(ninetiethPercentile < 6_000_000, "\(executable): the hot functions reach \(ninetiethPercentile) bytes into the code")
        }
    }

    /// No symbol table, and no Swift runtime library to load at startup.
    func expectStaticAndStripped(_ binary: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let sections = try sandbox.run("/usr/bin/readelf", ["--section-headers", "--wide", binary])
        #expect(sections.exitCode == 0 && sections.stdoutText.contains(".text"), "\(sections)", sourceLocation: sourceLocation)
        #expect(!sections.stdoutText.contains(".symtab"), "\(binary) is not stripped", sourceLocation: sourceLocation)
        let dynamic = try sandbox.run("/usr/bin/readelf", ["--dynamic", binary])
        let needed = dynamic.stdoutLines.filter { $0.contains("(NEEDED)") }
        #expect(dynamic.exitCode == 0 && dynamic.stdoutText.contains("(FLAGS_1)"), "\(dynamic)", sourceLocation: sourceLocation)
        #expect(!needed.contains { $0.contains("libswift") || $0.contains("libFoundation") },
                "\(binary) needs \(needed)", sourceLocation: sourceLocation)
        // The helpers without a desktop library are static PIEs (Package.swift): nothing to
        // load, no interpreter; the others load libsecret, GLib and libc only.
        let isStaticPIE = Self.staticPIEs.contains(String(binary.split(separator: "/").last ?? ""))
        let headers = try sandbox.run("/usr/bin/readelf", ["--program-headers", "--wide", binary])
        #expect(needed.isEmpty == isStaticPIE && headers.stdoutText.contains("INTERP") == !isStaticPIE,
                "\(binary): \(isStaticPIE ? "not a static PIE" : "not dynamically linked"): \(needed)", sourceLocation: sourceLocation)
        #expect(!dynamic.stdoutText.contains("(RUNPATH)") && !dynamic.stdoutText.contains("(RPATH)"),
                "\(binary) has a run path", sourceLocation: sourceLocation)
    }

    /// What the start-up linking (Makefile) must not lose: PIE (ASLR), full RELRO (the GOT
    /// read-only once loaded: GNU_RELRO and BIND_NOW), a stack that is not executable. And
    /// what it is for: packed relative relocations, libstdc++ linked in (not bound at load).
    func expectHardenedAndLinkedForStartup(_ binary: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let header = try sandbox.run("/usr/bin/readelf", ["--file-header", "--program-headers", "--dynamic", "--wide", binary])
        try #require(header.exitCode == 0, "\(header)", sourceLocation: sourceLocation)
        let lines = header.stdoutLines
        func has(_ words: String...) -> Bool { lines.contains { line in words.allSatisfy { line.contains($0) } } }
        #expect(has("Type:", "DYN") && has("(FLAGS_1)", "PIE"), "\(binary) is not a PIE", sourceLocation: sourceLocation)
        #expect(has("GNU_RELRO"), "\(binary) has no RELRO segment", sourceLocation: sourceLocation)
        #expect(has("(FLAGS)", "BIND_NOW") || has("(FLAGS_1)", "NOW"), "\(binary) is not bound now (partial RELRO)", sourceLocation: sourceLocation)
        let stack = lines.first { $0.contains("GNU_STACK") }
        #expect(stack != nil && !(stack!.contains("RWE")), "\(binary): stack \(stack ?? "not marked")", sourceLocation: sourceLocation)
        #expect(has("(RELR)"), "\(binary) has no packed relative relocations", sourceLocation: sourceLocation)
        #expect(!has("(NEEDED)", "libstdc++"), "\(binary) binds libstdc++ at load", sourceLocation: sourceLocation)
    }

    /// Each installed command does its job from the installed tree alone.
    func expectInstalledCommandsRun() throws {
        let bin = prefix + "/bin/"
        let environment = ["PATH": prefix + "/bin:" + Sandbox.searchPath]
        for command in Self.commands {
            let help = try sandbox.run(bin + command, ["--help"], environment: environment)
            #expect(help.exitCode == 0 && help.stdoutText.contains(command), "\(command) --help: \(help)")
        }
        for helper in Self.executables.filter({ $0.hasPrefix("git-credential-") }) {
            let capability = try sandbox.run(bin + helper, ["capability"], environment: environment)
            #expect(capability.exitCode == 0 && capability.stdoutText.contains("capability"), "\(helper): \(capability)")
        }
        let credential = wire("protocol=https", "host=example.com", "username=alice", "password=installed secret")
        expectSuccess(try sandbox.run(bin + "git-credential-sqlite", ["store"], input: credential, environment: environment))
        let get = try sandbox.run(bin + "git-credential-sqlite", ["get"], input: wire("protocol=https", "host=example.com"),
                                  environment: environment)
        #expect(get.attributes["password"] == "installed secret", "\(get)")
        // The release build refuses a scrypt cost whose passphrase is guessed at once
        // (the tests' debug builds accept low ones), before asking for a passphrase.
        let cheap = try sandbox.run(bin + "git-credential-sqlite", ["--db", sandbox.root + "/cheap.db", "init", "--passphrase", "--scrypt-cost", "1"],
                                    environment: environment)
        #expect(cheap.exitCode != 0 && cheap.stderrText.contains("below 15") && !fileExists(sandbox.root + "/cheap.db"), "\(cheap)")
        // Run by its full path without bin on PATH (cron, env -i): a program of the executable, it needs nothing else.
        let curl = try sandbox.run(bin + "credential-curl", ["--version"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(curl.exitCode == 0 && curl.stderr.isEmpty && curl.stdoutText.hasPrefix("credential-curl "), "\(curl)")
        let header = try sandbox.run(bin + "basic-auth-header", [], input: credential, environment: environment)
        #expect(header.stdoutText == "Authorization: Basic YWxpY2U6aW5zdGFsbGVkIHNlY3JldA==\n", "\(header)")
    }

    /// man, given the installed share/man, finds each page by name and renders it.
    func expectManFindsThePages() throws {
        for command in Self.commands {
            let man = try sandbox.run("/usr/bin/man", ["-M", prefix + "/share/man", command],
                                      environment: ["MANPAGER": "cat", "MANWIDTH": "80"])
            #expect(man.exitCode == 0 && man.stderr.isEmpty && man.stdoutText.contains("SYNOPSIS"), "man \(command): \(man)")
        }
    }

    /// Each shell's loader, pointed at the installed share directory, completes every command.
    func expectShellsFindTheCompletions() throws {
        let completion = ShellCompletion(sandbox: sandbox, share: prefix + "/share", bin: prefix + "/bin")
        for shell in Shell.allCases {
            for helper in Self.executables.filter({ $0.hasPrefix("git-credential-") }) {
                let (candidates, run) = try completion.candidates(shell, [helper, "capab"])
                #expect(candidates == ["capability"], "\(shell), \(helper): \(run)")
            }
            let (header, headerRun) = try completion.candidates(shell, ["basic-auth-header", "--c"])
            #expect(header == ["--curl-config"], "\(shell): \(headerRun)")
            let (curl, curlRun) = try completion.candidates(shell, ["credential-curl", "--sil"])
            #expect(curl == ["--silent"], "\(shell): \(curlRun)")
        }
    }
}
