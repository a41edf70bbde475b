import Foundation

/// The hostile-input runs' seed.
enum HostileSeed {
    /// HOSTILE_SEED when set, a fresh seed otherwise.
    static let run: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["HOSTILE_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: 0...UInt64.max)
    }()
}

/// The credential a hostile input carries when a correct reader accepts it: the only one a
/// store may then hold for it.
struct IntendedCredential {
    var host: String
    var username: [UInt8]
    var password: [UInt8]
    var path: String? = nil

    /// What `get` answers for it.
    var answer: [UInt8] { Array("username=".utf8) + username + [0x0A] + Array("password=".utf8) + password + [0x0A] }
}

/// One hostile stdin, and what a correct helper makes of it (credential-protocol.md):
/// either the whole input is rejected, or it is read as `intended` (nil: nothing to store).
struct HostileInput {
    let name: String
    let bytes: [UInt8]
    let rejected: Bool
    let intended: IntendedCredential?
    /// Bytes that must never appear on stderr (the password's marker).
    let secret: String
}

/// Builds hostile inputs around one intended credential: protocol=https, host, username,
/// password lines, then whatever hazards are added. Whether a correct reader rejects the
/// result follows from the protocol's rules line by line (`poisoned`), not from our parser.
struct HostileInputBuilder {
    static let evilHost = "evil.example"
    static let maxLine = 65535

    var lines: [[UInt8]]
    /// Lines known to make the input invalid beyond the line rules (a `url=` that cannot be read).
    var badURLLines: Set<Int> = []
    var ending = Ending.blankLine
    var intended: IntendedCredential
    let secret: String

    enum Ending {
        case blankLine
        /// The blank line, then more lines, which no reader may look at.
        case blankLineThen([UInt8])
        case eofAfterLF
        case eofWithoutLF
    }

    init(host: String, username: [UInt8], password: [UInt8], secret: String) {
        intended = IntendedCredential(host: host, username: username, password: password)
        self.secret = secret
        lines = [line("protocol", "https"), line("host", host), line("username", username), line("password", password)]
    }

    /// A credential for `host` whose password starts with a unique marker.
    init(host: String, using random: inout SplitMix64, username: [UInt8]? = nil, passwordTail: [UInt8]? = nil) {
        let marker = "pw" + String(random.next(), radix: 16)
        self.init(host: host, username: username ?? Array("alice".utf8),
                  password: Array(marker.utf8) + (passwordTail ?? []), secret: marker)
    }

    mutating func insert(_ line: [UInt8], at index: Int? = nil, badURL: Bool = false) {
        insert([line], at: index)
        if badURL { badURLLines.insert(index ?? lines.count - 1) }
    }

    /// Inserts lines before line `index` (at the end when nil).
    mutating func insert(_ newLines: [[UInt8]], at index: Int? = nil) {
        let position = index ?? lines.count
        badURLLines = Set(badURLLines.map { $0 >= position ? $0 + newLines.count : $0 })
        lines.insert(contentsOf: newLines, at: position)
    }

    /// Where the line that sets `key` is.
    func index(of key: String) -> Int {
        lines.firstIndex { $0.starts(with: Array((key + "=").utf8)) } ?? 0
    }

    func build(_ name: String) -> HostileInput {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.reduce(1) { $0 + $1.count + 1 })
        for line in lines { bytes += line + [0x0A] }
        switch ending {
        case .blankLine: bytes.append(0x0A)
        case .blankLineThen(let rest): bytes += [0x0A] + rest
        case .eofAfterLF: break
        case .eofWithoutLF: bytes.removeLast()
        }
        var lastIsUnterminated = false
        if case .eofWithoutLF = ending { lastIsUnterminated = true }
        // Besides the line rules, our readers bound the whole input (8 MiB), so that endless
        // valid lines cannot exhaust memory.
        let rejected = bytes.count > 8 << 20 || lines.indices.contains { index in
            let terminated = !(lastIsUnterminated && index == lines.count - 1)
            return badURLLines.contains(index) || Self.poisoned(lines[index], terminated: terminated)
        }
        return HostileInput(name: name, bytes: bytes, rejected: rejected, intended: rejected ? nil : intended, secret: secret)
    }

    /// The protocol's rules for one line: at most 65535 bytes with its LF, no NUL, no CR, an '='.
    static func poisoned(_ line: [UInt8], terminated: Bool) -> Bool {
        line.count + (terminated ? 1 : 0) > maxLine || line.contains(0) || line.contains(0x0D) || !line.contains(0x3D)
    }
}

