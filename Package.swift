// swift-tools-version:6.1
import PackageDescription

// Production targets import FoundationEssentials only (see DESIGN.md: startup is the
// product's latency). Dependencies point one way:
// executables -> HelperCommand -> stores -> CredentialCore.
let package = Package(
    name: "git-credential-helpers",
    products: [
        .executable(name: "git-credential-sqlite", targets: ["git-credential-sqlite"]),
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
        .target(
            name: "SQLiteStore",
            dependencies: [
                "CredentialCore", "CSQLite", "CKeyUtils",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "HelperCommand",
            dependencies: [
                "CredentialCore", "SQLiteStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "git-credential-sqlite", dependencies: ["HelperCommand"]),
        .testTarget(
            name: "CredentialCoreTests",
            dependencies: ["CredentialCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "SQLiteStoreTests",
            dependencies: ["SQLiteStore", "CSQLite", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["CredentialCore"]),
    ]
)
