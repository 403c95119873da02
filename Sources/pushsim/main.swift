import Foundation
import Simulator

// The whole CLI lives in Simulator so tests can run it in-process; this is the door.
// A closed pipe or a file size limit ends in an error message, not a silent signal.
ProcessSignals.ignoreBrokenStreams()
exit(PushSimCommand.main(Array(CommandLine.arguments.dropFirst())).rawValue)
