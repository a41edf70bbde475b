import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// One connection, in its child: the request read strictly, the policy applied, the
/// person asked if they want to be, their helpers asked, one line logged.
struct ForwardRequestHandler {
    let policy: ForwardPolicy
    let log: ForwardLog
    /// The lock a confirmation holds while it shows (ForwardServer.run).
    let confirmations: Int32
    let memory: ServeMemory

    func handle(_ opened: ForwardConnection) {
        var connection = opened
        let deadline = ForwardConnection.now + ForwardServer.requestSeconds
        guard let first = connection.line(until: deadline, limit: ForwardWire.lineLimit) else {
            // Closed before a byte came: the remote's helper seeing whether a session's
            // socket is still alive (RemoteSessions.claim), nothing asked.
            if connection.ended && connection.received == 0 { return }
            return refuse(connection, .badRequest, nil, nil, connection.received > ForwardWire.lineLimit ? "a first line over \(ForwardWire.lineLimit) bytes"
                : connection.ended ? "closed without a whole request" : "no whole request within \(Int(ForwardServer.requestSeconds)) seconds")
        }
        guard let action = ForwardWire.action(of: first) else {
            return refuse(connection, .badRequest, nil, nil, "not a request of \(ForwardWire.version)")
        }
        if action == .ping {
            connection.write(ForwardWire.pong(policy.name), until: deadline)
            return
        }
        guard let block = connection.block(until: deadline, limit: ForwardWire.requestLimit) else {
            return refuse(connection, .badRequest, action, nil, "no whole request (ended by an empty line) within \(Int(ForwardServer.requestSeconds)) seconds, or one over \(ForwardWire.requestLimit) bytes")
        }
        let request: Credential
        do { request = try WireFormat.parse(block) } catch {
            return refuse(connection, .badRequest, action, nil, "not git's credential format: \(error.message)")
        }
        let decision = policy.decide(action, request)
        // git's store after a fetch or push that worked, of what serve answered minutes ago:
        // git's own approve of that answer (the person's helpers keep what one of them made,
        // an OAuth token), allowed or not, asking nothing; no helper is asked whether it
        // holds it (that ran a second sign-in, and told a remote whether a guessed password
        // was right).
        if action == .store, decision == .answer || decision.reason == .actionNotAllowed, case (true, let at, let expiry) = memory.answered(request) {
            return approve(connection, request, answeredAt: at, expiry: expiry)
        }
        // Anything else refused is refused at once, the same way each time, with nothing run;
        // so is anything while the person's no lasts.
        if case .refuse(let reason, let why) = decision { return refuse(connection, reason, action, request, why) }
        if policy.confirm, let declined = declinedLately() { return refuse(connection, .declined, action, request, declined) }
        if AccountsByPath.matter(for: request) {
            return refuse(connection, .pathNeeded, action, request, "not answered: your git picks the account for this host by the repository's path, and the request names none"
                          + " (another account's password would be used there, and erased here when refused); on \(policy.name): \(AccountsByPath.remoteFix)")
        }
        connection.write(ForwardWire.wait(Int(PersonsHelpers.seconds) + Int(ForwardConfirmation.seconds) + 5), until: deadline)
        // The person is asked before any helper runs: a helper's own prompt (an OAuth sign-in
        // in the browser) comes only after their yes, and a remote learns nothing of which
        // accounts exist without one (helpers that ran first told existing from missing, for
        // requests then refused as busy or abandoned: an attack round's findings).
        if policy.confirm, let (reason, why) = confirm(action, request, on: connection) { return refuse(connection, reason, action, request, why) }
        var found: (answer: Credential, why: String)?
        if action == .get {
            let (answer, why) = PersonsHelpers.fill(request)
            guard let answer else { return refuse(connection, .nothing, action, request, why) }
            found = (answer, why)
        }
        if let found {
            memory.remember(found.answer, for: request)
            log.write(policy.name, action.rawValue, request, found.why)
            connection.write(ForwardWire.answer(found.answer, for: request), until: ForwardConnection.now + ForwardServer.requestSeconds)
        } else {
            log.write(policy.name, action.rawValue, request, PersonsHelpers.tell(action, request))
            connection.write(ForwardWire.none(.nothing), until: ForwardConnection.now + ForwardServer.requestSeconds)
        }
    }

