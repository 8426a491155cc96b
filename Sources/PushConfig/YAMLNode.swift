import CYAML

/// A YAML document as a plain tree: enough for configuration files (maps, scalars, sequences,
/// flow maps like `{driver: sqlite}`). Aliases are resolved by libyaml; tags are ignored.
package indirect enum YAMLNode: Equatable, Sendable {
    /// A scalar's text; `plain` is false for quoted and block scalars, so `""` and `"null"`
    /// stay strings while a plain `null`/`~`/empty value reads as null.
    case scalar(String, plain: Bool)
    case mapping([Pair])
    case sequence([YAMLNode])

    package struct Pair: Equatable, Sendable {
        package var key: String
        package var value: YAMLNode
        /// 1-based line of the key, for messages.
        package var line: Int
    }

    /// Whether this is YAML's null (a plain empty scalar, `~` or `null`).
    package var isNull: Bool {
        if case .scalar(let text, true) = self { return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL" }
        return false
    }

    /// A YAML text that does not parse.
    package struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// Parses the first document of `text`; an empty document is an empty mapping.
    package static func parse(_ text: String) throws(ParseError) -> YAMLNode {
        let document = try YAMLDocument(text)
        return document.root
    }
}

/// Owns a libyaml parser and the loaded document; both are freed in deinit.
private final class YAMLDocument {
    private let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    private let document = UnsafeMutablePointer<yaml_document_t>.allocate(capacity: 1)
    private let input: UnsafeMutableBufferPointer<UInt8>
    private var loaded = false
    /// Nodes converted so far: aliases are expanded, so a budget stops "billion laughs" input.
    private var converted = 0
    private(set) var root: YAMLNode = .mapping([])

    init(_ text: String) throws(YAMLNode.ParseError) {
        let bytes = Array(text.utf8)
        input = .allocate(capacity: max(1, bytes.count))
        _ = input.initialize(from: bytes)
        guard yaml_parser_initialize(parser) == 1 else {
            input.deallocate()
            parser.deallocate()
            document.deallocate()
            throw YAMLNode.ParseError(description: "cannot initialise the YAML parser")
        }
        yaml_parser_set_input_string(parser, input.baseAddress, bytes.count)
        guard yaml_parser_load(parser, document) == 1 else { throw parserError() }
        loaded = true
        if let rootNode = yaml_document_get_root_node(document) {
            root = try convert(rootNode, depth: 0)
        }
    }

    deinit {
        if loaded { yaml_document_delete(document) }
        yaml_parser_delete(parser)
        parser.deallocate()
        document.deallocate()
        input.deallocate()
    }

    private func parserError() -> YAMLNode.ParseError {
        let problem = parser.pointee.problem.map { String(cString: $0) } ?? "invalid YAML"
        let mark = parser.pointee.problem_mark
        return YAMLNode.ParseError(description: "\(problem) at line \(mark.line + 1), column \(mark.column + 1)")
    }

    private func convert(_ node: UnsafeMutablePointer<yaml_node_t>, depth: Int) throws(YAMLNode.ParseError) -> YAMLNode {
        guard depth < 64 else { throw YAMLNode.ParseError(description: "YAML nested too deeply") }
        converted += 1
        guard converted <= 100_000 else { throw YAMLNode.ParseError(description: "YAML document too large") }
        switch node.pointee.type {
        case YAML_SCALAR_NODE:
            let scalar = node.pointee.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            return .scalar(text, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE)
        case YAML_SEQUENCE_NODE:
            var items: [YAMLNode] = []
            var cursor = node.pointee.data.sequence.items.start
            while let item = cursor, item != node.pointee.data.sequence.items.top {
                items.append(try child(item.pointee, depth: depth))
                cursor = item + 1
            }
            return .sequence(items)
        case YAML_MAPPING_NODE:
            var pairs: [YAMLNode.Pair] = []
            var cursor = node.pointee.data.mapping.pairs.start
            while let pair = cursor, pair != node.pointee.data.mapping.pairs.top {
                let keyNode = try child(pair.pointee.key, depth: depth)
                guard case .scalar(let key, _) = keyNode else {
                    throw YAMLNode.ParseError(description: "mapping keys must be scalars")
                }
                let line = yaml_document_get_node(document, pair.pointee.key).map { Int($0.pointee.start_mark.line) + 1 } ?? 0
                pairs.append(YAMLNode.Pair(key: key, value: try child(pair.pointee.value, depth: depth), line: line))
                cursor = pair + 1
            }
            return .mapping(pairs)
        default:
            return .scalar("", plain: true)
        }
    }

    private func child(_ index: Int32, depth: Int) throws(YAMLNode.ParseError) -> YAMLNode {
        guard let node = yaml_document_get_node(document, index) else {
            throw YAMLNode.ParseError(description: "dangling YAML node")
        }
        return try convert(node, depth: depth + 1)
    }
}
