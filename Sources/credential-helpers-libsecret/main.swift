import HelperCommand
import KeyringCommands
import SecretServiceCommands

// The programs linked to libsecret (and GLib), which a static PIE cannot load. A program
// is one line here and its name in the Makefile's LIBSECRET_NAMES.
MultiCall.main([
    ("git-credential-secretservice", { HelperRunner.main(SecretServiceHelper.self) }),
    ("git-credential-keyring", { HelperRunner.main(KeyringHelper.self) }),
])
