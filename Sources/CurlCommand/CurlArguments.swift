import CredentialCore

/// What credential-curl makes of its arguments: the curl options to pass on, rewritten
/// unambiguously (each option alone, its value in the next argument), the one URL, and
/// the caller's --write-out format, which goes in front of ours in curl's config.
public struct CurlRequest: Equatable, Sendable {
    public var options: [[UInt8]] = []
    public var url: [UInt8] = []
    public var writeOut: [UInt8] = []
}

/// The caller's arguments, read as curl 7.88 reads them: options (long ones by whole name
/// only, short ones letter by letter, a value in the rest of the word or in the next
/// argument) until `--`, and everything else a URL. Bytes, not Strings: an argument need
/// not be UTF-8, and what is checked must be what curl gets.
public enum CurlArguments {
    public static func read(_ arguments: [[UInt8]]) throws(HelperError) -> CurlRequest {
        var request = CurlRequest()
        var pending: (option: CurlOption, written: String)?  // the option whose value comes next
        var valueOf: String?  // the option the last argument was the value of
        var optionsDone = false
        var urls = 0

        func take(_ option: CurlOption, written: String, value: [UInt8]) throws(HelperError) {
            try CurlValues.check(option, written: written, value: value)
            if option.name == "write-out" {
                request.writeOut = value
            } else {
                request.options += [Array(written.utf8), value]
            }
            valueOf = written
        }

        for argument in arguments {
            if let (option, written) = pending {
                try take(option, written: written, value: argument)
                pending = nil
                continue
            }
            valueOf = nil
            if !optionsDone && argument.first == UInt8(ascii: "-") {
                if argument == Array("--".utf8) {
                    optionsDone = true
                    continue
                }
                if argument.starts(with: Array("--".utf8)) {
                    if let equals = argument.firstIndex(of: UInt8(ascii: "=")) {
                        let written = text(argument[..<equals])
                        throw HelperError(.usage, "\(written)=...: curl takes no --option=value, and would fail on it",
                                          fix: "give the value as the next argument: \(written) VALUE")
                    }
                    let name = argument.dropFirst(2)
                    let option = try passedOn(named: name, written: text(argument))
                    if option.kind == .flag {
                        request.options.append(argument)
                    } else {
                        pending = (option, text(argument))
                    }
                    continue
                }
                if argument.count == 1 {
                    throw HelperError(.usage, "- alone is not an option curl takes", fix: "leave it out")
                }
                var index = 1
                while index < argument.count {
                    let letter = argument[index]
                    index += 1
                    // Named with the letters up to it only: what follows may be a value.
                    let written = "-" + text([letter])
                    let shown = argument.count == 2 ? written
                        : "\(written) (in \(text(argument[..<index]))\(index < argument.count ? "..." : ""))"
                    guard let option = CurlOptions.lettered(letter), option.refusal == nil else {
                        throw CurlRefusal.of(shown, named: [letter])
                    }
                    // Passed on as the letter, not the long name: curl gives some letters a
                    // meaning of their own (-N is --no-buffer).
                    if option.kind == .flag {
                        request.options.append(Array(written.utf8))
                        continue
                    }
                    if index == argument.count {
                        pending = (option, written)
                        break
                    }
                    // The value in the rest of the word: -XPOST, -sSo FILE's o, -H'x: y'.
                    try take(option, written: written, value: Array(argument[index...]))
                    break
                }
                continue
            }
            urls += 1
            if urls > 1 {
                throw HelperError(.usage, "\(CurlURL.shown(argument)) is a second URL, and curl would send the credential to each",
                                  fix: "give one URL, and run credential-curl once per URL")
            }
            request.url = argument
        }
        if let (_, written) = pending {
            throw HelperError(.usage, "\(written) needs a value", fix: "give it as the next argument, before the URL")
        }
        if urls == 0 {
            throw HelperError(.usage, "no URL given" + (valueOf.map { ": the last argument is the value of \($0)" } ?? ""),
                              fix: "credential-curl [curl options] URL")
        }
        return request
    }

    /// The option passed on by that long name, or its --no-NAME form (a flag's that curl
    /// takes as a boolean); the
    /// refusal otherwise.
    static func passedOn(named name: ArraySlice<UInt8>, written: String) throws(HelperError) -> CurlOption {
        if let option = CurlOptions.named(name), option.refusal == nil { return option }
        if name.count > 3, name.starts(with: Array("no-".utf8)), let negated = CurlOptions.named(name.dropFirst(3)),
           negated.refusal == nil, negated.negatable {
            return negated
        }
        throw CurlRefusal.of(written, named: Array(name))
    }

    /// Bytes as a message shows them (an invalid byte as U+FFFD; HelperError makes it printable).
    static func text(_ bytes: some Collection<UInt8>) -> String { String(decoding: Array(bytes), as: UTF8.self) }
}
