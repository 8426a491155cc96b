/// Cutting message text for a push preview, counted in Unicode scalars (Go's "runes"), so a cut
/// never splits a character's encoding.
public enum PushText {
    /// The longest preview, ellipsis included (Spec/any-compat.md "Payload JSON": text ≤ 1024
    /// runes).
    public static let maxScalars = 1024
    /// Appended when text is cut.
    public static let ellipsis = "..."

    /// `text` itself when it has at most `maxScalars` scalars; otherwise its first
    /// `maxScalars - 3` scalars followed by `...`, so the result is exactly `maxScalars` long.
    ///
    /// anytype-heart's `text.Truncate(text, 1024, "...")` also keeps the ellipsis inside the limit
    /// (it counts UTF-16 units and prefers a word boundary; we count scalars and cut exactly).
    public static func truncate(_ text: String, maxScalars: Int = maxScalars) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > maxScalars else { return text }
        return cut(text, keeping: max(0, maxScalars - ellipsis.unicodeScalars.count))
    }

    /// The first `count` scalars of `text` followed by `...`.
    public static func cut(_ text: String, keeping count: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: text.unicodeScalars.prefix(count))
        return String(view) + ellipsis
    }

    /// The number of scalars `truncate` keeps before the ellipsis when it cuts.
    static var keptWhenCut: Int { maxScalars - ellipsis.unicodeScalars.count }
}
