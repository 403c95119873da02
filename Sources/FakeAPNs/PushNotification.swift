import Base

/// A device token, as the simulation names it: a small integer instead of the
/// 32-byte hex string, so the hot path compares integers, not strings.
public struct DeviceToken: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// The token's number; equal numbers are the same token.
    public var rawValue: Int32

    /// Wraps a token number.
    /// - Complexity: O(1).
    @inlinable public init(_ rawValue: Int32) { self.rawValue = rawValue }

    public var description: String { "token#\(rawValue)" }
}

/// The `apns-push-type` header. PushSim's mail pushes are `alert`; the other
/// documented values exist so that validation can be tested.
public enum PushType: UInt8, Sendable, BitwiseCopyable, CaseIterable {
    case alert, background, voip, complication, fileprovider, mdm, location, liveactivity, pushtotalk, widgets, controls
    /// A header that was left out. Apple requires it on watchOS 6 and later and only
    /// recommends it on iOS, where APNs accepts the push and treats it as an alert.
    case missing

    /// The header's value for this type (`missing`: none).
    /// - Complexity: O(1).
    public var headerValue: String? {
        switch self {
        case .alert: "alert"
        case .background: "background"
        case .voip: "voip"
        case .complication: "complication"
        case .fileprovider: "fileprovider"
        case .mdm: "mdm"
        case .location: "location"
        case .liveactivity: "liveactivity"
        case .pushtotalk: "pushtotalk"
        case .widgets: "widgets"
        case .controls: "controls"
        case .missing: nil
        }
    }

    /// The types by their header value, for reading requests.
    public static let byHeaderValue: [String: PushType] = Dictionary(
        uniqueKeysWithValues: allCases.compactMap { type in type.headerValue.map { ($0, type) } })

    /// Whether APNs takes `priority` (10, 5 or 1) for this push type. Apple: a background
    /// push must use priority 5 ("Using priority 10 is an error"); APNs answers 400
    /// `BadPriority`, and since a request without `apns-priority` is priority 10, a
    /// background push must send the header.
    /// - Complexity: O(1).
    @inlinable
    public func allows(priority: UInt8) -> Bool { !(self == .background && priority == 10) }

    /// The largest payload APNs accepts for this push type, in bytes.
    /// - Complexity: O(1).
    public var maximumPayloadBytes: Int32 { self == .voip ? 5120 : 4096 }
}

/// The `apns-expiration` header.
public enum Expiration: Equatable, Sendable {
    /// No header: APNs stores the notification for its maximum, 30 days.
    case absent
    /// `apns-expiration: 0`: one delivery attempt, no storage.
    case immediately
    /// Stored at most until this instant (the header's UNIX time, in virtual time).
    case at(SimTime)
}

/// The `apns-collapse-id` header, reduced to what APNs and iOS use: identity and
/// length in UTF-8 bytes (APNs rejects more than 64 with 400 `BadCollapseId`).
public struct CollapseID: Hashable, Sendable {
    /// Identity of the string: two collapse ids are equal when these are equal.
    public var key: UInt64
    /// Length of the string in UTF-8 bytes.
    public var byteCount: Int32

    /// A collapse id with a known identity and length.
    /// - Complexity: O(1).
    @inlinable
    public init(key: UInt64, byteCount: Int32) {
        self.key = key
        self.byteCount = byteCount
    }

    /// The collapse id for a literal string, for tests and one-off requests.
    /// - Complexity: O(n) in the string's UTF-8 length.
    public init(_ string: String) {
        self.init(key: StableHash.fnv1a(string), byteCount: Int32(string.utf8.count))
    }
}

/// The provider's numbering inside a payload (the talk's "xiva info"). It lives in
/// the APNs contract, the one module Provider and Device both import, because it
/// travels between them inside the payload; APNs itself never reads it.
public struct XivaInfo: Equatable, Sendable {
    /// Position of the push in its device + app queue: 1, 2, 3 …
    public var position: Int32
    /// Hash of the device id the provider numbered for; the extension checks it.
    public var deviceIDHash: UInt32

    /// Numbering for one push.
    /// - Complexity: O(1).
    @inlinable
    public init(position: Int32, deviceIDHash: UInt32) {
        self.position = position
        self.deviceIDHash = deviceIDHash
    }
}

/// What the payload says, as far as APNs and the extension care; its JSON is
/// rendered once per scenario to know `byteCount`, never per push.
///
/// Stored compactly (17 bytes: the optional numbering and the flags as plain words and
/// bits) behind the same properties: a push is copied at every hop of the hot path, and
/// optionals of structs cost a tag and a branch each time.
public struct PushPayload: Equatable, Sendable, BitwiseCopyable {
    /// Which mail this push tells about (the message id inside the payload).
    /// The simulator's ledger uses it; APNs never reads it.
    public var messageIndex: Int32
    /// Size of the encoded JSON payload in bytes.
    public var byteCount: Int32
    /// `xiva`'s fields, 0 when it is nil.
    @usableFromInline var xivaPosition: Int32
    @usableFromInline var xivaHash: UInt32
    /// `mutableContent`, `hasAlert`, `fromProvider` and whether `xiva` is set, as bits.
    @usableFromInline var flags: UInt8

