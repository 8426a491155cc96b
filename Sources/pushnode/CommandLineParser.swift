/// What a command line asks for.
enum Invocation {
    case run(CommandSpec, Arguments)
    /// `--help`, `-h` or `help …`: that command's help; the root prints the global usage.
    case help(CommandSpec)
}

/// The one option parser every command shares: the leading words pick the command in the
/// `CommandTable` tree, and the rest must be options that command declares.
///
/// Strict on purpose: an unknown command, subcommand or option, a stray word, a repeated
/// single-value option, a missing required one or a choice not made exactly once (`OptionChoice`)
/// fails (exit 2, with a "did you mean" when a declared name is close) before the command runs.
/// `--name VALUE` takes the next word whatever it is (so `--data -` and `--text --help` work);
/// `--name=VALUE` is the same.
enum CommandLineParser {
    static func parse(_ argv: [String], root: CommandSpec) throws -> Invocation {
        guard let first = argv.first else { return .help(root) }
        switch first {
        case "--version":
            return try parse(["version"] + argv.dropFirst(), root: root)
        case "help":
            // `help --help` is help's own help, as `help help` is.
            if argv.count > 1, isHelp(argv[1]), let help = root.subcommand("help") { return .help(help) }
            return .help(try resolve(Array(argv.dropFirst()), root: root, forHelp: true).spec)
        default:
            break
        }
        let (spec, rest) = try resolve(argv, root: root, forHelp: false)
        if spec.run == nil { return .help(spec) }  // only reached for `<group> --help`
        guard let arguments = try options(rest, for: spec) else { return .help(spec) }
        return .run(spec, arguments)
    }

    static func isHelp(_ word: String) -> Bool { word == "--help" || word == "-h" }

    /// Follows the leading words down the tree to a command; the words after it are its options.
    private static func resolve(_ argv: [String], root: CommandSpec, forHelp: Bool) throws -> (spec: CommandSpec, rest: ArraySlice<String>) {
        var spec = root
        var index = argv.startIndex
        while spec.run == nil {
            guard index < argv.endIndex else {
                if forHelp || spec.path.isEmpty { return (spec, []) }
                throw CLIError("missing subcommand: \(spec.fullName) <subcommand> (one of \(names(spec)))")
            }
            let word = argv[index]
            if isHelp(word) { return (spec, []) }
            if word.hasPrefix("-") {
                guard !spec.path.isEmpty else { throw unknownOption(word, for: spec) }
                throw CLIError("missing subcommand: \(spec.fullName) <subcommand> (one of \(names(spec))) before \(word)")
            }
            guard let next = spec.subcommand(word) else {
                let known = spec.subcommands.map(\.name)
                let hint = EditDistance.suggestion(for: word, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                if spec.path.isEmpty {
                    throw CLIError("unknown command '\(word)'\(hint); run 'pushnode help' for the list")
                }
                throw CLIError("unknown subcommand '\((spec.path + [word]).joined(separator: " "))'\(hint) (expected \(names(spec)))")
            }
            spec = next
            index += 1
        }
        if forHelp, index < argv.endIndex {
            throw CLIError("'\(spec.fullName)' has no subcommand '\(argv[index])'")
        }
        return (spec, argv[index...])
    }

    /// The options of `spec`, or nil when they ask for its help.
    private static func options(_ words: ArraySlice<String>, for spec: CommandSpec) throws -> Arguments? {
        var arguments = Arguments(positional: spec.path)
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            index += 1
            if isHelp(word) { return nil }
            guard word.hasPrefix("--"), word.count > 2 else {
                if word.hasPrefix("-"), word != "-" { throw unknownOption(word, for: spec) }
                throw CLIError("unexpected argument '\(word)' for '\(spec.fullName)'; see '\(spec.fullName) --help'")
            }
            var name = String(word.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = spec.option(name) else { throw unknownOption("--" + name, for: spec) }
            guard option.takesValue else {
                guard inline == nil else { throw CLIError("option --\(name) takes no value") }
                arguments.switches.insert(name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < words.endIndex else { throw CLIError("option --\(name) needs a value (\(option.placeholder ?? "VALUE"))") }
                value = words[index]
                index += 1
            }
            if !option.repeatable, arguments.options[name] != nil {
                throw CLIError("option --\(name) given twice (it takes one value)")
            }
            arguments.options[name] = value
            arguments.repeated[name, default: []].append(value)
        }
        for option in spec.options where option.required && arguments.options[option.name] == nil {
            throw CLIError("missing --\(option.name) (\(spec.fullName) --help lists the options)")
        }
        let given = Set(arguments.options.keys).union(arguments.switches)
        for choice in spec.choices { try choice.check(given, for: spec) }
        return arguments
    }

    private static func unknownOption(_ word: String, for spec: CommandSpec) -> CLIError {
        let bare = word.drop { $0 == "-" }.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
        let candidates = spec.options.map(\.name) + ["help"] + (spec.path.isEmpty ? ["version"] : [])
        let hint = EditDistance.suggestion(for: bare, among: candidates).map { " (did you mean --\($0)?)" } ?? ""
        return CLIError("unknown option \(word) for '\(spec.fullName)'\(hint); see '\(spec.fullName) --help'")
    }

    private static func names(_ group: CommandSpec) -> String {
        group.subcommands.map(\.name).joined(separator: ", ")
    }
}
