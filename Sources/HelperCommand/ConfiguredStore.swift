import CredentialCore

/// The store a management command (list, erase HOST, erase-all, import, export, init,
/// lock, unlock, passwd, which, and the completion of hosts) works on. Given no store
/// option and no store variable, it is the store git uses: the one named on this
/// helper's credential.helper lines, as git reads them here (system, global, local;
/// after the last reset line). Otherwise `configure --db X` and then `erase HOST` erased
/// from the default store while git kept answering from X. git's own get, store and
/// erase never come here: their options are on the line.
extension StoreOptions {
    public func managedSettings() throws -> Settings { try settings.followingGit(saying: true) }
}

extension StoreSettings {
    /// These settings, or the store git's line names instead; `saying`: one line on
    /// stderr when that is another store than these settings find.
    func followingGit(saying: Bool) throws -> Self {
        guard !storeIsNamed else { return self }
        let name = Self.helperName
        let nameIt = "name the store: \(Self.storeOptionNames.joined(separator: ", "))"
        // Not knowing which store git uses is no reason to take the default one: erase-all
        // or import --remove-source there would act on a store git never reads.
        let active: [String]
        do { active = try GitConfig.helperLines().active } catch let error as HelperError {
            throw HelperError(.failure, "cannot tell which store git uses: \(error.message)", fix: nameIt)
        }
        // A line that runs this helper some other way (`!git credential-sqlite --db X`, a
        // shell function) may name any store.
        let program = "credential-" + name
        if let line = active.first(where: { !HelperLine(parsing: $0).runs(name) && $0.contains(program) }) {
            throw HelperError(.usage, Trace.printable("git's configuration runs \(name) as \(Trace.quoted(line)), which this command cannot read for the store it names"),
                              fix: nameIt)
        }
        // git asks every line in turn, so every one of ours is read by a get: they must agree.
        let stores = active.map(HelperLine.init(parsing:)).filter { $0.runs(name) }.map { line in
            Self(gitArguments: line.arguments[...]).map(\.storeArguments)
        }
        guard let first = stores.first else { return self }
        guard let store = first, stores.allSatisfy({ $0 == first }) else {
            let named = stores.map { $0.map { $0.isEmpty ? "the default store" : ShellWord.command($0) } ?? "options it cannot read" }
            throw HelperError(.usage, Trace.printable("git's credential.helper runs \(name) with \(named.joined(separator: " and ")), so which store is meant is not clear"),
                              fix: nameIt)
        }
        guard !store.isEmpty else { return self }
        var following = self
        OptionPairs.read(store[...], strict: false) { following.set(option: $0, to: $1) }
        // The line may spell out the store this command finds anyway (configure writes one
        // that only this environment names): that is no other store, and worth no note.
        if (try? following.explicitStoreArguments()) == (try? explicitStoreArguments()) { return self }
        if saying { SystemIO.writeAll(2, Trace.printable("using the store of git's credential.helper: \(ShellWord.command(store))") + "\n") }
        return following
    }
}
