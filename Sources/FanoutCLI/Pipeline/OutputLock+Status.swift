import FanoutOutput

extension OutputLock {
    /// Locks `output` for this run, saying on stderr whom it waits for while another run holds it.
    static func taking(_ output: String) -> OutputLock {
        OutputLock(output) { holder in
            printStatus("waiting for \(holder), which is writing \(output), to finish")
        }
    }
}
