import CredentialCore

#if canImport(Glibc)
import Glibc
#endif

/// A netrc file, imported only where curl (and so git over HTTP) reads it exactly as it
/// is written. curl 7.88's reader (lib/netrc.c) has surprises: a token that starts with
/// `#` ends the line (`password #x` takes the next line's `machine` as the password and
/// lets the next entry's login and password replace this one's); `macdef` inside a
/// machine entry is not a macro; whitespace at the end of a line is an empty token (an
/// empty password); `default` before a machine wins for it; an unclosed quote fails the
/// whole file. So each entry is read twice: as written (`Entry`), and as curl reads the
/// file for that host (`CurlReading`); it is imported only when both give the same login
/// and password and nothing in it (a control character) would be lost; an `account`,
/// which curl reads past and never sends, is left out and said. A host is stored in lower
/// case: curl matches machine names regardless of case (DNS names are), while git, and
/// so the helpers, compare hosts exactly, and a remote URL's host is written in lower
/// case (git's own url normalization lowers it too).
/// Everything else gets a note, and the file counts as not fully imported (so
/// --remove-source keeps it). Entries become https credentials. Here, below import,
/// because doctor reads ~/.netrc the same way (NetrcFile.reading) to give a Fix that works.
public enum NetrcFile {
    static let keywords: Set<[UInt8]> = Set(["machine", "default", "login", "password", "account", "macdef"].map { Array($0.utf8) })

    public static func looksLikeNetrc(_ bytes: [UInt8]) -> Bool {
        let lines = Lines(bytes)
        for line in lines.readable {
            guard let first = Tokens.of(line.bytes).tokens.first(where: { !$0.isEmpty }) else { continue }
            return ["machine", "default", "macdef"].map { Array($0.utf8) }.contains(lowercased(first))
        }
        return false
    }

    /// The file as import reads it (and doctor, to say what import would leave): each
    /// entry carried over as an https credential, with its line; and, in line order, each
    /// line that is not, with why.
    public struct Reading: Sendable {
        public var credentials: [(line: Int, credential: Credential)] = []
        public var notes: [(line: Int, text: String)] = []
        /// What an imported entry held that was left out (an account), by line.
        public var leftOut: [(line: Int, text: String)] = []
    }

    /// The command that moves a netrc file where curl (and so git) does not read it, kept
    /// for other programs (curl --netrc-file): for one whose entries import cannot all
    /// carry over, which import --remove-source keeps (doctor's Fix, import's note).
    public static func asideCommand(_ path: String) -> String {
        var aside = path + ".not-for-git"
        var number = 1
        while access(aside, F_OK) == 0 {
            number += 1
            aside = path + ".not-for-git-\(number)"
        }
        return ShellWord.command(["mv", "--", path, aside])
    }

    public static func reading(_ bytes: [UInt8]) -> Reading {
        let lines = Lines(bytes)
        var (entries, notes) = Entry.all(in: lines)
        notes += lines.unreadable.map { ($0.number, $0.reason) }
        var reading = Reading()
        var curl = CurlReading(lines)
        for entry in entries {
            if let problem = entry.problem(curl: &curl) {
                notes.append((entry.line, (entry.host.map { "machine " + Trace.quoted($0) + ": " } ?? "") + problem))
            } else if let host = entry.host, let login = entry.login, let password = entry.password {
                reading.credentials.append((entry.line, Credential(protocol: "https", host: Value(lowercased(host)), username: Value(login), password: Value(password))))
                for text in entry.ignored { reading.leftOut.append((entry.line, "machine " + Trace.quoted(host) + ": " + text)) }
            }
        }
        reading.notes = notes.enumerated().sorted(by: { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }).map(\.element)
        return reading
    }

    public static func lowercased(_ bytes: [UInt8]) -> [UInt8] { bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 } }
    static func isKeyword(_ bytes: [UInt8]) -> Bool { keywords.contains(lowercased(bytes)) }
    static func `is`(_ bytes: [UInt8], _ keyword: String) -> Bool { lowercased(bytes) == Array(keyword.utf8) }
}

