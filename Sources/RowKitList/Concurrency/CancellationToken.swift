import Synchronization

/// A flag that cancels background work, read by every worker for every row (one atomic load).
final class CancellationToken: Sendable {
    private let flag = Atomic<Bool>(false)

    init() {}

    func cancel() { flag.store(true, ordering: .releasing) }

    var isCancelled: Bool { flag.load(ordering: .acquiring) }
}
