// swift-tools-version: 6.0
// PushSim: a deterministic simulator of end-to-end iOS push delivery.
// No third-party packages: the toolchain, Foundation and Swift Testing only. The modules of the
// executable import FoundationEssentials and Glibc, never Foundation (docs/architecture.md).
//
// The modules are the layers (docs/architecture.md draws them); a dependency points
// down only, so a loop between layers is a compile error:
//   Base → Kernel → FakeAPNs, Provider, Device (the three actors) → SendLog (a team's send log) → Simulator (the engine)
//   → ScenarioFormat → Reports → Studies → TLSCrypto → X509 → ProviderAuth → HTTP2, HTTP1 (protocols,
//   bytes in and values out) → Transport (sockets) → Live (a population on a live clock, served) → CLI → pushsim
// HTTP2 and HTTP1 (the protocols of `pushsim serve`) and TLSCrypto (the primitives of its TLS 1.3,
// P-256 included, which ProviderAuth signs and verifies with) depend on nothing; X509 (certificates)
// on TLSCrypto alone.
// Each target's `dependencies` are exactly the package's modules its sources import, no more:
// `.ci/run` builds with `--explicit-target-dependency-import-check error`, which refuses an
// import of a module a target does not reach through them, and LayerTests refuses the rest
// (a module imported because a dependency happens to bring it, a dependency never imported).
import PackageDescription

/// Debug builds (what `swift test` runs) check the kernel's and the ledger's invariants
/// after every change. What the world calls across a module boundary on its hot path (the
/// agenda, the distributions) is `@inlinable`.
let checked: [SwiftSetting] = [.define("PUSHSIM_INVARIANTS", .when(configuration: .debug))]
/// Release builds of the modules the world calls on every event (Base, Kernel and the three
/// actors) offer their code to the modules above them, which inline and specialize it as if
/// it were their own (docs/performance.md, 2% fewer instructions on mail). Unsafe flags:
/// PushSim is a root package, so SwiftPM accepts them; a package depending on `Simulator` would not.
let crossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
/// FakeAPNs and Device offer even what touches their private state, so that the world inlines
/// their entry points marked `@inline(__always)` (1.4% and 0.8% more). Not Provider as well: two
/// modules built so both export the same specializations of the standard library's arrays, and
/// the link fails on the duplicates.
let crossModuleAll: [SwiftSetting] = [.unsafeFlags(["-enable-cmo-everything"], .when(configuration: .release))]

