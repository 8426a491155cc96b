/// A command's parsed options, as `CommandLineParser` hands them to the command's `run`.
struct Arguments: Sendable {
    /// The command's words, e.g. `["client", "token", "set"]`.
    var positional: [String] = []
    var options: [String: String] = [:]
    /// Every value of each option, in order (`--mention A --mention B`); `options` keeps the last.
    var repeated: [String: [String]] = [:]
    var switches: Set<String> = []

    /// Every value given for `--name`, in order.
    func values(_ name: String) -> [String] { repeated[name] ?? [] }

    func required(_ name: String) throws -> String {
        guard let value = options[name], !value.isEmpty else { throw CLIError("missing --\(name)") }
        return value
    }
}
