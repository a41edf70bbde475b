import Foundation

/// The shells of one user as the kernel keyring sees them, made with keyctl(1) (keyutils):
/// each script joins a new session keyring, then runs "$@".
enum KernelSession {
    static var keyctl: String { Sandbox.which("keyctl") ?? "/usr/bin/keyctl" }

    /// A new login: pam_keyinit gives it a new session keyring that links the user keyring.
    static let login = """
        keyctl new_session >/dev/null && keyctl link @u @s || exit 99
        exec "$@"
        """

    /// A tmux or screen that outlived the login that started it: the login's pam_keyinit
    /// `revoke` revoked the session keyring the server inherited, which its shells still
    /// have. Checked: keyctl cannot even describe it any more (exit 99 if it can).
    static let revoked = """
        keyctl new_session >/dev/null && keyctl link @u @s && keyctl revoke @s || exit 99
        keyctl describe @s 2>&1 | grep -q 'Key has been revoked' || { echo 'the session keyring was not revoked' >&2; exit 99; }
        exec "$@"
        """

    /// A login whose user has used up their kernel keyring quota (kernel.keys.maxbytes,
    /// 20000 bytes for a user other than root): keys of ever smaller sizes fill it, in
    /// this session's keyring (gone with the session), until not one more byte fits.
    /// The quota an earlier such session used is given back by the kernel's garbage
    /// collector a moment after it ended: linking waits for it, 10 seconds at most.
    static let quotaUsedUp = """
        tries=0
        until keyctl new_session >/dev/null && keyctl link @u @s 2>/dev/null; do
            tries=$((tries + 1))
            [ $tries -lt 100 ] || { echo 'the keyring quota of an earlier session was not given back within 10 seconds' >&2; exit 99; }
            sleep 0.1
        done
        n=0
        fill() {
            for size in 16384 8192 4096 2048 1024 512 256 128 64 32 16 8 4 2 1; do
                while head -c $size /dev/zero | keyctl padd user "fill$n" @s >/dev/null 2>&1; do n=$((n + 1)); done
            done
        }
        # The kernel gives back an ended session's quota a moment later (its keys are
        # collected in the background): filled again until nothing more fits for 0.6 s.
        settled=0 tries=0
        while [ $settled -lt 3 ]; do
            fill
            tries=$((tries + 1))
            [ $tries -lt 100 ] || { echo 'the keyring quota did not settle within 20 seconds' >&2; exit 99; }
            sleep 0.2
            if keyctl add user "probe$tries" x @s >/dev/null 2>&1; then settled=0; else settled=$((settled + 1)); fi
        done
        exec "$@"
        """
}

extension Sandbox {
    /// Runs `executable` in a new `session` (a `KernelSession` script), as `run` runs it;
    /// `prefix` runs it all as another user (setpriv and its options).
    func run(in session: String, _ executable: String, _ arguments: [String], input: [UInt8] = [],
             environment: [String: String] = [:], inputFiles: [Int32: String] = [:], as prefix: [String] = []) throws -> ProcessResult {
        let command = prefix + ["/bin/sh", "-c", session, "sh", executable] + arguments
        return try run(command[0], Array(command.dropFirst()), input: input, environment: environment, inputFiles: inputFiles)
    }

    /// The description of a store's cached key in the kernel keyring.
    func keyDescription(of database: String) throws -> String {
        let sqlite3 = Self.which("sqlite3") ?? "/usr/bin/sqlite3"
        let id = try run(sqlite3, ["-batch", database, "SELECT lower(hex(value)) FROM meta WHERE name = 'database_id'"])
        return "git-credential-sqlite:" + id.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every key cached for the store `database`, as the time it has left ("8h", "4m"; "perm"
    /// for a key that never expires), from /proc/keys as a new login of the user reads it
    /// (`prefix`: of another user). The helper's keys let their user view them from any
    /// session: `session` nil reads it without making one (a session keyring needs quota).
    func cachedKeys(of database: String, in session: String? = KernelSession.login, as prefix: [String] = []) throws -> [String] {
        let description = try keyDescription(of: database)
        let command = prefix + ["/bin/cat", "/proc/keys"]
        let keys = try session.map { try run(in: $0, "/bin/cat", ["/proc/keys"], as: prefix) } ?? run(command[0], Array(command.dropFirst()))
        guard keys.exitCode == 0 else { throw SpawnError(description: "cannot read /proc/keys: \(keys)") }
        // Fields: serial, flags, usage, time left, permissions, uid, gid, type, description.
        // A key invalidated, revoked or dead (flags i, R, D), or linked nowhere any more
        // (usage 0: one replaced), is listed until the kernel's garbage collector frees
        // it, but no one can read it: it does not count.
        return keys.stdoutLines.filter { $0.hasSuffix(" " + description + ": 32") }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
            .filter { !$0[1].contains(where: "iRD".contains) && $0[2] != "0" }
            .map { $0[3] }
    }
}
