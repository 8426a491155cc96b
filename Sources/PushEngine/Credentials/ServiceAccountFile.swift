import Foundation
import PushProtocol

/// A provider's service-account JSON file (Google's for FCM, Huawei's for HarmonyOS Push Kit):
/// read from disk and parsed into the fields the provider needs, or refused with `Invalid`.
package protocol ServiceAccountFile: Sendable {
    /// Parses the file's bytes; a missing required field throws.
    init(json: [UInt8]) throws(ServiceAccountFileInvalid)
}

/// Why a service-account file was refused (unreadable, not a JSON object, a required field missing).
package struct ServiceAccountFileInvalid: Error, CustomStringConvertible, Sendable {
    package let description: String
}

extension ServiceAccountFile {
    package typealias Invalid = ServiceAccountFileInvalid

    package init(contentsOfFile path: String) throws(Invalid) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Invalid(description: "cannot read \(path)")
        }
        try self.init(json: Array(data))
    }

    /// The file's top-level JSON object.
    static func object(_ json: [UInt8]) throws(Invalid) -> [String: Any] {
        guard let object = JSON.object(json) else { throw Invalid(description: "not a JSON object") }
        return object
    }
}
