import Foundation

/// Store, get and erase as git runs them, many helper processes at once: each worker a
/// shell loop of whole helper processes over keys of its own, so that the state after
/// every operation is known and each get is checked against it as it runs.
///
/// Every host, username and password holds a marker, so that one search finds any of
/// them in a file, a process's command line or environment, or what a process said.
struct Workload {
    /// A credential's identity: what a get names, and what a store replaces.
    struct Key: Hashable {
        let host: String
        let username: String
    }

    enum Operation {
        case store(Key, password: String)
        /// Must answer one of `allowed`: a password, or nothing for nil.
        case get(Key, allowed: [String?])
        case erase(Key)
    }

    static let passwordMarker = "pw-Qz7v"
    static let usernameMarker = "user-Jx4k"

    let operations: [[Operation]]
    /// What the store holds when every worker is done.
    let model: [Key: String]
    /// Every key any worker used, stored or not at the end.
    let keys: Set<Key>

    /// `workers` workers of `count` operations each: stores (45%), gets (40%) and erases,
    /// half on hosts of the worker's own, half on one host all workers share, with
    /// usernames of the worker's own. `host` makes a host name of the test's own
    /// (its result is the host marker).
    init(workers: Int, operations count: Int, seed: UInt64, host: (String) -> String) {
        var random = SplitMix64(seed: seed)
        let shared = host("shared")
        var operations: [[Operation]] = []
        var model: [Key: String] = [:]
        for worker in 0..<workers {
            let keys = (0..<6).flatMap { index in
                [Key(host: host("w\(worker)-k\(index)"), username: "\(Self.usernameMarker)-\(index)"),
                 Key(host: shared, username: "\(Self.usernameMarker)-w\(worker)-\(index)")]
            }
            var list: [Operation] = []
            for step in 0..<count {
                let key = keys[Int(random.next() % UInt64(keys.count))]
                switch random.next() % 100 {
                case 0..<45:
                    let password = "\(Self.passwordMarker)-\(worker)-\(step)-\(random.next() % 1_000_000)"
                    model[key] = password
                    list.append(.store(key, password: password))
                case 45..<85: list.append(.get(key, allowed: [model[key]]))
                default:
                    model[key] = nil
                    list.append(.erase(key))
                }
            }
            operations.append(list)
        }
        self.operations = operations
        self.model = model
        keys = Set(operations.joined().map { operation in
            switch operation {
            case .store(let key, _), .get(let key, _), .erase(let key): key
            }
        })
    }

    /// The gets that check the final state: every key, stored or erased.
    var finalChecks: [Operation] {
        keys.sorted { ($0.host, $0.username) < ($1.host, $1.username) }.map { .get($0, allowed: [model[$0]]) }
    }

    /// A worker as a shell script, run as `sh SCRIPT HELPER [OPTION...]`. It runs every
    /// operation however the others went, and prints one line per operation that went
    /// wrong (never a secret) and then `operations N failures M`.
    static func script(_ operations: [Operation]) -> String {
        var lines = [Self.prelude]
        for operation in operations {
            switch operation {
            case .store(let key, let password): lines.append("store '\(key.host)' '\(key.username)' '\(password)'")
            case .get(let key, let allowed):
                lines.append("get '\(key.host)' '\(key.username)' " + allowed.map { "'\($0 ?? "")'" }.joined(separator: " "))
            case .erase(let key): lines.append("erase '\(key.host)' '\(key.username)'")
            }
        }
        lines.append("echo \"operations \(operations.count) failures $failures\"")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Helpers of the scripts. Passwords only go through builtins (printf, test): never
    /// into the command line of a process.
    private static let prelude = #"""
        set -u
        failures=0
        nl='
        '
        helper=$1; shift; options="$*"  # paths without spaces
        run() { "$helper" $options "$@"; }
        fail() { failures=$((failures + 1)); echo "FAIL $*"; }
        request() { printf 'protocol=https\nhost=%s\nusername=%s\n' "$1" "$2"; }
        store() { { request "$1" "$2"; printf 'password=%s\n\n' "$3"; } | run store >/dev/null || fail "store $1 $2 exit $?"; }
        get() {
            out=$({ request "$1" "$2"; echo; } | run get) || { fail "get $1 $2 exit $?"; return; }
            case "$out" in *password=*) got=${out#*password=}; got=${got%%"$nl"*} ;; *) got= ;; esac
            host=$1 username=$2; shift 2
            for allowed in "$@"; do [ "$got" = "$allowed" ] && return; done
            what=nothing; [ -z "$got" ] || what="a password"
            fail "get $host $username: $what, none of the $# allowed answers"
        }
        erase() { { request "$1" "$2"; echo; } | run erase || fail "erase $1 $2 exit $?"; }
        """#
}

/// SplitMix64, a small seedable generator: the same seed gives the same workload or the
/// same hostile inputs, so a failing run can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What the workers of a run said.
struct WorkloadOutcome {
    var operations = 0
    var failures = 0
    /// The FAIL lines, and any worker that did not finish or said something on stderr.
    var problems: [String] = []
    /// Everything the workers and the helpers they ran wrote on stdout and stderr.
    var captured: [UInt8] = []
}

extension Workload {
    /// Runs `workers` (lists of operations) at once in `sandbox`, each a shell loop of
    /// `helper OPTIONS ACTION` processes, with the sandbox's environment plus `environment`.
    static func run(_ workers: [[Operation]], in sandbox: Sandbox, helper: String, options: [String] = [],
                    environment: [String: String] = [:]) throws -> WorkloadOutcome {
        let directory = sandbox.root + "/workload-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (index, operations) in workers.enumerated() {
            try sandbox.file(String(directory.dropFirst(sandbox.root.count + 1)) + "/worker-\(index).sh", script(operations))
        }
        let driver = """
            dir=$1; shift
            for script in "$dir"/worker-*.sh; do sh "$script" "$@" >"$script.out" 2>"$script.err" & done
            wait
            """
        let result = try sandbox.run("/bin/sh", ["-c", driver, "driver", directory, helper] + options,
                                     environment: environment, timeout: 3600)
        var outcome = WorkloadOutcome()
        if result.exitCode != 0 || !result.stdout.isEmpty || !result.stderr.isEmpty {
            outcome.problems.append("the workers' driver: \(result)")
        }
        for index in workers.indices {
            let base = directory + "/worker-\(index).sh"
            let output = Output(bytes: contents(of: base + ".out") ?? []), errors = contents(of: base + ".err") ?? []
            outcome.captured += output.bytes + errors
            outcome.problems += output.lines.filter { $0.hasPrefix("FAIL ") }.map { "worker \(index): \($0)" }
            let summary = output.lines.last?.split(separator: " ") ?? []
            if summary.count == 4, summary[0] == "operations", let count = Int(summary[1]), let failed = Int(summary[3]) {
                outcome.operations += count
                outcome.failures += failed
            } else {
                outcome.operations += workers[index].count
                outcome.failures += workers[index].count
                outcome.problems.append("worker \(index) did not finish: \(output)")
            }
            if !errors.isEmpty { outcome.problems.append("worker \(index) stderr: \(Output(bytes: errors))") }
        }
        return outcome
    }
}