    @usableFromInline static let mutableContentBit: UInt8 = 1, hasAlertBit: UInt8 = 2, fromProviderBit: UInt8 = 4,
                                   xivaBit: UInt8 = 8

    /// `aps.mutable-content: 1`: the Notification Service Extension may run.
    @inlinable public var mutableContent: Bool {
        get { flags & Self.mutableContentBit != 0 }
        set { flags = newValue ? flags | Self.mutableContentBit : flags & ~Self.mutableContentBit }
    }
    /// `aps.alert` present: a visible notification.
    @inlinable public var hasAlert: Bool {
        get { flags & Self.hasAlertBit != 0 }
        set { flags = newValue ? flags | Self.hasAlertBit : flags & ~Self.hasAlertBit }
    }
    /// The payload parses as the provider's format (the extension's step 1).
    @inlinable public var fromProvider: Bool {
        get { flags & Self.fromProviderBit != 0 }
        set { flags = newValue ? flags | Self.fromProviderBit : flags & ~Self.fromProviderBit }
    }
    /// Numbering, when the strategy numbers pushes.
    @inlinable public var xiva: XivaInfo? {
        get { flags & Self.xivaBit != 0 ? XivaInfo(position: xivaPosition, deviceIDHash: xivaHash) : nil }
        set {
            if let newValue {
                xivaPosition = newValue.position
                xivaHash = newValue.deviceIDHash
                flags |= Self.xivaBit
            } else {
                xivaPosition = 0
                xivaHash = 0
                flags &= ~Self.xivaBit
            }
        }
    }
    /// `xiva?.position ?? 0`, without making the optional.
    @inlinable public var position: Int32 { xivaPosition }

    /// A payload description.
    /// - Complexity: O(1).
    @inlinable
    public init(messageIndex: Int32, mutableContent: Bool = true, hasAlert: Bool = true,
                fromProvider: Bool = true, xiva: XivaInfo? = nil, byteCount: Int32) {
        self.messageIndex = messageIndex
        self.byteCount = byteCount
        xivaPosition = xiva?.position ?? 0
        xivaHash = xiva?.deviceIDHash ?? 0
        flags = (mutableContent ? Self.mutableContentBit : 0) | (hasAlert ? Self.hasAlertBit : 0)
            | (fromProvider ? Self.fromProviderBit : 0) | (xiva != nil ? Self.xivaBit : 0)
    }

    /// Same fields (a nil `xiva` stores zeros, so the words compare as the optionals do).
    /// - Complexity: O(1).
    @inlinable
    public static func == (lhs: PushPayload, rhs: PushPayload) -> Bool {
        lhs.messageIndex == rhs.messageIndex && lhs.byteCount == rhs.byteCount && lhs.xivaPosition == rhs.xivaPosition
            && lhs.xivaHash == rhs.xivaHash && lhs.flags == rhs.flags
    }
}

/// One notification request to APNs, and the same notification as APNs hands
/// it to the device (headers travel with it; iOS uses the collapse id).
///
/// Stored compactly (56 bytes where the optionals and enums made 80) behind the same
/// properties: it is copied into every effect and every slot that carries it.
///
/// Every bit of its 56 bytes is a field's: the push type and the resend flag are whole
/// bytes and the padding is named. An effect that carries a push (`ProviderEffect`,
/// `APNsEffect`) then keeps its case in a byte of its own instead of in the push's unused
/// bits, so taking the push out of an effect, or putting it in, is a plain copy, not a
/// copy with the case's bits masked off word by word.
public struct PushNotification: Equatable, Sendable, BitwiseCopyable {
    /// The device token it is addressed to.
    public var token: DeviceToken
    /// The payload.
    public var payload: PushPayload
    /// `pushType`'s raw value (only ever written from a `PushType`).
    @usableFromInline var pushTypeCode: UInt8
    /// `apns-priority`: 10 (immediately), 5 (power considerations) or 1 (lowest).
    public var priority: UInt8
    /// `isResend` as 0 or 1.
    @usableFromInline var resendCode: UInt8
    /// `expiration`'s case (`expirationAbsent`, …) and whether `collapseID` is set.
    @usableFromInline var headerFlags: UInt8
    /// The padding before `collapseByteCount`, named (always 0) so it holds no enum's case.
    @usableFromInline var unusedByte: UInt8 = 0
    @usableFromInline var unusedHalf: UInt16 = 0
    /// `collapseID`'s fields, 0 when it is nil.
    @usableFromInline var collapseByteCount: Int32
    @usableFromInline var collapseKey: UInt64
    /// `expiration`'s instant under `.at`, else 0.
    @usableFromInline var expirationInstant: SimTime
    /// When APNs accepted this copy (answered 200); -1 for a request it has not
    /// accepted. APNs stamps it, as it attaches an `apns-id`, and it travels with
    /// the notification to the device and back on a bounce, so the offline slot
    /// can keep the latest accepted whatever path each copy took. It is APNs's
    /// bookkeeping about one copy, not part of what was sent: `==` ignores it.
    public var acceptedAt: SimTime = -1

