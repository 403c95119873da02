import Base
import FoundationEssentials
import Glibc
import Live
import ProviderAuth
import Reports
import ScenarioFormat
import Simulator
import Synchronization
import Transport

/// `pushsim serve SCENARIO [--listen HOST:PORT] [--control HOST:PORT] [--clock scaled|controlled]
/// [--speed X] [--for DURATION] [--strategy LABEL] [--topic BUNDLE-ID]... [--provider-key TEAM:KEY:FILE]...
/// [--trust-certificate-subject HEADER] [--tls [--tls-dir DIR | --tls-cert FILE --tls-key FILE] [--client-ca FILE]] [--out DIR] [--set PATH=VALUE]... [--seed N]`: APNs over HTTP/2
/// in front of the scenario's population, until the run ends; then its reports.
package enum ServeCommand {
    package static let help = """
    OVERVIEW: Serve APNs's HTTP/2 API over the scenario's population of phones.

    """ + "\n" + usageHelp.text + "\n\n" + about + "\n" + optionsHelp.text + examples

    static let about = """
    Point your provider at http://<listen>/3/device/<token> (HTTP/2 cleartext with prior
    knowledge), or with --tls at https://<listen>/3/device/<token> (TLS 1.3, trusting the CA
    serve prints; docs/serve.md "TLS" says what to set in each client). The devices and
    their tokens are listed by the control API: GET http://<control>/devices. The run ends
    when simulated time reaches --for (default: the scenario's duration), on SIGINT or
    SIGTERM, or on POST /stop; serve then writes \(Reports.listing(ServeReport.fileNames))
    to <dir>, whole or not at all. docs/serve.md documents the API and the reports.

    """

    static let examples = """

    EXAMPLES:
      pushsim serve scenarios/two-states.json
      pushsim serve scenarios/token-rotation.json --clock controlled --topic com.example.mail
      pushsim serve scenarios/mail-january-february.json --speed 3600 --for 2d --set devices=50
      pushsim serve scenarios/two-states.json --provider-key TEAM123456:KEY1234567:AuthKey_KEY1234567.p8
      pushsim serve scenarios/two-states.json --tls --provider-key TEAM123456:KEY1234567:AuthKey_KEY1234567.p8
      pushsim serve scenarios/two-states.json --tls --client-ca .pushsim/tls/ca.pem

    """

    /// A host and port to listen on.
    package struct Endpoint: Sendable, Equatable {
        package var host: String
        package var port: Int

        /// `host:port`, `[v6]:port` or `:port` (127.0.0.1).
        static func parse(_ text: String) -> Endpoint? {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            var host = String(text[..<colon])
            guard let port = ArgumentScanner.plainInteger(String(text[text.index(after: colon)...])) as Int?,
                  (0...65_535).contains(port) else { return nil }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            if host.isEmpty { host = "127.0.0.1" }
            return Endpoint(host: host, port: port)
        }
    }

    package enum Options {
        package static let listen = Option<Endpoint>(
            "--listen", "<host:port>", ValueReader(expected: "host:port, e.g. 127.0.0.1:2197 (port 0: any free one)", read: Endpoint.parse),
            help: "Where APNs's HTTP/2 API listens (default 127.0.0.1:2197)")
        package static let control = Option<Endpoint>(
            "--control", "<host:port>", ValueReader(expected: "host:port, e.g. 127.0.0.1:2198 (port 0: any free one)", read: Endpoint.parse),
            help: "Where the control and inspection API listens, HTTP/1.1 or HTTP/2", "(default 127.0.0.1:2198)")
        package static let clock = Option<String>(
            "--clock", "<kind>", ValueReader(expected: "scaled or controlled", choices: ["scaled", "controlled"]) {
                ["scaled", "controlled"].contains($0) ? $0 : nil
            },
            help: "scaled (default): simulated time runs at --speed times wall time;",
            "controlled: it moves only when POST /clock says, so a test is deterministic")
        package static let speed = Option<Double>(
            "--speed", "<x>", ValueReader(expected: "a number of simulated seconds per wall second, from 0.001 to 1000000") {
                guard let value = Double($0), value.isFinite, value >= 0.001, value <= 1_000_000 else { return nil }
                return value
            },
            help: "Simulated seconds per wall second under the scaled clock (default 1)")
        package static let duration = Option<SimDuration>(
            "--for", "<duration>", ValueReader(expected: "a duration with a unit: 90s, 15m, 3h, 2d") {
                guard let microseconds = FieldReader.parseDuration($0), microseconds >= 1, microseconds < 1e17 else { return nil }
                return SimDuration(microseconds)
            },
            help: "End after this much simulated time (default: the scenario's duration)")
        package static let strategy = Option<String>(
            "--strategy", "<label>", .nonEmpty("a strategy label"),
            help: "Whose app the phones run: its extension and registration (default: the", "scenario's first strategy)")
        package static let topic = Option<String>(
            "--topic", "<bundle-id>", repeatable: true, .nonEmpty("a bundle id"),
            help: "The apps' topics: the first for each device's first app, the next for", "its second, …; repeatable (default com.example.app)")
        package static let providerKey = Option<(team: String, keyID: String, path: String)>(
            "--provider-key", "<team>:<key-id>:<file>", repeatable: true,
            ValueReader(expected: "TEAMID:KEYID:path to a .p8 or public key PEM file") { text in
                let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else { return nil }
                return (parts[0], parts[1], parts[2])
            },
            help: "Require provider tokens (JWT, ES256) signed with this key; repeatable.",
            "The file is the team's AuthKey_<key-id>.p8 or its public key in PEM")
        package static let trustCertificateSubject = Option<String>(
            "--trust-certificate-subject", "<header>", .nonEmpty("a header name"),
            help: "Require a client certificate, whose subject the TLS terminator in front",
            "passes in this header (trusted: anyone who reaches serve's port can set it)")
        package static let tls = Flag(
            "--tls", help: "Serve APNs's API over TLS 1.3 (ALPN h2) on --listen, as Apple does; without",
            "--tls-cert, with a local CA's certificate (--tls-dir), its CA printed at start")
        package static let tlsDirectory = Option<String>(
            "--tls-dir", "<dir>", .nonEmpty("a folder"),
            help: "Where --tls keeps its local CA and server certificate, made or reused", "(default .pushsim/tls)")
        package static let tlsCertificate = Option<String>(
            "--tls-cert", "<file>", .nonEmpty("a PEM file"),
            help: "With --tls: the team's server certificate chain (PEM, the server's first)")
        package static let tlsKey = Option<String>(
            "--tls-key", "<file>", .nonEmpty("a PEM file"),
            help: "With --tls-cert: its P-256 private key (PKCS#8 or SEC 1 PEM)")
        package static let clientCA = Option<String>(
            "--client-ca", "<file>", .nonEmpty("a PEM file"),
            help: "With --tls: certificate authentication; a client certificate is required,",
            "its chain checked against these CAs (PEM), its subject's UID is the topic")
        package static let start = Option<String>(
            "--start", "now", ValueReader(expected: "now", choices: ["now"]) { $0 == "now" ? $0 : nil },
            help: "Start the simulated clock at the wall clock's time (today, UTC), not at the",
            "scenario's start: a provider's wall-clock apns-expiration means what it says")
        package static let out = Option<String>("--out", "<dir>", .nonEmpty("a folder"),
                                                help: "Report folder (default: reports/<scenario name>-serve/)")
        package static let provider = Option<EndpointURL>(
            "--provider", "<url>", ValueReader(expected: "http://HOST:PORT[/PREFIX] (HTTP/1.1) or h2c://HOST:PORT[/PREFIX] (HTTP/2)",
                                               read: EndpointURL.init),
            help: "The phones call the provider there: registrations and the extension's",
            "re-requests (docs/provider-api.md)")
        package static let providerTimeout = Option<Duration>(
            "--provider-timeout", "<seconds>", ValueReader(expected: "a number of seconds from 0.1 to 3600") {
                guard let value = Double($0), value.isFinite, value >= 0.1, value <= 3600 else { return nil }
                return .milliseconds(Int64((value * 1000).rounded()))
            },
            help: "The wall time a call to the provider may take (default 30)")
        package static let payloadPosition = Option<String>(
            "--payload-position", "<field>", .nonEmpty("a dotted path of object keys"),
            help: "Where the extension reads a push's position (default xiva.pos)")
        package static let payloadDeviceHash = Option<String>(
            "--payload-device-hash", "<field>", .nonEmpty("a dotted path of object keys"),
            help: "Where it reads the device-id hash (default xiva.device_id_hash)")
        package static let payloadMessage = Option<String>(
            "--payload-message", "<field>", .nonEmpty("a dotted path of object keys"),
            help: "Where serve reads the mail's id (default mid)")

        package static let all: [OptionSpec] = [listen.spec, control.spec, clock.spec, speed.spec, duration.spec, strategy.spec,
                                                start.spec, topic.spec, providerKey.spec, trustCertificateSubject.spec, tls.spec,
                                                tlsDirectory.spec, tlsCertificate.spec, tlsKey.spec, clientCA.spec, provider.spec,
                                                providerTimeout.spec, payloadPosition.spec, payloadDeviceHash.spec,
                                                payloadMessage.spec, out.spec,
                                                RunCommand.Options.set.spec, RunCommand.Options.seed.spec,
                                                RunCommand.Options.allowLarge.spec]
    }

    package static let options = Options.all

    /// `serve`'s USAGE line.
    package static let usageHelp = UsageHelp(
        "serve", [.text("<scenario.json>"), .optional(Options.listen.spec), .optional(Options.control.spec)],
        [.optional(Options.clock.spec), .optional(Options.speed.spec), .optional(Options.duration.spec),
         .optional(Options.start.spec)],
        [.optional(Options.strategy.spec), .optional(Options.topic.spec), .optional(Options.providerKey.spec)],
        [.optional(Options.tls.spec), .optional(Options.tlsDirectory.spec), .optional(Options.tlsCertificate.spec),
         .optional(Options.tlsKey.spec)],
        [.optional(Options.clientCA.spec), .optional(Options.trustCertificateSubject.spec)],
        [.optional(Options.provider.spec), .optional(Options.providerTimeout.spec)],
        [.optional(Options.payloadPosition.spec), .optional(Options.payloadDeviceHash.spec),
         .optional(Options.payloadMessage.spec)],
        [.optional(Options.out.spec)],
        [.optional(RunCommand.Options.set.spec), .optional(RunCommand.Options.seed.spec),
         .optional(RunCommand.Options.allowLarge.spec)])

    /// `serve`'s OPTIONS section.
    package static let optionsHelp = OptionsHelp(
        Options.all.dropLast(3).map { .option($0) } + [
            .option(RunCommand.Options.set.spec.explained("Change one scenario field for this run, e.g. --set devices=50;",
                                                          "repeatable; serve.json records the command line")),
            .option(RunCommand.Options.seed.spec),
            .option(RunCommand.Options.allowLarge.spec.explained("Serve a population of more than \(largestPopulation) device apps",
                                                                 "(about 2 KB each)")),
            .showHelp,
        ])

    /// An exit code as an error, for `load`'s result.
    package struct Exit: Error { let code: ExitCode }

    /// What serve and provider both run: the scenario with `--set`s and `--seed` applied, the
    /// strategy `--strategy` names (default: the first), and the scenario's digest
    /// (`ScenarioOverride.digest`), which serve publishes and the provider checks.
    struct Loaded {
        var scenario: Scenario
        var strategy: Strategy
        var digest: String
    }

    /// The scenario at `path` as serve and provider run it. A file that cannot be read is
    /// one line on stderr and 65; an unknown strategy is a usage error (64).
    /// - Complexity: that of reading the scenario.
    static func load(_ path: String, sets: [String], seed: UInt64?, strategy label: String?, command: String,
                     console: Console) -> Result<Loaded, Exit> {
        var scenario: Scenario
        let digest: String
        do {
            let overrides = try sets.map { (text) throws(ScenarioError) in try ScenarioOverride(text) }
            let loaded = try ScenarioDecoder.loadKeepingBytes(path: path, standardInput: console.input, overrides: overrides)
            scenario = loaded.scenario
            digest = ScenarioOverride.digest(loaded.bytes, overrides: overrides)
        } catch {
            console.err("error: \(error)\n")
            return .failure(Exit(code: .dataError))
        }
        if let seed { scenario.seed = seed }
        if let problem = scenario.steeringProblem(seed: scenario.seed) {
            console.err("error: \(path): \(problem)\n")
            return .failure(Exit(code: .dataError))
        }
        // A send log is read once, now: its pushes are the population's mail.
        do {
            scenario = try scenario.preparingSendLog()
        } catch {
            console.err("error: \(error)\n")
            return .failure(Exit(code: .dataError))
        }
        guard let label else { return .success(Loaded(scenario: scenario, strategy: scenario.strategies[0], digest: digest)) }
        guard let found = scenario.strategies.first(where: { $0.label == label }) else {
            return .failure(Exit(code: PushSimCommand.usage(.unknownStrategy(label, known: scenario.strategies.map(\.label)),
                                                            command: command, console: console)))
        }
        return .success(Loaded(scenario: scenario, strategy: found, digest: digest))
    }

    /// The most device apps a population may have without --allow-large: each costs about
    /// 2 KB (its phone, its timeline's draw, its token, what the API keeps of it).
    package static let largestPopulation = 500_000

    /// A duration as the scenario files write it: `28d`, `36h`, `90m`, `45s`.
    static func durationText(_ time: SimDuration) -> String {
        let seconds = time / TimeUnit.second
        if seconds > 0, seconds % 86_400 == 0 { return "\(seconds / 86_400)d" }
        if seconds > 0, seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds > 0, seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(Double(time) / Double(TimeUnit.second))s"
    }

    /// SIGINT or SIGTERM came.
    static let signalled = Atomic<Bool>(false)
    /// Connections the control port keeps open at once (the APNs port keeps the transport's
    /// default, 1 024): a crowd on either port never locks clients out of the other.
    static let controlConnections = 256

    package static func main(_ arguments: ArraySlice<String>, console: Console) -> ExitCode {
        if arguments.contains("--help") || arguments.contains("-h") { console.out(help); return .success }
        let settings: Settings
        do {
            settings = try Settings(arguments)
        } catch {
            return PushSimCommand.usage(error, command: "serve", console: console)
        }

        let scenario: Scenario, strategy: Strategy, origin: SimTime, digest: String
        switch ServeCommand.load(settings.path, sets: settings.sets, seed: settings.seed, strategy: settings.label,
                                 command: "serve", console: console) {
        case .success(let loaded):
            (scenario, origin) = settings.startNow ? startingNow(loaded.scenario, at: wallMicroseconds(), length: settings.length)
                                                   : (loaded.scenario, 0)
            (strategy, digest) = (loaded.strategy, loaded.digest)
        case .failure(let exit): return exit.code
        }
        let apps = scenario.devices * scenario.chain.device.apps.shares.count
        if !settings.allowLarge, apps > largestPopulation {
            console.err("error: \(UserText.path(settings.path)): the population is too large to serve: up to \(apps) device apps, "
                        + "more than \(largestPopulation); lower devices (--set devices=N) or pass --allow-large\n")
            return .dataError
        }
        guard var authentication = readAuthentication(settings, console: console) else { return .dataError }
        var configuration = TransportConfiguration()
        var tlsFolder: LocalTLSFolder.Prepared?
        if let choice = settings.tls {
            switch prepareTLS(choice) {
            case .success(let prepared):
                configuration.tls = prepared.settings
                tlsFolder = prepared.folder
                if choice.clientCA != nil { authentication = .clientCertificate }
            case .failure(let error):
                console.err("error: \(error)\n")
                return error.isMachineFault ? .failure : .dataError
            }
        }
        let directory = settings.out ?? "reports/\(scenario.name)-serve"
        do {
            try ReportWriter.checkWritable(directory, for: ServeReport.fileNames)
        } catch {
            console.err("error: \(error)\n")
            return .failure
        }

        let server = Server(configuration: configuration)
        let apnsBound: (listener: Int, port: Int), controlBound: (listener: Int, port: Int)
        do {
            apnsBound = try server.bind(host: settings.listen.host, port: settings.listen.port,
                                        protocol: settings.tls == nil ? .http2PriorKnowledge : .http2OverTLS)
            controlBound = try server.bind(host: settings.control.host, port: settings.control.port, protocol: .http1OrHTTP2,
                                           maxConnections: Self.controlConnections)
        } catch {
            console.err("error: \(error)\n")
            return .failure
        }
        let mode: ClockMode = settings.clockKind == "controlled" ? .controlled : .scaled(speed: settings.speed ?? 1)
        let service: ServeService
        do {
            service = try makeService(scenario, strategy: strategy, settings: settings, clock: mode, origin: origin,
                                      authentication: authentication, listeners: (apnsBound.listener, controlBound.listener))
        } catch {
            console.err("error: \(error)\n")
            return .dataError
        }
        service.attach(to: server)
        service.apnsURL = (settings.tls == nil ? "h2c://" : "https://") + address(settings.listen.host, apnsBound.port)
        service.apnsCAFile = tlsFolder?.authorityPath
        service.scenarioDigest = digest
        signalled.store(false, ordering: .relaxed)
        service.signalled = { signalled.load(ordering: .relaxed) }
        for stopping in [SIGINT, SIGTERM] {
            signal(stopping) { _ in ServeCommand.signalled.store(true, ordering: .relaxed) }
        }
        defer { for stopping in [SIGINT, SIGTERM] { signal(stopping, SIG_DFL) } }

        console.out(banner(scenario, strategy: strategy, service: service, settings: settings, clock: mode,
                           ports: (apnsBound.port, controlBound.port), tlsFolder: tlsFolder))
        server.run(service: service)
        return writeReports(service, arguments: arguments, directory: directory, console: console)
    }

    /// `serve`'s command line, read and checked against itself: a bad value or a
    /// combination that cannot mean anything is a usage error.
    struct Settings {
        var path: String
        var listen: Endpoint, control: Endpoint, clockKind: String, speed: Double?, length: SimDuration?, label: String?
        var topics: [String], keys: [(team: String, keyID: String, path: String)], subjectHeader: String?, out: String?
        var sets: [String], seed: UInt64?, providerURL: EndpointURL?, providerTimeout: Duration?
        var fields: ProviderFields
        var allowLarge: Bool
        /// `--start now`.
        var startNow: Bool
        /// `--tls` and how: its folder, or the team's files, and `--client-ca`.
        var tls: TLSChoice?

        init(_ arguments: ArraySlice<String>) throws(UsageError) {
            let scanner = try ArgumentScanner(arguments, command: "serve", options: ServeCommand.options)
            path = try scanner.positionals("the scenario file")[0]
            listen = try scanner.value(Options.listen) ?? Endpoint(host: "127.0.0.1", port: 2197)
            control = try scanner.value(Options.control) ?? Endpoint(host: "127.0.0.1", port: 2198)
            clockKind = try scanner.value(Options.clock) ?? "scaled"
            speed = try scanner.value(Options.speed)
            length = try scanner.value(Options.duration)
            startNow = try scanner.value(Options.start) != nil
            label = try scanner.value(Options.strategy)
            topics = try scanner.values(Options.topic)
            keys = try scanner.values(Options.providerKey)
            subjectHeader = try scanner.value(Options.trustCertificateSubject)
            out = try scanner.value(Options.out)
            sets = try scanner.values(RunCommand.Options.set)
            seed = try scanner.value(RunCommand.Options.seed)
            providerURL = try scanner.value(Options.provider)
            providerTimeout = try scanner.value(Options.providerTimeout)
            let fieldPaths = (position: try scanner.value(Options.payloadPosition), hash: try scanner.value(Options.payloadDeviceHash),
                              message: try scanner.value(Options.payloadMessage))
            guard let fields = ProviderFields(position: fieldPaths.position ?? "xiva.pos",
                                              deviceIDHash: fieldPaths.hash ?? "xiva.device_id_hash",
                                              message: fieldPaths.message ?? "mid") else {
                throw .mismatch("a payload field is a dotted path of object keys, none of them empty (xiva.pos)")
            }
            self.fields = fields
            if providerTimeout != nil && providerURL == nil {
                throw .mismatch("--provider-timeout is the time a call to the provider may take; give --provider too")
            }
            if speed != nil && clockKind == "controlled" {
                throw .mismatch("--speed sets the scaled clock; a controlled clock moves only by POST /clock")
            }
            if !keys.isEmpty && subjectHeader != nil {
                throw .mismatch("--provider-key and --trust-certificate-subject are the two ways to authenticate; give one")
            }
            allowLarge = scanner.flag(RunCommand.Options.allowLarge)
            tls = try TLSChoice(scanner)
            if tls?.clientCA != nil && (!keys.isEmpty || subjectHeader != nil) {
                throw .mismatch("--client-ca is certificate authentication; give it alone, without --provider-key or --trust-certificate-subject")
            }
        }
    }

    /// `--tls` with its folder or the team's certificate and key, and `--client-ca`.
    struct TLSChoice {
        /// Where the local CA is kept (nil: the team's files are given).
        var directory: String?
        var certificate: (chain: String, key: String)?
        var clientCA: String?

        /// nil without `--tls`; a usage error for a TLS option without it, or mixed ways.
        init?(_ scanner: ArgumentScanner) throws(UsageError) {
            let directory = try scanner.value(Options.tlsDirectory), chain = try scanner.value(Options.tlsCertificate)
            let key = try scanner.value(Options.tlsKey)
            clientCA = try scanner.value(Options.clientCA)
            guard scanner.flag(Options.tls) else {
                if directory != nil || chain != nil || key != nil || clientCA != nil {
                    throw .mismatch("--tls-dir, --tls-cert, --tls-key and --client-ca say how to serve TLS; give --tls too")
                }
                return nil
            }
            switch (chain, key) {
            case (let chain?, let key?):
                if directory != nil { throw .mismatch("--tls-dir keeps serve's own certificate; with --tls-cert the team's is used: give one") }
                certificate = (chain, key)
            case (nil, nil):
                self.directory = directory ?? ServeCommand.defaultTLSDirectory
            case (.some, nil), (nil, .some):
                throw .mismatch("--tls-cert and --tls-key go together: the certificate chain and its private key")
            }
        }
    }

    /// Where `--tls` keeps its local CA without `--tls-dir`: under the current folder, so a
    /// project's tests find it at a known place and it is reused from run to run.
    package static let defaultTLSDirectory = ".pushsim/tls"

    /// How providers authenticate (`--trust-certificate-subject`, `--provider-key`, or not at
    /// all); nil, after one line on stderr, when a key file cannot be read.
    private static func readAuthentication(_ settings: Settings, console: Console) -> ProviderAuthentication? {
        var authentication = ProviderAuthentication.none
        if let subjectHeader = settings.subjectHeader { authentication = .certificate(subjectHeader: subjectHeader.lowercased()) }
        if !settings.keys.isEmpty {
            var providerKeys: [ProviderKey] = []
            for key in settings.keys {
                do {
                    let bytes = try FileBytes.read(path: key.path)
                    let file = try P256KeyFile(pem: bytes)
                    providerKeys.append(try ProviderKey(teamID: key.team, keyID: key.keyID, publicKey: file.publicKey))
                } catch {
                    console.err("error: \(UserText.path(key.path)): \(error)\n")
                    return nil
                }
            }
            authentication = .token(providerKeys)
        }
        return authentication
    }

    /// The APNs listener's TLS: the team's certificate and key, or the local CA's folder (made
    /// or reused), and with `--client-ca` the CAs a client certificate must chain to.
    private static func prepareTLS(_ choice: TLSChoice) -> Result<(settings: TLSSettings, folder: LocalTLSFolder.Prepared?), ServeTLSError> {
        do throws(ServeTLSError) {
            let wallSeconds: @Sendable () -> Int64 = { Int64(time(nil)) }
            let authorities = try choice.clientCA.map { (path) throws(ServeTLSError) in try ServeTLS.clientAuthorities(path) } ?? []
            if let files = choice.certificate {
                let identity = try ServerIdentity.load(certificatePath: files.chain, keyPath: files.key)
                return .success((ServeTLS.settings(identity, clientAuthorities: authorities, wallSeconds: wallSeconds), nil))
            }
            let folder = try LocalTLSFolder.prepare(choice.directory ?? defaultTLSDirectory, now: wallSeconds())
            return .success((ServeTLS.settings(folder.identity, clientAuthorities: authorities, wallSeconds: wallSeconds), folder))
        } catch {
            return .failure(error)
        }
    }

    /// The population served on the listeners bound, its clock (from `origin`), its provider
    /// (`--provider`), against the wall clock.
    private static func makeService(_ scenario: Scenario, strategy: Strategy, settings: Settings, clock mode: ClockMode, origin: SimTime,
                                    authentication: ProviderAuthentication, listeners: (apns: Int, control: Int)) throws -> ServeService {
        try ServeService(scenario: scenario, strategy: strategy, topics: settings.topics.isEmpty ? ["com.example.app"] : settings.topics,
                         end: settings.length.map { origin + $0 } ?? scenario.duration, clock: mode, origin: origin,
                         authentication: authentication, apnsListener: listeners.apns, controlListener: listeners.control,
                         provider: settings.providerURL.map { ProviderTarget(url: $0, timeout: settings.providerTimeout ?? .seconds(30),
                                                                             fields: settings.fields) },
                         fieldsWithoutProvider: settings.fields, wallClock: wallMicroseconds)
    }

    /// The machine's time, in microseconds since the epoch.
    static func wallMicroseconds() -> SimTime {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return SimTime(now.tv_sec) * TimeUnit.second + SimTime(now.tv_nsec / 1000)
    }

    /// `--start now`: the scenario moved to start on `wall`'s day (UTC), and the instant of
    /// `wall` in it, where the clock starts; the run lasts `length` (or the scenario's
    /// duration) from there.
    /// - Complexity: O(1).
    package static func startingNow(_ scenario: Scenario, at wall: SimTime, length: SimDuration?) -> (Scenario, origin: SimTime) {
        var moved = scenario
        let days = wall >= 0 ? wall / TimeUnit.day : -((-wall + TimeUnit.day - 1) / TimeUnit.day)
        let origin = wall - days * TimeUnit.day
        moved.start = CivilDate(daysSinceEpoch: Int(days))
        moved.duration = origin + (length ?? scenario.duration)
        return (moved, origin)
    }

    /// `host:port`, with an IPv6 host in brackets.
    private static func address(_ host: String, _ port: Int) -> String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// What serve prints as it starts: the population, where its two APIs listen, the clock
    /// and how the run ends.
    private static func banner(_ scenario: Scenario, strategy: Strategy, service: ServeService, settings: Settings,
                               clock mode: ClockMode, ports: (apns: Int, control: Int), tlsFolder: LocalTLSFolder.Prepared?) -> String {
        let clockText = switch mode {
        case .controlled: "controlled (POST /clock moves it)"
        case .scaled(let speed):
            "scaled, \(speed == speed.rounded() ? String(Int64(speed)) : String(speed)) simulated \(speed == 1 ? "second" : "seconds") per second"
        }
        let population = service.population
        return """
        pushsim serve: \(scenario.name), \(Counted.phrase(population.lanes.count, "device app")) on \
        \(Counted.phrase(scenario.devices, "device")), strategy \(strategy.label), seed \(scenario.seed)
        \(apnsLines(settings, port: ports.apns, tlsFolder: tlsFolder))
        control   http://\(address(settings.control.host, ports.control))
        clock     \(clockText), from \(LiveClock.iso8601(population.now, start: scenario.start))\(settings.startNow ? " (the wall clock's now)" : "")
        ends      after \(durationText(population.end - service.clock.origin)) of simulated time, on SIGINT or SIGTERM, or on POST /stop
        \(settings.providerURL.map { "provider  \($0) (the phones register and re-request there)\n" } ?? "")
        """
    }

    /// The banner's APNs line, and with `--tls` what a client trusts and how it authenticates.
    private static func apnsLines(_ settings: Settings, port: Int, tlsFolder: LocalTLSFolder.Prepared?) -> String {
        let url = address(settings.listen.host, port)
        guard let tls = settings.tls else { return "APNs      http://\(url) (HTTP/2 with prior knowledge)" }
        var lines = "APNs      https://\(url) (HTTP/2 over TLS 1.3)"
        if let folder = tlsFolder {
            let state = folder.madeAuthority ? "made now" : folder.madeServerCertificate ? "kept; server certificate made now" : "kept"
            lines += "\nTLS CA    \(folder.authorityPath) (\(state)): point your client at it"
        } else if let files = tls.certificate {
            lines += "\nTLS       \(files.chain) (your certificate)"
        }
        if let clientCA = tls.clientCA { lines += "\nclients   certificates checked against \(clientCA); the subject's UID is the topic" }
        return lines
    }

    /// The run's reports, written to `directory` when the served run has ended.
    private static func writeReports(_ service: ServeService, arguments: ArraySlice<String>, directory: String,
                                     console: Console) -> ExitCode {
        let ending = service.ending ?? .signal
        let files: [(name: String, contents: String)]
        do {
            files = try ServeReport.files(service, ending: ending, command: ["pushsim", "serve"] + arguments)
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
        console.err("wrote \(Reports.listing(ServeReport.fileNames)) to \(UserText.path(directory))\n")
        return .success
    }
}
