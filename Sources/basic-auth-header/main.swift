import HelperCommand

HelperRunner.main(command: BasicAuthHeaderCommand.self)
