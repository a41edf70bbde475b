import Foundation
import Testing

/// packaging/programs is the one list of programs: each of them has everything a program
/// of the suite has, and the executables answer to exactly their names there. Adding a
/// program (docs/ADDING-A-BACKEND.md) without any of these fails here, naming what is missing.
@Suite struct ProgramTableTests {
    let sandbox: Sandbox

    init() throws { sandbox = try Sandbox() }

    @Test func theTableListsEveryProgramOnce() {
        #expect(ProgramTable.names.count >= 6, "packaging/programs read as \(ProgramTable.programs)")
        #expect(Set(ProgramTable.names).count == ProgramTable.names.count, "a name twice: \(ProgramTable.names)")
        for program in ProgramTable.programs {
            #expect(["credential-helpers", "credential-helpers-libsecret"].contains(program.executable), "\(program.name): executable \(program.executable)")
            #expect(["helper", "command"].contains(program.kind), "\(program.name): kind \(program.kind)")
            #expect((program.kind == "helper") == program.name.hasPrefix("git-credential-"), "\(program.name): kind \(program.kind)")
        }
    }

    /// Its man page and its completions for bash, zsh and fish, committed (generate-docs
    /// writes them from the table; `make test` checks they are current).
    @Test(arguments: ProgramTable.names)
    func everyProgramHasItsPageAndCompletions(name: String) {
        for path in ["man/\(name).1", "completions/bash/\(name)", "completions/zsh/_\(name)", "completions/fish/\(name).fish"] {
            #expect(FileManager.default.fileExists(atPath: SourceTree.root + "/" + path), "\(name): no \(path)")
        }
    }

    /// make install puts each program, its page and its completions in place (as make
    /// would run it: `make -n`, nothing built or installed).
    @Test func makeInstallInstallsEveryProgram() throws {
        let result = try sandbox.run(Sandbox.which("make") ?? "/usr/bin/make",
                                     ["--no-print-directory", "-n", "-C", SourceTree.root, "install", "DESTDIR=/nonexistent", "PREFIX=/usr"],
                                     environment: ["PATH": "/opt/swift/usr/bin:" + Sandbox.searchPath], timeout: 60)
        try #require(result.exitCode == 0, "\(result)")
        let lines = result.stdoutLines
        for name in ProgramTable.names {
            // Each word of the lines that install into bin, as the file name it ends in.
            let words = Set(lines.filter { $0.contains("/nonexistent/usr/bin") }
                .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == ";" }).map { $0.split(separator: "/").last.map(String.init) ?? "" } })
            #expect(words.contains(name), "make install puts no \(name) in bin")
            for path in ["man/\(name).1", "completions/bash/\(name)", "completions/zsh/_\(name)", "completions/fish/\(name).fish"] {
                #expect(lines.contains { $0.split(separator: " ").contains(Substring(path)) }, "make install installs no \(path)")
            }
        }
    }

    /// Each executable answers to exactly its names of the table (its main.swift's lines):
    /// run by another name, it lists them.
    @Test(arguments: ["credential-helpers", "credential-helpers-libsecret"])
    func eachExecutableAnswersToItsNames(executable: String) throws {
        let result = try sandbox.run(BuiltProducts.directory + "/" + executable, ["--version"])
        let listed = try #require(result.stderrText.firstMatch(of: /of its programs \(([^)]*)\)/)?.1, "\(result)")
        #expect(listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } == ProgramTable.names(of: executable),
                "\(executable) answers to \(listed); packaging/programs lists \(ProgramTable.names(of: executable))")
    }
}
