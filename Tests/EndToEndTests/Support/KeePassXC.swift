import Foundation
import Testing

// KeePassXC (Debian's 2.7.4) is the second Secret Service provider the helpers are tested
// against. It is a GUI program: scripts/with-test-keepassxc runs it on a private bus and an
// Xvfb display of its own, with a database whose group is exposed to the Secret Service and
// unlocked at start, as scripts/with-test-keyring runs gnome-keyring.

/// Which program provides the Secret Service a test runs against.
enum SecretServiceProvider: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case gnomeKeyring = "gnome-keyring"
    case keepassxc = "KeePassXC"

    var testDescription: String { rawValue }

    /// The attributes the provider shows on every item, whoever made it (KeePassXC's
    /// entry fields: Title is the label); no client writes them.
    var ownAttributes: [String] {
        switch self {
        case .gnomeKeyring: return []
        case .keepassxc: return ["Title", "UserName", "URL", "Notes", "Uuid", "Path"]
        }
    }

    /// The bus that the tests of a run share for this provider: scripts/with-test-keyring's
    /// gnome-keyring, or one KeePassXC started on first use for this test process.
    func sharedBus() throws -> SessionBus {
        switch self {
        case .gnomeKeyring: return try SessionBus.testKeyring()
        case .keepassxc: return try KeePassXC.shared.get().bus
        }
    }
}

/// A KeePassXC of its own on a bus of its own, for as long as this object lives (or, for the
/// shared one, as long as the test process: the script stops everything when its stdin closes).
final class KeePassXC: @unchecked Sendable {  // let properties only; the process is never shared for writing
    let bus: SessionBus
    private let process: BackgroundProcess

    /// One for every test that needs nothing special (access allowed, as for a person who
    /// allowed git in KeePassXC's settings), started once: KeePassXC takes seconds to start.
    static let shared = Result { try KeePassXC(confirmAccess: false) }

    /// `confirmAccess`: KeePassXC's default, a dialog on its display before a client reads an
    /// item. Its display is one that no one looks at.
    init(confirmAccess: Bool) throws {
        let script = SourceTree.root + "/scripts/with-test-keepassxc"
        // The command prints the bus's address, then waits until its stdin closes.
        process = try BackgroundProcess(script, (confirmAccess ? ["--confirm-access"] : [])
                                            + ["/bin/sh", "-c", "echo \"$DBUS_SESSION_BUS_ADDRESS\"; read -r _"],
                                        environment: ["PATH": Sandbox.searchPath, "LANG": "C.UTF-8"])
        // KeePassXC takes 3-4 s on an idle machine; the script gives up after 60 s itself.
        let address = try process.firstLine(timeout: 90)
        guard address.hasPrefix("unix:") else {
            throw SpawnError(description: "with-test-keepassxc did not start KeePassXC: \(address)")
        }
        bus = SessionBus(environment: ["DBUS_SESSION_BUS_ADDRESS": address])
    }
}
