import PushSupport

/// The node's long-running parts (`LongRunning`), started one by one as the node comes up and
/// drained together at shutdown: the one place the drain order is written.
///
/// The start order is the node's (`Node.start`): the HTTP listeners first, so `/healthz` answers
/// and `/readyz` says `starting` while storage opens (PROTOCOL §3.2); then the store, the delivery
/// engine and the any-sync door. The drain order is by `Stage`, whatever the start order: every
/// part of a stage is asked to stop at once, then each is drained, in the reverse of its start
/// order, within one `drainTimeout` for the stage; the next stage starts when the previous one
/// has drained (or run out of time).
package final class NodeServices: Sendable {
    /// The drain order: a stage's parts only use the stages after it.
    package enum Stage: Int, CaseIterable, Comparable, Sendable {
        /// The doors (HTTP API, admin, any-sync): no new request arrives, the accepted ones are
        /// answered — their writes still need the store, their wakeups the engine.
        case doors
        /// The delivery engine: its lanes stop claiming and apply the answers of the tries in
        /// flight (the outcomes are store writes).
        case delivery
        /// The store, last: the writer commits what it holds, then every connection closes.
        case storage

        package static func < (a: Stage, b: Stage) -> Bool { a.rawValue < b.rawValue }
    }

    /// A part and the stage it drains in.
    package struct Part: Sendable {
        package var stage: Stage
        package var service: any LongRunning

        package init(_ stage: Stage, _ service: any LongRunning) {
            self.stage = stage
            self.service = service
        }
    }

    /// `start` after `stop` began: the part was drained again at once.
    package struct Stopped: Error, CustomStringConvertible, Sendable {
        package let name: String
        package var description: String { "\(name): the node is shutting down" }
    }

    /// Seconds each stage may take to drain (`server.shutdownTimeout`).
    package let drainTimeout: Double
    private let state = Protected<(started: [Part], stopping: Bool)>(([], false))

    package init(drainTimeout: Double) {
        self.drainTimeout = drainTimeout
    }

    /// The parts started and not yet drained, in start order.
    package var parts: [Part] { state.withLock { $0.started } }

    /// Starts `part` and keeps it for `stop`. When it fails to start, every part started before it
    /// is drained (`stop`) and its error is thrown.
    package func start(_ part: Part) throws {
        guard state.withLock({ !$0.stopping }) else {
            part.service.drain(timeout: drainTimeout)
            throw Stopped(name: part.service.name)
        }
        do {
            try part.service.start()
        } catch {
            part.service.drain(timeout: drainTimeout)
            stop()
            throw error
        }
        let late = state.withLock { state -> Bool in
            if !state.stopping { state.started.append(part) }
            return state.stopping
        }
        // `stop` ran while it was starting: it did not see this part.
        if late {
            part.service.drain(timeout: drainTimeout)
            throw Stopped(name: part.service.name)
        }
    }

    package func start(_ stage: Stage, _ service: any LongRunning) throws {
        try start(Part(stage, service))
    }

    /// Drains every started part, stage after stage (see the type). Once: a later call returns at
    /// once. `drained` hears each stage that had parts, with the names of those that did not
    /// finish in time.
    package func stop(drained: (Stage, _ unfinished: [String]) -> Void = { _, _ in }) {
        let parts = state.withLock { state -> [Part]? in
            guard !state.stopping else { return nil }
            state.stopping = true
            defer { state.started = [] }
            return state.started
        }
        guard let parts else { return }
        for stage in Stage.allCases {
            let services = parts.filter { $0.stage == stage }.map(\.service).reversed()
            guard !services.isEmpty else { continue }
            services.forEach { $0.stop() }
            let deadline = Clocks.monotonicSeconds() + drainTimeout
            let unfinished = services.filter { !$0.drain(timeout: max(0, deadline - Clocks.monotonicSeconds())) }
            drained(stage, unfinished.map(\.name))
        }
    }
}
