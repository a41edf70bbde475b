import HelperCommand
import KeyringCommands

HelperRunner.main(KeyringHelper.self)
