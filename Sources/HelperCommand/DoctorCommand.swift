import ArgumentParser
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

public struct DoctorCommand<Options: StoreOptions>: ParsableCommand where Options.Settings: DiagnosableSettings {
    public init() {}
    public static var configuration: CommandConfiguration {
        let name = Options.Settings.helperName
        return CommandConfiguration(
            commandName: "doctor",
            abstract: "Check the setup and say what to fix: PATH, git and its configuration, the store, a round trip.",
            discussion: """
                Prints one verdict per check (ok, warn or FAIL) with the fix, never a secret, \
                and exits 1 when a check fails. It checks that the program git's configuration \
                names still exists and no one else could replace it, warns of a PATH entry \
                naming the current directory or one others can write, and points out a plaintext ~/.git-credentials or \
                $XDG_CONFIG_HOME/git/credentials with the import command that moves it into \
                the store. The round trip stores, reads back and erases a throwaway credential \
                (host under .invalid) in a temporary store (for the Secret Service, in the \
                keyring). It changes nothing: the store is only \
                read, and a store that does not exist yet is not created. It asks for nothing: \
                a locked store or keyring is reported as locked.

                Example:
                  git-credential-\(name) doctor
                """)
    }

    @OptionGroup var options: Options

    public func run() throws {
        let name = Options.Settings.helperName
        let settings = options.settings
        SecretPrompt.allowed = false
        // The options given, for the fixes to repeat: doctor --db X suggests configure --db X.
        let arguments = (try? settings.helperArguments()) ?? []
        let checks = Doctor.path(name) + Doctor.git(name, arguments: arguments) + settings.diagnose()
            + [Doctor.roundTrip(settings), Doctor.plaintext(name, arguments: arguments)] + Doctor.netrc(name, arguments: arguments)
        SystemIO.writeAll(1, checks.map { $0.line + "\n" }.joined())
        if checks.contains(where: { $0.verdict == .fail }) { throw ExitCode.failure }
    }
}

/// The checks every helper shares.
public enum Doctor {
    /// Where a shell finds the program. git runs the one its configuration names (checked
    /// with the configuration), by full path since configure writes one: not being on
    /// PATH only means typing the full path. Then PATH's entries that name the current directory.
    public static func path(_ name: String) -> [HealthCheck] {
        let program = "git-credential-" + name
        let slips = pathSlips()
        guard let found = Subprocess.which(program) else {
            return [HealthCheck(.warn, "PATH", "\(program) is not on PATH, so it runs only by its full path",
                                fix: "make install, or add the directory that holds it to PATH")] + slips
        }
        if let here = Subprocess.currentExecutable, Subprocess.realPath(found) != here {
            return [HealthCheck(.warn, "PATH", "PATH finds \(found), not this \(here)", fix: "remove the other copy, or order PATH")] + slips
        }
        return [HealthCheck(.ok, "PATH", "PATH finds \(found)")] + slips
    }

    /// PATH's entries that these helpers skip (Subprocess.searchDirectories) but shells,
    /// git and pass do not: one naming the current directory (in the repository git works
    /// in, its own git or gpg2 would run), or a directory someone else could write.
    static func pathSlips() -> [HealthCheck] {
        let (skipped, count) = Subprocess.skippedPathEntries
        return skipped.map { position, entry, why in
            let what = entry.isEmpty
                ? "is empty (\(position == 1 ? "a leading" : position == count ? "a trailing" : "a doubled") ':'), which shells, git and pass read as the current directory"
                : "\(Trace.quoted(entry)), \(why)"
            let whose = entry.hasPrefix("/") ? "someone else's program" : "a program of the repository git works in"
            return HealthCheck(.warn, "PATH", "entry \(position) of PATH\(entry.isEmpty ? " " : ", ")\(what), so \(whose) would run; these helpers skip it",
                               fix: "remove it from PATH where PATH is set (~/.profile, ~/.bashrc)")
        }
    }

    /// The git version and its protocol features, and how git config names helpers.
    static func git(_ name: String, arguments: [String]) -> [HealthCheck] {
        guard let text = GitConfig.versionLine() else {
            return [HealthCheck(.fail, "git", "git does not run", fix: "install git (apt-get install git)")]
        }
        return [HealthCheck(.ok, "git", text + ": " + features(of: text))] + configuration(name, arguments: arguments)
    }

