import CredentialCore

/// The option values that would defeat credential-curl's rules: what reaches the request
/// line or a header, and a --write-out format that would hide the answer.
public enum CurlValues {
    /// `written`: the option as the caller wrote it (-H, --header), for the message.
    public static func check(_ option: CurlOption, written: String, value: [UInt8]) throws(HelperError) {
        if option.kind != .body, value.contains(where: isControl) {
            throw HelperError(.usage, "the \(written) value holds a control character, which would add headers or whole requests to what curl sends (with the credential)",
                              fix: "leave it out; only a body (-d, --data-*, --json, -F, --form-string) or --write-out may hold one")
        }
        switch option.name {
        case "header": try checkHeader(value)
        case "request":
            guard !value.isEmpty, value.allSatisfy(isTokenByte) else {
                throw HelperError(.usage, "-X '\(text(value))' is not an HTTP method (one word: letters, digits, -), and would change the request line, where a proxy reads where to send the credential",
                                  fix: "give a method such as -X PUT")
            }
        case "write-out":
            if value.first == UInt8(ascii: "@") {
                throw HelperError(.usage, "credential-curl cannot combine with --write-out @FILE", fix: "give the format inline")
            }
            // curl 7.88 reads a config line of at most 100 KiB (tool_parsecfg.c), and the
            // format goes in one, escaped, with ours after it.
            if CurlConfig.line("write-out", value).count > 100 * 1024 - 256 {
                throw HelperError(.usage, "the -w format is too long for the curl config line credential-curl hands it in (100 KiB, escaped)",
                                  fix: "shorten it, or write the format to a file and give it to plain curl as -w @FILE")
            }
            switch openSequence(value) {
            case .variable:
                throw HelperError(.usage, "the -w format ends inside a %-sequence (a lone %, or %{ or %NAME{ without its }), which would swallow what credential-curl adds after it to see the answer",
                                  fix: "finish it, or write a literal % as %%")
            case .escape:
                throw HelperError(.usage, "the -w format ends in a lone \\, which would swallow what credential-curl adds after it to see the answer",
                                  fix: "write a literal \\ as \\\\")
            case nil: break
            }
        case "url-query":
            if unencodedQuery(value).contains(where: { $0 == 0x20 || $0 >= 0x80 }) {
                throw HelperError(.usage, "the --url-query value '\(text(value))' would put a space or a byte that is not ASCII in the request line as it is (curl encodes only what follows = or @, and nothing after a leading +)",
                                  fix: "percent-encode that part yourself (%20), or put it after =")
            }
        default: break
        }
    }

    static func checkHeader(_ value: [UInt8]) throws(HelperError) {
        if value.first == UInt8(ascii: "@") {
            throw HelperError(.usage, "-H \(text(value)) reads headers from a file, which credential-curl cannot check",
                              fix: "give each header as -H 'NAME: VALUE'")
        }
        // The name as a server reads it: up to curl's : or ;, blanks around it taken off,
        // in lower case (bytes, whatever the caller's locale).
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        var name = Array(value.prefix { $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: ";") }.drop(while: isBlank))
        while let last = name.last, isBlank(last) { name.removeLast() }
        name = name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        switch text(name) {
        case "authorization":
            throw HelperError(.usage, "-H authorization: credential-curl sends the Authorization header itself",
                              fix: "for your own credential run plain curl")
        case "host":
            throw HelperError(.usage, "-H host would send the credential to another site served at URL's address", fix: "put that host in the URL")
        case "content-length", "transfer-encoding":
            throw HelperError(.usage, "-H \(text(name)) would let the body pass for another request, which could take the credential elsewhere",
                              fix: "leave it out: curl frames the body itself")
        default: break
        }
        if let first = value.first, isBlank(first) {
            throw HelperError(.usage, "the -H value starts with a space or a tab, which makes a server read it as the end of the header before it (the credential's)",
                              fix: "start it with the header's name")
        }
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
            throw HelperError(.usage, "-H '\(text(value))' does not start with a header name (letters, digits, -)",
                              fix: "give each header as -H 'NAME: VALUE'")
        }
    }

    /// A sequence a --write-out format leaves open at its end, read as curl reads it: a
    /// lone % (curl would read ours, after it, as %%), %{ or %NAME{ with no } after it, or a
    /// lone \ (curl would read it with our % as `\%`, and print our line as it is).
    public enum OpenSequence: Equatable { case variable, escape }

    public static func openSequence(_ format: [UInt8]) -> OpenSequence? {
        var index = format.startIndex
        while index < format.endIndex {
            let byte = format[index]
            index += 1
            if byte == UInt8(ascii: "\\") {
                guard index < format.endIndex else { return .escape }
                index += 1
            } else if byte == UInt8(ascii: "%") {
                guard index < format.endIndex else { return .variable }
                if format[index] == UInt8(ascii: "%") {
                    index += 1
                    continue
                }
                // `%{NAME}` and `%header{NAME}` are curl 7.88's only braced sequences.
                let name = format[index...].prefix { isLetter($0) || $0 == UInt8(ascii: "_") }
                // %X of no variable: curl writes both as they are (`%\\` escapes nothing).
                guard name.isEmpty || name.elementsEqual("header".utf8), name.endIndex < format.endIndex,
                      format[name.endIndex] == UInt8(ascii: "{") else {
                    index += 1
                    continue
                }
                guard let close = format[name.endIndex...].firstIndex(of: UInt8(ascii: "}")) else { return .variable }
                index = close + 1
            }
        }
        return nil
    }

    /// The part of a --url-query value that curl 7.88 appends to the URL's query unencoded,
    /// as --data-urlencode reads it: all of it after a leading `+`; else the name before
    /// the first `=` (or, without one, before the first `@`: a file's content follows). The
    /// rest curl percent-encodes.
    public static func unencodedQuery(_ value: [UInt8]) -> ArraySlice<UInt8> {
        if value.first == UInt8(ascii: "+") { return value.dropFirst() }
        if let equals = value.firstIndex(of: UInt8(ascii: "=")) { return value[..<equals] }
        if let at = value.firstIndex(of: UInt8(ascii: "@")) { return value[..<at] }
        return []
    }

    /// The control characters, as bytes: C0 and DEL.
    public static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    /// An HTTP token's byte (RFC 9110): what a header name and a method are made of. No
    /// space, no colon, nothing a server could read as the end of one and the start of another.
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || Array("-!#$%&'*+.^_`|~".utf8).contains(byte)
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
