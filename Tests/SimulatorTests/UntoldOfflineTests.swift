import Base
import Device
import FakeAPNs
@testable import Simulator
import TestSupport
import Testing
import TestThreads

/// A device's going offline is told to the phone and APNs only when something next meets the
/// device (World+Connectivity.swift); a traced device's world is told every change as it comes.
struct UntoldOfflineTests {
    /// A world whose phone is online and known to APNs, leaving disconnections untold.
    private func onlineWorld() -> World {
        var world = World(scenario: WorldFixtures.twoStates(perDay: 10, onMean: "2h", offMean: "20m", devices: 1, days: 1,
                                                            strategies: #"{ "name": "no-queue" }"#))
        world.apns.register(world.phone.token)
        world.handlesNowAtOnce = true
        world.connectivityChanges(at: 0, online: true, observer: Unobserved.self)
        world.defersOffline = true
        return world
    }

    @Test("an offline period nothing meets is told to neither the phone nor APNs, and counts the four events it stands for", .ownThread(.computing))
    func periodNothingMeetsStaysUntold() {
        var world = onlineWorld()
        let token = world.phone.token
        #expect(world.phone.isOnline && world.apns.isConnected(token))
        world.eventsAtOnce = 0
        world.timelineConnectivityChanges(at: 10, online: false, observer: Unobserved.self)
        #expect(world.offlineUntold == 10)
        #expect(world.phone.isOnline && world.apns.isConnected(token))
        world.timelineConnectivityChanges(at: 20, online: true, observer: Unobserved.self)
        #expect(world.offlineUntold == -1)
        #expect(world.phone.isOnline && world.apns.isConnected(token))
        // The two timeline changes are the play loop's; the disconnection and connection are these.
        #expect(world.eventsAtOnce == 2)
    }

    @Test("what meets the device is played after the disconnection left untold is told: the phone is offline and APNs stores", .ownThread(.computing))
    func somethingMeetingTheDeviceTellsItFirst() {
        var world = onlineWorld()
        let token = world.phone.token
        world.eventsAtOnce = 0
        world.timelineConnectivityChanges(at: 10, online: false, observer: Unobserved.self)
        world.tellOfflineIfUntold(observer: Unobserved.self)
        #expect(world.offlineUntold == -1)
        #expect(!world.phone.isOnline && !world.apns.isConnected(token))
        #expect(world.eventsAtOnce == 1)
        // Told once: the change back connects as it always did.
        world.tellOfflineIfUntold(observer: Unobserved.self)
        world.timelineConnectivityChanges(at: 20, online: true, observer: Unobserved.self)
        #expect(world.phone.isOnline && world.apns.isConnected(token))
        #expect(world.eventsAtOnce == 2)
    }

    @Test("a run whose every device is traced, each connectivity change told as it comes, reports the same as one that leaves offline periods untold, events included", .ownThread(.computing))
    func tracedEverywhereEqualsUntold() throws {
        for name in ["mail-january-february.json", "two-states.json"] {
            var scenario = WorldFixtures.shipped(name)
            scenario.devices = 24
            let (traced, trace) = try Simulation.run(scenario, threads: 2, tracing: Array(0..<24))
            #expect(trace.devices.count == 24)
            #expect(traced == (try Simulation.run(scenario, threads: 2)), "\(name)")
        }
    }
}