    /// Which credential features of the protocol this git sends, by version.
    static func features(of versionText: String) -> String {
        let version = GitConfig.versionNumbers(of: versionText)
        let features = [((2, 41), "password_expiry_utc, oauth_refresh_token, wwwauth[]"),
                        ((2, 46), "authtype, credential, capabilities")]
        let has = features.filter { version >= $0.0 }.map(\.1)
        let later = features.filter { version < $0.0 }.map { "\($0.1) (git \($0.0.0).\($0.0.1))" }
        return (has.isEmpty ? "" : "sends " + has.joined(separator: ", ") + (later.isEmpty ? "" : "; "))
            + (later.isEmpty ? "" : "enough for these helpers; a later git also sends " + later.joined(separator: ", ") + ", which they use then")
    }

    /// The helpers git will run, in order (those after the last empty reset line), and
    /// the program git runs for each of ours.
    static func configuration(_ name: String, arguments: [String]) -> [HealthCheck] {
        let subject = "git config"
        guard let lines = try? GitConfig.helperLines() else {
            return [HealthCheck(.fail, subject, "git config cannot be read", fix: "run git config --list to see what is wrong")]
        }
        let active = lines.activeGeneral.map { (scope: $0.scope, value: $0.value) }
        let values = active.map(\.value)
        // Values as Trace.quoted writes them: a repository's configuration is outside data.
        let order = values.isEmpty ? "no helper" : "helpers in order: " + values.map(Trace.quoted).joined(separator: ", ")
        let configure = configureLine(name, arguments: arguments, scope: "global")
        // git hands every credential to every helper it runs, ours or not.
        let others = lines.activeGeneral.filter { !HelperLine(parsing: $0.value).runs(name) }.compactMap(replaceable)
            + lines.forURLs.compactMap(replaceable)
        // A store per URL (configure --url): each such line of ours is checked as a general one is.
        let forURLs = lines.byURL.flatMap { url, entries in
            entries.filter { !$0.isGeneral && HelperLine(parsing: $0.value).runs(name) }
                .map { program(name, configured: $0.value, scope: $0.scope, url: url, checking: arguments) }
        }
        guard let ours = values.firstIndex(where: { HelperLine(parsing: $0).runs(name) }) else {
            guard forURLs.isEmpty else {
                let urls = lines.byURL.filter { $0.lines.contains { HelperLine(parsing: $0.value).runs(name) } }.map { Trace.quoted($0.url) }
                return [HealthCheck(.ok, subject, "\(order); \(name) runs for \(urls.joined(separator: ", ")) only")] + forURLs + others
            }
            return [HealthCheck(.fail, subject, "credential.helper does not name \(name) (\(order))", fix: configure)] + others
        }
        let programs = active.filter { HelperLine(parsing: $0.value).runs(name) }
            .map { program(name, configured: $0.value, scope: $0.scope, checking: arguments) } + forURLs + others
        // The reset line goes where the offending line is: one written to ~/.gitconfig
        // does not stop a line in the repository's configuration, which git reads after it.
        // cache in front is the usual pairing (memory first); anything else answers first.
        if let earlier = active[..<ours].first(where: { $0.value.split(separator: " ").first != "cache" }) {
            return [HealthCheck(.warn, subject, "\(order): \(Trace.quoted(earlier.value)) comes first (\(place(earlier.scope))), so git uses its answers before \(name)'s; configure resets the list",
                                fix: earlier.scope == "command" ? removal(of: GitConfig.HelperLines.Entry(scope: earlier.scope, key: "credential.helper", value: earlier.value)) : configureLine(name, arguments: arguments, scope: earlier.scope))] + programs
        }
        if let plaintext = active.first(where: { $0.value.split(separator: " ").first == "store" }) {
            let move = PlaintextFiles.importLine(name, arguments: arguments, files: PlaintextFiles.files(of: HelperLine(parsing: plaintext.value)))
            return [HealthCheck(.warn, subject, "\(order): \(Trace.quoted(plaintext.value)) runs too (\(place(plaintext.scope))) and writes every credential in clear to a file; configure resets the list"
                                + (move.map { ", and import moves \($0.files) into the store" } ?? ""),
                                fix: plaintext.scope == "command" ? removal(of: GitConfig.HelperLines.Entry(scope: plaintext.scope, key: "credential.helper", value: plaintext.value))
                                    : configureLine(name, arguments: arguments, scope: plaintext.scope) + (move.map { " && " + $0.command } ?? ""))] + programs
        }
        return [HealthCheck(.ok, subject, order)] + programs
    }

