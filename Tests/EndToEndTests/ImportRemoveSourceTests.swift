import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `import --remove-source` wipes the very file it read, or keeps it and says why in one
/// line: never a removal that did not happen, never another file than the one read (a link's
/// target, a file put in its place, a file with other names or of another user).
@Suite struct ImportRemoveSourceTests: InSQLiteWorld {
    let world: SQLiteWorld

    static let line = "https://alice:alice-secret@a.example\n"
    static let otherLine = "https://bob:bob-secret@b.example\n"

    /// The import stored the credential, kept `path` and said why in its last line (the
    /// error), and reported no removal of it.
    func expectKept(_ result: ProcessResult, _ path: String, mentioning phrases: [String],
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(result.exitCode == 1 && !result.timedOut, "\(result)", sourceLocation: sourceLocation)
        let last = result.stderrLines.last ?? ""
        #expect(last.hasPrefix("git-credential-sqlite: kept \(path): ") && last.contains(". Fix: "), "\(result)", sourceLocation: sourceLocation)
        for phrase in phrases {
            #expect(last.contains(phrase), "the reason lacks \(phrase.debugDescription): \(result)", sourceLocation: sourceLocation)
        }
        #expect(!result.stderrLines.contains("removed \(path)"), "claims a removal: \(result)", sourceLocation: sourceLocation)
        #expect(try helper.password(for: wire("protocol=https", "host=a.example")) == "alice-secret", sourceLocation: sourceLocation)
    }

    func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    @Test func theWipedFileIsZeroedBeforeItsNameGoes() throws {
        let path = try sandbox.file("clean", Self.line)
        // A descriptor held open shows what became of the file after its name is gone.
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let result = try helper.run(["import", "--remove-source", path])
        #expect(result.exitCode == 0 && result.stderrLines.last == "removed \(path)", "\(result)")
        #expect(!fileExists(path))
        var left = [UInt8](repeating: 0xFF, count: 4096)
        let count = pread(fd, &left, left.count, 0)
        #expect(count == Self.line.utf8.count && left[..<count].allSatisfy { $0 == 0 }, "not overwritten: \(left[..<max(count, 0)])")
    }

    /// Dotfile managers (stow, chezmoi, yadm) make ~/.git-credentials a link into a
    /// repository: the link's target holds the plaintext, and its history too.
    @Test func aSymlinkedGitCredentialsIsKeptAndItsTargetNamed() throws {
        let target = try sandbox.file("home/dotfiles/git-credentials", Self.line)
        let link = sandbox.home + "/.git-credentials"
        #expect(symlink("dotfiles/git-credentials", link) == 0)
        let result = try helper.run(["import", "--remove-source"])
        try expectKept(result, link, mentioning: ["symbolic link to \(realPath(target))", "remove the plaintext in \(realPath(target))",
                                                  "from its history, if it is in a repository"])
        #expect(isSymbolicLink(link), "the link was removed")
        #expect(contents(of: target) == Array(Self.line.utf8), "the target was changed")
    }

