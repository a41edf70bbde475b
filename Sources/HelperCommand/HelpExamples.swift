import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// `--help` keeps each example command on one line, so that it pastes: the argument parser
/// wraps every line of a discussion to the terminal's width (80 columns without one),
/// examples too, and a command broken at a space runs as two. Prose is wrapped as before.
enum HelpExamples {
    /// The help or version text for `error` (a request for it), examples unwrapped.
    static func text<Command: ParsableCommand>(for error: Error, command: Command.Type) -> String {
        let wrapped = Command.fullMessage(for: error)
        // The parser's width comes from COLUMNS before the terminal: this process only
        // prints the help, so it can render it once more unwrapped, then put COLUMNS back.
        let columns = getenv("COLUMNS").map { String(cString: $0) }
        setenv("COLUMNS", "1000000", 1)
        let unwrapped = Command.fullMessage(for: error)
        if let columns { setenv("COLUMNS", columns, 1) } else { unsetenv("COLUMNS") }
        return spliced(wrapped: wrapped, unwrapped: unwrapped)
    }

    /// `wrapped` with each "Example:"/"Examples:" block (the lines after the heading, up to
    /// an empty line) taken from `unwrapped`; `wrapped` unchanged when they do not pair up.
    static func spliced(wrapped: String, unwrapped: String) -> String {
        let narrow = blocks(wrapped), wide = blocks(unwrapped)
        guard narrow.blocks.count == wide.blocks.count else { return wrapped }
        var lines = narrow.lines
        for (block, replacement) in zip(narrow.blocks, wide.blocks).reversed() {
            lines.replaceSubrange(block, with: wide.lines[replacement])
        }
        return lines.joined(separator: "\n")
    }

    static func blocks(_ text: String) -> (lines: [Substring], blocks: [Range<Int>]) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var blocks: [Range<Int>] = []
        for (index, line) in lines.enumerated() where ["Example:", "Examples:"].contains(line.trimmingSpaces) {
            let end = lines[(index + 1)...].firstIndex { $0.trimmingSpaces.isEmpty } ?? lines.endIndex
            blocks.append((index + 1)..<end)
        }
        return (lines, blocks)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        return self[start..<(lastIndex { $0 != " " }.map(index(after:)) ?? start)]
    }
}
