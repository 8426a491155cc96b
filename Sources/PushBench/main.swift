@preconcurrency import Glibc
import Foundation

/// `PushBench <suite>`: prints figures and ratios measured in one run; never a timed test. `soak`
/// checks correctness under kill -9 (its figures are counts) and exits 1 when a 200 was lost.
let usage = """
usage: PushBench crypto | all
       PushBench http …
       PushBench deliver [--deliveries N] [--rounds R] [--queued Q] [--only fcm|apns|webpush]
\(HTTPClientBenchmark.usage)
\(IngestBench.usage)
\(DoorBench.usage)
\(SoakCommand.usage)
\(E2EBench.usage)
\(GrowthBench.usage)
"""

/// The options a suite parsed, or `help` printed and exit 2.
func parsed<Options>(_ options: Options?, help: String) -> Options {
    guard let options else {
        print(help)
        exit(2)
    }
    return options
}

// Line-buffered even when redirected to a file, so a run that is stopped part-way keeps the
// figures it already printed.
setvbuf(stdout, nil, _IOLBF, 0)
let arguments = Array(CommandLine.arguments.dropFirst())
let rest = Array(arguments.dropFirst())
do {
    switch arguments.first ?? "all" {
    case "crypto", "all": try CryptoBench.run()
    case "http": try HTTPClientBenchmark.run(parsed(HTTPClientBenchmark.parse(rest), help: HTTPClientBenchmark.usage))
    case "ingest": try IngestBench.run(parsed(IngestBench.parse(rest), help: usage))
    case "door": try DoorBench.run(parsed(DoorBench.parse(rest), help: usage))
    case "e2e": try E2EBench.run(parsed(E2EBench.parse(rest), help: usage))
    case "growth": try GrowthBench.run(parsed(GrowthBench.parse(rest), help: usage))
    case "soak": SoakCommand.run(rest)
    case "deliver": try DeliveryBenchmark.run(parsed(DeliveryBenchmark.parse(rest), help: DeliveryBenchmark.usage))
    default:
        print(usage)
        exit(2)
    }
} catch {
    print("PushBench: \(error)")
    exit(1)
}