    /// Another helper's line that runs a program by a path others could put theirs at
    /// (PrivateFiles.checkProgram): git hands it every credential as it hands ours.
    static func replaceable(_ entry: GitConfig.HelperLines.Entry) -> HealthCheck? {
        let line = HelperLine(parsing: entry.value)
        guard line.program.hasPrefix("/"), let why = HelperLine.whyUnsafeToRun(line.program) else { return nil }
        let place = entry.isGeneral ? entry.scope : "\(entry.scope), \(Trace.quoted(entry.key))"
        // The Fix removes that line only; installing that helper where only you and root
        // can write, then pointing the line there, would do too (said, not the command).
        return HealthCheck(.fail, "helper", "\(Trace.quoted(entry.value)) (\(place)) runs \(line.program), which others could replace, and git hands it every credential: \(why); "
                           + "remove that line, or install that helper where only you and root can write",
                           fix: removal(of: entry))
    }

    /// The command that removes one configured line, from where git read it: its scope's
    /// file, or the file git names (an include.path file, which `git config --global`
    /// does not write); a line of git -c or GIT_CONFIG_COUNT (scope `command`) is in no
    /// file, and only its giver can drop it.
    public static func place(_ scope: String) -> String {
        scope == "command" ? "from the environment: git -c, or GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n" : scope + " configuration"
    }

