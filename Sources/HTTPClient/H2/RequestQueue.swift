/// A FIFO with cheap removal at the front and pushing back in front (a re-send). A removed
/// element's slot is cleared at once and the array compacted once half of it is spent, so a
/// queue that never runs empty under steady load does not keep every element it carried.
struct RequestQueue<Element> {
    private var items: [Element?] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }

    mutating func append(_ element: Element) { items.append(element) }

    mutating func prepend(_ element: Element) {
        if head > 0 {
            head -= 1
            items[head] = element
        } else {
            items.insert(element, at: 0)
        }
    }

    mutating func removeFirst() -> Element {
        let element = items[head]!
        items[head] = nil
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes and returns the elements matching `predicate`, keeping the others in order.
    mutating func remove(where predicate: (Element) -> Bool) -> [Element] {
        guard !isEmpty else { return [] }
        var kept: [Element?] = []
        var removed: [Element] = []
        for case let element? in items[head...] {
            if predicate(element) { removed.append(element) } else { kept.append(element) }
        }
        if !removed.isEmpty {
            items = kept
            head = 0
        }
        return removed
    }

    /// Removes every element, in order.
    mutating func removeAll() -> [Element] {
        let all = items[head...].compactMap { $0 }
        items.removeAll()
        head = 0
        return all
    }
}
