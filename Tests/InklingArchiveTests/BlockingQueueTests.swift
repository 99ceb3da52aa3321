import Foundation
import Testing

@testable import InklingArchive

/// The import's queues: bounded by count and by weight, so that memory stays flat.
@Suite struct BlockingQueueTests {
  /// Pushes `value` on another thread; the returned flag says whether the push has returned.
  private func pushLater(_ queue: BlockingQueue<Int>, _ value: Int) -> (done: NSCondition, returned: () -> Bool) {
    final class Flag: @unchecked Sendable {
      let condition = NSCondition()
      var value = false
    }
    let flag = Flag()
    Thread {
      queue.push(value)
      flag.condition.lock()
      flag.value = true
      flag.condition.broadcast()
      flag.condition.unlock()
    }.start()
    return (
      flag.condition,
      {
        flag.condition.lock()
        defer { flag.condition.unlock() }
        return flag.value
      }
    )
  }

  /// Waits up to `seconds` for `returned` to hold.
  private func wait(_ pushed: (done: NSCondition, returned: () -> Bool), seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !pushed.returned() {
      if Date() > deadline { return false }
      Thread.sleep(forTimeInterval: 0.005)
    }
    return true
  }

  @Test func aCancelledQueueDropsWhatWaits() {
    let queue = BlockingQueue<Int>(capacity: 10)
    for value in 1...3 { queue.push(value) }
    queue.cancel()
    #expect(queue.isClosed)
    #expect(queue.pop() == nil)
    #expect(!queue.push(4))
  }

  @Test func aPushWaitsWhileTheWeightWouldPassTheBound() {
    let queue = BlockingQueue<Int>(capacity: 10, maximumWeight: 100) { $0 }
    queue.push(60)
    let second = pushLater(queue, 50)  // 110 > 100: waits
    #expect(!wait(second, seconds: 0.2))
    #expect(queue.pop() == 60)
    #expect(wait(second, seconds: 5))
    #expect(queue.pop() == 50)
  }

  @Test func anElementHeavierThanTheBoundGoesInAlone() {
    let queue = BlockingQueue<Int>(capacity: 10, maximumWeight: 100) { $0 }
    queue.push(500)  // empty queue: let in
    let light = pushLater(queue, 1)
    #expect(!wait(light, seconds: 0.2))
    #expect(queue.pop() == 500)
    #expect(wait(light, seconds: 5))
    queue.close()
    #expect(queue.pop() == 1)
    #expect(queue.pop() == nil)
  }

  @Test func theCountBoundsLightElements() {
    let queue = BlockingQueue<Int>(capacity: 2, maximumWeight: 100) { _ in 0 }
    queue.push(1)
    queue.push(2)
    let third = pushLater(queue, 3)
    #expect(!wait(third, seconds: 0.2))
    #expect(queue.pop() == 1)
    #expect(wait(third, seconds: 5))
    #expect([queue.pop(), queue.pop()] == [2, 3])
  }

  @Test func closingReleasesAWaitingPush() {
    let queue = BlockingQueue<Int>(capacity: 1)
    queue.push(1)
    let waiting = pushLater(queue, 2)
    #expect(!wait(waiting, seconds: 0.1))
    queue.close()
    #expect(wait(waiting, seconds: 5))
    #expect(queue.pop() == 1)
    #expect(queue.pop() == nil)
  }
}