let package = Package(
    name: "PushSim",
    products: [
        .executable(name: "pushsim", targets: ["pushsim"]),
        // The engine with what reads scenarios and writes reports, as the one module
        // `Simulator` offered before the layers were split.
        .library(name: "Simulator", targets: ["Simulator", "ScenarioFormat", "Reports"]),
    ],
    targets: [
        // Time, random streams and distributions, counters, the one JSON reader and writer,
        // dates, user text, file bytes: what every layer shares and nothing domain-specific.
        .target(name: "Base", swiftSettings: crossModule),
        // The agenda, generic over what it schedules: it names no domain type.
        .target(name: "Kernel", dependencies: ["Base"], swiftSettings: checked + crossModule),
        // The three actors. The APNs contract and the lossy fake behind it.
        .target(name: "FakeAPNs", dependencies: ["Base"], swiftSettings: crossModuleAll),
        // The XIVA-like numbering provider; talks to APNs through the contract.
        .target(name: "Provider", dependencies: ["Base", "FakeAPNs"], swiftSettings: crossModule),
        // iOS, the Notification Service Extension and Notification Center.
        .target(name: "Device", dependencies: ["Base", "FakeAPNs"], swiftSettings: crossModuleAll),
        // A team's send log (docs/send-log.md): its CSV read row by row, in bounded memory, and
        // the per-user spill the engine replays its mail from. Imports Base only.
        .target(name: "SendLog", dependencies: ["Base"]),
        // The engine: the scenario model, the per-user world that wires the actors
        // through the agenda, the ledger, accounting and the rates.
        .target(name: "Simulator", dependencies: ["Base", "Kernel", "FakeAPNs", "Provider", "Device", "SendLog"],
                swiftSettings: checked),
        // Scenario files: decoding with diagnostics, the JSON Schema, --set overrides.
        .target(name: "ScenarioFormat", dependencies: ["Base", "FakeAPNs", "Provider", "Device", "Simulator"]),
        // What a run writes: CSVs, charts and report.html, result.json, run.json, partial results.
        .target(name: "Reports", dependencies: ["Base", "FakeAPNs", "Simulator", "ScenarioFormat"]),
        // Studies over runs: expectations and check, diff of two folders, sweeps, fits to measured figures, a send log described.
        .target(name: "Studies", dependencies: ["Base", "Simulator", "ScenarioFormat", "Reports"]),
        // The primitives TLS 1.3 needs, small and exact, for a test server on loopback: SHA-256,
        // SHA-384, SHA-512, HMAC, HKDF and the TLS 1.3 key schedule, X25519, P-256 (ECDH and
        // ECDSA), RSA verification, ChaCha20-Poly1305 and AES-128-GCM. Imports nothing.
        .target(name: "TLSCrypto"),
        // X.509 for a test server on loopback: DER read and written, PEM and base64, certificates
        // parsed (RFC 5280), chains verified (ECDSA P-256, RSA PKCS #1 v1.5 and PSS), a local
        // certificate authority issuing server and client certificates. Imports TLSCrypto only.
        .target(name: "X509", dependencies: ["TLSCrypto"]),
        // APNs' check of provider authentication tokens (ES256 JWTs): TLSCrypto's P-256 ECDSA, the
        // .p8 and public key files, the reasons APNs answers. For `pushsim serve`.
        .target(name: "ProviderAuth", dependencies: ["Base", "FakeAPNs", "TLSCrypto", "X509"]),
        // HTTP/2 as a protocol without I/O: frames, HPACK, the server connection's state
        // machine and its limits against hostile peers. Imports nothing, not even Foundation.
        .target(name: "HTTP2", swiftSettings: checked),
        // HTTP/1.1 as a protocol without I/O: requests parsed from bytes, responses written.
        // For the control API beside APNs's HTTP/2. Imports nothing.
        .target(name: "HTTP1"),
        // TLS 1.3's server side (RFC 8446) as a protocol without I/O: records, the handshake's
        // state machine, alerts and limits; credentials are injected (no X.509 here).
        .target(name: "TLS", dependencies: ["TLSCrypto"]),
        // Sockets: listeners and connections on one poll(2) loop, each driving HTTP2's or
        // HTTP1's state machine, handing whole requests to a service and writing its answers.
        .target(name: "Transport", dependencies: ["HTTP2", "HTTP1", "TLS"]),
        // The scenario's population of phones on one live clock (scaled wall time or a clock
        // a test advances), behind APNs's wire contract and a control API: the service
        // `pushsim serve` runs on the transport; and `pushsim provider`'s, the simulation's
        // provider fed the same timelines (hence Provider).
        .target(name: "Live", dependencies: ["Base", "Kernel", "FakeAPNs", "Provider", "Device", "Simulator", "Reports", "TLSCrypto",
                                             "X509", "ProviderAuth", "TLS", "Transport"]),
        // The command line: options declared once, commands, help, exit codes.
        .target(name: "CLI", dependencies: ["Base", "SendLog", "Simulator", "ScenarioFormat", "Reports", "Studies", "ProviderAuth", "Transport",
                                            "Live"]),
        // The thin executable: parses nothing itself, hands argv to CLI.
        .executableTarget(name: "pushsim", dependencies: ["CLI"]),
        // Fixtures the tests share: scenarios written as files are, a hand-built result, and a
        // console that keeps what a command prints, for the tests that run a command end to end.
        .target(name: "TestSupport", dependencies: ["CLI", "Simulator", "ScenarioFormat", "FakeAPNs", "Base"],
                path: "Tests/TestSupport"),
        // The `.ownThread` trait: tests that block (child processes, sockets, minutes of CPU) run
        // off Swift concurrency's cooperative pool, a bounded number at once. Imports nothing of the package.
        .target(name: "TestThreads", path: "Tests/TestThreads"),
        // Child processes for the tests (peers, tools, the built pushsim) by posix_spawn:
        // Foundation's Process.run can crash the test process on Linux (its docs say why).
        .target(name: "ChildProcesses", path: "Tests/ChildProcesses"),
        // Published test vectors more than one test target checks against, typed in once.
        .target(name: "TestVectors", path: "Tests/TestVectors"),
        .testTarget(name: "TestThreadsTests", dependencies: ["TestThreads"]),
        .testTarget(name: "ChildProcessesTests", dependencies: ["ChildProcesses", "TestThreads"]),
        .testTarget(name: "BaseTests", dependencies: ["Base"]),
        .testTarget(name: "KernelTests", dependencies: ["Kernel", "Base"]),
        .testTarget(name: "FakeAPNsTests", dependencies: ["FakeAPNs", "Base"]),
        .testTarget(name: "ProviderTests", dependencies: ["Provider", "FakeAPNs", "Base"]),
        .testTarget(name: "DeviceTests", dependencies: ["Device", "FakeAPNs", "Base"]),
        .testTarget(name: "SendLogTests", dependencies: ["SendLog", "Base"]),
        .testTarget(name: "ProviderAuthTests", dependencies: ["TestThreads", "ChildProcesses", "ProviderAuth", "X509", "Base"]),
        // Engine tests decode their fixtures from scenario text and compare report bytes.
        .testTarget(name: "SimulatorTests", dependencies: ["TestThreads", "ChildProcesses", "CLI", "TestSupport", "Simulator", "ScenarioFormat", "Reports", "Kernel",
                                                           "Provider", "Device", "FakeAPNs", "Base"]),
        .testTarget(name: "ScenarioFormatTests", dependencies: ["TestThreads", "ChildProcesses", "CLI", "Reports", "TestSupport", "ScenarioFormat", "Simulator", "Provider",
                                                                "FakeAPNs", "Base"]),
        .testTarget(name: "ReportsTests", dependencies: ["TestThreads", "CLI", "TestSupport", "Reports", "ScenarioFormat", "Simulator", "FakeAPNs", "Base"]),
        .testTarget(name: "StudiesTests", dependencies: ["TestThreads", "ChildProcesses", "CLI", "TestSupport", "Studies", "Reports", "ScenarioFormat", "Simulator", "Base"]),
        .testTarget(name: "HTTP2Tests", dependencies: ["TestThreads", "ChildProcesses", "HTTP2"], swiftSettings: checked),
        .testTarget(name: "HTTP1Tests", dependencies: ["HTTP1"]),
        // Published vectors byte for byte; Base's SHA-256 as a second opinion; Python's
        // cryptography package as a peer.
        .testTarget(name: "TLSCryptoTests", dependencies: ["TestThreads", "ChildProcesses", "TLSCrypto", "TestVectors", "Base"]),
        // openssl's certificates as fixtures, and openssl as a peer for the ones made here.
        .testTarget(name: "X509Tests", dependencies: ["TestThreads", "ChildProcesses", "X509", "TLSCrypto"]),
        // RFC 8448's handshake byte for byte, a test per alert and limit; openssl and Python's ssl as peers.
        .testTarget(name: "TLSTests", dependencies: ["TestThreads", "ChildProcesses", "TLS", "TLSCrypto", "TestVectors", "ProviderAuth"]),
        .testTarget(name: "TransportTests", dependencies: ["TestThreads", "ChildProcesses", "Transport", "HTTP2", "TLS", "TLSCrypto", "ProviderAuth"]),
        .testTarget(name: "LiveTests", dependencies: ["TestThreads", "TestSupport", "Live", "Transport", "TLS", "X509", "TLSCrypto", "Simulator", "ProviderAuth", "FakeAPNs", "Kernel",
                                                      "Base"]),
        .testTarget(name: "CLITests", dependencies: ["TestThreads", "ChildProcesses", "TestSupport", "CLI", "Live", "Studies", "Reports", "ScenarioFormat", "Simulator",
                                                     "FakeAPNs", "Base"]),
    ]
)
