import HelperCommand
import KeyringCommands
import SQLiteCommands
import SecretServiceCommands

// The programs linked to libsecret (and GLib), which a static PIE cannot load. A program
// is one line here and its line in packaging/programs (ProgramTableTests checks the two agree).
// The stores configure can tell about when it replaces their helper's line (OtherStores).
OtherStores.register(SQLiteSettings.self)
var programs = MultiCall()
programs.run("git-credential-secretservice") { HelperRunner.main(SecretServiceHelper.self) }
programs.run("git-credential-keyring") { HelperRunner.main(KeyringHelper.self) }
programs.refuseOtherNames()
