import Foundation
import Testing

/// `make dist`'s archive as a user of another glibc distribution gets it: checked against
/// SHA256SUMS, extracted in a fresh directory, installed by its install.sh into a fresh
/// PREFIX, used from there (git, man, completion, every name the commands answer to),
/// and uninstalled without a trace; install.sh refusing what it must refuse.
@Suite struct ReleaseArchiveTests {
    let sandbox: Sandbox
    /// Under a directory of ours, not the sandbox's /tmp: configure refuses a program
    /// there, which anyone could put at the same path once /tmp is emptied.
    let prefix: String

    init() throws {
        sandbox = try Sandbox()
        prefix = try sandbox.ownDirectory() + "/prefix"
    }

    /// The archive, made once for the suite (xz over 70 MB takes a while), and extracted.
    struct Archive {
        let directory: String
        let name: String
        /// The extracted tree: install.sh, bin/, share/.
        let tree: String
        var installer: String { tree + "/install.sh" }
    }

    static let archive: Result<Archive, SpawnError> = {
        let make = Sandbox.which("make") ?? "/usr/bin/make"
        let environment = ["PATH": "/opt/swift/usr/bin:" + Sandbox.searchPath, "HOME": NSTemporaryDirectory()]
        func run(_ executable: String, _ arguments: [String], timeout: Double = 120) -> ProcessResult? {
            try? ChildProcess.run(executable, arguments, environment: environment, directory: SourceTree.root, timeout: timeout)
        }
        // Building inside `swift test` would wait forever for SwiftPM's lock: make test
        // builds the release binaries first; here they must be current.
        guard let current = run(make, ["--no-print-directory", "--question", "build"]), current.exitCode == 0 else {
            return .failure(SpawnError(description: "the release build is not current: run `make build` first (make test does)"))
        }
        let directory = SourceTree.root + "/.build/dist-test"
        try? FileManager.default.removeItem(atPath: directory)
        guard let dist = run(make, ["--no-print-directory", "dist", "DIST_DIR=" + directory], timeout: 1200), dist.exitCode == 0 else {
            return .failure(SpawnError(description: "make dist failed"))
        }
        let archives = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".tar.xz") }
        guard archives.count == 1, let file = archives.first else {
            return .failure(SpawnError(description: "make dist made \(archives), not one archive: \(dist)"))
        }
        let extracted = directory + "/extracted"
        try? FileManager.default.createDirectory(atPath: extracted, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        guard let tar = run("/usr/bin/tar", ["-xJf", directory + "/" + file, "-C", extracted]), tar.exitCode == 0 else {
            return .failure(SpawnError(description: "cannot extract \(file)"))
        }
        let name = String(file.dropLast(".tar.xz".count))
        return .success(Archive(directory: directory, name: name, tree: extracted + "/" + name))
    }()

    static let version: String = {
        let source = (try? String(contentsOfFile: SourceTree.root + "/Sources/CredentialCore/Version.swift", encoding: .utf8)) ?? ""
        return source.split(separator: "\n").first { $0.contains("static let number") }?
            .split(separator: "\"").dropFirst().first.map(String.init) ?? "?"
    }()

    /// install.sh of the extracted archive, run as a user runs it (through sh, with `umask`).
    func install(_ archive: Archive, _ arguments: [String], environment extra: [String: String] = [:], umask: String = "022") throws -> ProcessResult {
        try sandbox.run("/bin/sh", ["-c", "umask \(umask) && exec \"$0\" \"$@\"", archive.installer] + arguments, environment: extra)
    }

    /// Files and links under `root` (directories aside), relative: a file's mode, or a link's target.
    func tree(_ root: String) -> [String: String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [:] }
        var found: [String: String] = [:]
        for case let path as String in walker {
            var info = stat()
            guard lstat(root + "/" + path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { continue }
            if info.st_mode & S_IFMT == S_IFLNK {
                found[path] = "-> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + path)) ?? "?")
            } else {
                found[path] = String(info.st_mode & 0o7777, radix: 8)
            }
        }
        return found
    }

    @Test func archiveInstallsRunsAndUninstalls() throws {
        let archive = try Self.archive.get()
        #expect(archive.name == "git-credential-helpers-\(Self.version)-linux-x86_64")
        let sums = try sandbox.run("/usr/bin/sha256sum", ["--check", "--strict", "SHA256SUMS"], directory: archive.directory)
        #expect(sums.exitCode == 0 && sums.stdoutText == archive.name + ".tar.xz: OK\n", "\(sums)")
        // One directory, owned by no one in particular, nothing writable by group or others.
        let listing = try sandbox.run("/usr/bin/tar", ["--list", "--verbose", "--numeric-owner", "-Jf", archive.directory + "/" + archive.name + ".tar.xz"])
        try #require(listing.exitCode == 0 && listing.stdoutLines.count > 10, "\(listing)")
        for line in listing.stdoutLines {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            #expect(fields.count >= 6 && fields[1] == "0/0" && fields[5].hasPrefix(archive.name + "/")
                    && !fields[0].dropFirst(4).contains("w"), "\(line)")
        }
        // install.sh is told the oldest glibc the dynamic binaries need (the highest GLIBC_ version they reference).
        let installer = try String(contentsOfFile: archive.installer, encoding: .utf8)
        let required = installer.split(separator: "\n").first { $0.hasPrefix("required_glibc=") }.map { String($0.dropFirst(15)) }
        #expect(required == (try highestGLIBC(in: archive.tree + "/bin")) && installer.contains("\nversion=\(Self.version)\n"),
                "install.sh says \(required ?? "nothing")")

        // A fresh PREFIX that does not exist yet, a umask that would make every file private.
        let installed = try install(archive, [], environment: ["PREFIX": prefix], umask: "077")
        try #require(installed.exitCode == 0 && installed.stderr.isEmpty, "\(installed)")
        #expect(installed.stdoutText.hasPrefix("install.sh: installed git-credential-helpers \(Self.version) into \(prefix):\n")
                && installed.stdoutText.contains("  commands     \(prefix)/bin: ")
                && installed.stdoutText.contains("  man pages    \(prefix)/share/man/man1\n")
                && installed.stdoutText.contains("  completions  \(prefix)/share/zsh/site-functions\n")
                && installed.stdoutText.contains("export PATH='\(prefix)/bin':\"$PATH\""), "\(installed)")
        // Exactly the archive's tree (as make install staged it: files 755/644, relative links), and the record.
        var expected = tree(archive.tree).filter { $0.key.hasPrefix("bin/") || $0.key.hasPrefix("share/") }
        #expect(Set(tree(archive.tree).keys).subtracting(expected.keys) == ["install.sh", "README.md"])
        #expect(expected.values.allSatisfy { $0 == "755" || $0 == "644" || $0.hasPrefix("-> ") && !$0.hasPrefix("-> /") }, "\(expected)")
        expected["share/git-credential-helpers/installed"] = "644"
        #expect(tree(prefix) == expected, "installed: \(tree(prefix).sorted { $0.key < $1.key })")
        // Names that are one file in the archive (hard links, as make install makes them) are one file installed.
        #expect(hardLinks(prefix) == hardLinks(archive.tree), "\(hardLinks(prefix)) in place of \(hardLinks(archive.tree))")
        let directories = try sandbox.run("/usr/bin/find", [prefix, "-type", "d", "!", "-perm", "755"])
        #expect(directories.stdoutText.isEmpty, "directories not 0755: \(directories)")

        // Every name in bin answers to its own name, a symbolic link too.
        let path = prefix + "/bin:" + Sandbox.searchPath
        let names = tree(prefix).keys.filter { $0.hasPrefix("bin/") }.map { String($0.dropFirst(4)) }.sorted()
        #expect(names.contains("git-credential-sqlite") && names.contains("basic-auth-header") && names.contains("credential-curl"), "\(names)")
        for name in names {
            let version = try sandbox.run(prefix + "/bin/" + name, ["--version"], environment: ["PATH": path])
            #expect(version.exitCode == 0 && version.stdoutText == "\(name) \(Self.version)\n", "\(name): \(version)")
        }

        // git, through the installed helper, stores and fills a credential.
        let git = GitCredential(sandbox: sandbox, helper: prefix + "/bin/git-credential-sqlite")
        try git.approve("protocol=https", "host=dist.example", "username=alice", "password=from the archive")
        #expect(try git.filledPassword("protocol=https", "host=dist.example") == "from the archive")

        // man finds the page through PATH alone (what install.sh tells the user), and renders it.
        let manPath = try sandbox.run("/usr/bin/man", ["-w", "git-credential-sqlite"], environment: ["PATH": path])
        #expect(manPath.stdoutText == prefix + "/share/man/man1/git-credential-sqlite.1\n", "\(manPath)")
        let man = try sandbox.run("/usr/bin/man", ["git-credential-sqlite"], environment: ["PATH": path, "MANPAGER": "cat", "MANWIDTH": "80"])
        #expect(man.exitCode == 0 && man.stderr.isEmpty && man.stdoutText.contains("SYNOPSIS"), "\(man)")
        // bash-completion loads the installed completion.
        let completion = ShellCompletion(sandbox: sandbox, share: prefix + "/share", bin: prefix + "/bin")
        let (candidates, run) = try completion.candidates(.bash, ["git-credential-sqlite", "capab"])
        #expect(candidates == ["capability"], "\(run)")

        // Configured for git as the README says; uninstall says that git's line now fails, and how it goes.
        let configure = try sandbox.run(prefix + "/bin/git-credential-sqlite", ["configure"], environment: ["PATH": path])
        #expect(configure.exitCode == 0, "\(configure)")
        let uninstall = try install(archive, ["--uninstall"], environment: ["PREFIX": prefix])
        #expect(uninstall.exitCode == 0
                && uninstall.stdoutText.hasPrefix("install.sh: removed git-credential-helpers from \(prefix).\n"), "\(uninstall)")
        #expect(uninstall.stderrLines.count == 2
                && uninstall.stderrLines[0].hasPrefix("install.sh: warning: git's configuration runs helpers from \(prefix)/bin")
                && uninstall.stderrLines[0].contains("unconfigure")
                && uninstall.stderrLines[1].hasPrefix("  file:\(sandbox.home)/.gitconfig\tcredential.helper ")
                && uninstall.stderrLines[1].contains("\(prefix)/bin/git-credential-sqlite"), "\(uninstall)")
        #expect(!fileExists(prefix), "left after uninstall: \(tree(prefix))")
        // What was stored stays: it is the user's.
        #expect(fileExists(sandbox.database) && fileExists(sandbox.keyFile))
    }

    /// Another architecture, no glibc, or one older than the binaries need: one line that
    /// says so, and nothing made. The machine's answers come from stand-ins for uname and
    /// getconf first on PATH; glibc versions compare as numbers (2.100 is newer than 2.35).
    @Test func refusesAMachineItCannotServe() throws {
        let archive = try Self.archive.get()
        let installer = try String(contentsOfFile: archive.installer, encoding: .utf8)
        let required = try #require(installer.split(separator: "\n").first { $0.hasPrefix("required_glibc=") }.map { String($0.dropFirst(15)) })
        try #require(required != "none", "every binary is static: nothing to refuse for glibc")

        func machine(_ architecture: String, _ getconf: String) throws -> ProcessResult {
            let stubs = sandbox.root + "/stubs"
            try sandbox.file("stubs/uname", "#!/bin/sh\nif [ \"$1\" = -m ]; then echo \(architecture); else echo Linux; fi\n", mode: 0o755)
            try sandbox.file("stubs/getconf", "#!/bin/sh\n\(getconf)\n", mode: 0o755)
            return try install(archive, ["--prefix", prefix], environment: ["PATH": stubs + ":" + Sandbox.searchPath])
        }
        let refusals = [
            (try machine("aarch64", "echo glibc \(required)"), "these binaries are for x86_64 Linux, and this is Linux aarch64"),
            (try machine("x86_64", "echo glibc 2.17"), "the commands need glibc \(required) or newer, and this system has 2.17"),
            (try machine("x86_64", "echo 'getconf: Unrecognized variable' >&2; exit 1"), "no GNU C library (glibc) found here"),
        ]
        for (result, cause) in refusals {
            #expect(result.exitCode == 1 && result.stdout.isEmpty && result.stderrLines.count == 1
                    && result.stderrText.hasPrefix("install.sh: " + cause) && result.stderrText.contains(". Fix: build from source"),
                    "\(result)")
            #expect(!fileExists(prefix), "made \(tree(prefix)) on a machine it refused")
        }
        for version in [required, "2.100"] {
            let served = try machine("x86_64", "echo glibc \(version)")
            #expect(served.exitCode == 0 && served.stderr.isEmpty, "glibc \(version): \(served)")
            #expect(try install(archive, ["--uninstall", "--prefix", prefix]).exitCode == 0)
        }
    }

    /// A machine without libsecret (hidden from the loader by an empty file bound over it,
    /// in a mount namespace of the test's own): the commands that load it are named, with
    /// what the loader says; the others, installed all the same, work.
    @Test func namesTheCommandsALibraryIsMissingFor() throws {
        let archive = try Self.archive.get()
        guard getuid() == 0, let unshare = Sandbox.which("unshare"),
              let resolved = realpath("/usr/lib/x86_64-linux-gnu/libsecret-1.so.0", nil) else { return }
        let library = String(cString: resolved)
        free(resolved)
        var needing: [String] = []
        for path in files(in: archive.tree + "/bin") {
            let dynamic = try sandbox.run("/usr/bin/readelf", ["--dynamic", path])
            if dynamic.stdoutText.contains("[libsecret-1.so.0]") { needing.append(String(path.split(separator: "/").last!)) }
        }
        try #require(!needing.isEmpty, "no command loads libsecret")
        let run = try sandbox.run(unshare, ["-m", "/bin/sh", "-c", "mount --bind /dev/null \"$0\" && exec \"$@\"", library,
                                            archive.installer, "--prefix", prefix])
        #expect(run.exitCode == 0, "\(run)")
        #expect(run.stderrLines.first?.hasPrefix("install.sh: warning: these commands cannot run here yet (install the library named") == true
                && run.stderrLines.dropFirst().map { String($0.prefix { $0 != ":" }) } == needing.sorted().map { "  " + $0 }
                && run.stderrLines.dropFirst().allSatisfy { $0.contains("libsecret-1.so.0") }, "\(run)")
        let credential = wire("protocol=https", "host=example.com", "username=alice", "password=no desktop")
        expectSuccess(try sandbox.run(prefix + "/bin/git-credential-sqlite", ["store"], input: credential))
        #expect(try sandbox.run(prefix + "/bin/git-credential-sqlite", ["get"], input: wire("protocol=https", "host=example.com"))
            .attributes["password"] == "no desktop")
    }

    /// A file of someone else's in a target place, a symbolic link planted there, a
    /// directory another user could write or owns: refused before anything is made,
    /// nothing followed or overwritten. Installing again replaces only what is ours, and
    /// uninstall leaves what was changed or added since.
    @Test func leavesWhatIsNotOursAlone() throws {
        let archive = try Self.archive.get()
        let victim = try sandbox.file("victim", "precious\n")
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: prefix + "/bin/git-credential-sqlite", withDestinationPath: victim)
        let planted = try install(archive, ["--prefix", prefix])
        #expect(planted.exitCode == 1 && planted.stderrLines.count == 1
                && planted.stderrText.hasPrefix("install.sh: not installed by this install.sh, so left alone: \(prefix)/bin/git-credential-sqlite. Fix: "),
                "\(planted)")
        #expect(contents(of: victim) == Array("precious\n".utf8) && tree(prefix) == ["bin/git-credential-sqlite": "-> " + victim],
                "\(tree(prefix))")
        try FileManager.default.removeItem(atPath: prefix)

        let shared = sandbox.root + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o777)
        let writable = try install(archive, ["--prefix", shared + "/prefix"])
        #expect(writable.exitCode == 1 && writable.stderrLines.count == 1
                && writable.stderrText.hasPrefix("install.sh: \(shared) is writable by group or others, who could replace what is installed in it. Fix: "),
                "\(writable)")
        #expect(!fileExists(shared + "/prefix"))

        if getuid() == 0 {
            let theirs = sandbox.root + "/theirs"
            try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
            chown(theirs, Sandbox.anotherUser, Sandbox.anotherUser)
            let owned = try install(archive, ["--prefix", theirs])
            #expect(owned.exitCode == 1 && owned.stderrText.hasPrefix("install.sh: \(theirs) belongs to another user"), "\(owned)")
            #expect(tree(theirs).isEmpty)
            // A link to our own directory, made by another user (in a sticky /tmp, say): they can point it elsewhere.
            let link = sandbox.root + "/link"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sandbox.home)
            lchown(link, Sandbox.anotherUser, Sandbox.anotherUser)
            let linked = try install(archive, ["--prefix", link + "/prefix"])
            #expect(linked.exitCode == 1 && linked.stderrText.hasPrefix("install.sh: \(link) is a symbolic link made by another user"), "\(linked)")
            #expect(!fileExists(sandbox.home + "/prefix"))
            // Attack finding (stop 17): root installing from another user's extracted
            // archive installed whatever that user put there meanwhile.
            let download = sandbox.root + "/download"
            #expect(try sandbox.run("/bin/cp", ["-a", archive.tree, download]).exitCode == 0)
            let binary = download + "/bin/git-credential-sqlite"
            chown(binary, Sandbox.anotherUser, Sandbox.anotherUser)
            let swapped = try sandbox.run("/bin/sh", [download + "/install.sh", "--prefix", prefix], environment: [:])
            // Refused before anything of it runs (the machine check runs the programs); the
            // file named is one of that inode's hard links.
            #expect(swapped.exitCode == 1 && swapped.stderrLines.count == 1 && swapped.stderrText.hasPrefix("install.sh: \(download)/bin/")
                    && swapped.stderrText.contains(" belongs to another user or is writable by group or others"), "\(swapped)")
            chown(binary, 0, 0)
            chown(download, Sandbox.anotherUser, Sandbox.anotherUser)
            let theirsTree = try sandbox.run("/bin/sh", [download + "/install.sh", "--prefix", prefix], environment: [:])
            #expect(theirsTree.exitCode == 1 && theirsTree.stderrText.hasPrefix("install.sh: \(download) belongs to another user"), "\(theirsTree)")
            #expect(!fileExists(prefix))
        }

        // A prefix with a space in it; installing twice (an upgrade) replaces our own files quietly.
        let spaced = sandbox.root + "/my prefix"
        #expect(try install(archive, ["--prefix=" + spaced]).exitCode == 0)
        let record = contents(of: spaced + "/share/git-credential-helpers/installed")
        let again = try install(archive, ["--prefix", spaced])
        #expect(again.exitCode == 0 && again.stderr.isEmpty, "\(again)")
        #expect(contents(of: spaced + "/share/git-credential-helpers/installed") == record)
        // The lines to paste name the prefix as one word, and nothing in it runs (attack
        // finding: a prefix with ' and $(...) was printed bare inside double quotes).
        let hostile = sandbox.root + "/pre 'q$(touch ran)"
        let quoted = try install(archive, ["--prefix", hostile])
        let pathLine = try #require(quoted.stdoutLines.first { $0.contains("export PATH=") }, "\(quoted)")
        let pasted = try sandbox.run("/bin/sh", ["-c", String(pathLine[pathLine.range(of: "export ")!.lowerBound...]) + "; printf %s \"$PATH\""],
                                     environment: ["PATH": "/usr/bin:/bin"], directory: sandbox.root)
        #expect(pasted.stdoutText == hostile + "/bin:/usr/bin:/bin" && !fileExists(sandbox.root + "/ran"), "\(pasted)")
        // Uninstall removes what is ours and unchanged, and no directory with something else in it.
        try sandbox.file("my prefix/bin/mine", "#!/bin/sh\n", mode: 0o755)
        let page = spaced + "/share/man/man1/git-credential-sqlite.1"
        let edited = (contents(of: page) ?? []) + Array(".\\\" my note\n".utf8)
        try ChildProcess.writeFile(page, edited, mode: 0o644)
        var left = ["bin/mine": "755", "share/man/man1/git-credential-sqlite.1": "644"]
        var changed = [page]
        // A name of ours (a symbolic link) the user pointed elsewhere is theirs now.
        if let name = tree(spaced).first(where: { $0.key.hasPrefix("bin/") && $0.value.hasPrefix("-> ") })?.key {
            try FileManager.default.removeItem(atPath: spaced + "/" + name)
            try FileManager.default.createSymbolicLink(atPath: spaced + "/" + name, withDestinationPath: "mine")
            left[name] = "-> mine"
            changed.insert(spaced + "/" + name, at: 0)
        }
        let uninstall = try install(archive, ["--uninstall", "--prefix", spaced])
        #expect(uninstall.exitCode == 0
                && uninstall.stdoutText.contains("install.sh: kept, changed since it was installed: \(changed.joined(separator: " "))\n"),
                "\(uninstall)")
        #expect(tree(spaced) == left, "\(tree(spaced))")
        #expect(contents(of: page) == edited)
    }

    /// The names in `root`/bin that are one file with another name there.
    func hardLinks(_ root: String) -> Set<Set<String>> {
        var byFile: [ino_t: Set<String>] = [:]
        for path in files(in: root + "/bin") {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            byFile[info.st_ino, default: []].insert(String(path.split(separator: "/").last ?? ""))
        }
        return Set(byFile.values.filter { $0.count > 1 })
    }

    /// The highest GLIBC_x.y symbol version any binary in `directory` needs (readelf).
    func highestGLIBC(in directory: String) throws -> String {
        var versions: [[Int]] = []
        for file in files(in: directory) {
            let info = try sandbox.run("/usr/bin/readelf", ["--version-info", "--wide", file])
            for line in info.stdoutLines {
                guard let range = line.range(of: "Name: GLIBC_") else { continue }
                let version = line[range.upperBound...].prefix { $0.isNumber || $0 == "." }
                versions.append(version.split(separator: ".").compactMap { Int($0) })
            }
        }
        guard let highest = versions.max(by: { $0.lexicographicallyPrecedes($1) }) else { return "none" }
        return highest.map(String.init).joined(separator: ".")
    }
}
