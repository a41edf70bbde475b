import CredentialCore

/// Which of the credentials an import read it stores, and in what order: `get` must then
/// answer what git (or curl) answered from the files, and what the exporting store answered.
enum ImportSelection {
    /// The sources, in the order given, less what is not to be stored:
    /// - an expired credential without a refresh token: `get` never answers it (with a
    ///   refresh token it does, with the refresh answer, so that one comes along);
    /// - every entry after the first with the same protocol, host, path and username:
    ///   git-credential-store answers from the first line that matches, reading
    ///   ~/.git-credentials before $XDG_CONFIG_HOME/git/credentials (the order of
    ///   `PlaintextFiles.all`); curl sends the first machine entry of a host; export
    ///   writes each store's items newest (the one `get` answers) first.
    static func select(_ sources: [ImportSource], now: UInt64) -> [ImportSource] {
        var first: [[Value?]: (source: Int, line: Int, credential: Credential)] = [:]
        var selected = sources
        for (index, source) in sources.enumerated() {
            selected[index].credentials = []
            selected[index].lines = []
            for (credential, line) in zip(source.credentials, source.lines) {
                if credential.isExpired(now: now) && credential.oauthRefreshToken == nil {
                    selected[index].expired.append(line)
                    selected[index].note(line, "\(source.unit) \(line): expired, and without a refresh token: get would never answer it")
                    continue
                }
                let key = StoredKeys.key(credential)
                guard let earlier = first[key] else {
                    first[key] = (index, line, credential)
                    selected[index].add(credential, at: line)
                    continue
                }
                let same = earlier.credential.storable == credential.storable
                let of = earlier.source == index ? "" : " of \(sources[earlier.source].name)"
                selected[index].repeated.append((line, same))
                selected[index].note(line, "\(source.unit) \(line) repeats \(sources[earlier.source].unit) \(earlier.line)\(of)"
                                     + (same ? "" : " with a different password or token") + ": skipped, the first is the one git uses")
            }
        }
        return selected
    }

    /// What to store, in the order to store it: the last first, so that the first entry read
    /// is the newest stored, which `get` answers first for a host that has several users (git
    /// answers a request without a username from the first matching line).
    static func storingOrder(_ sources: [ImportSource]) -> [Credential] {
        sources.flatMap(\.credentials).reversed()
    }
}
