import Foundation
import Simulator

// The whole CLI lives in Simulator so tests can run it in-process; this is the door.
exit(PushSimCommand.main(Array(CommandLine.arguments.dropFirst())).rawValue)
