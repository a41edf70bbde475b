import HelperCommand
import SecretServiceCommands

HelperRunner.main(SecretServiceHelper.self)
