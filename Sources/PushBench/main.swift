import Foundation

/// `PushBench <benchmark> …`: each benchmark lives in its own file.
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "http":
    guard let options = HTTPClientBenchmark.parse(Array(arguments.dropFirst())) else {
        print(HTTPClientBenchmark.usage)
        exit(2)
    }
    do {
        try HTTPClientBenchmark.run(options)
    } catch {
        print("http benchmark failed: \(error)")
        exit(1)
    }
default:
    print("usage: PushBench http …\n\(HTTPClientBenchmark.usage)")
}
