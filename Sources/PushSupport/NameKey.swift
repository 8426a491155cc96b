/// A coding key that is a name only, for a keyed container whose member names are data (a JSON
/// object's members, the outcomes of a status minute) rather than a `CodingKeys` enum.
package struct NameKey: CodingKey, Sendable {
    package let stringValue: String
    package var intValue: Int? { nil }
    package init(_ name: String) { stringValue = name }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}
