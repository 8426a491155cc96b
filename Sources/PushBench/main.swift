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
"""

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first ?? "all" {
    case "crypto", "all": try CryptoBench.run()
    case "http":
        guard let options = HTTPClientBenchmark.parse(Array(arguments.dropFirst())) else {
            print(HTTPClientBenchmark.usage)
            exit(2)
        }
        try HTTPClientBenchmark.run(options)
    case "ingest":
        guard let options = IngestBench.parse(Array(arguments.dropFirst())) else {
            print(usage)
            exit(2)
        }
        try IngestBench.run(options)
    case "door":
        guard let options = DoorBench.parse(Array(arguments.dropFirst())) else {
            print(usage)
            exit(2)
        }
        try DoorBench.run(options)
    case "e2e":
        guard let options = E2EBench.parse(Array(arguments.dropFirst())) else {
            print(usage)
            exit(2)
        }
        try E2EBench.run(options)
    case "soak": SoakCommand.run(Array(arguments.dropFirst()))
    case "deliver":
        guard let options = DeliveryBenchmark.parse(Array(arguments.dropFirst())) else {
            print(DeliveryBenchmark.usage)
            exit(2)
        }
        try DeliveryBenchmark.run(options)
    default:
        print(usage)
        exit(2)
    }
} catch {
    print("PushBench: \(error)")
    exit(1)
}
