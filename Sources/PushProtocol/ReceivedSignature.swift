/// One signature taken from a request's `Signature-Input` and `Signature` fields by label.
///
/// Profile-neutral: it only parses (RFC 8941) and rebuilds the signature base from the covered
/// component names it lists; `HTTPSignatureVerifier` applies pushnode's profile on top.
///
/// - SeeAlso: RFC 9421 §4.1 (`Signature-Input`), §4.2 (`Signature`), §3.2 (verifying).
public struct ReceivedSignature: Sendable {
    public let label: String
    /// The covered component identifiers (the items) and the signature parameters.
    public let signatureParams: StructuredField.InnerList
    /// The covered component names in order, e.g. `["@method", "@path"]`.
    public let componentNames: [String]
    /// The raw signature bytes.
    public let signature: [UInt8]

    public init(signatureInput: String, signature: String, label: String) throws(HTTPSignatureError) {
        let inputs: StructuredField.Dictionary
        let signatures: StructuredField.Dictionary
        do {
            inputs = try StructuredField.parseDictionary(signatureInput)
        } catch {
            throw .malformed("Signature-Input does not parse: \(error)")
        }
        do {
            signatures = try StructuredField.parseDictionary(signature)
        } catch {
            throw .malformed("Signature does not parse: \(error)")
        }
        guard let input = inputs.first(where: { $0.key == label })?.member else {
            throw .malformed("Signature-Input has no '\(label)' signature")
        }
        guard let value = signatures.first(where: { $0.key == label })?.member else {
            throw .malformed("Signature has no '\(label)' signature")
        }
        guard case .innerList(let params) = input else {
            throw .malformed("Signature-Input '\(label)' is not an inner list")
        }
        guard case .item(let item) = value, case .bytes(let bytes) = item.value else {
            throw .malformed("Signature '\(label)' is not a byte sequence")
        }
        var names: [String] = []
        for component in params.items {
            guard case .string(let name) = component.value, component.parameters.isEmpty else {
                throw .malformed("covered components must be plain strings")
            }
            guard !names.contains(name) else { throw .malformed("component \(name) is covered twice") }
            names.append(name)
        }
        self.label = label
        self.signatureParams = params
        self.componentNames = names
        self.signature = bytes
    }

    /// A signature parameter, e.g. `created` or `keyid`.
    public func parameter(_ key: String) -> StructuredField.BareItem? { signatureParams.parameter(key) }

    /// The signature base over the covered components, each value supplied by `resolve`
    /// (nil = the component is absent from the message, which fails verification).
    public func base(resolving resolve: (String) -> String?) throws(HTTPSignatureError) -> HTTPSignatureBase {
        var components: [HTTPSignatureBase.Component] = []
        for name in componentNames {
            guard let value = resolve(name) else { throw .invalidSignature("covered component \(name) is absent") }
            components.append(HTTPSignatureBase.Component(name: name, value: value))
        }
        return try HTTPSignatureBase(components: components, signatureParams: signatureParams)
    }
}
