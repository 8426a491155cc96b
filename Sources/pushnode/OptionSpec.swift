/// One option a command declares: `--name VALUE` (or `--name=VALUE`), or a `--name` switch.
///
/// Every command lists all of its options, so the parser can refuse anything else: a typo such as
/// `serve --conifg FILE` must fail rather than quietly fall back to the embedded default config.
struct OptionSpec: Sendable {
    let name: String
    /// The value's placeholder in help (`FILE`, `HEX`); nil for a switch, which takes no value.
    let placeholder: String?
    /// May be given more than once (`--mention A --mention B`); otherwise a second use is an error.
    let repeatable: Bool
    /// Checked by the parser: a missing one fails before the command runs.
    let required: Bool
    let help: String

    var takesValue: Bool { placeholder != nil }

    /// `--name VALUE`.
    static func value(_ name: String, _ placeholder: String, _ help: String,
                      required: Bool = false, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, placeholder: placeholder, repeatable: repeatable, required: required, help: help)
    }

    /// `--name` with no value.
    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, placeholder: nil, repeatable: false, required: false, help: help)
    }
}
