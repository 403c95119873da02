// swift-tools-version: 6.0
// PushSim: a deterministic simulator of end-to-end iOS push delivery.
// No third-party packages: the toolchain, Foundation and Swift Testing only.
import PackageDescription

let package = Package(
    name: "PushSim",
    products: [
        .executable(name: "pushsim", targets: ["pushsim"]),
        .library(name: "Simulator", targets: ["Simulator"]),
    ],
    targets: [
        // The APNs contract and the lossy fake behind it: the bottom layer.
        .target(name: "FakeAPNs"),
        // The XIVA-like numbering provider; talks to APNs through the contract.
        .target(name: "Provider", dependencies: ["FakeAPNs"]),
        // iOS, the Notification Service Extension and Notification Center.
        .target(name: "Device", dependencies: ["FakeAPNs"]),
        // Kernel, scenario, wiring, metrics, reports and the CLI's commands.
        // Debug builds (what `swift test` runs) check the kernel's invariants after every change.
        .target(name: "Simulator", dependencies: ["FakeAPNs", "Provider", "Device"],
                swiftSettings: [.define("PUSHSIM_INVARIANTS", .when(configuration: .debug))]),
        // The thin executable: parses nothing itself, hands argv to Simulator.
        .executableTarget(name: "pushsim", dependencies: ["Simulator"]),
        .testTarget(name: "FakeAPNsTests", dependencies: ["FakeAPNs"]),
        .testTarget(name: "ProviderTests", dependencies: ["Provider", "FakeAPNs"]),
        .testTarget(name: "DeviceTests", dependencies: ["Device", "FakeAPNs"]),
        .testTarget(name: "SimulatorTests", dependencies: ["Simulator", "Provider", "Device", "FakeAPNs"]),
    ]
)
