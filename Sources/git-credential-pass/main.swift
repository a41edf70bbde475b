import HelperCommand
import PassCommands

HelperRunner.main(PassHelper.self)
