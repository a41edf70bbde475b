import Foundation
import Testing

/// A C program a test needs (a client or a service of the bus), compiled with gcc against a
/// pkg-config package on first use, once per test run, in a directory of the run's own.
final class CompiledProgram: @unchecked Sendable {
    let name: String
    let source: String
    let package: String
    private let lock = NSLock()
    private var built: String?

    init(name: String, source: String, package: String) {
        self.name = name
        self.source = source
        self.package = package
    }

    func path() throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let directory = FileManager.default.temporaryDirectory.path + "/\(name)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        let file = directory + "/\(name).c", binary = directory + "/" + name
        try ChildProcess.writeFile(file, Array(source.utf8), mode: 0o600)
        let flags = try ChildProcess.run("/usr/bin/pkg-config", ["--cflags", "--libs", package], environment: ["PATH": Sandbox.searchPath])
        guard flags.exitCode == 0 else { throw SpawnError(description: "pkg-config \(package): \(flags)") }
        let compiled = try ChildProcess.run(Sandbox.which("gcc") ?? "/usr/bin/gcc",
                                            ["-o", binary, file] + flags.stdoutText.split(separator: " ").map {
                                                $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty },
                                            environment: ["PATH": Sandbox.searchPath], timeout: 60)
        guard compiled.exitCode == 0 else { throw SpawnError(description: "cannot compile \(name): \(compiled)") }
        built = binary
        return binary
    }
}
