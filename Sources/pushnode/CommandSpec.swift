/// A command or a group of subcommands, as the CLI declares it (see `CommandTable`).
///
/// A leaf has `run` and its `options`; a group (`keys`, `client`, `client token`) has
/// `subcommands` and only dispatches. `path` is the full word sequence, e.g. `["client", "token",
/// "set"]`, used in help and error messages.
struct CommandSpec: Sendable {
    let path: [String]
    let summary: String
    let options: [OptionSpec]
    /// Options of which exactly one alternative must be given (`OptionChoice`).
    let choices: [OptionChoice]
    let subcommands: [CommandSpec]
    let run: (@Sendable (Arguments) throws -> Void)?
    /// Words after the command that are not options, as help shows them (`help [<command> …]`).
    let operands: String?

    /// A command that runs.
    init(_ path: [String], _ summary: String, operands: String? = nil, options: [OptionSpec] = [],
         choices: [OptionChoice] = [], run: @escaping @Sendable (Arguments) throws -> Void) {
        self.path = path
        self.summary = summary
        self.operands = operands
        self.options = options
        self.choices = choices
        self.subcommands = []
        self.run = run
    }

    /// A group: its words select one of `subcommands`.
    init(group path: [String], _ summary: String, _ subcommands: [CommandSpec]) {
        self.path = path
        self.summary = summary
        self.options = []
        self.choices = []
        self.subcommands = subcommands
        self.run = nil
        self.operands = nil
    }

    var name: String { path.last ?? "" }
    var fullName: String { (["pushnode"] + path).joined(separator: " ") }

    func subcommand(_ word: String) -> CommandSpec? { subcommands.first { $0.name == word } }

    func option(_ name: String) -> OptionSpec? { options.first { $0.name == name } }
}
