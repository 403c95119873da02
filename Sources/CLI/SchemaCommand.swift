import Live
import ScenarioFormat
import SendLog
import Simulator
import Studies

/// `pushsim schema`: prints the JSON Schema of scenario files, the same bytes as the
/// shipped `schema/pushsim-scenario.schema.json`.
package enum SchemaCommand {
    package static let help = """
    OVERVIEW: Print the JSON Schema (draft 2020-12) of scenario files, for editors.

    USAGE: pushsim schema [measured | send-log | control-api]

    Prints the schema shipped as schema/pushsim-scenario.schema.json: every field the
    scenario decoder reads, with its type, bounds, default and meaning, and unknown
    fields refused. An editor that knows it completes and explains fields as you type
    (docs/scenarios.md, "Scenario files", shows VS Code's json.schemas setting). pushsim itself
    does not need it: 'pushsim validate' is the judge (it also checks what a schema
    cannot, such as labels named by 'expect').

    'pushsim schema measured' prints instead the Table Schema (Frictionless Data) of
    'pushsim fit's measured file (docs/fit.md, "The measured file"), shipped as
    schema/pushsim-measured.tableschema.json.

    'pushsim schema send-log' prints the Table Schema of a send log, the CSV a scenario's
    sendLog replays (docs/send-log.md), shipped as schema/pushsim-send-log.tableschema.json.

    'pushsim schema control-api' prints the OpenAPI 3.1 document of serve's control API
    (docs/serve.md), the same bytes serve answers at GET /openapi.json, shipped as
    schema/pushsim-control-api.openapi.json.

    EXAMPLES:
      pushsim schema > pushsim-scenario.schema.json
      pushsim schema measured > pushsim-measured.tableschema.json
      pushsim schema send-log > pushsim-send-log.tableschema.json
      pushsim schema control-api > pushsim-control-api.openapi.json

    """

    package static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        if arguments.first == "measured" && arguments.count == 1 {
            console.out(MeasuredSchema.text)
            return .success
        }
        if arguments.first == "send-log" && arguments.count == 1 {
            console.out(SendLogSchema.text)
            return .success
        }
        if arguments.first == "control-api" && arguments.count == 1 {
            console.out(ControlAPIDocument.text)
            return .success
        }
        if let extra = arguments.first {
            return PushSimCommand.usage(.unexpectedArgument(extra), command: "schema", console: console)
        }
        console.out(ScenarioSchema.text)
        return .success
    }
}
