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

    /// This registration as a claim returns it: the last outcome and delivery are for listing only.
    var withoutLastDelivery: Registration {
        var copy = self
        (copy.lastDeliveryAt, copy.lastOutcome) = (nil, nil)
        return copy
    }
}
