import Base
import Simulator

extension JSONText {
    /// An estimate as `{"value":…,"se":…,"interval":[…]|null}` at `confidence`.
    /// - Complexity: O(1).
    package static func estimate(_ estimate: Estimate, confidence: Double) -> String {
        object(["value": number(estimate.value), "se": number(estimate.standardError),
                "interval": interval(estimate.interval(confidence: confidence))])
    }
}
