import CurlCommand
import ForwardCommand
import HelperCommand
import PassCommands
import SQLiteCommands

// The programs of the static PIE: those that need no library of the desktop. A program
// is one line here and its line in packaging/programs (ProgramTableTests checks the two agree).
// The stores configure can tell about when it replaces their helper's line (OtherStores).
OtherStores.register(SQLiteSettings.self, PassSettings.self)
var programs = MultiCall()
programs.run("git-credential-sqlite") { HelperRunner.main(SQLiteHelper.self) }
programs.run("git-credential-pass") { HelperRunner.main(PassHelper.self) }
programs.run("basic-auth-header") { BasicAuthHeaderCommand.start() }
programs.run("credential-curl") { CredentialCurl.start() }
programs.run("git-credential-forward") { ForwardCommand.start() }
programs.refuseOtherNames()
