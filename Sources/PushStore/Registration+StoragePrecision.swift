import Foundation

extension Registration {
    /// This registration with its times at the stores' millisecond precision, as a read would
    /// return it (both stores keep unix milliseconds).
    var atStoragePrecision: Registration {
        var copy = self
        copy.createdAt = Date(unixMilliseconds: createdAt.unixMilliseconds)
        copy.updatedAt = Date(unixMilliseconds: updatedAt.unixMilliseconds)
        return copy
    }
}
