import Base
import FoundationEssentials
import Glibc
import Live
import Reports
import ScenarioFormat
import Simulator
import Synchronization
import Transport

/// `pushsim provider SCENARIO [--serve URL] [--listen HOST:PORT] [--strategy LABEL] [--topic BUNDLE-ID]...
/// [--for DURATION] [--out DIR] [--set PATH=VALUE]... [--seed N] [--keep-serve] [--wait SECONDS]`:
/// PushSim's XIVA-like provider as a process, in front of `pushsim serve`.
package enum ProviderCommand {
    package static let help = """
    OVERVIEW: Run the scenario's provider as a process, sending to pushsim serve.

    """ + "\n" + usageHelp.text + "\n\n" + about + "\n" + optionsHelp.text + examples

    static let about = """
    The provider draws the scenario's mail from the seed as run does, numbers pushes per
    device app (queue strategies), sends them over HTTP/2 to serve's APNs, retries 429s
    and 5xx, stops using a token after a 410, keeps payloads for re-requests, and answers
    the phones' registrations and re-requests on --listen (docs/provider-api.md). Start
    serve with --provider http://<listen>, then this. It follows serve's clock: a
    controlled clock it moves itself, event to event; a scaled one it reads. At the end it
    fetches serve's counts, writes \(Reports.listing(ProviderReport.fileNames)) to <dir>, and
    stops serve (unless --keep-serve). docs/provider.md documents it.

    """

    static let examples = """

    EXAMPLES:
      pushsim serve scenarios/two-states.json --clock controlled --set devices=50 --strategy queue \\
          --provider http://127.0.0.1:2199 &
      pushsim provider scenarios/two-states.json --set devices=50 --strategy queue

    """

    package enum Options {
        package static let serve = Option<EndpointURL>(
            "--serve", "<url>", ValueReader(expected: "serve's control API, http://HOST:PORT", read: EndpointURL.init),
            help: "Where serve's control API is (default http://127.0.0.1:2198)")
        package static let listen = Option<ServeCommand.Endpoint>(
            "--listen", "<host:port>",
            ValueReader(expected: "host:port, e.g. 127.0.0.1:2199 (port 0: any free one)", read: ServeCommand.Endpoint.parse),
            help: "Where the phones' calls come, HTTP/1.1 or HTTP/2 (default 127.0.0.1:2199)")
        package static let apns = Option<EndpointURL>(
            "--apns", "<url>", ValueReader(expected: "an APNs endpoint speaking HTTP/2 with prior knowledge, h2c://HOST:PORT") {
                guard let url = EndpointURL($0), url.endpoint.protocol == .http2PriorKnowledge, url.pathPrefix.isEmpty else { return nil }
                return url
            },
            help: "Send the pushes there instead of to the APNs serve names (a proxy in",
            "front of serve, another APNs mock), h2c://HOST:PORT")
        package static let out = Option<String>("--out", "<dir>", .nonEmpty("a folder"),
                                                help: "Report folder (default: reports/<scenario name>-provider/)")
        package static let keepServe = Flag("--keep-serve", help: "Leave serve running at the end (default: POST /stop to it)")
        package static let wait = Option<Duration>(
            "--wait", "<seconds>", ValueReader(expected: "a number of seconds from 1 to 3600") {
                guard let value = Double($0), value.isFinite, value >= 1, value <= 3600 else { return nil }
                return .milliseconds(Int64((value * 1000).rounded()))
            },
            help: "How long to wait for serve's control API to answer, at the start or",
            "again mid-run (default 30)")

        package static let all: [OptionSpec] = [serve.spec, listen.spec, apns.spec, ServeCommand.Options.strategy.spec,
                                                ServeCommand.Options.topic.spec, ServeCommand.Options.duration.spec, out.spec,
                                                keepServe.spec, wait.spec, RunCommand.Options.set.spec,
                                                RunCommand.Options.seed.spec]
    }

    package static let options = Options.all

    /// `provider`'s USAGE line.
    package static let usageHelp = UsageHelp(
        "provider", [.text("<scenario.json>"), .optional(Options.serve.spec), .optional(Options.listen.spec),
                     .optional(Options.apns.spec)],
        [.optional(ServeCommand.Options.strategy.spec), .optional(ServeCommand.Options.topic.spec),
         .optional(ServeCommand.Options.duration.spec)],
        [.optional(Options.out.spec), .optional(Options.keepServe.spec), .optional(Options.wait.spec)],
        [.optional(RunCommand.Options.set.spec), .optional(RunCommand.Options.seed.spec)])

    /// `provider`'s OPTIONS section.
    package static let optionsHelp = OptionsHelp(
        [.option(Options.serve.spec), .option(Options.listen.spec), .option(Options.apns.spec),
         .option(ServeCommand.Options.strategy.spec.explained("Whose provider runs: numbering, collapse ids, priority (default:",
                                                              "the scenario's first strategy); serve's --strategy")),
         .option(ServeCommand.Options.topic.spec.explained("The apps' topics, as serve's --topic (default com.example.app)")),
         .option(ServeCommand.Options.duration.spec.explained("The run's length, as serve's --for (default: the scenario's duration)")),
         .option(Options.out.spec), .option(Options.keepServe.spec), .option(Options.wait.spec),
         .option(RunCommand.Options.set.spec.explained("Change one scenario field, as given to serve (e.g. --set devices=50)")),
         .option(RunCommand.Options.seed.spec.explained("The seed, as given to serve")),
         .showHelp])

    static let signalled = Atomic<Bool>(false)

    package static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        func usage(_ error: UsageError) -> ExitCode { PushSimCommand.usage(error, command: "provider", console: console) }
        let scanner: ArgumentScanner
        do {
            scanner = try ArgumentScanner(arguments, command: "provider", options: Self.options)
        } catch {
            return usage(error)
        }
        let path: String
        do {
            path = try scanner.positionals("the scenario file")[0]
        } catch {
            return usage(error)
        }
        let serve: EndpointURL, listen: ServeCommand.Endpoint, label: String?, topics: [String], length: SimDuration?
        let out: String?, wait: Duration, sets: [String], seed: UInt64?, apns: EndpointURL?
        do {
            apns = try scanner.value(Options.apns)
            serve = try scanner.value(Options.serve) ?? EndpointURL("http://127.0.0.1:2198")!
            listen = try scanner.value(Options.listen) ?? ServeCommand.Endpoint(host: "127.0.0.1", port: 2199)
            label = try scanner.value(ServeCommand.Options.strategy)
            topics = try scanner.values(ServeCommand.Options.topic)
            length = try scanner.value(ServeCommand.Options.duration)
            out = try scanner.value(Options.out)
            wait = try scanner.value(Options.wait) ?? .seconds(30)
            sets = try scanner.values(RunCommand.Options.set)
            seed = try scanner.value(RunCommand.Options.seed)
        } catch {
            return usage(error)
        }
        let scenario: Scenario, strategy: Strategy, digest: String
        switch ServeCommand.load(path, sets: sets, seed: seed, strategy: label, command: "provider", console: console) {
        case .success(let loaded): (scenario, strategy, digest) = (loaded.scenario, loaded.strategy, loaded.digest)
        case .failure(let exit): return exit.code
        }
        let directory = out ?? "reports/\(scenario.name)-provider"
        do {
            try ReportWriter.checkWritable(directory, for: ProviderReport.fileNames)
        } catch {
            console.err("error: \(error)\n")
            return .failure
        }
        let server = Server(configuration: TransportConfiguration())
        let bound: (listener: Int, port: Int)
        do {
            bound = try server.bind(host: listen.host, port: listen.port, protocol: .http1OrHTTP2)
        } catch {
            console.err("error: \(error)\n")
            return .failure
        }
        let provider = LiveProvider(scenario: scenario, strategy: strategy, topics: topics.isEmpty ? ["com.example.app"] : topics,
                                    end: length ?? scenario.duration)
        let service = ProviderService(provider: provider, control: serve, listener: bound.listener,
                                      stopsServe: !scanner.flag(Options.keepServe), waitForServe: wait,
                                      apns: apns?.endpoint)
        service.scenarioDigest = digest
        signalled.store(false, ordering: .relaxed)
        service.signalled = { signalled.load(ordering: .relaxed) }
        for stopping in [SIGINT, SIGTERM] {
            signal(stopping) { _ in ProviderCommand.signalled.store(true, ordering: .relaxed) }
        }
        defer { for stopping in [SIGINT, SIGTERM] { signal(stopping, SIG_DFL) } }
        service.attach(to: server)
        let host = listen.host.contains(":") ? "[\(listen.host)]" : listen.host
        console.out("""
        pushsim provider: \(scenario.name), \(Counted.phrase(provider.lanes.count, "device app")), strategy \(strategy.label), \
        seed \(scenario.seed)
        calls     http://\(host):\(bound.port) (POST /register, /subscriptions, /rerequest)
        serve     \(serve)\(apns.map { "\napns      \($0)" } ?? "")

        """)
        server.run(service: service)
        if let failure = service.failure {
            console.err("error: \(failure)\n")
            return .failure
        }
        let files: [(name: String, contents: String)]
        do {
            files = try ProviderReport.files(service, command: ["pushsim", "provider"] + arguments)
        } catch {
            console.err("error: the accounting identity broke: \(error)\n")
            return .failure
        }
        do {
            try ReportWriter.write(files, to: directory)
        } catch {
            console.err("error: \(error)\n")
            return .failure
        }
        console.err("wrote \(Reports.listing(ProviderReport.fileNames)) to \(UserText.path(directory))\n")
        return .success
    }
}
