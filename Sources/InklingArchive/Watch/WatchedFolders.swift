// The folders one watch follows, and what inotify's events mean for them.
//
// Each root (a folder given to `watch`) is either present, its whole tree watched (a watch per
// folder: inotify is not recursive), or gone, when its nearest existing ancestor is watched
// until the root's path appears again (a sync folder unmounted, a folder renamed away and
// back). Nothing is polled: a root comes back through an event on that ancestor, or through a
// change of the mount table (the watch loop polls /proc/self/mounts for POLLPRI, proc(5)),
// which inotify does not report on a mount point.
//
// Invariants:
//   1. `folders` holds every watch of a present root's tree, by watch descriptor, with the
//      path it is known by and the folder's identity (device, inode) when it was added.
//   2. A folder found under a new path with a watch already (the kernel returns the same
//      descriptor for the same inode) has moved if its old path no longer names it: its
//      entry and those below it take the new path. If the old path still names it, the new
//      path is another way to it (a symbolic link) and is not entered twice.
//   3. A watch whose folder went away (deleted, moved out of its path, unmounted) is removed
//      with every watch below it; if it was a root's, the root is gone and waits (`waiting`).

import InklingFormats

#if canImport(Glibc)
  import Glibc

  final class WatchedFolders {
    struct Root {
      let path: String
      let label: String
      var present = false
      /// The watch of the root folder itself, while present.
      var watch: Int32?
    }

    /// What events asked for, collected until the watch loop acts on them.
    struct Changes {
      /// Draft files complete now (closed after writing, renamed into place, found by a scan).
      var ready: [(root: Int, path: String)] = []
      /// Draft files created or written to: imported once still (`--settle`) or closed.
      var settling: [(root: Int, path: String)] = []
      /// Roots to import whole (events were lost, or the root came back).
      var rescan = Set<Int>()
      /// The kernel's queue overflowed: events were lost.
      var overflowed = false
      var gone: [Int] = []
      var back: [Int] = []
      /// Folders that cannot be entered, and why.
      var problems: [(path: String, problem: ImportProblem)] = []
    }

    private(set) var roots: [Root]
    private let inotify: Inotify
    private var folders: [Int32: (path: String, root: Int, identity: FileWalker.FileIdentity)] = [:]
    /// Watches of ancestors of gone roots, with the roots waiting on each.
    private var waiting: [Int32: (path: String, roots: Set<Int>)] = [:]
    var changes = Changes()

    var watchCount: Int { Set(folders.keys).union(waiting.keys).count }

    init(roots: [(path: String, label: String)], inotify: Inotify) {
      // Absolute, so that a root's ancestors can be walked up to `/`.
      let workingDirectory = FileWalker.workingDirectory()
      self.roots = roots.map { Root(path: SourceLabel.absolute($0.path, in: workingDirectory), label: $0.label) }
      self.inotify = inotify
    }

    /// Watches every root's tree; the files found are not reported (the first import reads
    /// the roots whole).
    ///
    /// - Throws: `.cannotWatch` for a root that is missing or not a folder, or any folder
    ///   when the watch limit is reached.
    func start() throws(ArchiveError) {
      for index in roots.indices {
        var info = stat()
        guard stat(roots[index].path, &info) == 0 else { throw .cannotWatch(path: roots[index].path, reason: .missing) }
        guard FileWalker.isDirectory(info) else { throw .cannotWatch(path: roots[index].path, reason: .notAFolder) }
        _ = try addTree(root: index, collectingFiles: false)
      }
      changes = Changes()
    }

    // MARK: - Events

    func handle(_ event: Inotify.Event) throws(ArchiveError) {
      if event.has(IN_Q_OVERFLOW) {
        changes.rescan.formUnion(roots.indices.filter { roots[$0].present })
        changes.overflowed = true
        return
      }
      if let entry = folders[event.watch] {
        if let name = event.name {
          let path = entry.path + "/" + name
          if event.isFolder {
            if event.has(IN_CREATE) || event.has(IN_MOVED_TO) {
              changes.ready += try addTree(path, root: entry.root).map { (entry.root, $0) }
            }
          } else if Self.isDraftFile(name) {
            if event.has(IN_CLOSE_WRITE) || event.has(IN_MOVED_TO) {
              changes.ready.append((entry.root, path))
            } else if event.has(IN_CREATE) || event.has(IN_MODIFY) {
              changes.settling.append((entry.root, path))
            }
          }
        } else if event.has(IN_IGNORED) {
          try forget(event.watch)
        } else if event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) || event.has(IN_UNMOUNT) {
          try verify(event.watch)
        }
      }
      if let wait = waiting[event.watch] {
        if event.name == nil && (event.has(IN_IGNORED) || event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF)) {
          stopWaiting(event.watch)
          for root in wait.roots { try restore(root) }
        } else if event.name != nil && event.isFolder && (event.has(IN_CREATE) || event.has(IN_MOVED_TO)) {
          stopWaiting(event.watch)
          for root in wait.roots { try restore(root) }
        }
      }
    }

    /// The mount table changed: a root may now be another folder (mounted over, unmounted).
    func mountsChanged() throws(ArchiveError) {
      for index in roots.indices {
        if roots[index].present, let watch = roots[index].watch, let entry = folders[watch],
          Self.identity(roots[index].path) == entry.identity
        {
          continue
        }
        if roots[index].present, let watch = roots[index].watch { removeTree(watch) }
        try restore(index)
      }
    }

    static func isDraftFile(_ name: String) -> Bool {
      !name.hasPrefix("._") && DraftFileName.isDraftFileName(name)
    }

    // MARK: - Trees

    /// Watches the folder `path` of root `root` and every folder below it; returns the draft
    /// files found in them.
    private func addTree(_ top: String? = nil, root: Int, collectingFiles: Bool = true) throws(ArchiveError)
      -> [String]
    {
      var files: [String] = []
      var pending = [top ?? roots[root].path]
      while let folder = pending.popLast() {
        guard let identity = Self.identity(folder) else { continue }  // gone already
        let watch: Int32
        do {
          watch = try inotify.watch(folder)
        } catch .watchLimit(let limit) {
          throw .cannotWatch(path: folder, reason: .watchLimit(limit: limit))
        } catch .missing, .notAFolder {
          continue  // gone, or replaced by a file, since it was listed
        } catch .system(_, let code) {
          changes.problems.append((folder, .cannotRead(code: code)))
          continue
        } catch {
          continue  // the instance limit: not reached by adding a watch
        }
        if let known = folders[watch], known.path != folder {
          if Self.identity(known.path) == known.identity {
            continue  // another path to a folder already watched (invariant 2)
          }
          rename(from: known.path, to: folder)
        }
        folders[watch] = (folder, root, identity)
        if folder == roots[root].path {
          roots[root].present = true
          roots[root].watch = watch
        }
        guard collectingFiles else {
          // Only the subfolders: read as the directory gives them, never held whole, and
          // only what may be a folder is looked at (a flat folder of saves costs one pass).
          let listed = Self.forEachPossibleFolder(in: folder) { pending.append($0) }
          if !listed { changes.problems.append((folder, .cannotRead(code: errno))) }
          continue
        }
        guard let names = FileWalker.list(folder) else {
          changes.problems.append((folder, .cannotRead(code: errno)))
          continue
        }
        for raw in names {
          guard let name = raw.text else { continue }
          let path = folder + "/" + name
          var info = stat()
          guard stat(path, &info) == 0 else { continue }
          if FileWalker.isDirectory(info) {
            pending.append(path)
          } else if Self.isDraftFile(name) && info.st_mode & S_IFMT == S_IFREG {
            files.append(path)
          }
        }
      }
      return files
    }

    /// Calls `body` with the path of each folder in `folder`, in directory order: entries
    /// readdir(3) says are folders, and links or entries of unknown type that stat(2) says
    /// are. Returns false when the folder cannot be read (with `errno` set).
    private static func forEachPossibleFolder(in folder: String, _ body: (String) -> Void) -> Bool {
      guard let directory = opendir(folder) else { return false }
      defer { closedir(directory) }
      while let entry = readdir(directory) {
        let type = Int(entry.pointee.d_type)
        guard type == DT_DIR || type == DT_LNK || type == DT_UNKNOWN else { continue }
        let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
          let bytes = raw.bindMemory(to: UInt8.self)
          return String(validating: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)], as: UTF8.self)
        }
        guard let name, name != ".", name != ".." else { continue }
        let path = folder + "/" + name
        var info = stat()
        if stat(path, &info) == 0, FileWalker.isDirectory(info) { body(path) }
      }
      return true
    }

    /// A folder moved within the tree: its entry and those below it take the new path.
    private func rename(from old: String, to new: String) {
      for (watch, entry) in folders where entry.path == old || entry.path.hasPrefix(old + "/") {
        folders[watch] = (new + entry.path.dropFirst(old.count), entry.root, entry.identity)
      }
    }

    /// After IN_DELETE_SELF or IN_MOVE_SELF: keeps the watch if its path still names its
    /// folder (moved back, or moved within the tree and renamed already), else removes it.
    private func verify(_ watch: Int32) throws(ArchiveError) {
      guard let entry = folders[watch], Self.identity(entry.path) != entry.identity else { return }
      let root = entry.root
      let wasRoot = roots[root].watch == watch
      removeTree(watch)
      if wasRoot { try restore(root) }
    }

    /// The kernel ended the watch (its folder was deleted or unmounted).
    private func forget(_ watch: Int32) throws(ArchiveError) {
      guard let entry = folders[watch] else { return }
      let root = entry.root
      let wasRoot = roots[root].watch == watch
      removeTree(watch)
      if wasRoot { try restore(root) }
    }

    /// Removes the watch and every watch below its path (invariant 3).
    private func removeTree(_ watch: Int32) {
      guard let entry = folders[watch] else { return }
      for (other, below) in folders where other == watch || below.path.hasPrefix(entry.path + "/") {
        folders[other] = nil
        if waiting[other] == nil { inotify.remove(other) }
      }
      if roots[entry.root].watch == watch {
        roots[entry.root].present = false
        roots[entry.root].watch = nil
        changes.gone.append(entry.root)
      }
    }

    // MARK: - Roots that are gone

    /// Watches root `index` again if its folder is there, and has it imported whole; else
    /// waits for it on its nearest existing ancestor.
    private func restore(_ index: Int) throws(ArchiveError) {
      // A few rounds at most: a folder on the way can appear between looking for it and
      // watching its parent, whose event would then never come.
      for _ in 0..<64 {
        guard !roots[index].present else { return }
        var info = stat()
        if stat(roots[index].path, &info) == 0, FileWalker.isDirectory(info) {
          _ = try addTree(root: index)
          if roots[index].present {
            changes.back.append(index)
            changes.rescan.insert(index)
            return
          }
        }
        var below = roots[index].path
        var ancestor = Self.parent(of: below)
        while Self.identity(ancestor) == nil && ancestor != "/" {
          below = ancestor
          ancestor = Self.parent(of: ancestor)
        }
        // The ancestor can go too before it is watched (`rm -r` of the root's parent deletes
        // the parent just after the root): then look again, from higher up.
        guard let watch = try? inotify.watch(ancestor) else { continue }
        waiting[watch, default: (ancestor, [])].roots.insert(index)
        guard Self.identity(below) != nil else { return }  // waits for `below` to appear
        waiting[watch]?.roots.remove(index)
        if waiting[watch]?.roots.isEmpty == true { stopWaiting(watch) }
      }
    }

    private func stopWaiting(_ watch: Int32) {
      waiting[watch] = nil
      if folders[watch] == nil { inotify.remove(watch) }
    }

    // MARK: - Paths

    static func identity(_ path: String) -> FileWalker.FileIdentity? {
      var info = stat()
      guard stat(path, &info) == 0, FileWalker.isDirectory(info) else { return nil }
      return FileWalker.FileIdentity(info)
    }

    /// The folder holding the absolute path `path`, lexically (`/` for `/`).
    static func parent(of path: String) -> String {
      guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
      return String(path[..<slash])
    }
  }
#endif