    /// git's approve of serve's own answer, passed to the person's helpers with the expiry
    /// serve answered (git 2.39 does not pass it back, a remote could change it), and a line.
    func approve(_ connection: ForwardConnection, _ store: Credential, answeredAt: Int64, expiry: UInt64) {
        connection.write(ForwardWire.wait(Int(PersonsHelpers.seconds) + 5), until: ForwardConnection.now + 1)
        // What serve answered and where, nothing else of the remote's: an expiry added
        // there would make the person's credential expire (a get then finds nothing).
        var approved = Credential(protocol: store.protocol, host: store.host, path: store.path, username: store.username)
        (approved.password, approved.authtype, approved.credential) = (store.password, store.authtype, store.credential)
        approved.capabilities = store.capabilities.filter { $0 == Capability.authtype }
        approved.passwordExpiryUTC = expiry > 0 ? expiry : nil
        let ago = max(0, Int64(time(nil)) - answeredAt)
        log.write(policy.name, "store", store, "git's approve of what serve answered \(ago) s ago: " + PersonsHelpers.tell(.store, approved))
        connection.write(ForwardWire.none(.nothing), until: ForwardConnection.now + ForwardServer.requestSeconds)
    }

    /// Why a request is refused without a question: the person said no less than
    /// `quietSeconds` ago. Asked before any helper runs.
    func declinedLately() -> String? {
        var declined: Double = 0
        guard confirmations >= 0, pread(confirmations, &declined, MemoryLayout<Double>.size, 0) == MemoryLayout<Double>.size,
              ForwardConnection.now - declined < ForwardConfirmation.quietSeconds else { return nil }
        return "refused: you said no less than \(Int(ForwardConfirmation.quietSeconds)) seconds ago"
    }

    /// The person's yes, or why not. One question at a time (the lock), and after a no,
    /// none for a while: a remote that asks again at once gets no for an answer. None for a
    /// remote that is gone (closed its end before the question).
    func confirm(_ action: ForwardWire.Action, _ request: Credential, on connection: ForwardConnection) -> (ForwardWire.Refusal, String)? {
        guard confirmations >= 0, lockf(confirmations, F_TLOCK, 0) == 0 else {
            return (.busy, "refused: another request is waiting for your confirmation")
        }
        if let declined = declinedLately() { return (.declined, declined) }
        guard !connection.closedByPeer else { return (.declined, "not asked: the remote closed the connection before the question") }
        switch ForwardConfirmation.ask(question(action, request)) {
        case .yes: return nil
        case .no:
            var now = ForwardConnection.now
            _ = pwrite(confirmations, &now, MemoryLayout<Double>.size, 0)
            return (.declined, "declined at the confirmation")
        case .nobody(let why): return (.declined, "refused: no one to confirm it: \(why)")
        }
    }

    /// The log's line first: whoever sees the answer finds it logged.
    func refuse(_ connection: ForwardConnection, _ reason: ForwardWire.Refusal, _ action: ForwardWire.Action?, _ request: Credential?, _ why: String) {
        log.write(policy.name, action?.rawValue ?? "connection", request, why, refusal: true)
        connection.write(ForwardWire.none(reason), until: ForwardConnection.now + 1)
    }

    /// What the person is asked: who asks, for what, for which place and user (the one the
    /// request names; else git's choice here, which the log then names). The place is cut,
    /// never the user: a long path must not push the account out of the dialog, after text
    /// of the remote's that names another (an attack round's finding).
    /// The remote's values are quoted as the log quotes them (ForwardLog: escaped, each cut).
    func question(_ action: ForwardWire.Action, _ request: Credential) -> String {
        let what = switch action {
        case .store: "store a credential in your helpers for"
        case .erase: "erase your credential for"
        default: "use your credential for"
        }
        var place = request
        place.username = nil
        let shown = ForwardLog.place(place)
        let cut = shown.count > 120 ? String(shown.prefix(120)) + "...(cut)" : shown
        return "Allow \(policy.name) to \(what) \(cut)" + (request.username.map { " user " + ForwardLog.quoted($0) } ?? "") + "?"
    }
}
