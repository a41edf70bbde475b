import Foundation
import Testing

// The worlds most suites start each test from, set up in one place. Swift Testing makes a
// new suite value for every test, so a suite that conforms to `InSQLiteWorld` or
// `InKeyringWorld` (and declares `let world`) gets a world of its own per test, exactly
// once: no more set-up than each suite wrote by hand before. The pass world is
// `PasswordStore` (a gpg key, pass init, git-credential-pass).

/// git-credential-sqlite in a fresh sandbox, at its default (XDG) places.
struct SQLiteWorld {
    let sandbox: Sandbox
    let helper: SQLiteHelper

    init() throws {
        sandbox = try Sandbox()
        helper = sandbox.sqlite()
    }
}

/// A suite whose every test starts in a new `SQLiteWorld`: `let world: SQLiteWorld`, and
/// `sandbox` and `helper` as the tests name them.
protocol InSQLiteWorld {
    var world: SQLiteWorld { get }
    init(world: SQLiteWorld)
}

extension InSQLiteWorld {
    init() throws { self.init(world: try SQLiteWorld()) }
    var sandbox: Sandbox { world.sandbox }
    var helper: SQLiteHelper { world.helper }
}

/// A private desktop session: a sandbox, its own session bus and gnome-keyring on it
/// (started once, unlocked), and the programs that talk to that keyring. The keyring is
/// the test's own: erase-all and listings see no other test's items.
struct KeyringWorld {
    let sandbox: Sandbox
    let session: PrivateSessionBus

    /// In `sandbox` when given (a test that began without a keyring), else in a new one.
    init(in sandbox: Sandbox? = nil) throws {
        self.sandbox = try sandbox ?? Sandbox()
        session = try PrivateSessionBus(sandbox: self.sandbox, services: .desktop)
        try session.startKeyring()
    }

    var secretService: SecretServiceHelper { SecretServiceHelper(sandbox: sandbox, bus: session.bus) }
    var keyringHelper: KeyringHelper { KeyringHelper(sandbox: sandbox, environment: session.bus.environment) }
    var secretTool: SecretTool { SecretTool(sandbox: sandbox, bus: session.bus) }
    /// Other programs writing their items into the keyring, as they write them.
    var clients: OtherKeyringClients { OtherKeyringClients(sandbox: sandbox, bus: session.bus) }
}

/// A suite whose every test starts in a new `KeyringWorld`: `let world: KeyringWorld`,
/// and the world's parts as the tests name them.
protocol InKeyringWorld {
    var world: KeyringWorld { get }
    init(world: KeyringWorld)
}

extension InKeyringWorld {
    init() throws { self.init(world: try KeyringWorld()) }
    var sandbox: Sandbox { world.sandbox }
    var session: PrivateSessionBus { world.session }
    var secretService: SecretServiceHelper { world.secretService }
    var keyringHelper: KeyringHelper { world.keyringHelper }
    var secretTool: SecretTool { world.secretTool }
    var clients: OtherKeyringClients { world.clients }
}

/// A Secret Service of one test's own on the provider: a gnome-keyring on a private bus
/// (`KeyringWorld`, whose login collection a test can lock), or a KeePassXC of its own.
struct ProviderWorld {
    let sandbox: Sandbox
    let bus: SessionBus
    /// gnome-keyring's world; nil on KeePassXC.
    let keyring: KeyringWorld?
    private let keepassxc: KeePassXC?

    init(_ provider: SecretServiceProvider) throws {
        switch provider {
        case .gnomeKeyring:
            let world = try KeyringWorld()
            (sandbox, bus, keyring, keepassxc) = (world.sandbox, world.session.bus, world, nil)
        case .keepassxc:
            let keepassxc = try KeePassXC(confirmAccess: false)
            (sandbox, bus, keyring, self.keepassxc) = (try Sandbox(), keepassxc.bus, nil, keepassxc)
        }
    }

    var secretService: SecretServiceHelper { SecretServiceHelper(sandbox: sandbox, bus: bus) }
    var keyringHelper: KeyringHelper { KeyringHelper(sandbox: sandbox, environment: bus.environment) }
    var secretTool: SecretTool { SecretTool(sandbox: sandbox, bus: bus) }
    var clients: OtherKeyringClients { OtherKeyringClients(sandbox: sandbox, bus: bus) }
}

/// credential-curl's world: a client machine whose git asks git-credential-sqlite, and
/// the local server that demands alice's (awkward) password.
struct CurlWorld {
    let machine: ClientMachine
    let password = awkwardPassword()
    let server: BasicAuthServer

    init() throws {
        machine = try ClientMachine(.sqlite)
        server = try machine.startServer(username: "alice", password: password)
    }
}

/// A suite whose every test starts in a new `CurlWorld`.
protocol InCurlWorld {
    var world: CurlWorld { get }
    init(world: CurlWorld)
}

extension InCurlWorld {
    init() throws { self.init(world: try CurlWorld()) }
    var machine: ClientMachine { world.machine }
    var password: String { world.password }
    var server: BasicAuthServer { world.server }
    /// The bytes the server must receive: `alice:PASSWORD`.
    var credentialBytes: [UInt8] { Array("alice:\(password)".utf8) }
}