    public static func removal(of entry: GitConfig.HelperLines.Entry) -> String {
        guard entry.scope != "command" else {
            return "unset GIT_CONFIG_COUNT GIT_CONFIG_PARAMETERS"
        }
        let file = entry.origin.hasPrefix("file:") ? String(entry.origin.dropFirst("file:".count)) : nil
        let home = SystemIO.environment("HOME") ?? ""
        let xdg = SystemIO.environment("XDG_CONFIG_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        let scopesOwn = ["global": [home + "/.gitconfig", xdg + "/git/config"], "system": ["/etc/gitconfig"]][entry.scope]
        let place = file.map { file in scopesOwn.map { $0.contains(file) } ?? true ? ["--" + entry.scope] : ["--file", file] } ?? ["--" + entry.scope]
        return ShellWord.command(["git", "config"] + place + ["--fixed-value", "--unset-all", entry.key, entry.value])
    }

    /// The program a configured line of ours runs, found as git finds it: a path as it
    /// is; `!NAME` on PATH; a short name as `git credential-NAME` does, in git's exec
    /// path and then on PATH. A program found only through this PATH is lost to git run
    /// from cron, systemd or an IDE, which have PATH=/usr/bin:/bin.
    static func program(_ name: String, configured value: String, scope: String, url: String? = nil, checking arguments: [String]) -> HealthCheck {
        // A line for one URL (configure --url) is named with it, and its fixes repeat it.
        let place = scope + (url.map { ", for \(Trace.quoted($0))" } ?? "")
        let subject = "helper"
        let line = HelperLine(parsing: value)
        let fix = configureLine(name, arguments: line.arguments, scope: scope, url: url)
        let named = Trace.quoted(value)
        let found: String
        if line.program.contains("/") {
            guard access(line.program, F_OK) == 0 else {
                return HealthCheck(.fail, subject, "\(named) (\(place)) runs \(line.program), which no longer exists", fix: fix)
            }
            guard access(line.program, X_OK) == 0 else {
                return HealthCheck(.fail, subject, "\(named) (\(place)) runs \(line.program), which is not executable", fix: fix)
            }
            found = line.program
        } else {
            let program = line.isShortName ? "git-credential-" + line.program : line.program
            let execPath = line.isShortName ? (try? GitConfig.git(["--exec-path"])).flatMap { $0.succeeded ? $0.outputText : nil }
                .map { String($0.split(separator: "\n").first ?? "") } : nil
            let directories = (execPath.map { [$0] } ?? []) + Subprocess.searchDirectories
            guard let first = directories.map({ $0 + "/" + program }).first(where: { access($0, X_OK) == 0 }) else {
                return HealthCheck(.fail, subject, "\(named) (\(place)) runs \(program) by name, which is not on PATH", fix: fix)
            }
            let directory = PrivateFiles.directory(of: first)
            guard directory == execPath || ["/usr/bin", "/bin"].contains(directory) else {
                return HealthCheck(.warn, subject, "\(named) (\(place)) runs \(program) by name, found in \(directory) on this PATH only: git run from cron, systemd or an IDE (PATH=/usr/bin:/bin) will not find it; configure writes the full path",
                                   fix: fix)
            }
            found = first
        }
        if let why = HelperLine.whyUnsafeToRun(found) {
            return HealthCheck(.fail, subject, "\(named) (\(place)) runs \(found), which others could replace: \(why)", fix: HelperLine.unsafeProgramFix)
        }
        if let here = Subprocess.currentExecutable, Subprocess.realPath(found) != here {
            return HealthCheck(.warn, subject, "git runs \(found), not this \(here): run its doctor, or make git run this one", fix: fix)
        }
        // The store checks above are of the store doctor's own options name, and of what
        // this environment names (GIT_CREDENTIAL_SQLITE_DB, XDG_DATA_HOME): a bare line
        // read by git from cron, with HOME alone, finds the default store instead.
        if line.arguments.isEmpty && !arguments.isEmpty {
            let options = arguments.map(ShellWord.quoted).joined(separator: " ")
            return HealthCheck(.warn, subject, "git runs \(found) with no options, which finds the default store where git runs with HOME alone (cron, systemd, env -i), not the store checked here (\(options)); configure writes the options",
                               fix: configureLine(name, arguments: arguments, scope: scope, url: url))
        }
        guard line.arguments == arguments else {
            let options = line.arguments.isEmpty ? "no options" : line.arguments.map(ShellWord.quoted).joined(separator: " ")
            return HealthCheck(.warn, subject, "git runs \(found) with \(options)\(url.map { " for \(Trace.quoted($0))" } ?? ""), so the store checked here is not the one git uses",
                               fix: ([HelperLine.invocation(name), "doctor"] + line.arguments.map(ShellWord.quoted)).joined(separator: " "))
        }
        return HealthCheck(.ok, subject, "git runs \(found)" + (arguments.isEmpty ? "" : " with " + arguments.map(ShellWord.quoted).joined(separator: " "))
                           + (url.map { " for \(Trace.quoted($0))" } ?? ""))
    }

    /// The configure command that writes a line with these options in that scope.
    static func configureLine(_ name: String, arguments: [String], scope: String, url: String? = nil) -> String {
        let place = (["system": ["--system"], "local": ["--local"]][scope] ?? []) + (url.map { ["--url", ShellWord.quoted($0)] } ?? [])
        return ([HelperLine.invocation(name), "configure"] + arguments.map(ShellWord.quoted) + place).joined(separator: " ")
    }

    /// A plaintext file git-credential-store left, with the line that moves it into the store.
    static func plaintext(_ name: String, arguments: [String]) -> HealthCheck {
        guard let move = PlaintextFiles.importLine(name, arguments: arguments) else {
            let files = PlaintextFiles.all
            return HealthCheck(.ok, "plaintext", files.isEmpty ? "HOME is not set, so git has no plaintext file to read"
                               : "no \(files.joined(separator: " or ")) holds credentials in clear")
        }
        return HealthCheck(.warn, "plaintext", "\(move.files) \(move.count == 1 ? "holds" : "hold") credentials in clear, readable by any program you run",
                           fix: move.command)
    }

    /// ~/.netrc, which git's HTTP transport (curl) reads before it asks any helper: for
    /// the hosts it names, the helper is never asked (a new user imported it, and git then
    /// went on using the file, silently). Nothing when there is none.
    /// When import cannot carry every entry over (a `default` entry, which curl sends to
    /// every host, an account, a macro), `import --remove-source` keeps the file, and
    /// giving that Fix again sent the person in a circle: the Fix then imports what it can
    /// and moves the file out of curl's way, kept (for other programs) under another name.
    static func netrc(_ name: String, arguments: [String]) -> [HealthCheck] {
        guard let home = SystemIO.environment("HOME") else { return [] }
        let path = home + "/.netrc"
        guard let move = PlaintextFiles.importLine(name, arguments: arguments, files: [path].filter { access($0, F_OK) == 0 }) else { return [] }
        let detail = "\(move.files) holds passwords in clear, and git's HTTP transport uses it before asking any credential helper for the hosts it names"
        guard let bytes = SystemIO.readFile(path, limit: 1 << 20), NetrcFile.looksLikeNetrc(bytes) else {
            return [HealthCheck(.warn, "netrc", detail, fix: move.command)]
        }
        let reading = NetrcFile.reading(bytes)
        guard !reading.notes.isEmpty else { return [HealthCheck(.warn, "netrc", detail, fix: move.command)] }
        let notes = reading.notes.prefix(2).map { "line \($0.line): \($0.text)" }.joined(separator: "; ")
            + (reading.notes.count > 2 ? "; and \(reading.notes.count - 2) more" : "")
        let imports = reading.credentials.isEmpty ? [] : [PlaintextFiles.importLine(name, arguments: arguments, files: [path], removingSource: false)?.command].compactMap { $0 }
        return [HealthCheck(.warn, "netrc", detail + "; import cannot carry all of it over (\(notes)), so it would keep the file: import what it can, "
                                + "then move the file where curl does not read it (other programs can be given it: curl --netrc-file)",
                            fix: (imports + [NetrcFile.asideCommand(path)]).joined(separator: " && "))]
    }

    /// Store, read back and erase a throwaway credential, as git would, in a throwaway
    /// store: a store that does not exist yet must not be created by doctor.
    static func roundTrip(_ settings: some DiagnosableSettings) -> HealthCheck {
        if let blocker = settings.roundTripBlocker { return HealthCheck(.warn, "round trip", "not tried: \(blocker)") }
        do {
            return try TemporaryDirectory.with(prefix: "git-credential-doctor") {
                roundTrip(in: settings.throwaway(in: $0), explaining: settings.roundTripCheck(after:))
            }
        } catch let error as HelperError {
            return HealthCheck(.fail, "round trip", error.message, fix: error.fix)
        } catch {
            return HealthCheck(.fail, "round trip", "\(error)")
        }
    }

    static func roundTrip(in settings: some StoreSettings, explaining: (HelperError) -> HealthCheck? = { _ in nil }) -> HealthCheck {
        let subject = "round trip"
        let secret = Value(Hex.encode((0..<16).map { _ in UInt8.random(in: 0...255) }))
        // A user of this run's own: two doctors at once on one keyring each find their own item.
        let username = Value("doctor-" + Hex.encode((0..<4).map { _ in UInt8.random(in: 0...255) }))
        let credential = Credential(protocol: "https", host: "git-credential-doctor.invalid", username: username, password: secret)
        let request = Credential(protocol: "https", host: "git-credential-doctor.invalid", username: username)
        defer { _ = try? HelperActions.erase(request, from: settings.openExisting) }
        do {
            try HelperActions.store(credential, now: now(), in: settings.openOrCreate)
            guard try HelperActions.get(request, now: now(), from: settings.openExisting)?.password == secret else {
                return HealthCheck(.fail, subject, "a stored credential did not read back", fix: "report this as a bug")
            }
            try HelperActions.erase(request, from: settings.openExisting)
            guard try HelperActions.get(request, now: now(), from: settings.openExisting) == nil else {
                return HealthCheck(.fail, subject, "an erased credential is still there", fix: "report this as a bug")
            }
            return HealthCheck(.ok, subject, "stored, read back and erased a test credential")
        } catch let error as HelperError {
            return explaining(error) ?? HealthCheck(.fail, subject, error.message, fix: error.fix)
        } catch {
            return HealthCheck(.fail, subject, "\(error)")
        }
    }
}
