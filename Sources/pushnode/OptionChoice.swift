/// Options that stand for one another, declared beside a command's options (`CommandTable`): a
/// command with a choice takes exactly one of its alternatives, whole — `--space FILE`, or
/// `--space-metadata-key HEX --read-key HEX` — and refuses an option that belongs only to an
/// alternative it did not take (`--topic` goes with a payload of your own, not with `--chat`).
/// `CommandLineParser` enforces it and `HelpText` lists it, so no command checks it by hand.
struct OptionChoice: Sendable {
    struct Alternative: Sendable {
        /// The options that make this alternative, all given together.
        let names: [String]
        /// Options that only make sense with this alternative (optional).
        let with: [String]
    }

    let alternatives: [Alternative]

    /// One alternative per element: `[["space"], ["space-metadata-key", "read-key"]]`.
    init(_ alternatives: [[String]], with: [[String]] = []) {
        self.alternatives = alternatives.enumerated().map { index, names in
            Alternative(names: names, with: index < with.count ? with[index] : [])
        }
    }

    /// The alternatives with their placeholders, as help and errors show them:
    /// `--space FILE | --space-metadata-key HEX --read-key HEX`.
    func rendered(in spec: CommandSpec) -> String {
        alternatives.map { alternative in
            alternative.names.map { name in
                "--\(name)" + (spec.option(name)?.placeholder.map { " " + $0 } ?? "")
            }.joined(separator: " ")
        }.joined(separator: " | ")
    }

    /// Refuses `given` unless it holds exactly one whole alternative and nothing that belongs
    /// only to another.
    func check(_ given: Set<String>, for spec: CommandSpec) throws {
        let taken = alternatives.filter { !given.isDisjoint(with: $0.names) }
        guard let chosen = taken.first else {
            throw CLIError("give one of: \(rendered(in: spec)) (\(spec.fullName) --help lists the options)")
        }
        guard taken.count == 1 else {
            let names = taken.map { "--" + ($0.names.first { given.contains($0) } ?? "") }
            throw CLIError("\(names.joined(separator: " and ")) exclude each other: give one of \(rendered(in: spec))")
        }
        if let missing = chosen.names.first(where: { !given.contains($0) }) {
            let present = chosen.names.first { given.contains($0) } ?? ""
            throw CLIError("--\(present) needs --\(missing)")
        }
        for other in alternatives {
            for name in other.with where given.contains(name) && !chosen.with.contains(name) {
                let owners = alternatives.filter { $0.with.contains(name) }.map { "--" + $0.names[0] }
                throw CLIError("--\(name) goes with \(owners.joined(separator: " or ")), not with --\(chosen.names[0])")
            }
        }
    }
}
