/// A SETTINGS parameter identifier (RFC 9113 §6.5.2). A struct: unknown identifiers are
/// legal and ignored, so any 16-bit value must be representable.
public struct SettingID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16

    /// - Complexity: O(1).
    @inlinable
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let headerTableSize = SettingID(rawValue: 0x1)
    public static let enablePush = SettingID(rawValue: 0x2)
    public static let maxConcurrentStreams = SettingID(rawValue: 0x3)
    public static let initialWindowSize = SettingID(rawValue: 0x4)
    public static let maxFrameSize = SettingID(rawValue: 0x5)
    public static let maxHeaderListSize = SettingID(rawValue: 0x6)
    /// RFC 8441 (extended CONNECT): a server's offer; we never make it.
    public static let enableConnectProtocol = SettingID(rawValue: 0x8)
    /// RFC 9218: the peer will not send RFC 7540 priority signals.
    public static let noRFC7540Priorities = SettingID(rawValue: 0x9)

    public var description: String {
        switch rawValue {
        case 1: "SETTINGS_HEADER_TABLE_SIZE"
        case 2: "SETTINGS_ENABLE_PUSH"
        case 3: "SETTINGS_MAX_CONCURRENT_STREAMS"
        case 4: "SETTINGS_INITIAL_WINDOW_SIZE"
        case 5: "SETTINGS_MAX_FRAME_SIZE"
        case 6: "SETTINGS_MAX_HEADER_LIST_SIZE"
        case 8: "SETTINGS_ENABLE_CONNECT_PROTOCOL"
        case 9: "SETTINGS_NO_RFC7540_PRIORITIES"
        default: "setting 0x" + String(rawValue, radix: 16)
        }
    }
}

/// One parameter of a SETTINGS frame.
public struct Setting: Hashable, Sendable {
    public var id: SettingID
    public var value: UInt32

    /// - Complexity: O(1).
    @inlinable
    public init(_ id: SettingID, _ value: UInt32) {
        self.id = id
        self.value = value
    }
}

/// The values one endpoint has announced, each at its initial value until changed
/// (RFC 9113 §6.5.2). `nil` is "no limit", the initial value of the two unbounded ones.
public struct Settings: Hashable, Sendable {
    /// The largest window a flow-control window may reach, 2³¹−1 (RFC 9113 §6.9.1).
    public static let maxWindowSize = 0x7fff_ffff
    /// Bounds of SETTINGS_MAX_FRAME_SIZE (RFC 9113 §6.5.2).
    public static let minMaxFrameSize = 16_384
    public static let maxMaxFrameSize = 0xff_ffff
    /// The initial flow-control window of streams and of the connection (RFC 9113 §6.9.2).
    public static let defaultWindowSize = 65_535

    public var headerTableSize = 4_096
    public var enablePush = true
    public var maxConcurrentStreams: Int? = nil
    public var initialWindowSize = Settings.defaultWindowSize
    public var maxFrameSize = Settings.minMaxFrameSize
    public var maxHeaderListSize: Int? = nil
    public var noRFC7540Priorities = false

    /// The initial values.
    /// - Complexity: O(1).
    public init() {}

    /// Applies one received parameter, refusing the values RFC 9113 §6.5.2 forbids
    /// (connection errors). Unknown identifiers are ignored, as the RFC requires.
    /// - Complexity: O(1).
    public mutating func apply(_ setting: Setting) throws(ProtocolError) {
        let value = Int(setting.value)
        switch setting.id {
        case .headerTableSize:
            headerTableSize = value
        case .enablePush:
            guard value <= 1 else { throw .connection(.protocolError, "SETTINGS_ENABLE_PUSH of \(value), not 0 or 1") }
            enablePush = value == 1
        case .maxConcurrentStreams:
            maxConcurrentStreams = value
        case .initialWindowSize:
            guard value <= Settings.maxWindowSize else {
                throw .connection(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE of \(value), above 2^31-1")
            }
            initialWindowSize = value
        case .maxFrameSize:
            guard (Settings.minMaxFrameSize...Settings.maxMaxFrameSize).contains(value) else {
                throw .connection(.protocolError, "SETTINGS_MAX_FRAME_SIZE of \(value), outside 16384...16777215")
            }
            maxFrameSize = value
        case .maxHeaderListSize:
            maxHeaderListSize = value
        case .noRFC7540Priorities:
            guard value <= 1 else {
                throw .connection(.protocolError, "SETTINGS_NO_RFC7540_PRIORITIES of \(value), not 0 or 1")
            }
            noRFC7540Priorities = value == 1
        default:
            break // RFC 9113 §6.5.2: an unknown or unsupported setting MUST be ignored.
        }
    }

    /// The parameters that announce these values: only those that differ from the
    /// initial values, in identifier order.
    /// - Complexity: O(1).
    public var parameters: [Setting] {
        let initial = Settings()
        var list: [Setting] = []
        if headerTableSize != initial.headerTableSize { list.append(Setting(.headerTableSize, UInt32(clamping: headerTableSize))) }
        if enablePush != initial.enablePush { list.append(Setting(.enablePush, enablePush ? 1 : 0)) }
        if let streams = maxConcurrentStreams { list.append(Setting(.maxConcurrentStreams, UInt32(clamping: streams))) }
        if initialWindowSize != initial.initialWindowSize {
            list.append(Setting(.initialWindowSize, UInt32(clamping: initialWindowSize)))
        }
        if maxFrameSize != initial.maxFrameSize { list.append(Setting(.maxFrameSize, UInt32(clamping: maxFrameSize))) }
        if let size = maxHeaderListSize { list.append(Setting(.maxHeaderListSize, UInt32(clamping: size))) }
        if noRFC7540Priorities { list.append(Setting(.noRFC7540Priorities, 1)) }
        return list
    }
}
