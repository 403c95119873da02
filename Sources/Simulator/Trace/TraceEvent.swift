import Base

/// One event of a traced device's story: when, which app, which message, what
/// (`TraceKind`), and its details, one value per `kind.fields` entry. Plain numbers:
/// names and text are made only when the files are written.
package struct TraceEvent: Sendable, Equatable {
    /// A detail without a value (`null` in the files).
    package static let null = Int64.min

    package var time: SimTime
    /// The app (lane) of the device, 0-based.
    package var app: Int32
    /// The message's index within its app's lane; -1: about no message.
    package var message: Int32
    package var kind: TraceKind
    /// One per `kind.fields`, in order; `TraceEvent.null` for none.
    package var values: [Int64]

    /// An event; `values` must match `kind.fields` one to one (checked).
    /// - Complexity: O(fields).
    package init(time: SimTime, app: Int32, message: Int32, kind: TraceKind, values: [Int64] = []) {
        precondition(values.count == kind.fields.count, "\(kind.name) takes \(kind.fields.count) details, got \(values.count)")
        self.time = time
        self.app = app
        self.message = message
        self.kind = kind
        self.values = values
    }

    /// The value of `field`, if the kind carries it and it is not null.
    /// - Complexity: O(fields).
    package func value(_ field: TraceField) -> Int64? {
        guard let index = kind.fields.firstIndex(of: field), values[index] != Self.null else { return nil }
        return values[index]
    }

    /// Whether `field` is true (false when absent).
    /// - Complexity: O(fields).
    package func flag(_ field: TraceField) -> Bool { (value(field) ?? 0) != 0 }

    /// A named `field`'s value as the case it names (`APNsDiscardReason.replaced`), if the
    /// kind carries it, it is not null, and `type` is the field's (`TraceField.type`).
    /// - Complexity: O(fields + cases).
    package func value<Value: CaseIterable>(_ field: TraceField, as type: Value.Type) -> Value? {
        guard let index = value(field), index >= 0, index < Int64(Value.allCases.count) else { return nil }
        return Value.allCases[Value.allCases.index(Value.allCases.startIndex, offsetBy: Int(index))]
    }

    /// The name of a named `field`'s value (`"replaced"`), if the kind carries it and it is not null.
    /// - Complexity: O(fields + names).
    package func name(_ field: TraceField) -> String? {
        guard let value = value(field), case .name(let names) = field.type, names.indices.contains(Int(value)) else { return nil }
        return names[Int(value)]
    }
}

/// A traced device's story under one strategy: every event of every app lane, lanes in
/// order, each lane in the order the world handled them (time first).
package struct DeviceStory: Sendable, Equatable {
    /// The device, 0-based among the scenario's devices.
    package var device: Int
    /// The strategy, an index into the run's strategies.
    package var strategy: Int
    package var events: ContiguousArray<TraceEvent>

    package init(device: Int, strategy: Int, events: ContiguousArray<TraceEvent>) {
        self.device = device
        self.strategy = strategy
        self.events = events
    }
}

/// What `--trace` recorded: one story per traced device and strategy, by device, then
/// strategy in the run's order. The same for any number of threads: each story is one
/// world's, played alone.
public struct SimulationTrace: Sendable, Equatable {
    /// The traced devices, ascending.
    public internal(set) var devices: [Int]
    package var stories: [DeviceStory]

    package init(devices: [Int], stories: [DeviceStory]) {
        self.devices = devices
        self.stories = stories.sorted { ($0.device, $0.strategy) < ($1.device, $1.strategy) }
    }

    /// No device traced.
    public static let none = SimulationTrace(devices: [], stories: [])

    /// Events over every story.
    /// - Complexity: O(stories).
    public var eventCount: Int { stories.reduce(0) { $0 + $1.events.count } }
}
