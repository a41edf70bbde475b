import CLibSecret
import CSecretService
import CredentialCore

/// A session bus or a Secret Service that is another user's, which csecretservice_connect
/// (and doctor's look at the bus) refuse before anything is sent to the service: the
/// line that says whose it is, and what to do about it.
enum ForeignBus {
    /// What a CSECRETSERVICE_ERROR says, as the error to report; nil for any other error.
    /// Does not free `error`.
    static func refusal(_ error: UnsafeMutablePointer<GError>) -> HelperError? {
        guard error.pointee.domain == csecretservice_error_quark() else { return nil }
        let message = error.pointee.message.map { String(cString: $0) } ?? "the session bus is not yours"
        switch Int(error.pointee.code) {
        case CSECRETSERVICE_ERROR_FOREIGN_BUS:
            // The address outlived its session in this shell; a new login has a bus of its own.
            return HelperError(.unavailable, message,
                               fix: "unset DBUS_SESSION_BUS_ADDRESS in this shell (in tmux too: tmux set-environment -gu DBUS_SESSION_BUS_ADDRESS), or log in again")
        case CSECRETSERVICE_ERROR_FOREIGN_SERVICE:
            return HelperError(.unavailable, message,
                               fix: "stop that program and log in again, and look for what lets other users onto your session bus (an <allow user> or <allow_anonymous/> in its configuration)")
        default:
            return nil
        }
    }
}
