import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads every process's command line and environment (`/proc/*/cmdline`,
/// `/proc/*/environ`) over and over on a thread of its own while a test's clients run,
/// looking for secrets. Bounded: it stops when told, and after `limit` seconds anyway.
final class ProcessSampler: @unchecked Sendable {
    struct Finding: Hashable, CustomStringConvertible {
        let secret: String
        let file: String
        let program: String
        var description: String { "\(secret) in \(file) of \(program)" }
    }

    struct Report: CustomStringConvertible {
        var findings: Set<Finding> = []
        var rounds = 0
        /// The base names of every argv[0] seen.
        var programs: Set<String> = []
        var description: String {
            "\(findings.isEmpty ? "no secret found" : "found \(findings.sorted { $0.description < $1.description })")"
                + " in \(rounds) rounds over \(programs.count) programs"
        }
    }

    private let secrets: [(name: String, bytes: [UInt8])]
    private let limit: Double
    private let lock = NSLock()
    private var report = Report()
    private var stopRequested = false
    private let done = DispatchSemaphore(value: 0)

    /// `secrets`: a name for the report, and the text to look for (its UTF-8 bytes).
    init(secrets: [String: String], limit: Double = 120) {
        self.secrets = secrets.sorted { $0.key < $1.key }.map { ($0.key, Array($0.value.utf8)) }
        self.limit = limit
    }

    /// Samples while `body` runs; returns its result and what was found.
    static func watching<T>(secrets: [String: String], _ body: () throws -> T) rethrows -> (T, Report) {
        let sampler = ProcessSampler(secrets: secrets)
        sampler.start()
        let result: T
        do { result = try body() } catch { _ = sampler.stop(); throw error }
        return (result, sampler.stop())
    }

    func start() {
        Thread { [self] in
            let deadline = Date().addingTimeInterval(limit)
            while !isStopRequested, Date() < deadline {
                sampleOnce()
                usleep(500)
            }
            done.signal()
        }.start()
    }

    /// Stops sampling (waits for the round under way) and returns the report.
    func stop() -> Report {
        lock.withLock { stopRequested = true }
        done.wait()
        return lock.withLock { report }
    }

    private var isStopRequested: Bool { lock.withLock { stopRequested } }

    private func sampleOnce() {
        var found: Set<Finding> = [], programs: Set<String> = []
        for pid in ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []) where Int32(pid) != nil {
            guard let commandLine = Self.read("/proc/\(pid)/cmdline") else { continue }
            let argv0 = commandLine.split(separator: 0, omittingEmptySubsequences: false).first ?? []
            let program = (String(decoding: argv0, as: UTF8.self) as NSString).lastPathComponent
            programs.insert(program)
            for file in ["cmdline", "environ"] {
                guard let bytes = file == "cmdline" ? commandLine : Self.read("/proc/\(pid)/\(file)") else { continue }
                for secret in secrets where bytes.containsBytes(secret.bytes) {
                    found.insert(Finding(secret: secret.name, file: "/proc/\(pid)/\(file)", program: program))
                }
            }
        }
        lock.withLock {
            report.findings.formUnion(found)
            report.programs.formUnion(programs)
            report.rounds += 1
        }
    }

    /// A /proc file's bytes (its size says 0: read to the end), nil when unreadable.
    private static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 { bytes += buffer[0..<count] } else { return count == 0 ? bytes : nil }
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs anywhere in these bytes (memchr for its first byte, then
    /// memcmp: fast enough to scan every process many times a second in a debug build).
    func containsBytes(_ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        return withUnsafeBytes { haystack in
            needle.withUnsafeBytes { needle in
                guard var position = haystack.baseAddress, haystack.count >= needle.count else { return false }
                let lastStart = haystack.baseAddress! + (haystack.count - needle.count)
                while position <= lastStart {
                    guard let found = memchr(position, Int32(first), lastStart - position + 1) else { return false }
                    if memcmp(found, needle.baseAddress!, needle.count) == 0 { return true }
                    position = UnsafeRawPointer(found) + 1
                }
                return false
            }
        }
    }
}
