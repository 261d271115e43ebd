// The fuzz target for every reader and parser of what a user gives Fanout (docs/robustness.md "Fuzzing").
//
// Built two ways:
// - `make fuzz` compiles with `-DFUZZING -sanitize=fuzzer,address -parse-as-library`: `main` hands over to
//   libFuzzer's driver, which calls `LLVMFuzzerTestOneInput` for each generated input. SwiftPM links an
//   executable's `main` to the symbol `FanoutFuzz_main`, so that is defined here, rather than relying on the `main`
//   in libFuzzer's runtime.
// - A plain `swift build` compiles the replayer instead, so the target never breaks the normal build:
//   `FanoutFuzz FILE…` runs each file through the same code, which is how a crash input found by the fuzzer is
//   reproduced without the sanitizer toolchain.
// (No main.swift: top-level code is a parse error under -parse-as-library even in an inactive #if branch.)

#if FUZZING
    /// libFuzzer's entry point: one input per call; returning 0 keeps it in the corpus if it found new coverage.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        FuzzInput.run(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }

    /// libFuzzer's driver (from its runtime, linked in by `-sanitize=fuzzer`): parses libFuzzer's options and runs.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// The executable's entry point under the name SwiftPM's link step gives `main`.
    @_cdecl("FanoutFuzz_main")
    public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        var count = argc
        var arguments = argv
        return runFuzzerDriver(&count, &arguments) { data, size in
            FuzzInput.run(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
    }
#else
    import Foundation

    /// The replayer: runs each file named on the command line through one fuzz iteration.
    @main
    enum FuzzReplay {
        static func main() {
            for path in CommandLine.arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    FileHandle.standardError.write(Data("error: cannot read \(path)\n".utf8))
                    exit(2)
                }
                data.withUnsafeBytes { FuzzInput.run($0) }
                print("ok \(path)")
            }
        }
    }
#endif
