import HelperCommand

HelperRunner.main(SQLiteHelper.self)