/// The lines curl reads, each with its newline: it stops at a line holding a NUL byte and
/// drops a line longer than its 4 KiB buffer (both seen with curl 7.88), so those are
/// left out here too, and said.
struct Lines {
    struct Line { var number: Int; var bytes: ArraySlice<UInt8> }
    var readable: [Line] = []
    var unreadable: [(number: Int, reason: String)] = []
    static let limit = 4095

    init(_ bytes: [UInt8]) {
        var start = 0
        var number = 0
        while start < bytes.count {
            number += 1
            let end = bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
            let line = bytes[start..<end]
            start = end
            if line.contains(0) {
                unreadable.append((number, "a NUL byte, where curl stops reading the file; nothing from here on is imported"))
                return
            }
            if line.count > Self.limit {
                unreadable.append((number, "longer than the \(Self.limit) bytes curl reads; it skips the line, and so does import"))
                continue
            }
            readable.append(Line(number: number, bytes: line))
        }
    }
}

/// One line cut into tokens as curl 7.88 cuts it: blanks (space, TAB) before a token; a
/// token starting with `#` ends the line; a quoted token takes `\n`, `\r`, `\t` and
/// `\` + any other character as that character, and curl steps over the one character
/// after its closing quote; a bare token ends at any white space, which curl steps over,
/// so a blank before the line's end leaves an empty token. `failed`: a quote not closed or
/// a backslash at the end, where curl gives up on the whole file.
struct Tokens {
    var tokens: [[UInt8]] = []
    var failed = false

    static func of(_ line: ArraySlice<UInt8>) -> Tokens {
        let bytes = Array(line)
        var result = Tokens()
        var index = 0
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        func isSpace(_ byte: UInt8) -> Bool { isBlank(byte) || (0x0A...0x0D).contains(byte) }
        while true {
            while index < bytes.count && isBlank(bytes[index]) { index += 1 }
            if index >= bytes.count || bytes[index] == 0x23 { return result }
            var token: [UInt8] = []
            if bytes[index] == 0x22 {
                index += 1
                var escaped = false
                var closed = false
                while index < bytes.count {
                    var byte = bytes[index]
                    index += 1
                    if escaped {
                        escaped = false
                        switch byte {
                        case 0x6E: byte = 0x0A
                        case 0x72: byte = 0x0D
                        case 0x74: byte = 0x09
                        default: break
                        }
                    } else if byte == 0x5C {
                        escaped = true
                        continue
                    } else if byte == 0x22 {
                        closed = true
                        break
                    }
                    token.append(byte)
                }
                if escaped || !closed {
                    result.failed = true
                    return result
                }
            } else {
                while index < bytes.count && !isSpace(bytes[index]) {
                    token.append(bytes[index])
                    index += 1
                }
            }
            index += 1
            result.tokens.append(token)
        }
    }
}

/// What curl 7.88 sends for one host (no user name in the URL), step by step as its
/// parsenetrc. Every host's walk is the same up to the first `machine` naming it or the
/// first `default`, so one shared walk finds where each host's own walk starts: a file
/// costs about its length, not its length times its entries. A budget bounds the rest
/// (a hostile file of many entries that curl reads to the end for each).
struct CurlReading {
    enum State { case nothing, hostFound, hostValid, macro }
    enum Answer: Equatable { case sends(login: [UInt8]?, password: [UInt8]?), nothing, tooLarge }
    struct Position { var line: Int; var token: Int; var state: State }

    let lines: [(startsWithBreak: Bool, cut: Tokens)]
    /// Where each host (lowercased) is first compared with a machine name in the shared walk.
    var firstMachine: [[UInt8]: Position] = [:]
    /// The first `default` (every host's from there on), or where curl fails on the file.
    var firstDefault: Position?
    var failsAt: Position?
    var steps = 0
    static let budget = 4_000_000

