import HelperCommand
import SQLiteCommands

HelperRunner.main(SQLiteHelper.self)
