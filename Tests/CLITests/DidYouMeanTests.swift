@testable import CLI
import TestSupport
import Testing

/// A misspelt command or option gets the declared name it resembles, from the command
/// table and the command's own options.
@Suite("Did you mean: commands and options")
struct DidYouMeanTests {
    @Test("a misspelt command names the command it resembles, for the command and for help's topic", arguments: [
        (["rnu", "x.json"], "error: unknown command 'rnu'; did you mean run?\n"),
        (["valdiate"], "error: unknown command 'valdiate'; did you mean validate?\n"),
        (["help", "swep"], "error: unknown command 'swep'; did you mean sweep?\n"),
    ])
    func misspeltCommand(arguments: [String], first: String) {
        let result = CapturedConsole.run(arguments)
        #expect(result.code == .usage)
        #expect(result.err == first + "(see 'pushsim help' or '--help')\n")
    }

    @Test("a command like no other still lists them all")
    func unlikeAnyCommand() {
        let result = CapturedConsole.run(["simulate"])
        #expect(result.code == .usage)
        #expect(result.err.hasPrefix("error: unknown command 'simulate'; expected " + PushSimCommand.commandList + "\n"))
    }

    @Test("a misspelt option names the command's option it resembles; one like none is refused alone", arguments: [
        (["run", "x.json", "--thread", "2"], "error: unknown option '--thread' for 'run'; did you mean --threads?\n"),
        (["merge", "p", "--otu", "m"], "error: unknown option '--otu' for 'merge'; did you mean --out?\n"),
        (["run", "x.json", "--sed=4"], "error: unknown option '--sed=4' for 'run'; did you mean --set or --seed?\n"),
        (["bench", "x.json", "--devies", "3"], "error: unknown option '--devies' for 'bench'; did you mean --devices?\n"),
        (["run", "x.json", "--bogus"], "error: unknown option '--bogus' for 'run'\n"),
    ])
    func misspeltOption(arguments: [String], first: String) {
        let result = CapturedConsole.run(arguments)
        #expect(result.code == .usage)
        #expect(result.err.hasPrefix(first))
    }
}
