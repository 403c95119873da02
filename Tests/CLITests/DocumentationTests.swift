@testable import CLI
import Foundation
import Live
import Studies
@testable import Reports
@testable import ScenarioFormat
@testable import Simulator
import Testing

/// The reference pages follow the declarations: a command, option, column or scenario
/// field declared in the code and missing from docs/ fails here, so the docs cannot
/// silently fall behind what `pushsim` does.
@Suite("Documentation covers every declaration")
struct DocumentationTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func page(_ name: String) throws -> String {
        try String(contentsOfFile: repository + "/" + name, encoding: .utf8)
    }

    @Test("docs/cli.md names every command and every option of each")
    func everyOptionIsDocumented() throws {
        let cli = try Self.page("docs/cli.md")
        for command in PushSimCommand.commands {
            #expect(cli.contains("pushsim \(command.name)"), "docs/cli.md does not show `pushsim \(command.name)`")
            for option in command.options {
                #expect(cli.contains(option.name), "docs/cli.md does not name \(command.name)'s \(option.name)")
            }
        }
    }

    @Test("docs/cli.md's synopsis of each command is its help's USAGE, word for word (only the wrapping may differ)")
    func synopsisIsTheHelpsUsage() throws {
        let cli = try Self.page("docs/cli.md")
        // The first code block: one entry per command, `pushsim NAME …` and its continuation lines.
        let block = try #require(cli.components(separatedBy: "```").dropFirst().first)
        var entries: [String: [String]] = [:]
        var current: String?
        for line in block.split(separator: "\n") {
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            // `pushsim --version` goes on with `pushsim version`'s entry, as in its help.
            if words.first == "pushsim", words.count > 1, !words[1].hasPrefix("-") {
                current = words[1]
                entries[words[1], default: []] += words
            } else if let current {
                entries[current, default: []] += words
            }
        }
        for command in PushSimCommand.commands {
            let usage = try #require(command.help.components(separatedBy: "USAGE: ").dropFirst().first?
                .components(separatedBy: "\n\n").first, "\(command.name)'s help has no USAGE")
            let words = usage.split(whereSeparator: \.isWhitespace).map(String.init)
            #expect(entries[command.name] == words, "docs/cli.md's `pushsim \(command.name)` is not its help's USAGE: \(words.joined(separator: " "))")
        }
    }

    @Test("docs/reports.md names every summary.csv column and every funnel stage")
    func everyColumnIsDocumented() throws {
        let reports = try Self.page("docs/reports.md")
        // A rate's `_se`, `_low`, `_high` and a reason's `_share` are documented once as a pattern.
        #expect(reports.contains("`<rate>_se`, `<rate>_low`, `<rate>_high`") && reports.contains("`lost_<reason>_share`"))
        for column in Reports.summaryColumns where !["_se", "_low", "_high", "_share"].contains(where: column.hasSuffix) {
            #expect(reports.contains("`\(column)`"), "docs/reports.md does not name the column \(column)")
        }
        for reason in LossReason.allCases {
            #expect(reports.contains(reason.columnName),
                    "docs/reports.md does not name the loss reason \(reason.columnName)")
        }
    }

    @Test("docs/scenarios.md names every scenario field the decoder reads")
    func everyFieldIsDocumented() throws {
        let scenarios = try Self.page("docs/scenarios.md")
        func walk(_ object: ObjectDeclaration, _ prefix: String) {
            for field in object.fields {
                let path = prefix.isEmpty ? field.key : prefix + "." + field.key
                // A group of fields (`apns`) shows as the prefix of its fields' paths (`apns.storage`).
                #expect(scenarios.contains("`\(field.key)`") || scenarios.contains(".\(field.key)`")
                        || scenarios.contains("`\(path).") || scenarios.contains(".\(field.key)."),
                        "docs/scenarios.md does not name the field \(path)")
                var kind = field.kind
                while case .array(let items, _) = kind { kind = items }
                if case .object(let inner) = kind { walk(inner, path) }
            }
        }
        walk(ScenarioFields.Top.object, "")
    }

    @Test("README links only to pages that exist, and every docs/ page is reachable from it")
    func readmeLinksResolve() throws {
        let readme = try Self.page("README.md")
        let linked = Set(readme.matches(of: /\]\((docs\/[a-z0-9\-]+\.(md|png))(#[^)]*)?\)/).map { String($0.output.1) })
        for target in linked {
            #expect(FileManager.default.fileExists(atPath: Self.repository + "/" + target), "README links to a missing \(target)")
        }
        let pages = try FileManager.default.contentsOfDirectory(atPath: Self.repository + "/docs").filter { $0.hasSuffix(".md") }
        for page in pages {
            #expect(linked.contains("docs/" + page), "README does not link docs/\(page)")
        }
    }

    @Test("docs/serve.md names every control API route, every devices.csv column and every report file")
    func serveIsDocumented() throws {
        let serve = try Self.page("docs/serve.md")
        for route in ControlRoute.allCases {
            #expect(serve.contains("`" + route.pattern + "`"), "docs/serve.md does not show the route \(route.pattern)")
        }
        for column in ServeReport.deviceColumns {
            #expect(serve.contains("`" + column + "`"), "docs/serve.md does not name devices.csv's \(column)")
        }
        for file in ServeReport.fileNames {
            #expect(serve.contains("**`" + file + "`**"), "docs/serve.md has no paragraph on \(file)")
        }
    }

    @Test("docs/provider.md names every route pushsim provider answers, every provider.csv column, every live.json figure and every report file")
    func providerIsDocumented() throws {
        let provider = try Self.page("docs/provider.md")
        for route in ProviderRoute.allCases {
            #expect(provider.contains("| `" + route.pattern + "` |"), "docs/provider.md has no row for the route \(route.pattern)")
        }
        for column in ProviderReport.columns {
            #expect(provider.contains("`" + column + "`"), "docs/provider.md does not name provider.csv's \(column)")
        }
        for figure in LiveFigure.allCases {
            #expect(provider.contains("`" + figure.name + "`"), "docs/provider.md does not name live.json's \(figure.name)")
        }
        for file in ProviderReport.fileNames {
            #expect(provider.contains("**`" + file + "`**"), "docs/provider.md has no paragraph on \(file)")
        }
    }

    @Test("docs/fit.md names every measured column, fitted figure, output file and column of fit's CSVs")
    func fitIsDocumented() throws {
        let fit = try Self.page("docs/fit.md")
        for column in MeasuredColumn.allCases { #expect(fit.contains("| `" + column.name + "` |"), "docs/fit.md has no row for \(column.name)") }
        for statistic in FitStatistic.allCases { #expect(fit.contains("`" + statistic.name + "`"), "docs/fit.md does not name \(statistic.name)") }
        for file in FitReport.fileNames { #expect(fit.contains("**`" + file + "`**"), "docs/fit.md has no paragraph on \(file)") }
        for column in FitReport.parameterColumns + FitReport.dayColumns + FitReport.predictionColumns {
            #expect(fit.contains("`" + column + "`"), "docs/fit.md does not name the column \(column)")
        }
    }
}
