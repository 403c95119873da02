import FakeAPNs
import Simulator

/// The messages the live population's agenda carries between APNs and the phones: the
/// simulation's `WorldEvent` without the provider, which in a live run is the team's own
/// process and reaches APNs as requests. A message names its device app when the phone
/// must be found (`lane`); APNs's messages name the token, and a push its slot in the pool.
package enum LiveMessage {
    // Messages that take no time.
    /// The device's connection for this token reaches APNs.
    case connectionReachesAPNs(DeviceToken)
    /// The device's disconnection reaches APNs.
    case disconnectionReachesAPNs(DeviceToken)
    /// A notification that found the device gone goes back to APNs.
    case bounceReachesAPNs(PushSlot)
    /// The app's token changed: APNs forgets the old one and serves the new one.
    case tokenChangeReachesAPNs(old: DeviceToken, new: DeviceToken)

    // Messages in flight.
    /// The device's power allows APNs to hand out the held low-priority pushes.
    case powerWindowOpens(DeviceToken)
    /// A notification reaches the device.
    case pushReachesDevice(PushSlot)
    /// The answer to an extension's re-request reaches it.
    case answerReachesDevice(lane: Int32, invocation: Int32, ok: Bool)
    /// An extension invocation's time is up.
    case extensionDeadline(lane: Int32, invocation: Int32)
    /// A rollout's app update is installed on the device.
    case appUpdateReachesDevice(lane: Int32)
    /// The user taps a notification (and so opens the app).
    case tapped(lane: Int32)
    /// A test steers the device app from the control API (`LivePopulation.steer`).
    case steered(lane: Int32, SteeringAction)
}
