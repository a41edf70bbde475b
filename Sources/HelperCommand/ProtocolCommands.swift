import ArgumentParser
import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// How a helper's options open its store: the one thing the shared protocol commands
/// need to know about a backend.
public protocol StoreOptions: ParsableArguments {
    /// The store to read or erase from; `nil` when none exists (nothing is created).
    func openExisting() throws -> CredentialStore?
    /// The store to write to, created on first use.
    func openOrCreate() throws -> CredentialStore
}

func now() -> UInt64 { UInt64(max(0, time(nil))) }

struct GetCommand<Options: StoreOptions>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "get", abstract: "Print the stored credential that matches the request on stdin (git calls this).")
    }

    @OptionGroup var options: Options

    func run() throws {
        let request = try WireFormat.read(from: 0)
        do {
            if let found = try HelperActions.get(request, now: now(), from: options.openExisting) {
                SystemIO.writeAll(1, WireFormat.response(found, for: request))
            }
        } catch let error as HelperError where error.kind == .unavailable {
            // git moves on to the next helper or its own prompt: say why once, exit 0.
            SystemIO.writeAll(2, error.line(program: CommandLine.programName) + "\n")
        }
    }
}

struct StoreCommand<Options: StoreOptions>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "store", abstract: "Store the credential on stdin, replacing the one for the same user and location (git calls this).")
    }

    @OptionGroup var options: Options

    func run() throws {
        let credential = try WireFormat.read(from: 0)
        try HelperActions.store(credential, now: now(), in: options.openOrCreate)
    }
}

struct EraseCommand<Options: StoreOptions>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "erase", abstract: "Erase every stored credential that matches the request on stdin (git calls this).")
    }

    @OptionGroup var options: Options

    func run() throws {
        let request = try WireFormat.read(from: 0)
        try HelperActions.erase(request, from: options.openExisting)
    }
}

struct CapabilityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "capability", abstract: "Print the protocol capabilities this helper supports.")

    func run() throws { SystemIO.writeAll(1, Capability.announcement) }
}

extension CommandLine {
    /// The name the helper was run as, for messages.
    static var programName: String {
        let path = arguments.first ?? "git-credential-helper"
        return path.split(separator: "/").last.map(String.init) ?? path
    }
}
