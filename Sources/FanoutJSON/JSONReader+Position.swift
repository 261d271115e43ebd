extension JSONReader {
    /// Where a reader is: its cursor, its place in the grammar and the containers open around it.
    ///
    /// A position taken by one reader can start another over the same buffer, so that a document can be read
    /// in pieces by several readers at once: one reader skims ahead to a boundary, a second resumes there
    /// while the first reads up to it. The resumed reader reports errors exactly as the first one would have.
    package struct Position: Sendable {
        let cursor: Int
        let state: State
        let containers: BitStack

        /// The byte offset of the cursor.
        package var offset: Int { cursor }
        /// The number of containers open around the position.
        package var depth: Int { containers.depth }
    }

    /// The reader's current position.
    package var position: Position { Position(cursor: cursor, state: state, containers: containers) }

    /// A reader over `buffer` that continues from `position`, which another reader over the same buffer took.
    package init(_ buffer: UnsafeRawBufferPointer, resumingAt position: Position) {
        self.init(buffer)
        cursor = position.cursor
        state = position.state
        containers = position.containers
    }
}
