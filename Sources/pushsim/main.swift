import CLI
import Glibc

// The whole command line lives in the CLI module so tests can run it in-process; this is the door.
// A closed pipe or a file size limit ends in an error message, not a silent signal.
ProcessSignals.ignoreBrokenStreams()
// The arguments byte for byte (`CommandLine.arguments` decodes them lossily): `--out $'r\xff'`
// must write to `r\xff`, not to `r\u{FFFD}`.
exit(PushSimCommand.main(PushSimCommand.processArguments()).rawValue)
