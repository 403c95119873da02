import Base
import FakeAPNs
import Provider

/// Where a push waits while it travels: an index into the world's push pool. Events
/// carry this 4-byte handle instead of the whole request, so queue entries stay small.
package typealias PushSlot = Int32

/// The messages the agenda carries between the actors of one app's world.
/// Plain values, not closures: the agenda stores them inline. What the user and
/// the network do on their own (mail, connectivity, launches, outages, …) is
/// not here: it is the user's timeline (`TimelineEvent`), which the agenda
/// merges with these.
package enum WorldEvent {
    // Messages that take no time (the agenda's first source at an instant).
    /// The device's connection for this token reaches APNs.
    case connectionReachesAPNs(DeviceToken)
    /// The device's disconnection reaches APNs.
    case disconnectionReachesAPNs(DeviceToken)
    /// A notification that found the device gone goes back to APNs.
    case bounceReachesAPNs(PushSlot)
    /// The app's token changed: APNs forgets the old one and serves the new one.
    case tokenChangeReachesAPNs(old: DeviceToken, new: DeviceToken)
    /// The app's registration (token and device-id hash) reaches the provider.
    case registrationReachesProvider(DeviceToken, deviceIDHash: UInt32)
    /// Folder subscriptions up to `generation` reach the provider.
    case subscriptionSyncReachesProvider(generation: Int32)

    // Messages in flight (the agenda's last source at an instant).
    /// A request reaches APNs.
    case pushReachesAPNs(PushSlot)
    /// APNs answered a request with an error; the answer reaches the provider.
    case apnsErrorReachesProvider(PushSlot, APNsReason, timestamp: SimTime)
    /// A request got no answer: the provider's timeout fires.
    case sendFailureReachesProvider(PushSlot)
    /// A request met one of APNs's faults (`apns.faults`): its error answer, its dropped
    /// connection or its timeout reaches the provider.
    case faultReachesProvider(PushSlot, APNsFaultKind)
    /// The provider's back-off for a retry is over.
    case retryDue(PushSlot)
    /// The device's power allows APNs to hand out the held low-priority pushes.
    case powerWindowOpens(DeviceToken)
    /// A notification reaches the device.
    case pushReachesDevice(PushSlot)
    /// A re-request reaches the provider; its answer takes `returnDelay` back.
    case rerequestReachesProvider(position: Int32, gap: Int32, invocation: Int32, returnDelay: SimDuration)
    /// The provider's answer reaches the extension.
    case answerReachesDevice(invocation: Int32, ok: Bool)
    /// An extension invocation's time is up.
    case extensionDeadline(invocation: Int32)
    /// A rollout's app update is installed on the device.
    case appUpdateReachesDevice
    /// The user taps the notification of this mail (and so opens the app).
    case tapped(messageIndex: Int32)
}
