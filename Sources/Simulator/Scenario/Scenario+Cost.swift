import FakeAPNs

/// What a run of the scenario will cost: the messages it simulates, in expectation.
extension Scenario {
    /// Expected mails for one device + app with one account over the run: the mail
    /// rate integrated over [0, `duration`), each day with its own weekday factor and,
    /// in a last partial day, the hours it reaches (the last one pro rata).
    /// - Complexity: O(days) in the run's length.
    public var expectedMailsPerLane: Double {
        let fullDays = Int(duration / TimeUnit.day)
        var weekday = start.weekday
        var dayFactors = 0.0
        for _ in 0..<fullDays {
            dayFactors += weekday >= 5 ? mail.weekendFactor : 1
            weekday = (weekday + 1) % 7
        }
        // The diurnal weights have mean 1, so a whole day carries `perDay` up to rounding.
        let wholeDay = mail.diurnal.reduce(0, +)
        var mails = mail.perDay * dayFactors * wholeDay / 24
        let rest = duration % TimeUnit.day
        if rest > 0 {
            let wholeHours = Int(rest / TimeUnit.hour)
            var weight = mail.diurnal[..<wholeHours].reduce(0, +)
            weight += mail.diurnal[wholeHours] * Double(rest % TimeUnit.hour) / Double(TimeUnit.hour)
            mails += mail.perDay * (weekday >= 5 ? mail.weekendFactor : 1) * weight / 24
        }
        return mails
    }

    /// Expected messages a run simulates, summed over strategies: devices × mean apps ×
    /// mean accounts × `expectedMailsPerLane` × strategies. In floating point: 10⁸
    /// devices over a century stays far from any overflow.
    /// - Complexity: O(days) in the run's length.
    public var expectedMessages: Double {
        Double(devices) * chain.device.apps.mean * chain.device.accounts.mean * expectedMailsPerLane
            * Double(strategies.count)
    }
}