    /// `apns-push-type`. The byte is a `PushType`'s own: it is written only from one, and a
    /// case's raw value is its declaration index, the enum's representation (an
    /// `init(rawValue:)` here was a call across modules on every read).
    @inlinable public var pushType: PushType {
        get {
            assert(Int(pushTypeCode) < PushType.allCases.count, "a push type's byte written from no push type")
            return unsafeBitCast(pushTypeCode, to: PushType.self)
        }
        set { pushTypeCode = newValue.rawValue }
    }

    /// True for a push the provider re-sent after a re-request. The byte is a `Bool`'s own
    /// (0 or 1, written only from one): read back as it is, without a comparison.
    @inlinable public var isResend: Bool {
        get {
            assert(resendCode <= 1, "a resend flag's byte written from no Bool")
            return unsafeBitCast(resendCode, to: Bool.self)
        }
        set { resendCode = newValue ? 1 : 0 }
    }

    @usableFromInline static let expirationMask: UInt8 = 3, expirationAbsent: UInt8 = 0, expirationImmediately: UInt8 = 1,
                                   expirationAt: UInt8 = 2, collapseBit: UInt8 = 4

    /// `apns-expiration`.
    @inlinable public var expiration: Expiration {
        get {
            switch headerFlags & Self.expirationMask {
            case Self.expirationAbsent: .absent
            case Self.expirationImmediately: .immediately
            default: .at(expirationInstant)
            }
        }
        set {
            headerFlags &= ~Self.expirationMask
            switch newValue {
            case .absent:
                expirationInstant = 0
            case .immediately:
                headerFlags |= Self.expirationImmediately
                expirationInstant = 0
            case .at(let instant):
                headerFlags |= Self.expirationAt
                expirationInstant = instant
            }
        }
    }

    /// The instant of `apns-expiration: <instant>`; nil when it is absent or 0 (`immediately`).
    @inlinable public var expiresAt: SimTime? {
        headerFlags & Self.expirationMask == Self.expirationAt ? expirationInstant : nil
    }

    /// `apns-collapse-id`, when sent.
    @inlinable public var collapseID: CollapseID? {
        get { headerFlags & Self.collapseBit != 0 ? CollapseID(key: collapseKey, byteCount: collapseByteCount) : nil }
        set {
            if let newValue {
                collapseKey = newValue.key
                collapseByteCount = newValue.byteCount
                headerFlags |= Self.collapseBit
            } else {
                collapseKey = 0
                collapseByteCount = 0
                headerFlags &= ~Self.collapseBit
            }
        }
    }

    /// Whether `apns-collapse-id` is sent, without making the optional.
    @inlinable public var hasCollapseID: Bool { headerFlags & Self.collapseBit != 0 }

    /// A request.
    /// - Complexity: O(1).
    @inlinable
    public init(token: DeviceToken, pushType: PushType = .alert, priority: UInt8 = 10,
                expiration: Expiration = .absent, collapseID: CollapseID? = nil,
                payload: PushPayload, isResend: Bool = false) {
        self.token = token
        self.payload = payload
        pushTypeCode = pushType.rawValue
        self.priority = priority
        resendCode = isResend ? 1 : 0
        headerFlags = 0
        collapseByteCount = collapseID?.byteCount ?? 0
        collapseKey = collapseID?.key ?? 0
        expirationInstant = 0
        if collapseID != nil { headerFlags = Self.collapseBit }
        self.expiration = expiration
    }
}

extension PushNotification {
    /// Same headers and payload; `acceptedAt` is not compared.
    /// - Complexity: O(1).
    @inlinable
    public static func == (lhs: PushNotification, rhs: PushNotification) -> Bool {
        lhs.token == rhs.token && lhs.pushTypeCode == rhs.pushTypeCode && lhs.priority == rhs.priority
            && lhs.headerFlags == rhs.headerFlags && lhs.expirationInstant == rhs.expirationInstant
            && lhs.collapseKey == rhs.collapseKey && lhs.collapseByteCount == rhs.collapseByteCount
            && lhs.payload == rhs.payload && lhs.resendCode == rhs.resendCode
    }
}
