import Base

extension World {
    /// The device goes online or offline on the user's timeline. Going offline is told to the
    /// phone (and so to APNs) only when something next meets the device (`tellOfflineIfUntold`):
    /// APNs learns of a dropped connection when it next has something for the device, the phone
    /// when it next does something. An offline period that nothing meets (no push, launch, tap
    /// or change of the app's before the device is back: most of them) is told to neither: the
    /// phone would have gone offline and back with nothing pending (a launch, a subscription
    /// change or a push while offline would have met it), APNs disconnected and connected with
    /// nothing stored, so both end as they were, and no draw is made either way. The events
    /// are counted as if played one by one (`bench`'s events, `result.json`'s): the count is
    /// the model's, the same traced or not.
    /// - Complexity: O(1), plus the effects routed when told.
    @inline(__always)
    mutating func timelineConnectivityChanges<Observer: WorldObserver>(at now: SimTime, online: Bool, observer: Observer.Type) {
        if defersOffline {
            if !online {
                offlineUntold = now
                return
            }
            if offlineUntold >= 0 {
                offlineUntold = -1
                // Counted as played: the disconnection and the connection APNs was not told.
                eventsAtOnce += 2
                return
            }
        }
        connectivityChanges(at: now, online: online, observer: Observer.self)
    }

    /// Tells the phone (and through it APNs) the disconnection left untold, before anything
    /// meets the device: it happened at `offlineUntold`, and nothing has met the device since.
    /// - Complexity: O(1), plus the effects routed.
    @inline(__always)
    mutating func tellOfflineIfUntold<Observer: WorldObserver>(observer: Observer.Type) {
        if offlineUntold >= 0 { tellOffline(observer: Observer.self) }
    }

    /// `tellOfflineIfUntold` once there is a disconnection to tell.
    @inline(never)
    private mutating func tellOffline<Observer: WorldObserver>(observer: Observer.Type) {
        let at = offlineUntold
        offlineUntold = -1
        connectivityChanges(at: at, online: false, observer: Observer.self)
    }
}
