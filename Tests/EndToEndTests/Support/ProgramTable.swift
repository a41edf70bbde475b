import Foundation

/// packaging/programs, the one list of the suite's programs (name, executable, kind),
/// as the Makefile, scripts/generate-docs and scripts/test-deb read it: the tests that
/// go over every program take them from here, so a program added there is checked
/// everywhere, and one missing from any artefact fails (ProgramTableTests).
enum ProgramTable {
    struct Program: Sendable, CustomStringConvertible {
        let name: String
        /// The SwiftPM product it is a name of.
        let executable: String
        /// `helper` (git-credential-NAME) or `command`.
        let kind: String
        var description: String { name }
    }

    static let programs: [Program] = {
        let text = (try? String(contentsOfFile: SourceTree.root + "/packaging/programs", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !line.hasPrefix("#"), fields.count == 3 else { return nil }
            return Program(name: fields[0], executable: fields[1], kind: fields[2])
        }
    }()

    static var names: [String] { programs.map(\.name) }
    /// The credential helpers (git-credential-NAME).
    static var helpers: [String] { programs.filter { $0.kind == "helper" }.map(\.name) }
    /// The names an executable answers to (MultiCall), in the table's order.
    static func names(of executable: String) -> [String] {
        programs.filter { $0.executable == executable }.map(\.name)
    }
}
