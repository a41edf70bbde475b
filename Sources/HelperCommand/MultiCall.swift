import CredentialCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One executable, several programs, chosen by the name it is run by (the last part of
/// argv[0], which is how git, shells and execvp name it). The Swift runtime, Foundation,
/// swift-crypto and the argument parser are most of each program's size: shared, the
/// suite installs in half the space (Makefile: the two executables and their names).
/// Each program behaves as its own executable did: its names, help, version and errors.
///
/// main.swift lists its programs, one line each, then refuses any other name:
///     var programs = MultiCall()
///     programs.run("git-credential-sqlite") { HelperRunner.main(SQLiteHelper.self) }
///     programs.refuseOtherNames()
/// Lines, not an array or a dictionary of programs: the generic metadata of an array of
/// closures (its first use: 31k instructions) and hashing would come before every get.
public struct MultiCall {
    /// argv[0] after its last slash, found in its bytes (no split into Characters).
    let name: String
    /// The names this executable answers to, for the line that refuses another.
    var names = ""

    public init() {
        let path = CommandLine.arguments.first ?? ""
        name = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[path.utf8.index(after: $0)...]) } ?? path
    }

    /// Runs `main` when the executable was run as `program`.
    public mutating func run(_ program: String, _ main: () -> Never) {
        if name == program { main() }
        names += (names.isEmpty ? "" : ", ") + program
    }

    /// Any other name (a copied or renamed file): one line naming the names it answers to.
    public func refuseOtherNames() -> Never {
        ProcessHardening.apply()
        let error = HelperError(.usage, "this executable runs only by the name of one of its programs (\(names)), not by this one",
                                fix: "run it by one of those names, a hard link to it (make install makes them)")
        SystemIO.writeAll(2, error.line(program: name.isEmpty ? "''" : name) + "\n")  // `exec -a ''`
        exit(2)
    }
}