func line(_ key: String, _ value: String) -> [UInt8] { Array("\(key)=\(value)".utf8) }
func line(_ key: String, _ value: [UInt8]) -> [UInt8] { Array("\(key)=".utf8) + value }

// MARK: The adversarial cases

extension HostileInput {
    /// The cases issue 6 names, each around its own host: NUL, lone CR, invalid UTF-8,
    /// long lines, many attributes, no final blank line, `url=` tricks, `wwwauth[]`
    /// carrying an embedded `host=`. `host(n)` gives the n-th case its host. An input beyond
    /// our readers' 8 MiB bound takes seconds per process in a debug build: stress only.
    static func adversarial(
        host: (Int) -> String, longLine: Int, attributes: Int, beyondInputBound: Bool, using random: inout SplitMix64
    ) -> [HostileInput] {
        let evil = HostileInputBuilder.evilHost
        var cases: [HostileInput] = []
        func add(_ name: String, username: [UInt8]? = nil, passwordTail: [UInt8]? = nil,
                 _ change: (inout HostileInputBuilder) -> Void) {
            var builder = HostileInputBuilder(host: host(cases.count), using: &random, username: username,
                                              passwordTail: passwordTail)
            change(&builder)
            cases.append(builder.build(name))
        }
        func url(_ text: String) -> [UInt8] { line("url", text) }

        add("plain credential") { _ in }
        add("NUL in the password", passwordTail: [0x00, 0x41]) { _ in }
        add("NUL then host= in wwwauth[]") { $0.insert(line("wwwauth[]", Array("x".utf8) + [0] + line("host", evil))) }
        add("lone CR then host= in wwwauth[]") { $0.insert(line("wwwauth[]", Array("x".utf8) + [0x0D] + line("host", evil))) }
        add("lone CR in the host line") { $0.lines[1] = line("host", Array($0.intended.host.utf8) + [0x0D] + Array(evil.utf8)) }
        add("CRLF line endings") { builder in builder.lines = builder.lines.map { $0 + [0x0D] } }
        add("CR alone as the blank line") { $0.insert([0x0D]) }
        add("invalid UTF-8 in the password", passwordTail: [0xC3, 0x28, 0xFF, 0xFE, 0xED, 0xA0, 0x80]) { _ in }
        add("C1 control and DEL in the password", passwordTail: [0xC2, 0x85, 0x7F, 0x09]) { _ in }
        add("'=' and spaces in the password", passwordTail: Array(" = ==host=evil.example ".utf8)) { _ in }
        add("a \(longLine)-byte password line") { $0.lines[3] += Array(repeating: 0x70, count: longLine) }
        add("a \(longLine)-byte wwwauth[] line first") { $0.insert(line("wwwauth[]", [UInt8](repeating: 0x77, count: longLine)), at: 0) }
        add("a line of exactly 65535 bytes with its LF") {
            $0.insert(line("wwwauth[]", [UInt8](repeating: 0x77, count: HostileInputBuilder.maxLine - 11)))
        }
        add("a line of 65536 bytes with its LF") {
            $0.insert(line("wwwauth[]", [UInt8](repeating: 0x77, count: HostileInputBuilder.maxLine - 10)))
        }
        add("\(attributes) wwwauth[] attributes") { builder in
            builder.insert((0..<attributes).map { line("wwwauth[]", "Basic realm=\"\($0)\", host=\(evil)") }, at: 2)
        }
        add("\(attributes) unknown attributes") { builder in
            builder.insert((0..<attributes).map { line("x-attribute-\($0)", "host=\(evil)") }, at: 1)
        }
        add("\(attributes) host=evil lines before the real one") { builder in
            builder.insert(Array(repeating: line("host", evil), count: attributes), at: 0)
        }
        if beyondInputBound {
            add("more than 8 MiB of valid lines") { builder in
                let header = line("wwwauth[]", [UInt8](repeating: 0x68, count: 1013))
                builder.insert(Array(repeating: header, count: (8 << 20) / (header.count + 1) + 1), at: 2)
            }
        }
        add("no final blank line") { $0.ending = .eofAfterLF }
        add("no final LF") { $0.ending = .eofWithoutLF }
        add("host= and password= after the blank line") {
            $0.ending = .blankLineThen(Array("host=\(evil)\npassword=evil\nno equals\n\0\r\n".utf8))
        }
        add("a line without '='") { $0.insert(Array("host \(evil)".utf8), at: 2) }
        add("an empty key") { $0.insert(Array("=host=\(evil)".utf8), at: 2) }
        add("keys that only look like host") { builder in
            for key in ["HOST", " host", "host ", "host[]", "hos", "hostt"] { builder.insert(line(key, evil)) }
        }
        add("wwwauth[] carrying host=, password= and url=") { builder in
            for value in ["Basic realm=\"x\", host=\(evil)", "host=\(evil)", "password=evil", "url=https://\(evil)/",
                          "x%0ahost=\(evil)", "x\\nhost=\(evil)"] {
                builder.insert(line("wwwauth[]", value))
            }
        }
        add("state[] and capability[] carrying host=") { builder in
            builder.insert(line("capability[]", "host=\(evil)"), at: 0)
            builder.insert(line("state[]", "host=\(evil)"))
        }
        add("url= with %0a before host= in the user") { $0.insert(url("https://a%0ahost=\(evil)@\($0.intended.host)/"), badURL: true) }
        add("url= with %0A in the path") { $0.insert(url("https://\($0.intended.host)/repo%0Ahost=\(evil)"), badURL: true) }
        add("url= with %0d in the password") { $0.insert(url("https://alice:pw%0d@\($0.intended.host)/"), badURL: true) }
        add("url= with %00 in the host") { $0.insert(url("https://\($0.intended.host)%00\(evil)/"), badURL: true) }
        add("url= without a scheme") { $0.insert(url("\(evil)/repo"), badURL: true) }
        add("url= for evil, then the real fields") { $0.insert(url("https://mallory:evil@\(evil):8443"), at: 0) }
        add("host=evil, then a url= that resets it") { builder in
            let intended = builder.intended
            builder.lines = [line("host", evil), line("password", "evil"), line("path", "evil"),
                             url("https://alice:\(String(decoding: intended.password, as: UTF8.self))@\(intended.host)")]
        }
        add("url= with an escaped @ in the user") { builder in
            builder.intended.username = Array("alice@\(evil)".utf8)
            builder.lines = [url("https://alice%40\(evil):\(builder.secret)@\(builder.intended.host)/")]
        }
        add("url= whose query holds @evil") { builder in
            builder.intended.path = "?x=@\(evil)"
            builder.lines = [url("https://alice:\(builder.secret)@\(builder.intended.host)?x=@\(evil)/")]
        }
        return cases
    }
}

