import Foundation

/// `PushBench soak [--minutes M] [--storage sqlite|postgres] …`: runs the soak driver,
/// `Tests/Soak/soak.py`, against the `pushnode` built beside this binary, and exits with its status.
///
/// The driver is Python because the parts it drives are: the mock providers that record every
/// delivery (`Tests/Mocks`), the signing client of the interop tests and `pg-cluster.sh`. This
/// command only finds them (the repository this binary was built from, the venv's Python or
/// `PUSHNODE_PYTHON`) and replaces itself with the driver.
enum SoakCommand {
    static let usage = "       PushBench soak [--minutes M] [--storage sqlite|postgres] [--rate N] [--seed S]   (Tests/Soak/soak.py --help)"

    static func run(_ arguments: [String]) -> Never {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let python = ProcessInfo.processInfo.environment["PUSHNODE_PYTHON"]
            ?? root.appendingPathComponent(".venv/bin/python").path
        let script = root.appendingPathComponent("Tests/Soak/soak.py").path
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("pushnode").path
        let argv = [python, script, "--binary", binary] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        execv(python, &cArguments)
        print("PushBench soak: cannot run \(python) (make venv, or set PUSHNODE_PYTHON): \(String(cString: strerror(errno)))")
        exit(1)
    }
}
