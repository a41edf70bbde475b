import CredentialCore

/// Where a passphrase comes from: an inherited descriptor given on the command line,
/// else a person (askpass or terminal). Never argv, never the environment.
public struct PassphraseSource: Sendable {
    public var fd: Int32?
    /// The option that sets `fd`, for messages.
    public var option: String

    public init(fd: Int32? = nil, option: String = "--passphrase-fd") {
        self.fd = fd
        self.option = option
    }

    /// The passphrase, or `nil` when there is no descriptor and no one to ask.
    public func read(prompt: String) throws -> [UInt8]? {
        if let fd { return try SecretPrompt.read(fd: fd) }
        return try SecretPrompt.ask(prompt)
    }

    /// A new passphrase: asked twice when a person types it, refused when empty.
    public func readNew(prompt: String) throws -> [UInt8] {
        let noOne = noOneToAsk
        guard let first = try read(prompt: prompt) else { throw noOne }
        if first.isEmpty {
            throw HelperError(.usage, "the passphrase is empty", fix: "choose a passphrase, or use the default key file (init without --passphrase)")
        }
        if fd == nil {
            guard let again = try read(prompt: "Repeat the passphrase: ") else { throw noOne }
            if again != first { throw HelperError(.usage, "the two passphrases differ", fix: "run the command again") }
        }
        return first
    }

    public var noOneToAsk: HelperError {
        HelperError(.usage, "no passphrase given and no terminal or askpass program to ask for one",
                    fix: "run it in a terminal (with GIT_TERMINAL_PROMPT not 0), or pass the passphrase on a descriptor with \(option)")
    }
}