// MARK: Random inputs

extension HostileInput {
    /// A random hostile input around `host`: the credential with one to four hazards.
    static func random(host: String, longLine: Int, attributes: Int, using random: inout SplitMix64) -> HostileInput {
        let evil = HostileInputBuilder.evilHost
        let tail = randomValue(maxCount: 12, using: &random)
        var builder = HostileInputBuilder(host: host, using: &random, username: randomUsername(using: &random), passwordTail: tail)
        var hazards: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = Int.random(in: 0...builder.lines.count, using: &random)
            switch Int.random(in: 0..<11, using: &random) {
            case 0:  // an attribute a storing helper ignores, whatever it holds
                let key = ["wwwauth[]", "state[]", "capability[]", "x-unknown", "HOST", " host", "host[]", "Password", ""]
                    .randomElement(using: &random)!
                let count = Int.random(in: 0..<8, using: &random) == 0 ? attributes : 1
                builder.insert((0..<count).map { _ in line(key, randomValue(maxCount: 40, using: &random)) }, at: position)
                hazards.append("\(count)x \(key.debugDescription)")
            case 1:  // an evil value before the real line: the last one wins
                let key = ["protocol", "host", "username", "password"].randomElement(using: &random)!
                builder.insert(line(key, key == "host" ? evil : "evil"), at: Int.random(in: 0...builder.index(of: key), using: &random))
                hazards.append("evil \(key) first")
            case 2, 3:  // a NUL or CR in any line
                let index = Int.random(in: 0..<builder.lines.count, using: &random)
                let byte: UInt8 = Bool.random(using: &random) ? 0x00 : 0x0D
                builder.lines[index].insert(byte, at: Int.random(in: 0...builder.lines[index].count, using: &random))
                hazards.append(byte == 0 ? "NUL" : "CR")
            case 4:  // a line without '='
                builder.insert(randomValue(maxCount: 20, using: &random).filter { $0 != 0x3D } + [0x78], at: position)
                hazards.append("no '='")
            case 5:  // a long line, around the limit or far beyond it
                let length = [HostileInputBuilder.maxLine - 1, HostileInputBuilder.maxLine, HostileInputBuilder.maxLine + 1, longLine]
                    .randomElement(using: &random)!
                builder.insert(line("wwwauth[]", [UInt8](repeating: 0x61, count: length - 11)), at: position)
                hazards.append("\(length)-byte line")
            case 6:  // a url= that cannot be read, anywhere
                let text = ["https://a%0ahost=\(evil)@\(host)/", "https://\(host)/%0d%0ahost=\(evil)", "https://u:p%00@\(host)",
                            "\(evil)/no-scheme", "://\(evil)"].randomElement(using: &random)!
                builder.insert(line("url", text), at: position, badURL: true)
                hazards.append("bad url=")
            case 7:  // a url= first, which the real fields then override
                builder.insert(line("url", "https://mallory:evil@\(evil)"), at: 0)
                hazards.append("url= first")
            case 8:  // what follows the blank line
                builder.ending = .blankLineThen(randomValue(maxCount: 30, using: &random) + Array("\nhost=\(evil)\n".utf8))
                hazards.append("trailer")
            case 9:
                builder.ending = Bool.random(using: &random) ? .eofAfterLF : .eofWithoutLF
                hazards.append("no blank line")
            default:  // one line duplicated: the same value twice changes nothing
                let index = Int.random(in: 0..<builder.lines.count, using: &random)
                builder.insert(builder.lines[index], at: index)
                hazards.append("duplicate line")
            }
        }
        return builder.build(hazards.joined(separator: ", "))
    }

    /// Value bytes with the parser's hazards in them, never LF (each stays one line).
    static func randomValue(maxCount: Int, using random: inout SplitMix64) -> [UInt8] {
        let tricky = Array("=%:@/?#[] \\\thost=evil.example".utf8) + [0x80, 0xC3, 0xFF, 0xED, 0x7F]
        return (0..<Int.random(in: 0...maxCount, using: &random)).map { _ in
            Bool.random(using: &random) ? tricky.randomElement(using: &random)! : UInt8.random(in: 0x20...0x7E, using: &random)
        }
    }

    /// A username: valid UTF-8 (the Secret Service keeps only text in attributes), with
    /// the characters that matter to other readers.
    static func randomUsername(using random: inout SplitMix64) -> [UInt8] {
        let pieces = ["alice", "ü", "😀", "=", "@", "%0a", " ", ":", "host=evil.example", "\\"]
        return Array((0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined().utf8)
    }
}
