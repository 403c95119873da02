@testable import Device
@testable import FakeAPNs
import Testing

private let deviceID: UInt64 = 0xD0_0D
private let hash: UInt32 = 0x1234_5678

/// A provider payload numbered `position` for this device.
private func numbered(_ position: Int32, hash: UInt32 = hash) -> PushPayload {
    PushPayload(messageIndex: position, xiva: XivaInfo(position: position, deviceIDHash: hash), byteCount: 300)
}

/// Storage holding `position` saved for this device.
private func saved(_ position: Int32?, device: UInt64? = deviceID) -> ExtensionStorage {
    ExtensionStorage(lastNotificationPosition: position, lastPositionDeviceID: device)
}

private let queue = ServiceExtension(positionSaving: .everyNewerPosition, repeatMaxCount: 5)
private let asPublished = ServiceExtension(positionSaving: .onlyWhenGapFound, repeatMaxCount: 5)

@Suite("Device: ServiceExtension, the talk's steps in order")
struct ServiceExtensionTests {

    private func run(_ logic: ServiceExtension, _ payload: PushPayload, _ storage: inout ExtensionStorage,
                     device: UInt64 = deviceID) -> ExtensionDecision {
        logic.process(payload, deviceID: device, deviceIDHash: hash, storage: &storage)
    }

    @Test("step 1: a payload that is not the provider's is shown as is and storage is untouched, even for another device id",
          arguments: [queue, asPublished])
    func notFromProvider(logic: ServiceExtension) {
        var payload = numbered(9)
        payload.fromProvider = false
        var storage = saved(3, device: 77)
        #expect(run(logic, payload, &storage) == .showAsIs(.notFromProvider))
        #expect(storage == saved(3, device: 77))
        var fresh = ExtensionStorage()
        #expect(run(logic, payload, &fresh) == .showAsIs(.notFromProvider))
        #expect(fresh == ExtensionStorage())
    }

    @Test("step 3: a changed device id forgets the saved position, so the push counts as the first position",
          arguments: [queue, asPublished])
    func deviceIDChanged(logic: ServiceExtension) {
        var storage = saved(3, device: 77)
        #expect(run(logic, numbered(9), &storage) == .showAsIs(.firstPosition))
        #expect(storage == saved(9))
    }

    @Test("step 3: a changed device id forgets the position even when the push then stops at step 4")
    func deviceIDChangedThenNoXiva() {
        var storage = saved(3, device: 77)
        #expect(run(queue, PushPayload(messageIndex: 1, byteCount: 10), &storage) == .showAsIs(.noXivaInfo))
        #expect(storage == saved(nil))
    }

    @Test("step 4: a push without xiva info is shown as is and the saved position stays",
          arguments: [queue, asPublished])
    func noXivaInfo(logic: ServiceExtension) {
        var storage = saved(3)
        #expect(run(logic, PushPayload(messageIndex: 1, byteCount: 10), &storage) == .showAsIs(.noXivaInfo))
        #expect(storage == saved(3))
    }

    @Test("step 4: a push numbered for another device id hash is shown as is and the saved position stays",
          arguments: [queue, asPublished])
    func hashMismatch(logic: ServiceExtension) {
        var storage = saved(3)
        #expect(run(logic, numbered(9, hash: hash ^ 1), &storage) == .showAsIs(.deviceIDHashMismatch))
        #expect(storage == saved(3))
        var fresh = ExtensionStorage()
        #expect(run(logic, numbered(9, hash: 0), &fresh) == .showAsIs(.deviceIDHashMismatch))
        #expect(fresh == saved(nil))
    }

    @Test("step 5: with no saved position the push's position is saved and it is shown as is",
          arguments: [queue, asPublished])
    func firstPosition(logic: ServiceExtension) {
        var storage = ExtensionStorage()
        #expect(run(logic, numbered(7), &storage) == .showAsIs(.firstPosition))
        #expect(storage == saved(7))
    }

    @Test("step 6: a duplicate or an older re-sent push misses nothing and does not move the saved position",
          arguments: [queue, asPublished])
    func nothingMissedOlder(logic: ServiceExtension) {
        for position: Int32 in [10, 9, 4, 1] {
            var storage = saved(10)
            #expect(run(logic, numbered(position), &storage) == .showAsIs(.nothingMissed), "\(position)")
            #expect(storage == saved(10), "\(position)")
        }
    }

