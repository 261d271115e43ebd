import FanoutCore
import FanoutJSON
import Foundation
import Testing

@testable import FanoutExport

/// The streaming patch applier: Firebase multi-path update semantics, byte-for-byte copies elsewhere.
@Suite struct PatchApplierTests {
    func apply(_ patch: [String: JSONValue], to json: String, chunkSize: Int = 1 << 20) throws -> String {
        var out: [UInt8] = []
        var text = json
        try text.withUTF8 { bytes in
            try PatchApplier.apply(RepairPatch(patch), to: UnsafeRawBufferPointer(bytes), chunkSize: chunkSize) {
                out.append(contentsOf: $0)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func setsDeletesAndCreatesAlongThePatchedPathsOnly() throws {
        let export = #"{"a":{"x":1,"y":{"deep":[1, 2]}},"b":{"k":"v"},"c":true}"#
        let result = try apply(["a/x": 2, "b/k": .null, "d/e/f": "new", "c/g": 1], to: export)
        #expect(result == #"{"a":{"x":2,"y":{"deep":[1, 2]}},"c":{"g":1},"d":{"e":{"f":"new"}}}"#)
    }

    @Test func anEmptyPatchCopiesTheExportExactly() throws {
        let export = "{\n  \"users\": {\"u1\": {\"username\": \"a\\u00e9\"}},\n  \"posts\": [1, 2.50, null]\n}\n"
        #expect(try apply([:], to: export) == export)
    }

    @Test func objectsLeftEmptyDisappearAsInFirebase() throws {
        let export = #"{"postLikes":{"gone":{"u1":true},"p":{"u1":true,"u2":true}},"users":{}}"#
        let result = try apply(["postLikes/gone/u1": .null, "postLikes/p/u2": .null], to: export)
        #expect(result == #"{"postLikes":{"p":{"u1":true}},"users":{}}"#)
        #expect(try apply(["postLikes/gone/u1": .null, "postLikes/p": .null], to: export) == #"{"users":{}}"#)
    }

    @Test func repeatedKeysAreWrittenOnceWhereThePatchSetsThem() throws {
        let export = #"{"postLikes":{"p":{"u1":true,"u2":true,"u1":true}}}"#
        #expect(try apply(["postLikes/p/u1": true], to: export) == #"{"postLikes":{"p":{"u1":true,"u2":true}}}"#)
    }

    @Test func arraysAreTheObjectsFirebaseKeepsBehindThem() throws {
        let export = #"{"users":{"u":{"n":1}},"timeline":[{"p":1},null,{"p":3}]}"#
        let result = try apply(["timeline/0": .null, "timeline/5": ["p": 5]], to: export)
        #expect(result == #"{"users":{"u":{"n":1}},"timeline":{"2":{"p":3},"5":{"p":5}}}"#)
    }

    @Test func anIndentedExportStaysIndentedSoDiffsStaySmall() throws {
        let export = """
            {
              "likes": {
                "p1": {
                  "u1": true,
                  "u2": true
                }
              },
              "users": {
                "u1": {
                  "username": "a"
                }
              }
            }
            """
        let expected = """
            {
              "likes": {
                "p1": {
                  "u1": true,
                  "u3": true
                }
              },
              "users": {
                "u1": {
                  "username": "a"
                }
              }
            }
            """
        #expect(try apply(["likes/p1/u2": .null, "likes/p1/u3": true], to: export) == expected)
    }

    @Test func smallChunksGiveTheSameBytes() throws {
        let export = #"{"a":{"x":1,"long":"\#(String(repeating: "z", count: 100))"},"b":[1,2,3]}"#
        let patch: [String: JSONValue] = ["a/x": 9, "b/1": .null]
        #expect(try apply(patch, to: export, chunkSize: 3) == apply(patch, to: export))
    }

    @Test func malformedInputIsAnError() {
        #expect(throws: JSONSyntaxError.self) { try apply(["a": 1], to: #"{"a": [1,}"#) }
    }
}
