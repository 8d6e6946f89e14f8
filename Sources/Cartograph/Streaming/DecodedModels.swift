import Foundation

/// Models decoded from an asynchronous sequence of byte chunks, as each
/// element completes (see ``JSONMapper/models(_:from:path:lossy:)``).
///
/// Pull-based: a chunk is read only when the models of the previous ones
/// have been taken, so a slow consumer slows the reading rather than
/// filling memory. Task cancellation is checked before each chunk.
public struct DecodedModels<Model, Chunks: AsyncSequence>: AsyncSequence where Chunks.Element: ContiguousBytes {
    /// Each model.
    public typealias Element = Model

    let chunks: Chunks
    let mapper: JSONMapper
    let path: StreamPath
    let lossy: Bool

    /// Starts reading.
    public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks.makeAsyncIterator(), stream: ModelStream(Model.self, mapper: mapper, path: path, lossy: lossy))
    }

    /// Reads chunks on demand and hands out models one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        var chunks: Chunks.AsyncIterator
        /// The stream underneath (its ``ModelStream/issues`` and ``ModelStream/envelope`` stay readable).
        public let stream: ModelStream<Model>
        private var buffer: [Model] = []
        private var position = 0
        private var ended = false
        private var pending: (any Error)?

        init(chunks: Chunks.AsyncIterator, stream: ModelStream<Model>) {
            self.chunks = chunks
            self.stream = stream
        }

        /// The next model, or nil at the end.
        /// - Throws: the input's or a model's error (after the models before it),
        ///   or `CancellationError` when the task is cancelled.
        public mutating func next() async throws -> Model? {
            while true {
                if position < buffer.count {
                    position += 1
                    return buffer[position - 1]
                }
                if let pending {
                    self.pending = nil
                    ended = true
                    throw pending
                }
                if ended { return nil }
                try Task.checkCancellation()
                buffer.removeAll(keepingCapacity: true)
                position = 0
                var made: [Model] = []
                do {
                    if let chunk = try await chunks.next() {
                        try stream.feed(chunk) { made.append($0) }
                    } else {
                        // AsyncStream ends its iteration when the task is cancelled: that is no end of input.
                        try Task.checkCancellation()
                        ended = true
                        try stream.finish { made.append($0) }
                    }
                } catch {
                    pending = error
                }
                buffer = made
            }
        }
    }
}

/// A file read in chunks, for streaming.
public struct FileChunks: AsyncSequence, Sendable {
    /// A chunk of the file.
    public typealias Element = [UInt8]

    let path: String
    let chunkSize: Int

    /// Chunks of the file at `path` (`-` for standard input).
    public init(path: String, chunkSize: Int = 1 << 16) {
        self.path = path
        self.chunkSize = chunkSize
    }

    /// Opens the file.
    public func makeAsyncIterator() -> Iterator { Iterator(path: path, chunkSize: chunkSize) }

    /// Reads the next chunk on demand.
    public struct Iterator: AsyncIteratorProtocol {
        private let handle: FileHandle?
        private let chunkSize: Int
        private var failed = false
        private let path: String

        init(path: String, chunkSize: Int) {
            self.path = path
            self.chunkSize = chunkSize
            handle = path == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: path)
        }

        /// The next chunk, or nil at the end of the file.
        public mutating func next() async throws -> [UInt8]? {
            guard let handle else {
                throw CartographError(.unexpectedEnd, "\(path) cannot be read")
            }
            let data = try handle.read(upToCount: chunkSize) ?? Data()
            return data.isEmpty ? nil : Array(data)
        }
    }
}

extension JSONMapper {
    /// Models decoded as chunks arrive (`[UInt8]`, `ArraySlice<UInt8>`, `Data`
    /// or any `ContiguousBytes`): each element of the array at `path`, or each
    /// value of NDJSON with `.values`.
    ///
    /// ```swift
    /// for try await user in mapper.models(User.self, from: request.body, path: "$.users") { … }
    /// ```
    public func models<Model, Chunks: AsyncSequence>(
        _ type: Model.Type, from chunks: Chunks, path: StreamPath = .topLevelArray, lossy: Bool = false
    ) -> DecodedModels<Model, Chunks> where Chunks.Element: ContiguousBytes {
        DecodedModels(chunks: chunks, mapper: self, path: path, lossy: lossy)
    }

    /// Models decoded from a file read in chunks (`-` reads standard input).
    public func models<Model>(_ type: Model.Type, fromFile path: String, at streamPath: StreamPath = .topLevelArray, lossy: Bool = false)
        -> DecodedModels<Model, FileChunks>
    {
        DecodedModels(chunks: FileChunks(path: path), mapper: self, path: streamPath, lossy: lossy)
    }
}
