// swift-tools-version:6.1
import PackageDescription

// Production targets import FoundationEssentials only (startup is the product's latency;
// docs/ARCHITECTURE.md: the layers, docs/BUILD.md: the link). Dependencies point one way:
// executables -> backend commands -> HelperCommand and stores -> CredentialCore.
// The release of a helper that needs no library of the desktop (libsecret, GLib) links
// everything, glibc too, into a static PIE: no dynamic loader, no shared library mapped
// or bound at start (a get: 2.49M -> 1.99M instructions, 317 -> 275 page faults). Still
// a PIE (ASLR), with full RELRO (InstallTests checks both). What static glibc cannot do
// is load NSS modules of another glibc version: no program of it asks the user database
// (HOME comes from the environment). Release only: the Makefile builds the release.
let staticPIE: [LinkerSetting] = [
    .unsafeFlags(["-static-executable", "-Xclang-linker", "-static-pie"], .when(configuration: .release)),
]

let package = Package(
    name: "git-credential-helpers",
    products: [
        // Two executables, each several programs chosen by the name it is run by (MultiCall;
        // the Makefile links each name to its executable, for the tests too).
        .executable(name: "credential-helpers", targets: ["credential-helpers"]),
        .executable(name: "credential-helpers-libsecret", targets: ["credential-helpers-libsecret"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
    ],
    targets: [
        .target(name: "CProcess"),
        .target(name: "CredentialCore", dependencies: ["CProcess"]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CKeyUtils", providers: [.apt(["libkeyutils-dev"])]),
        // Passphrase-derived keys (scrypt) and sealed files: the SQLite store's wrapped
        // key and every helper's encrypted export.
        .target(
            name: "CredentialCrypto",
            dependencies: [
                "CredentialCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "SQLiteStore",
            dependencies: [
                "CredentialCore", "CredentialCrypto", "CSQLite", "CKeyUtils",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .systemLibrary(name: "CLibSecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),
        // CSecretService calls BoringSSL's modular power (modp.c), linked through swift-crypto.
        .target(name: "CSecretService", dependencies: ["CLibSecret", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "SecretServiceStore",
            dependencies: [
                "CredentialCore", "CLibSecret", "CSecretService",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(name: "KeyringStore", dependencies: ["CredentialCore", "CredentialCrypto", "SQLiteStore", "SecretServiceStore"]),
        .target(
            name: "HelperCommand",
            dependencies: ["CredentialCore", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // One command target per backend, so that each executable links (and loads at
        // every start) only its own backends' libraries.
        // import and export: every helper but basic-auth-header, which needs no crypto.
        .target(name: "TransferCommands", dependencies: ["HelperCommand", "CredentialCrypto"]),
        .target(name: "SQLiteCommands", dependencies: ["HelperCommand", "TransferCommands", "SQLiteStore"]),
        .target(name: "SecretServiceCommands", dependencies: ["HelperCommand", "TransferCommands", "SecretServiceStore"]),
        .target(name: "KeyringCommands", dependencies: ["HelperCommand", "TransferCommands", "KeyringStore", "SecretServiceStore", "SQLiteCommands"]),
        // pass and gpg run as processes: no library of the desktop.
        .target(name: "PassStore", dependencies: ["CredentialCore"]),
        .target(name: "PassCommands", dependencies: ["HelperCommand", "TransferCommands", "PassStore"]),
        // credential-curl: curl with git's credential, its options an allow-list table.
        .target(name: "CurlCommand", dependencies: ["HelperCommand", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // git-credential-forward: the person's helpers answering on a machine reached by ssh.
        // A program of the static PIE: on the remote it is one copied file.
        .target(name: "ForwardCommand", dependencies: ["HelperCommand", "CProcess", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // git-credential-sqlite, git-credential-pass, basic-auth-header, credential-curl and git-credential-forward: no library of the desktop, a static PIE.
        .executableTarget(name: "credential-helpers", dependencies: ["HelperCommand", "SQLiteCommands", "PassCommands", "CurlCommand", "ForwardCommand"], linkerSettings: staticPIE),
        // git-credential-secretservice and git-credential-keyring: libsecret, linked dynamically.
        .executableTarget(name: "credential-helpers-libsecret", dependencies: ["HelperCommand", "SecretServiceCommands", "KeyringCommands", "SQLiteCommands"]),
        .testTarget(
            name: "CredentialCoreTests",
            dependencies: ["CredentialCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "SQLiteStoreTests",
            dependencies: ["SQLiteStore", "CredentialCrypto", "CSQLite", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(name: "SecretServiceStoreTests", dependencies: ["SecretServiceStore", "CSecretService", .product(name: "Crypto", package: "swift-crypto")]),
        // Unit tests, no process: the shared rules of the helpers' commands.
        .testTarget(name: "HelperCommandTests", dependencies: ["HelperCommand", "SQLiteCommands", "CredentialCore"]),
        // credential-curl's option table and argument rules, without a process.
        .testTarget(name: "CurlCommandTests", dependencies: ["CurlCommand", "CredentialCore"]),
        // git-credential-forward's policy and framing, without a process.
        .testTarget(name: "ForwardCommandTests", dependencies: ["ForwardCommand", "CredentialCore"]),
        .testTarget(name: "EndToEndTests", dependencies: ["CredentialCore"]),
        // Unit tests, no process: the logic of a backend's or a command's own target.
        .testTarget(name: "PassStoreTests", dependencies: ["PassStore", "CredentialCore"]),
        .testTarget(name: "TransferCommandsTests", dependencies: ["TransferCommands", "HelperCommand", "CredentialCore"]),
    ]
)
