import Foundation

/// The `--help` text of one command or group, from its declaration (the root prints `usage`).
enum HelpText {
    static func render(_ spec: CommandSpec) -> String {
        guard !spec.path.isEmpty else { return usage }
        var lines: [String] = []
        if spec.run == nil {
            lines.append("usage: \(spec.fullName) <subcommand> [options]")
            lines += ["", spec.summary, "", "subcommands:"]
            lines += table(spec.subcommands.map { ($0.name, $0.summary) })
            lines += ["", "'\(spec.fullName) <subcommand> --help' lists a subcommand's options"]
        } else {
            lines.append("usage: \(spec.fullName)\(spec.operands.map { " " + $0 } ?? "")\(spec.options.isEmpty ? "" : " [options]")")
            lines += ["", spec.summary, "", "options:"]
            var rows = spec.options.map { option -> (String, String) in
                var help = option.help
                if option.required { help += " (required)" }
                if option.repeatable { help += " (repeatable)" }
                return ("--\(option.name)\(option.placeholder.map { " " + $0 } ?? "")", help)
            }
            rows.append(("-h, --help", "this help"))
            lines += table(rows)
            if !spec.choices.isEmpty {
                lines += ["", "exactly one of:"]
                lines += spec.choices.map { "  " + $0.rendered(in: spec) }
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func table(_ rows: [(String, String)]) -> [String] {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "   " + $0.1 }
    }
}