    init(_ file: Lines) {
        lines = file.readable.map { line in
            (line.bytes.first.map { $0 == 0x0A || $0 == 0x0D } ?? false, Tokens.of(line.bytes))
        }
        var state = State.nothing
        walk: for (number, line) in lines.enumerated() {
            if state == .macro {
                guard line.startsWithBreak else { continue }
                state = .nothing
            }
            for (index, token) in line.cut.tokens.enumerated() {
                switch state {
                case .nothing:
                    if NetrcFile.is(token, "macdef") { state = .macro }
                    else if NetrcFile.is(token, "machine") { state = .hostFound }
                    else if NetrcFile.is(token, "default") {
                        firstDefault = Position(line: number, token: index, state: .nothing)
                        break walk
                    }
                case .macro:
                    if token.isEmpty { state = .nothing }
                case .hostFound:
                    let name = NetrcFile.lowercased(token)
                    if firstMachine[name] == nil { firstMachine[name] = Position(line: number, token: index, state: .hostFound) }
                    state = .nothing
                case .hostValid:
                    break
                }
            }
            if line.cut.failed {
                failsAt = Position(line: number, token: line.cut.tokens.count, state: state)
                break
            }
        }
    }

    mutating func credentials(for host: [UInt8]) -> Answer {
        let starts = [firstMachine[NetrcFile.lowercased(host)], firstDefault, failsAt].compactMap { $0 }
        guard let start = starts.min(by: { ($0.line, $0.token) < ($1.line, $1.token) }) else { return .nothing }
        var state = start.state
        var found = false
        var login: [UInt8]?
        var password: [UInt8]?
        var wantsLogin = false
        var wantsPassword = false
        for number in start.line..<lines.count {
            let line = lines[number]
            if number > start.line && state == .macro {
                // A macro's body runs to a line that starts with a line break.
                guard line.startsWithBreak else { continue }
                state = .nothing
            }
            for token in line.cut.tokens[(number == start.line ? start.token : 0)...] {
                steps += 1
                if steps > Self.budget { return .tooLarge }
                if let login, !login.isEmpty, let password, !password.isEmpty { return .sends(login: login, password: password) }
                switch state {
                case .nothing:
                    if NetrcFile.is(token, "macdef") { state = .macro }
                    else if NetrcFile.is(token, "machine") { state = .hostFound }
                    else if NetrcFile.is(token, "default") { state = .hostValid; found = true }
                case .macro:
                    if token.isEmpty { state = .nothing }
                case .hostFound:
                    if NetrcFile.lowercased(token) == NetrcFile.lowercased(host) { state = .hostValid; found = true }
                    else { state = .nothing }
                case .hostValid:
                    if wantsLogin { login = token; wantsLogin = false }
                    else if wantsPassword { password = token; wantsPassword = false }
                    else if NetrcFile.is(token, "login") { wantsLogin = true }
                    else if NetrcFile.is(token, "password") { wantsPassword = true }
                    else if NetrcFile.is(token, "machine") { state = .hostFound }
                }
            }
            if line.cut.failed { return .nothing }
        }
        return found ? .sends(login: login, password: password) : .nothing
    }
}

/// One entry as written: `machine HOST` (or `default`) and the keywords after it, each
/// with its value, up to the next `machine` or `default`. What makes it not carry over
/// exactly is collected in `problems`.
struct Entry {
    var line: Int
    var host: [UInt8]?
    var login: [UInt8]?
    var password: [UInt8]?
    var problems: [String] = []
    /// What is left out of an entry that is imported all the same.
    var ignored: [String] = []

