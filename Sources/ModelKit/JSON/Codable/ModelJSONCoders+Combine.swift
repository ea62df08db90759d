#if canImport(Combine)
    import Combine
    import Foundation

    /// `ModelJSONEncoder` where Combine's `encode(encoder:)` takes a `JSONEncoder`.
    extension ModelJSONEncoder: TopLevelEncoder {
        /// JSON text.
        public typealias Output = Data
    }

    /// `ModelJSONDecoder` where Combine's `decode(type:decoder:)` takes a `JSONDecoder`.
    extension ModelJSONDecoder: TopLevelDecoder {
        /// JSON text.
        public typealias Input = Data
    }
#endif