    /// ~/.git-credentials linked to the other file git reads: the file is wiped through
    /// its own name, and the link is said to lead to it.
    @Test func aLinkToAnotherSourceFindsItRemoved() throws {
        let target = try sandbox.file("config/git/credentials", Self.line)
        let link = sandbox.home + "/.git-credentials"
        #expect(symlink(target, link) == 0)
        let result = try helper.run(["import", "--remove-source"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(Array(result.stderrLines.suffix(2)) == ["removed \(target)", "left \(link): it leads to \(target), removed"], "\(result)")
        #expect(!fileExists(target))
    }

    @Test func aHardLinkedFileIsKeptWithEveryName() throws {
        let path = try sandbox.file("linked", Self.line)
        let other = sandbox.root + "/other-name"
        #expect(link(path, other) == 0)
        try expectKept(try helper.run(["import", "--remove-source", path]), path, mentioning: ["1 other name", "-samefile \(path)"])
        #expect(contents(of: path) == Array(Self.line.utf8) && contents(of: other) == Array(Self.line.utf8), "a name lost its contents")
    }

    /// Root importing a file of another user (made by that user: a second uid through
    /// setpriv) leaves it to its owner.
    @Test(.enabled(if: geteuid() == 0, "needs root to act as a second user"))
    func anotherUsersFileIsKept() throws {
        chmod(sandbox.root, 0o711)
        let shared = sandbox.root + "/shared"
        #expect(mkdir(shared, 0o777) == 0 && chmod(shared, 0o1777) == 0)
        let path = shared + "/credentials"
        let made = try sandbox.runAsAnotherUser("/bin/sh", ["-c", #"umask 022; printf %s "$1" > "$2""#, "sh", Self.line, path])
        expectSuccess(made)
        try expectKept(try helper.run(["import", "--remove-source", path]), path, mentioning: ["belongs to another user (uid 65534)"])
        #expect(contents(of: path) == Array(Self.line.utf8))
    }

    /// A user's own file in a directory they cannot write: its contents go, its name
    /// cannot, and the line says exactly that (run as a second uid through setpriv).
    @Test(.enabled(if: geteuid() == 0, "needs root to act as a second user"))
    func aFileWhoseNameCannotGoIsEmptiedAndSaidSo() throws {
        chmod(sandbox.root, 0o711)
        let home = sandbox.root + "/nobody", locked = sandbox.root + "/locked"
        #expect(mkdir(home, 0o700) == 0 && chown(home, 65534, 65534) == 0 && mkdir(locked, 0o755) == 0)
        let path = try sandbox.file("locked/credentials", Self.line)
        #expect(chown(path, 65534, 65534) == 0)
        let result = try sandbox.runAsAnotherUser(BuiltProducts.sqliteHelper, ["import", "--remove-source", path],
                                                  environment: ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"])
        #expect(result.exitCode == 1 && result.stderrLines.first == "read 1 credential from \(path): 1 new, 0 replaced, 0 unchanged", "\(result)")
        #expect(result.stderrLines.last == "git-credential-sqlite: kept \(path): overwrote it with zeros, but cannot remove it: "
                    + "Permission denied. Fix: remove the emptied file yourself", "\(result)")
        let left = try #require(contents(of: path))
        #expect(left.count == Self.line.utf8.count && left.allSatisfy { $0 == 0 }, "not overwritten: \(left)")
    }

    @Test func aReadOnlyFileIsKept() throws {
        let path = try sandbox.file("read-only", Self.line, mode: 0o400)
        try expectKept(try helper.run(["import", "--remove-source", path]), path, mentioning: ["read-only (mode 400)", "chmod u+w \(path)"])
        #expect(contents(of: path) == Array(Self.line.utf8))
    }

    /// A FIFO named on the command line is read (it may be a pipe from another command),
    /// never opened for writing: that would wait for a reader forever.
    @Test func aFIFOIsReadButNotWiped() throws {
        let path = sandbox.root + "/fifo"
        #expect(mkfifo(path, 0o600) == 0)
        let result = try sandbox.run("/bin/sh", ["-c", #"printf %s "$1" > "$2" & exec "$3" import --remove-source "$2""#,
                                                 "sh", Self.line, path, BuiltProducts.sqliteHelper], timeout: 15)
        try expectKept(result, path, mentioning: ["not a regular file (a pipe or FIFO)", "if a plaintext file fed it, remove that file yourself"])
        #expect(fileExists(path))

        // The same through a pipe on standard input.
        let piped = try sandbox.run(BuiltProducts.sqliteHelper, ["import", "--remove-source", "/dev/stdin"], input: Array(Self.line.utf8))
        try expectKept(piped, "/dev/stdin", mentioning: ["not a regular file (a pipe or FIFO)"])
    }

    /// Standard input redirected from a file is read through /dev/stdin, a link into
    /// /proc: the file is named, not wiped through the link.
    @Test func standardInputFromAFileIsKeptAndTheFileNamed() throws {
        let path = try sandbox.file("redirected", Self.line)
        let result = try sandbox.run("/bin/sh", ["-c", #"exec "$0" import --remove-source /dev/stdin < "$1""#, BuiltProducts.sqliteHelper, path])
        try expectKept(result, "/dev/stdin", mentioning: ["symbolic link to \(realPath(path))"])
        #expect(contents(of: path) == Array(Self.line.utf8))
    }

    /// A FIFO where git keeps its plaintext file is refused at once, not waited on.
    @Test func aFIFOInADefaultPlaceIsRefusedWithoutWaiting() throws {
        #expect(mkfifo(sandbox.home + "/.git-credentials", 0o600) == 0)
        let result = try sandbox.run(BuiltProducts.sqliteHelper, ["import", "--remove-source"], timeout: 10)
        #expect(!result.timedOut, "the import waited on the FIFO")
        expectOneLineFailure(result, exitCode: 1, mentioning: ["\(sandbox.home)/.git-credentials", "not a regular file (a pipe or FIFO)"])
        #expect(!fileExists(sandbox.database))
    }

    @Test func aDirectoryIsRefused() throws {
        let directory = sandbox.root + "/directory"
        #expect(mkdir(directory, 0o700) == 0)
        expectOneLineFailure(try helper.run(["import", "--remove-source", directory]), exitCode: 2, mentioning: ["\(directory): it is a directory"])
        #expect(fileExists(directory))
    }

    struct Replacement: Sendable, CustomTestStringConvertible {
        let testDescription: String
        /// Shell commands run between the read and the wipe, with $P the file's path and
        /// $V a victim file's.
        let commands: String
        let reason: String
    }

    static let replacements = [
        Replacement(testDescription: "another file", commands: #"printf %s "$OTHER" > "$P.new"; mv "$P.new" "$P""#,
                    reason: "replaced since it was read (by a regular file)"),
        Replacement(testDescription: "a symbolic link", commands: #"ln -s "$V" "$P.new"; mv -T "$P.new" "$P""#,
                    reason: "replaced since it was read (by a symbolic link)"),
        Replacement(testDescription: "a FIFO", commands: #"rm "$P"; mkfifo "$P""#, reason: "replaced since it was read (by a pipe or FIFO)"),
        Replacement(testDescription: "a directory", commands: #"rm "$P"; mkdir "$P""#, reason: "replaced since it was read (by a directory)"),
        Replacement(testDescription: "an appended line", commands: #"printf %s "$OTHER" >> "$P""#, reason: "changed since it was read"),
        Replacement(testDescription: "a new hard link", commands: #"ln "$P" "$P.second""#, reason: "1 other name"),
    ]

    /// The file changes between the read and the wipe: here while the export file read
    /// after it asks for its passphrase (the askpass program makes the change). What is
    /// there then is kept, whatever it is, and so is the victim of a link.
    @Test(arguments: replacements)
    func aFileChangedBeforeTheWipeIsKept(_ replacement: Replacement) throws {
        let exporter = Sandbox.sqliteElsewhere(sandbox)
        try exporter.storeAll(wire("protocol=https", "host=c.example", "username=carol", "password=carol-secret"))
        let archive = sandbox.root + "/backup.gitcred"
        let phrase = try sandbox.file("phrase", "archive phrase\n")
        let exported = try sandbox.run(BuiltProducts.sqliteHelper, exporter.options + ["export", "-o", archive, "--file-passphrase-fd", "3",
                                                                                      "--scrypt-cost", "10"], inputFiles: [3: phrase])
        #expect(exported.exitCode == 0, "\(exported)")
        let path = try sandbox.file("plain", Self.line)
        let victim = try sandbox.file("victim", "victim's own\n")
        let askpass = try sandbox.file("askpass", "#!/bin/sh\n\(replacement.commands)\necho 'archive phrase'\n", mode: 0o700)

        let result = try helper.with(environment: ["GIT_ASKPASS": askpass, "P": path, "V": victim, "OTHER": Self.otherLine])
            .run(["import", "--remove-source", path, archive])
        try expectKept(result, path, mentioning: [replacement.reason])
        #expect(result.stderrLines.contains("kept \(archive): --remove-source wipes plaintext files only"), "\(result)")
        #expect(contents(of: victim) == Array("victim's own\n".utf8), "the victim was changed")
        switch replacement.testDescription {
        case "another file": #expect(contents(of: path) == Array(Self.otherLine.utf8))
        case "an appended line", "a new hard link": #expect(contents(of: path) == Array((Self.line + (replacement.testDescription == "an appended line" ? Self.otherLine : "")).utf8))
        case "a symbolic link": #expect(isSymbolicLink(path))
        default: #expect(fileExists(path))
        }
    }

    @Test func everyKeptFileIsNamedAndTheOthersAreRemoved() throws {
        let readOnly = try sandbox.file("read-only", Self.line, mode: 0o400)
        let clean = try sandbox.file("clean", Self.otherLine)
        let linked = try sandbox.file("linked", Self.line)
        #expect(link(linked, sandbox.root + "/linked-too") == 0)
        let result = try helper.run(["import", "--remove-source", readOnly, clean, linked])
        try expectKept(result, linked, mentioning: ["1 other name"])
        #expect(result.stderrLines.contains { $0.hasPrefix("git-credential-sqlite: kept \(readOnly): it is read-only") }, "\(result)")
        #expect(result.stderrLines.contains("removed \(clean)") && !fileExists(clean), "\(result)")
        #expect(fileExists(readOnly) && fileExists(linked))
    }

    @Test func aFileNamedTwiceIsRemovedOnce() throws {
        let path = try sandbox.file("twice", Self.line)
        let result = try helper.run(["import", "--remove-source", path, path])
        #expect(result.exitCode == 0 && result.stderrLines.filter { $0.hasPrefix("removed") } == ["removed \(path)"], "\(result)")
        #expect(!fileExists(path))
    }
}
