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
public enum MultiCall {
    /// A program's name and its entry point.
    public typealias Program = (name: String, main: () -> Never)

    /// Runs the program named by argv[0]; any other name (a copied or renamed file) gets
    /// one line naming the names this executable answers to. A list, not a dictionary:
    /// two string comparisons, and no hashing, on every helper's start.
    public static func main(_ programs: [Program]) -> Never {
        let name = CommandLine.programName
        if let program = programs.first(where: { $0.name == name }) { program.main() }
        ProcessHardening.apply()
        let names = programs.map(\.name).joined(separator: ", ")
        let error = HelperError(.usage, "this executable runs only by the name of one of its programs (\(names)), not by this one",
                                fix: "run it by one of those names, a hard link to it (make install makes them)")
        SystemIO.writeAll(2, error.line(program: name) + "\n")
        exit(2)
    }
}
