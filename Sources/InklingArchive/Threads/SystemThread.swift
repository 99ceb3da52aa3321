// The threads of an import and of thumbnail rendering, made with pthreads rather than
// Foundation's Thread: the tool links FoundationEssentials only, since Foundation's
// CoreFoundation and ICU would cost every start of a one-shot command (BENCHMARKS.md,
// "Start-up").

import Glibc

/// Why the system did not start a thread: pthread_create's error number, EAGAIN when the
/// limit of processes and threads of the user (RLIMIT_NPROC) or of the system is reached,
/// or there is no memory for the thread's stack.
struct ThreadStartError: Error, Equatable {
  let code: Int32
}

/// A thread running one closure, started when made; `join()` waits for it to end.
final class SystemThread {
  private var handle = pthread_t()
  private var joined = false

  /// Starts `body` on a new thread whose stack is `stackSize` bytes (nil: the system's
  /// default, as for the main thread).
  ///
  /// - Throws: `ThreadStartError` when the system refuses the thread; `body` is not run.
  init(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    let code = pthread_create(&handle, &attributes, runBody, context)
    guard code == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      // There is no thread to detach when this object goes.
      joined = true
      throw ThreadStartError(code: code)
    }
  }

  /// Waits until the closure has returned.
  func join() {
    guard !joined else { return }
    joined = true
    pthread_join(handle, nil)
  }

  deinit {
    // A thread nobody waits for releases its resources itself when it ends.
    if !joined { pthread_detach(handle) }
  }
}

/// The closure, boxed to cross pthread_create's untyped argument.
private final class Body {
  let run: @Sendable () -> Void
  init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

private func runBody(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
  return nil
}
