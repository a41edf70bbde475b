import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `doctor NAME` on the person's machine: does serve answer, does ssh forward its socket
/// for NAME (`ssh -G NAME`, which reads the ~/.ssh/config of the passwd entry's home, not
/// $HOME's: so the person here is a throwaway account), has git here helpers to answer with.
@Suite(.enabled(if: sshWorldUnavailable == nil, Comment(rawValue: sshWorldUnavailable ?? "")))
struct ForwardDoctorTests {
    /// A person: a throwaway account, HOME its home, no XDG_RUNTIME_DIR (serve's socket in
    /// ~/.cache/git-credential-forward).
    final class Person {
        let account: RemoteAccount
        init() throws { account = try RemoteAccount() }
        var home: String { account.home }
        var socket: String { home + "/.cache/git-credential-forward/build/socket" }
        var command: [String] { ["/usr/bin/setpriv", "--reuid=\(account.uid)", "--regid=\(account.gid)", "--clear-groups"] }
        var environment: [String: String] { ["PATH": Sandbox.searchPath, "HOME": home, "LANG": "C.UTF-8"] }

        func run(_ executable: String, _ arguments: [String]) throws -> ProcessResult {
            try ChildProcess.run(command[0], Array(command.dropFirst()) + [executable] + arguments, environment: environment, directory: home)
        }

        func forward(_ arguments: [String]) throws -> ProcessResult { try run(BuiltProducts.forward, arguments) }

        func serve() throws -> BackgroundProcess {
            let serve = try BackgroundProcess(command[0], Array(command.dropFirst()) + [BuiltProducts.forward, "serve", "build", "--host", "example.com"],
                                              environment: environment, directory: home)
            let deadline = Date().addingTimeInterval(20)
            while !fileExists(socket) && Date() < deadline { usleep(20_000) }
            return serve
        }

        /// ~/.ssh/config holding `lines`, the person's, 0600.
        func sshConfig(_ lines: String...) throws {
            let directory = home + "/.ssh"
            if !fileExists(directory) {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                chown(directory, account.uid, account.gid)
            }
            try ChildProcess.writeFile(directory + "/config", Array((lines.joined(separator: "\n") + "\n").utf8), mode: 0o600)
            chown(directory + "/config", account.uid, account.gid)
        }
    }

    /// The line of `doctor`'s output about `subject` (`ok    ssh: ...`).
    func line(_ result: ProcessResult, _ subject: String) -> String {
        result.stdoutLines.first { $0.contains(" \(subject): ") } ?? "(no \(subject) line in \(result.stdoutText.debugDescription))"
    }

    @Test func doctorSaysWhetherServeAnswersSshForwardsAndGitHasHelpers() throws {
        let person = try Person()
        #expect(try person.run("/usr/bin/git", ["config", "--global", "credential.helper", "cache"]).exitCode == 0)

        // Nothing running, nothing in ssh's configuration.
        var doctor = try person.forward(["doctor", "build"])
        #expect(doctor.exitCode == 1, "\(doctor)")
        #expect(line(doctor, "socket").hasPrefix("FAIL") && line(doctor, "socket").contains("serve is not running")
                && doctor.stdoutText.contains("git-credential-forward serve build --host HOST"), "\(doctor)")
        #expect(line(doctor, "ssh").hasPrefix("warn") && line(doctor, "ssh").contains("forwards nothing to \(person.socket)"), "\(doctor)")
        #expect(line(doctor, "git config").hasPrefix("ok") && line(doctor, "git config").contains("cache"), "\(doctor)")

        // serve running, ssh forwarding to it as setup's line does.
        let serve = try person.serve()
        defer { serve.stop() }
        try person.sshConfig("Host build", "    RemoteForward /home/alice/.git-credential-forward.sock \(person.socket)")
        doctor = try person.forward(["doctor", "build"])
        #expect(doctor.exitCode == 0, "\(doctor)")
        #expect(line(doctor, "socket").hasPrefix("ok") && line(doctor, "socket").contains("serve build answers"), "\(doctor)")
        #expect(line(doctor, "ssh").hasPrefix("ok") && line(doctor, "ssh").contains("/home/alice/.git-credential-forward.sock there to \(person.socket)"), "\(doctor)")

        // A remote path that sshd would not bind (no ~ expansion there).
        try person.sshConfig("Host build", "    RemoteForward ~/.git-credential-forward.sock \(person.socket)")
        doctor = try person.forward(["doctor", "build"])
        #expect(doctor.exitCode == 1, "\(doctor)")
        #expect(line(doctor, "ssh").hasPrefix("FAIL") && line(doctor, "ssh").contains("names ~/.git-credential-forward.sock there, not a full path")
                && doctor.stdoutText.contains("git-credential-forward setup build"), "\(doctor)")

        // No helper here: nothing for serve to answer with.
        #expect(try person.run("/usr/bin/git", ["config", "--global", "--unset", "credential.helper"]).exitCode == 0)
        doctor = try person.forward(["doctor", "build"])
        #expect(line(doctor, "git config").hasPrefix("FAIL") && line(doctor, "git config").contains("no credential helper"), "\(doctor)")
    }

    /// A configuration ssh refuses (a relative remote path, say) makes `ssh build` fail as
    /// well: doctor and setup name ssh's own line, which names the file and line to correct.
    @Test func anSshConfigurationSshRefusesIsNamedByDoctorAndSetup() throws {
        let person = try Person()
        try person.sshConfig("Host build", "    RemoteForward .git-credential-forward.sock \(person.socket)")
        let doctor = try person.forward(["doctor", "build"])
        #expect(doctor.exitCode == 1, "\(doctor)")
        #expect(line(doctor, "ssh").hasPrefix("FAIL") && line(doctor, "ssh").contains("ssh -G build fails: ")
                && line(doctor, "ssh").contains("line 2: Bad forwarding specification"), "\(doctor)")
        let setup = try person.forward(["setup", "build", "--host", "example.com"])
        expectOneLineFailure(setup, exitCode: 1, mentioning: ["ssh -G build fails: ", "line 2: Bad forwarding specification", "Fix: "])
        #expect(setup.stdout.isEmpty, "\(setup)")
    }
}
