/// A failure reported on stderr with exit status 2, with a `hint:` line when a fix is known
/// (`ErrorHints`).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    let hint: String?
    init(_ message: String, hint: String? = nil) {
        description = message
        self.hint = hint
    }
}
