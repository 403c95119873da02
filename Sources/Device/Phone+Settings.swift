extension Phone {
    /// The user changed the app's notification settings: alerts allowed or not, the
    /// notification display on or off (nil: unchanged). Pushes received from now on meet
    /// them; what Notification Center shows stays.
    /// - Complexity: O(1).
    public mutating func changeSettings(alertsAllowed: Bool? = nil, displayEnabled: Bool? = nil) {
        if let alertsAllowed { configuration.eligibility.alertsAllowed = alertsAllowed }
        if let displayEnabled { configuration.eligibility.displayEnabled = displayEnabled }
    }
}
