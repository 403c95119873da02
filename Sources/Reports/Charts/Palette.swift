import FoundationEssentials
import Glibc
import Simulator

/// Colours for charts. Okabe & Ito's palette (distinct under the common colour-vision
/// deficiencies), then Paul Tol's muted colours where more are needed.
package enum Palette {
    /// Okabe–Ito blue, orange, bluish green, reddish purple, sky blue, vermillion, yellow, black:
    /// one per strategy, in report order (yellow and black last: yellow is faint on white).
    package static let series = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#B8A200", "#000000"]

    /// The colour of the `index`-th series; wraps around after eight.
    /// - Complexity: O(1).
    package static func series(_ index: Int) -> String { series[index % series.count] }

    /// Delivered: Okabe–Ito bluish green.
    package static let delivered = "#009E73"
    /// Summarized: Okabe–Ito sky blue.
    package static let summarized = "#56B4E9"
    /// Pending: neutral grey.
    package static let pending = "#A0A0A0"
    /// Shaded x-ranges (weekends).
    package static let shade = "#EDEDED"
    /// Axis lines and tick labels.
    package static let axis = "#555555"
    /// Grid lines.
    package static let grid = "#E2E2E2"

    /// The colour of a loss reason, the same in every report.
    /// - Complexity: O(1).
    package static func lost(_ reason: LossReason) -> String {
        switch reason {
        case .apnsCoalesced: "#D55E00"
        case .apnsExpired: "#E69F00"
        case .apnsRejected: "#882255"
        case .unregistered: "#CC79A7"
        case .staleSubscription: "#DDCC77"
        case .providerNetwork: "#332288"
        case .providerOutage: "#0072B2"
        case .rateLimited: "#AA4499"
        case .disabled: "#999933"
        case .alertsNotAllowed: "#CC6677"
        case .displayOff: "#F0E442"
        }
    }

    /// Black or white, whichever reads better on `background` (`#RRGGBB`), by relative luminance.
    /// - Complexity: O(1).
    package static func text(on background: String) -> String {
        let digits = Array(background.utf8.dropFirst())
        guard digits.count == 6 else { return "#000000" }
        func channel(_ offset: Int) -> Double {
            let value = Double(Int(String(decoding: digits[offset..<offset + 2], as: UTF8.self), radix: 16) ?? 0) / 255
            return value <= 0.03928 ? value / 12.92 : Glibc.pow((value + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
        return luminance > 0.23 ? "#000000" : "#FFFFFF"
    }
}