    @Test("queue: an in-order push misses nothing and saves its position")
    func inOrderSavesWithQueue() {
        var storage = saved(10)
        #expect(run(queue, numbered(11), &storage) == .showAsIs(.nothingMissed))
        #expect(storage == saved(11))
        #expect(run(queue, numbered(12), &storage) == .showAsIs(.nothingMissed))
        #expect(storage == saved(12))
    }

    @Test("queue-as-published: an in-order push does not save its position, so the next in-order push looks like a gap of 1")
    func inOrderStaleWhenAsPublished() {
        var storage = saved(10)
        #expect(run(asPublished, numbered(11), &storage) == .showAsIs(.nothingMissed))
        #expect(storage == saved(10))
        #expect(run(asPublished, numbered(12), &storage) == .rerequest(position: 12, gap: 1))
        #expect(storage == saved(12))
    }

    @Test("step 7: more than repeatMaxCount missed is a summary of the missed count, and the position is saved",
          arguments: [queue, asPublished])
    func bigGapSummary(logic: ServiceExtension) {
        var storage = saved(10)
        #expect(run(logic, numbered(17), &storage) == .summary(missed: 6))   // 11…16 missed, repeatMaxCount 5
        #expect(storage == saved(17))
        #expect(run(logic, numbered(1_017), &storage) == .summary(missed: 999))
        #expect(storage == saved(1_017))
    }

    @Test("step 8: exactly repeatMaxCount missed is still re-requested", arguments: [queue, asPublished])
    func gapAtLimitRerequests(logic: ServiceExtension) {
        var storage = saved(10)
        #expect(run(logic, numbered(16), &storage) == .rerequest(position: 16, gap: 5))
        #expect(storage == saved(16))
    }

    @Test("step 8: a gap of 1 … repeatMaxCount is re-requested as (position, missed) and the position is saved",
          arguments: [queue, asPublished], Array(Int32(1)...5))
    func smallGapRerequests(logic: ServiceExtension, missed: Int32) {
        var storage = saved(20)
        let position = 20 + missed + 1
        #expect(run(logic, numbered(position), &storage) == .rerequest(position: position, gap: missed))
        #expect(storage == saved(position))
    }

    @Test("repeatMaxCount 0 summarises every gap, even a single missed push",
          arguments: [PositionSaving.everyNewerPosition, .onlyWhenGapFound])
    func zeroRepeatSummarisesAll(saving: PositionSaving) {
        let logic = ServiceExtension(positionSaving: saving, repeatMaxCount: 0)
        var storage = saved(1)
        #expect(run(logic, numbered(3), &storage) == .summary(missed: 1))
        #expect(storage == saved(3))
        #expect(run(logic, numbered(10), &storage) == .summary(missed: 6))
        #expect(storage == saved(10))
    }

    @Test("a fresh install's first push records the device id along with the position")
    func freshInstallRecordsDevice() {
        var storage = ExtensionStorage()
        #expect(storage == saved(nil, device: nil))
        #expect(run(queue, numbered(1), &storage) == .showAsIs(.firstPosition))
        #expect(storage == saved(1))
        // The same device next time: no forgetting.
        #expect(run(queue, numbered(2), &storage) == .showAsIs(.nothingMissed))
        #expect(storage == saved(2))
    }

    @Test("an app from before the queue reads no numbering: a numbered push with a gap is shown as is, storage untouched")
    func oldAppIgnoresNumbering() {
        let old = ServiceExtension(positionSaving: .everyNewerPosition, repeatMaxCount: 3, readsNumbering: false)
        var storage = saved(1)
        #expect(run(old, numbered(4), &storage) == .showAsIs(.appIgnoresNumbering))
        #expect(storage == saved(1))
        // Not the provider's: step 1 still comes first.
        #expect(run(old, PushPayload(messageIndex: 1, fromProvider: false, byteCount: 10), &storage)
                == .showAsIs(.notFromProvider))
    }
}
