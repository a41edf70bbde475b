import CredentialCore
import HelperCommand

/// A netrc file as an import source: NetrcFile's reading (HelperCommand, which doctor
/// shares), each entry a credential, each line left out a note.
extension NetrcFile {
    static func read(_ bytes: [UInt8], name: String) -> ImportSource {
        let reading = NetrcFile.reading(bytes)
        var source = ImportSource(name: name, credentials: [])
        source.isNetrc = true
        for (line, credential) in reading.credentials { source.add(credential, at: line) }
        for (line, text) in reading.notes { source.skip(line, text) }
        source.leftOut = reading.leftOut.map { "line \($0.line): \($0.text)" }
        return source
    }
}
