import Foundation
@testable import PushProtocol

/// The two readers of a request body against each other: the first byte picks a request type; the
/// rest is decoded by `TapeDecoder` alone, by `JSON.decode` (the node's path) and by
/// `JSON.foundationDecode` (Foundation alone). Whatever the tape reads must be what Foundation
/// reads, and the node's answer, value or error, must be Foundation's.
enum WireDecoderTarget {
    /// Value (re-encoded, so strings compare byte for byte) or error.
    enum Outcome: Equatable {
        case value([UInt8])
        case error(String)

        init<T: Encodable>(_ decode: () throws -> T) {
            do {
                self = .value(try JSON.foundationEncode(try decode()))
            } catch let error as APIError {
                self = .error("\(error.code.rawValue) \(error.field ?? "-") \(error.message)")
            } catch {
                self = .error("not an APIError: \(error)")
            }
        }
    }

    static func compare<T: Codable>(_ type: T.Type, _ body: [UInt8]) {
        let reference = Outcome { try JSON.foundationDecode(T.self, from: body) }
        let node = Outcome { try JSON.decode(T.self, from: body) }
        FuzzCheck.expect(node == reference, "\(T.self): the node answered \(node), Foundation \(reference)")
        if let value = TapeDecoder.decode(T.self, from: body) {
            let tape = Outcome { value }
            FuzzCheck.expect(tape == reference, "\(T.self): the tape read \(tape), Foundation \(reference)")
        }
    }

    static let types: [@Sendable ([UInt8]) -> Void] = [
        { compare(NotifyRequest.self, $0) }, { compare(NotifySilentRequest.self, $0) }, { compare(SetTokenRequest.self, $0) },
        { compare(RevokeTokenRequest.self, $0) }, { compare(SpaceRequest.self, $0) }, { compare(SubscribeRequest.self, $0) },
        { compare(UnsubscribeRequest.self, $0) },
    ]

    static func run(_ bytes: [UInt8]) {
        let (selector, body) = bytes.selectorAndRest
        types[Int(selector) % types.count](body)
    }
}
