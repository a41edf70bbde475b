import HelperCommand

// credential-curl's trace lines (a hidden mode, before the argument parser: it traces
// as credential-curl, not as basic-auth-header).
if BasicAuthHeaderCommand.isCredentialCurlTrace(Array(CommandLine.arguments.dropFirst())) {
    BasicAuthHeaderCommand.writeCredentialCurlTrace()
}
HelperRunner.main(command: BasicAuthHeaderCommand.self)
