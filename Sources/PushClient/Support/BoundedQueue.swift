/// A FIFO ring buffer that never grows past its capacity: `push` refuses instead.
struct BoundedQueue<Element>: Sendable where Element: Sendable {
    let capacity: Int
    private var slots: [Element?]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        slots = []
    }

    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == capacity }

    /// Appends `element`; `false` (and nothing stored) when the queue is full.
    mutating func push(_ element: Element) -> Bool {
        guard count < capacity else { return false }
        let index = (head + count) % capacity
        if index < slots.count { slots[index] = element } else { slots.append(element) }
        count += 1
        return true
    }

    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head]
        slots[head] = nil
        head = (head + 1) % capacity
        count -= 1
        return element
    }
}
