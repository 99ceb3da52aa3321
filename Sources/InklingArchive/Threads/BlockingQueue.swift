// A bounded first-in first-out queue between threads. Bounded so that a fast producer
// (the folder walk, the workers) waits for a slow consumer instead of filling memory:
// that is what keeps an import's memory flat however large the folder is. The bound is a
// number of elements and, optionally, a total weight (bytes held): a queue deep enough to
// absorb the consumer's pauses when elements are small stays within memory when they are
// large. One element is always let in, whatever its weight.

import Glibc

final class BlockingQueue<Element: Sendable>: @unchecked Sendable {
  // @unchecked: every stored property is only touched while `condition` is locked.
  private let condition = Condition()
  private var items: [(element: Element, weight: Int)] = []
  private var head = 0
  private var closed = false
  private var weight = 0
  private let capacity: Int
  private let maximumWeight: Int
  private let weigh: @Sendable (Element) -> Int

  /// A queue of at most `capacity` elements and, beyond its first element, at most
  /// `maximumWeight` in all, an element weighing `weigh(element)`.
  init(capacity: Int, maximumWeight: Int = .max, weigh: @escaping @Sendable (Element) -> Int = { _ in 0 }) {
    precondition(capacity > 0, "a queue needs room for one element")
    self.capacity = capacity
    self.maximumWeight = maximumWeight
    self.weigh = weigh
  }

  /// Adds an element, waiting while the queue is full. Returns false once closed.
  @discardableResult
  func push(_ element: Element) -> Bool {
    let added = max(0, weigh(element))
    condition.lock()
    defer { condition.unlock() }
    while !closed, items.count - head >= capacity || (items.count > head && added > maximumWeight - weight) {
      condition.wait()
    }
    guard !closed else { return false }
    items.append((element, added))
    weight += added
    condition.broadcast()
    return true
  }

  /// Takes the oldest element, waiting while the queue is empty; nil once closed and empty.
  func pop() -> Element? {
    condition.lock()
    defer { condition.unlock() }
    while head == items.count && !closed { condition.wait() }
    guard head < items.count else { return nil }
    let (element, removed) = items[head]
    weight -= removed
    head += 1
    if head > 64 && head * 2 > items.count {
      items.removeFirst(head)
      head = 0
    }
    condition.broadcast()
    return element
  }

  /// Whether `close()` or `cancel()` was called.
  var isClosed: Bool {
    condition.lock()
    defer { condition.unlock() }
    return closed
  }

  /// No more elements will come, and those waiting are dropped: consumers get nil at once.
  func cancel() {
    condition.lock()
    closed = true
    items.removeAll()
    head = 0
    weight = 0
    condition.broadcast()
    condition.unlock()
  }

  /// No more elements will come: waiting consumers get what is left, then nil.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }
}

/// A mutex and its condition variable (pthreads), which the queue's both sides wait on.
private final class Condition: @unchecked Sendable {
  // @unchecked: pthreads synchronises every use; the two live at fixed addresses, as they must.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let variable = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(variable, nil)
  }

  deinit {
    pthread_cond_destroy(variable)
    pthread_mutex_destroy(mutex)
    variable.deallocate()
    mutex.deallocate()
  }

  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }
  /// Unlocks, sleeps until a broadcast, and locks again (callers re-check what they wait for).
  func wait() { pthread_cond_wait(variable, mutex) }
  func broadcast() { pthread_cond_broadcast(variable) }
}
