// A bounded first-in first-out queue between threads. Bounded so that a fast producer
// (the folder walk, the workers) waits for a slow consumer instead of filling memory:
// that is what keeps an import's memory flat however large the folder is.

import Foundation

final class BlockingQueue<Element: Sendable>: @unchecked Sendable {
  // @unchecked: every stored property is only touched while `condition` is locked.
  private let condition = NSCondition()
  private var items: [Element] = []
  private var head = 0
  private var closed = false
  private let capacity: Int

  init(capacity: Int) {
    precondition(capacity > 0, "a queue needs room for one element")
    self.capacity = capacity
  }

  /// Adds an element, waiting while the queue is full. Returns false once closed.
  @discardableResult
  func push(_ element: Element) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while items.count - head >= capacity && !closed { condition.wait() }
    guard !closed else { return false }
    items.append(element)
    condition.broadcast()
    return true
  }

  /// Takes the oldest element, waiting while the queue is empty; nil once closed and empty.
  func pop() -> Element? {
    condition.lock()
    defer { condition.unlock() }
    while head == items.count && !closed { condition.wait() }
    guard head < items.count else { return nil }
    let element = items[head]
    head += 1
    if head > 64 && head * 2 > items.count {
      items.removeFirst(head)
      head = 0
    }
    condition.broadcast()
    return element
  }

  /// No more elements will come: waiting consumers get what is left, then nil.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }
}