    /// The entries, and notes for what stands outside any entry (macros, words before the
    /// first machine, where curl stops on a broken quote).
    static func all(in lines: Lines) -> ([Entry], [(line: Int, text: String)]) {
        var tokens: [(line: Int, bytes: [UInt8])] = []
        var notes: [(line: Int, text: String)] = []
        var inMacro = false
        for line in lines.readable {
            if inMacro {
                guard let first = line.bytes.first, first == 0x0A || first == 0x0D else { continue }
                inMacro = false
            }
            let cut = Tokens.of(line.bytes)
            var words = cut.tokens.filter { !$0.isEmpty }[...]
            while let word = words.popFirst() {
                if NetrcFile.is(word, "macdef") {
                    let name = words.first.map { Trace.quoted($0) } ?? "without a name"
                    notes.append((line.number, "macro \(name) is not carried over (git credentials hold no macros)"))
                    inMacro = true
                    break
                }
                tokens.append((line.number, word))
            }
            if cut.failed {
                // A NUL byte stands for it: no token holds one (such lines are left out).
                tokens.append((line.number, [0]))
                break
            }
        }

        var entries: [Entry] = []
        var current: Entry?
        var rest = tokens[...]
        func note(_ line: Int, _ text: String) {
            if current != nil { current!.problems.append(text) } else { notes.append((line, text)) }
        }
        while let (line, word) = rest.popFirst() {
            if word == [0] {
                note(line, "a quote is not closed (or a backslash ends the line): curl fails on the whole file there, so nothing from here on is imported")
                break
            }
            let keyword = NetrcFile.lowercased(word)
            if keyword == Array("machine".utf8) || keyword == Array("default".utf8) {
                if let entry = current { entries.append(entry) }
                current = Entry(line: line)
                if keyword == Array("default".utf8) {
                    current!.problems.append("a default entry: git credentials need a host")
                    continue
                }
            }
            guard NetrcFile.isKeyword(word) else {
                // The word is not shown: it may be part of a password written without quotes.
                note(line, "a word that is no netrc keyword curl uses (a value with white space or # needs quotes)")
                continue
            }
            // A keyword's value; another keyword instead means it has none (as written:
            // curl would take the keyword itself, or, after `#`, the next line's first word).
            if rest.first?.bytes == [0] { continue }
            guard let value = rest.first?.bytes, !NetrcFile.isKeyword(value) else {
                note(line, "\(String(decoding: word, as: UTF8.self)) has no value (one starting with # must be quoted)")
                continue
            }
            rest.removeFirst()
            guard current != nil else {
                notes.append((line, "\(String(decoding: word, as: UTF8.self)) outside a machine entry"))
                continue
            }
            switch keyword {
            case Array("machine".utf8): current!.host = value
            case Array("login".utf8) where current!.login == nil: current!.login = value
            case Array("password".utf8) where current!.password == nil: current!.password = value
            case Array("account".utf8):
                // curl 7.88 steps over `account` and its value and sends login and password.
                current!.ignored.append("its account was left out (curl never sends one either; git credentials hold none)")
            default: current!.problems.append("\(String(decoding: word, as: UTF8.self)) given twice")
            }
        }
        if let entry = current { entries.append(entry) }
        return (entries, notes)
    }

    /// Why this entry is not imported, or `nil` when curl sends exactly its login and
    /// password for its host.
    func problem(curl: inout CurlReading) -> String? {
        if let first = problems.first { return first }
        guard let host else { return "no host" }
        guard let login, !login.isEmpty else { return "no login" }
        guard let password, !password.isEmpty else { return "no password" }
        if [host, login, password].contains(where: { $0.contains { $0 < 0x20 || $0 == 0x7F } }) {
            return "a control character in the host, login or password, which would not carry over as written"
        }
        if host.contains(where: { Array(":/@?#\\".utf8).contains($0) }) {
            return "not a host name curl matches (a port, path or user name does not belong in it)"
        }
        switch curl.credentials(for: host) {
        case .sends(login: login, password: password): return nil
        case .tooLarge: return "the file is too large to check how curl reads this entry; import it in parts"
        default: return "curl reads another login or password for this host from the file (an earlier entry for it, a default before it, a value after # or a macro read as entries), so it is not imported"
        }
    }
}
