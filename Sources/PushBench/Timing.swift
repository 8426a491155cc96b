/// Measures throughput: runs an operation for about `milliseconds` per round, several
/// rounds, and reports the median rate. One short warm-up round is discarded.
struct Timing {
    var milliseconds = 300
    var rounds = 5

    /// Operations per second, the median over the rounds.
    func rate(_ operation: () throws -> Void) rethrows -> Double {
        _ = try round(milliseconds: max(milliseconds / 5, 20), operation)
        var rates: [Double] = []
        for _ in 0..<rounds { rates.append(try round(milliseconds: milliseconds, operation)) }
        return median(rates)
    }

    /// Rates of `first` and `second` measured in alternating rounds, so that load from
    /// other processes on a shared machine falls on both alike, and the median of the
    /// per-round ratios `second / first`.
    func compare(_ first: () throws -> Void, _ second: () throws -> Void) rethrows
        -> (first: Double, second: Double, ratio: Double)
    {
        _ = try round(milliseconds: max(milliseconds / 5, 20), first)
        _ = try round(milliseconds: max(milliseconds / 5, 20), second)
        var firsts: [Double] = []
        var seconds: [Double] = []
        var ratios: [Double] = []
        for _ in 0..<rounds {
            let a = try round(milliseconds: milliseconds, first)
            let b = try round(milliseconds: milliseconds, second)
            firsts.append(a)
            seconds.append(b)
            ratios.append(b / a)
        }
        return (median(firsts), median(seconds), median(ratios))
    }

    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    private func round(milliseconds: Int, _ operation: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let budget = Duration.milliseconds(milliseconds)
        let start = clock.now
        var count = 0
        var elapsed = Duration.zero
        repeat {
            for _ in 0..<8 { try operation() }
            count += 8
            elapsed = clock.now - start
        } while elapsed < budget
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(count) / seconds
    }
}

/// Keeps results alive so the optimizer cannot drop the work that made them.
enum Sink {
    nonisolated(unsafe) static var byte: UInt8 = 0
    @inline(never) static func consume(_ bytes: [UInt8]) { byte &+= bytes.first ?? 0 }
    @inline(never) static func consume(_ flag: Bool) { byte &+= flag ? 1 : 0 }
}

/// Prints `name ... rate ops/s` aligned.
func report(_ name: String, _ rate: Double) {
    let padded = name.count < 44 ? name + String(repeating: " ", count: 44 - name.count) : name
    print("\(padded) \(String(Int(rate.rounded()))) ops/s")
}
