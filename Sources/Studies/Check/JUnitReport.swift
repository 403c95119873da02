import Reports

/// The JUnit XML `pushsim check --junit FILE` writes: one `<testsuite>` (the scenario),
/// one `<testcase>` per expectation, a `<failure>` in each that does not hold. Follows
/// the Apache Ant schema Jenkins, GitHub and GitLab read (Tests/Fixtures/junit.xsd).
package enum JUnitReport {
    /// The document for `verdicts` of the scenario `record` describes; `timestamp`
    /// (`YYYY-MM-DDTHH:MM:SS`, UTC), `hostname` and `seconds` (the check's wall time)
    /// are passed in so that the text is a pure function of its inputs.
    /// - Complexity: O(expectations).
    package static func render(verdicts: [Verdict], record: RunRecord, table: String, timestamp: String, hostname: String,
                       seconds: Double) -> String {
        let failures = verdicts.filter { !$0.holds }.count
        let suite = "pushsim check " + record.scenarioName
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<testsuite name=\(attribute(suite)) timestamp=\(attribute(timestamp)) hostname=\(attribute(hostname)) "
        text += "tests=\"\(verdicts.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"\(decimal(seconds))\">\n"
        text += "  <properties>\n"
        for (name, value) in [("pushsim", record.version), ("scenario", record.scenarioName),
                              ("scenario.sha256", record.scenarioSHA256), ("seed", String(record.seed)),
                              ("commandLine", record.commandLine.joined(separator: " "))] {
            text += "    <property name=\(attribute(name)) value=\(attribute(value))/>\n"
        }
        text += "  </properties>\n"
        for verdict in verdicts {
            text += "  <testcase name=\(attribute(verdict.expectation.title)) "
            text += "classname=\(attribute("pushsim." + record.scenarioName)) time=\"0\""
            if let message = verdict.failureMessage {
                text += ">\n    <failure message=\(attribute(message)) type=\"expectation\">\(escaped(message))</failure>\n"
                text += "  </testcase>\n"
            } else {
                text += "/>\n"
            }
        }
        text += "  <system-out>\(escaped(table))</system-out>\n"
        text += "  <system-err></system-err>\n"
        text += "</testsuite>\n"
        return text
    }

    /// `text` as a double-quoted attribute value.
    /// - Complexity: O(n) in the text's length.
    package static func attribute(_ text: String) -> String { "\"" + escaped(text, attribute: true) + "\"" }

    /// `text` with XML's special characters as entities; characters XML 1.0 cannot hold
    /// (C0 controls other than tab and line ends) as U+FFFD. In an attribute, line
    /// ends and tabs become character references, so a parser keeps them.
    /// - Complexity: O(n) in the text's length.
    package static func escaped(_ text: String, attribute: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "\n" where attribute: out += "&#10;"
            case "\r": out += "&#13;"
            case "\t" where attribute: out += "&#9;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Seconds as an `xs:decimal` with 3 places.
    /// - Complexity: O(1).
    package static func decimal(_ seconds: Double) -> String {
        let milliseconds = Int64((max(seconds, 0) * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
