import Foundation
import CLI

// The whole command line lives in the CLI module so tests can run it in-process; this is the door.
// A closed pipe or a file size limit ends in an error message, not a silent signal.
ProcessSignals.ignoreBrokenStreams()
exit(PushSimCommand.main(Array(CommandLine.arguments.dropFirst())).rawValue)
