import Base
import Simulator

extension ScenarioDecoder {
    /// `mailBursts`: the bursts' mean size and the gap between their mails.
    static func decodeMailBursts(_ reader: FieldReader) throws -> MailBurstModel? {
        typealias Fields = ScenarioFields.MailBursts
        let fields = try reader.object(Fields.object)
        let log = reader.log
        let meanSize = log.attempt { () throws -> Double in
            let field = try fields.required(Fields.meanSize)
            let size = try field.number(atLeast: 1)
            guard Fields.meanSize.numberRange.contains(size) else {
                throw field.invalid("meanSize is at most \(format(ScenarioLimits.burstMeanSize)), found \(format(size))")
            }
            return size
        }
        let gap = log.attempt { try fields.required(Fields.gap).distribution() }
        guard let meanSize, let gap else { return nil }
        return MailBurstModel(meanSize: meanSize, gap: gap)
    }
}
