import Foundation

/// `PushBench <suite>`: prints figures and ratios measured in one run. Never a test.
let usage = "usage: PushBench crypto | all"

let suite = CommandLine.arguments.dropFirst().first ?? "all"
do {
    switch suite {
    case "crypto", "all": try CryptoBench.run()
    default:
        print(usage)
        exit(2)
    }
} catch {
    print("PushBench: \(error)")
    exit(1)
}
