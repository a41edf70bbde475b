import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// What serve's children know of one another: a shared anonymous mapping made before the
/// first fork, on no disk and gone with serve. It holds
/// - the answers given lately, as digests keyed by a secret of this serve's (never the
///   secret itself), so that git's store of one of them after it worked is known for
///   git's approve of serve's own answer without asking the person's helpers again (asking
///   them ran a second OAuth sign-in, and told a remote whether a guessed password was
///   right). Each is taken once, within ten minutes: a remote that kept an answer cannot
///   store it back later over a password the person changed meanwhile (an attack round's
///   finding, with an hour and no limit);
/// - the log's counts of lines this minute (ForwardLog's bound).
/// Children write it without a lock: two answers at once may take one slot (the store of
/// the one lost is then refused, and changes nothing), a count may be off by one.
final class ServeMemory: @unchecked Sendable {
    static let slots = 64
    /// git stores after its fetch or push ends: a clone of a large repository may take minutes.
    static let answerSeconds: Int64 = 600

    /// Lines of a kind not seen yet this minute (an action, host and user) are written past
    /// the bound, up to this many kinds: a flood of one kind hides no other.
    static let kindsAMinute = 64

    /// Words: 0-1 the key, 2 the next slot, 3 the log's minute, then per kind of line
    /// (refusals, others) those written and those not; then per slot its time, digest and
    /// expiry; then the kinds of line written this minute.
    private let words: UnsafeMutablePointer<Int64>
    private static let header = 8
    private static var kinds: Int { header + 3 * slots }

    init() {
        let size = (Self.kinds + Self.kindsAMinute) * MemoryLayout<Int64>.size
        let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)
        // No mapping (never seen): each child's own memory, so nothing is remembered.
        let base = (mapped == MAP_FAILED || mapped == nil) ? UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8) : mapped!
        base.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        words = base.bindMemory(to: Int64.self, capacity: size / MemoryLayout<Int64>.size)
        var random = SystemRandomNumberGenerator()
        (words[0], words[1]) = (Int64(bitPattern: random.next()), Int64(bitPattern: random.next()))
    }

    private static var now: Int64 { Int64(time(nil)) }

    /// A digest of `values`, keyed by this serve's secret.
    func digest(_ values: [Value?]) -> Int64 {
        var hasher = Hasher()
        hasher.combine(words[0])
        hasher.combine(words[1])
        for value in values {
            hasher.combine(value?.bytes.count ?? -1)
            value?.bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
        return Int64(hasher.finalize())
    }

    /// What git's store would send of `answer` given for `request`: the place asked (the
    /// host as spelled: another case of it is another item for a helper) and what authenticates.
    private func digest(_ answer: Credential, for request: Credential) -> Int64 {
        digest([request.protocol, request.host, request.path, answer.username, answer.password, answer.authtype, answer.credential])
    }

    func remember(_ answer: Credential, for request: Credential) {
        let slot = Int(words[2] % Int64(Self.slots))
        words[2] = Int64(slot + 1)
        let at = Self.header + 3 * slot
        words[at + 1] = digest(answer, for: request)
        words[at + 2] = answer.passwordExpiryUTC.map { Int64(clamping: $0) } ?? 0
        words[at] = Self.now
    }

    /// Whether `store` is of an answer serve gave within `answerSeconds`, taken once (the
    /// slot emptied); then when it was answered and its expiry (which git 2.39 does not
    /// pass back), 0 for none.
    func answered(_ store: Credential) -> (Bool, at: Int64, expiry: UInt64) {
        let wanted = digest(store, for: store), now = Self.now
        for slot in 0..<Self.slots {
            let at = Self.header + 3 * slot
            guard words[at + 1] == wanted && now - words[at] < Self.answerSeconds else { continue }
            let answered = words[at], expiry = UInt64(max(0, words[at + 2]))
            (words[at], words[at + 1], words[at + 2]) = (0, 0, 0)
            return (true, answered, expiry)
        }
        return (false, 0, 0)
    }

    /// Whether a line may be written this minute: one of a kind (`kind`: a digest) not
    /// written yet this minute, or within `perMinute` of its sort (refusals, others); and
    /// how many of each sort were not written since the last line, to be said with this one.
    func admit(refusal: Bool, kind: Int64, perMinute: Int64) -> (write: Bool, untold: (refused: Int64, other: Int64)) {
        let minute = Self.now / 60
        if words[3] != minute {
            (words[3], words[4], words[6]) = (minute, 0, 0)
            for index in 0..<Self.kindsAMinute { words[Self.kinds + index] = 0 }
        }
        let written = refusal ? 4 : 6
        let known = (0..<Self.kindsAMinute).contains { words[Self.kinds + $0] == kind }
        let free = known ? nil : (0..<Self.kindsAMinute).first { words[Self.kinds + $0] == 0 }
        guard free != nil || words[written] < perMinute else {
            words[written + 1] += 1
            return (false, (0, 0))
        }
        if let free { words[Self.kinds + free] = kind }
        words[written] += 1
        return (true, takeUntold())
    }

    /// The counts of lines not written, taken (said once).
    func takeUntold() -> (refused: Int64, other: Int64) {
        let untold = (words[5], words[7])
        (words[5], words[7]) = (0, 0)
        return untold
    }
}
