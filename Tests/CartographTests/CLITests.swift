import Cartograph
import Foundation
import HTTPTestSupport
import Testing

/// The `cartograph` executable: output lines and exit statuses other tools rely on.
@Suite struct CLITests {
    let scratch = ScratchDirectory()

    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    static let executable = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("cartograph")

    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Run {
        let ended = try ChildProcess.run(
            executable, arguments, input: input.map { Data($0.utf8) }, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        return Run(status: ended.status, output: String(decoding: ended.output, as: UTF8.self), errors: String(decoding: ended.errors, as: UTF8.self))
    }

    @Test func validatePrintsOkAndExitsZero() throws {
        let file = try scratch.file(#"{"a": [1, 2]}"#)
        let run = try CLITests.run(["validate", file])
        #expect(run.status == 0)
        #expect(run.output == "\(file): ok\n")
    }

    @Test func validateReportsLineAndColumnAndExitsOne() throws {
        let good = try scratch.file("[1]")
        let bad = try scratch.file("{\n  \"a\": 1,\n  \"b\": tru\n}")
        let run = try CLITests.run(["validate", good, bad])
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(good): ok")
        #expect(lines.last?.hasPrefix("\(bad):3:") == true)
    }

    /// Neither the input's text nor the file's name reaches the terminal
    /// with a control or bidirectional character in it.
    @Test func validateEscapesControlCharactersFromTheInputAndTheFileName() throws {
        let file = try scratch.file("{\n  \"a\u{1B}[2J\u{202E}\": tru\n}", name: "odd\nname\u{1B}.json")
        let run = try CLITests.run(["validate", file])
        #expect(run.status == 1)
        for text in [run.output, run.errors] {
            let lines = text.split(separator: "\n")
            #expect(
                !lines.contains { $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x202E } },
                "\(text.debugDescription)")
        }
        // The raw ESC in the key is the error (line 2), named without itself.
        #expect(run.output.contains(#"odd\u{A}name\u{1B}.json:2:"#), "\(run.output)")
    }

    @Test func validateReadsStandardInput() throws {
        #expect(try CLITests.run(["validate", "-"], input: "[true]").output == "<stdin>: ok\n")
        #expect(try CLITests.run(["validate", "-"], input: "[tru").status == 1)
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try CLITests.run(["validate", "--no-such-flag", "x"]).status == 2)
        #expect(try CLITests.run(["no-such-command"]).status == 2)
        #expect(try CLITests.run(["validate", "/nonexistent/file.json"]).status == 2)
        #expect(try CLITests.run(["format", "--pretty", "40", "x"]).status == 2)
    }

    @Test func validateNeverCrashesOnTheInvalidCorpus() throws {
        let directory = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/JSONTestSuite/test_parsing")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("n_") }.sorted()
        let run = try CLITests.run(["validate"] + names.map { directory.appendingPathComponent($0).path })
        #expect(run.status == 1)
        let failures = run.output.split(separator: "\n").filter { !$0.hasSuffix(": ok") }
        #expect(failures.count == names.count)
    }

    @Test func formatRewritesWithOptions() throws {
        let file = try scratch.file(#"{"b": 1.50, "a": ["é/"]}"#)
        let compact = try CLITests.run(["format", file, "--compact", "--sort-keys", "--ascii", "--escape-slashes"])
        #expect(compact.status == 0)
        #expect(compact.output == "{\"a\":[\"\\u00e9\\/\"],\"b\":1.50}\n")
        let pretty = try CLITests.run(["format", file, "--pretty", "4"])
        #expect(pretty.output == "{\n    \"b\": 1.50,\n    \"a\": [\n        \"é/\"\n    ]\n}\n")
        let invalid = try scratch.file("[1,]")
        #expect(try CLITests.run(["format", invalid]).status == 1)
    }

    @Test func convertsBetweenJSONAndBothPlistFormats() throws {
        let json = try scratch.file(#"{"name": "a/é", "when": "2026-01-01T00:00:00Z", "list": [1, 2.5, true], "gone": null}"#)
        let directory = URL(fileURLWithPath: json).deletingLastPathComponent()
        for format in ["xml", "binary"] {
            let plistPath = directory.appendingPathComponent("out.\(format).plist").path
            let toPlist = try CLITests.run(["convert", json, "--to", format, "-o", plistPath])
            #expect(toPlist.status == 0, "\(toPlist.errors)")
            let back = try CLITests.run(["convert", plistPath, "--to", "json"])
            #expect(back.status == 0)
            #expect(back.output == #"{"name":"a/é","when":"2026-01-01T00:00:00Z","list":[1,2.5,true]}"# + "\n")
            #expect(try CLITests.run(["validate", plistPath]).output == "\(plistPath): ok\n")
        }
        let binary = directory.appendingPathComponent("twice.plist").path
        #expect(try CLITests.run(["convert", json, "--to", "binary", "-o", binary]).status == 0)
        let xml = try CLITests.run(["convert", binary, "--to", "xml"])
        #expect(xml.output.hasPrefix("<?xml"))
    }

    @Test func convertReportsBadInputWithItsPlace() throws {
        let broken = try scratch.file("{\"a\": [1,\n 2,,]}")
        let run = try CLITests.run(["convert", broken, "--to", "xml"])
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("\(broken):2:4:"))
        let plist = try scratch.file("bplist00 nothing useful here", name: "bad.plist")
        let bad = try CLITests.run(["convert", plist, "--to", "json"])
        #expect(bad.status == 1)
        #expect(bad.errors.contains("\(plist):"))
        #expect(try CLITests.run(["convert", plist, "--to", "yaml"]).status == 2)
    }

    @Test func ndjsonStreamsTheArrayAtAPath() throws {
        let file = try scratch.file(#"{"meta": 1, "data": {"items": [{"id": 1}, [2, 3], "four", 5.0e0]}}"#)
        let run = try CLITests.run(["ndjson", file, "--path", "$.data.items"])
        #expect(run.status == 0)
        #expect(run.output == "{\"id\":1}\n[2,3]\n\"four\"\n5.0e0\n")
        #expect(try CLITests.run(["count", file, "--path", "$.data.items"]).output == "4\n")
        #expect(try CLITests.run(["count", "-"], input: "[1, [2], {}]").output == "3\n")
        let broken = try CLITests.run(["ndjson", "-"], input: "[1, 2, x]")
        #expect(broken.status == 1)
        #expect(broken.output == "1\n2\n")
        #expect(broken.errors.contains("<stdin>:1:8:") && broken.errors.contains("element 2"))
        #expect(try CLITests.run(["count", "/no/such/file"]).status == 2)
    }

    @Test func versionIsPrinted() throws {
        let run = try CLITests.run(["--version"])
        #expect(run.status == 0)
        #expect(run.output == CartographVersion.current + "\n")
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let changelog = try String(contentsOf: packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        #expect(changelog.contains("## [\(CartographVersion.current)]"))
    }

    @Test func countAndNdjsonFailWhenThePathMatchesNothing() throws {
        let file = try scratch.file(#"{"data": {"items": [1, 2]}, "meta": {"n": 2}}"#)
        for command in ["count", "ndjson"] {
            let missing = try CLITests.run([command, file, "--path", "$.data.missing"])
            #expect(missing.status == 1, "\(command)")
            #expect(missing.output.isEmpty, "\(command) printed \(missing.output)")
            #expect(missing.errors.contains("names nothing"), "\(missing.errors)")
            let notArray = try CLITests.run([command, file, "--path", "$.meta"])
            #expect(notArray.status == 1)
            #expect(notArray.errors.contains("not an array"), "\(notArray.errors)")
        }
        #expect(try CLITests.run(["count", "-"], input: #"{"a": 1}"#).status == 1)
        #expect(try CLITests.run(["count", "-"], input: "[]").output == "0\n")
    }

    /// Progress goes to standard error only on a terminal (forced here with
    /// CARTOGRAPH_PROGRESS=1, since the test's pipes are not one).
    @Test func progressIsShownOnlyWhenStandardErrorIsATerminal() throws {
        let items = (0..<5000).map { #"{"id": \#($0), "name": "item \#($0)"}"# }.joined(separator: ",")
        let file = try scratch.file("[\(items)]", name: "items.json")
        let silent = try CLITests.run(["ndjson", file, "-o", file + ".ndjson"])
        #expect(silent.status == 0 && silent.errors.isEmpty)
        let shown = try CLITests.run(["ndjson", file, "-o", file + ".ndjson"], environment: ["CARTOGRAPH_PROGRESS": "1"])
        #expect(shown.status == 0)
        #expect(shown.errors.contains("ndjson: 0.2 MB of 0.2 MB (100%), 5000 elements in "), "\(shown.errors)")
        let plist = file + ".plist"
        #expect(try CLITests.run(["convert", file, "--to", "binary", "-o", plist]).errors.isEmpty)
        let converted = try CLITests.run(["convert", file, "--to", "binary", "-o", plist], environment: ["CARTOGRAPH_PROGRESS": "1"])
        #expect(converted.status == 0 && converted.errors.contains("convert: writing binary"), "\(converted.errors)")
        #expect(converted.errors.hasSuffix(" s\n"))
    }
}

/// Everyday use of the CLI as jq is used: standard input by default, output
/// files, write failures, missing inputs, property lists in `format`.
@Suite struct CLIEverydayTests {
    let scratch = ScratchDirectory()

    @Test func everyCommandReadsStandardInputWithoutAFile() throws {
        #expect(try CLITests.run(["validate"], input: "[1]").output == "<stdin>: ok\n")
        #expect(try CLITests.run(["format", "--compact"], input: #"{"a": [1, 2]}"#).output == #"{"a":[1,2]}"# + "\n")
        #expect(try CLITests.run(["count"], input: "[1, 2, 3]").output == "3\n")
        #expect(try CLITests.run(["ndjson"], input: #"[{"a": 1}, 2]"#).output == "{\"a\":1}\n2\n")
        #expect(try CLITests.run(["convert", "--to", "json"], input: #"{"a": 1}"#).output == #"{"a":1}"# + "\n")
        let inferred = try CLITests.run(["infer", "--name", "Thing"], input: #"{"id": 1}"#)
        #expect(inferred.status == 0 && inferred.output.contains("struct Thing"))
    }

    @Test func formatWritesToAnOutputFile() throws {
        let input = try scratch.file(#"{"b": 1.50, "a": true}"#)
        let output = input + ".out.json"
        let run = try CLITests.run(["format", input, "--compact", "-o", output])
        #expect(run.status == 0 && run.output.isEmpty)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == #"{"b":1.50,"a":true}"# + "\n")
    }

    /// `ndjson` and `get` read as they write: an output that is their input
    /// (by its name, a link, or as standard input) would be emptied before
    /// it was read, so it is refused and the file left whole. `format` and
    /// `convert` read everything first and may rewrite their input.
    @Test func aStreamingCommandRefusesToWriteOverItsInput() throws {
        let text = #"{"a": [1, {"b": 2}, "three"]}"#
        let input = try scratch.file(text)
        let link = input + ".link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
        for arguments in [
            ["ndjson", input, "--path", "$.a", "-o", input], ["ndjson", input, "--path", "$.a", "-o", link],
            ["get", "$.a[*]", link, "-o", input]
        ] {
            let run = try CLITests.run(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.errors.contains("is the input file"), "\(arguments): \(run.errors)")
            #expect(try String(contentsOfFile: input, encoding: .utf8) == text, "\(arguments)")
        }
        // The input as standard input, redirected from the file by a shell.
        let shell = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", #""$0" ndjson --path '$.a' -o "$1" < "$1""#, CLITests.executable.path, input])
        #expect(shell.status == 2)
        #expect(try String(contentsOfFile: input, encoding: .utf8) == text)
        // Another file is written as before; a missing input leaves it as it was.
        let other = input + ".out"
        #expect(try CLITests.run(["ndjson", input, "--path", "$.a", "-o", other]).status == 0)
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "1\n{\"b\":2}\n\"three\"\n")
        #expect(try CLITests.run(["ndjson", "/nonexistent/cartograph-input.json", "-o", other]).status == 2)
        #expect(try CLITests.run(["get", "$[", input, "-o", other]).status == 2)
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "1\n{\"b\":2}\n\"three\"\n")
        // Reading all of it first, format rewrites its own input.
        #expect(try CLITests.run(["format", input, "--compact", "-o", link]).status == 0)
        #expect(try String(contentsOfFile: input, encoding: .utf8) == #"{"a":[1,{"b":2},"three"]}"# + "\n")
    }

    /// `format` and `convert` may write over their input, but not by
    /// emptying it first: the output goes to a file beside it that replaces
    /// it once written, with its permissions, through a link to it too. A
    /// write that fails (here past a file size limit) leaves the input whole.
    @Test func writingOverTheInputReplacesItOnlyOnceWritten() throws {
        let records = (0..<1000).map { #"{"id": \#($0), "name": "record \#($0)"}"# }
        let text = "[" + records.joined(separator: ",") + "]"
        let input = try scratch.file(text)
        let directory = (input as NSString).deletingLastPathComponent
        let shell = URL(fileURLWithPath: "/bin/sh")
        for command in [["format", "--indent", "4"], ["convert", "--to", "xml"]] {
            // 16 blocks: 8 KiB in dash's 512-byte blocks, 16 KiB in bash's; the output is larger.
            let limited = try ChildProcess.run(
                shell, ["-c", #"ulimit -f 16; "$0" "$@""#, CLITests.executable.path] + command + [input, "-o", input])
            #expect(limited.status == 1, "\(command)")
            #expect(String(decoding: limited.errors, as: UTF8.self).contains("left as it was"), "\(command)")
            #expect(try String(contentsOfFile: input, encoding: .utf8) == text, "\(command)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["sample.json"], "\(command)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: input)
        let link = directory + "/link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
        #expect(try CLITests.run(["format", link, "--compact", "-o", link]).status == 0)
        #expect(
            try String(contentsOfFile: input, encoding: .utf8) == "["
                + (0..<1000).map { #"{"id":\#($0),"name":"record \#($0)"}"# }.joined(separator: ",") + "]\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == input)
        #expect(try FileManager.default.attributesOfItem(atPath: input)[.posixPermissions] as? Int == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["link.json", "sample.json"])
    }

    @Test func aFullDiskEndsWithAMessageAndExitOne() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let input = try scratch.file(#"{"a": [1, 2, 3]}"#)
        for arguments in [
            ["format", input, "-o", "/dev/full"], ["convert", input, "--to", "xml", "-o", "/dev/full"],
            ["ndjson", input, "--path", "$.a", "-o", "/dev/full"]
        ] {
            let run = try CLITests.run(arguments)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.errors.contains("cannot write to /dev/full: No space left on device"), "\(arguments): \(run.errors)")
        }
    }

    @Test func missingFilesAndDirectoriesGiveOneMessageAndExitTwo() throws {
        let directory = FileManager.default.temporaryDirectory.path
        for command in [["validate"], ["format"], ["convert", "--to", "json"], ["ndjson"], ["count"], ["infer"], ["schema"]] {
            let missing = try CLITests.run(command + ["/nonexistent/cartograph-input.json"])
            #expect(missing.status == 2, "\(command)")
            #expect(missing.errors.contains("/nonexistent/cartograph-input.json: no such file"), "\(command): \(missing.errors)")
            let folder = try CLITests.run(command + [directory])
            #expect(folder.status == 2, "\(command)")
            #expect(folder.errors.contains("\(directory): is a directory"), "\(command): \(folder.errors)")
        }
    }

    @Test func formatReadsPropertyListsAsJSON() throws {
        let json = try scratch.file(#"{"name": "x", "n": [1, 2]}"#)
        let plist = json + ".plist"
        #expect(try CLITests.run(["convert", json, "--to", "binary", "-o", plist]).status == 0)
        let run = try CLITests.run(["format", plist, "--compact"])
        #expect(run.status == 0)
        #expect(run.output == #"{"name":"x","n":[1,2]}"# + "\n")
    }

    static let nested = #"{"data":[{"id":1,"n":{"a.b":2}},{"id":2,"n":{"a.b":3}}],"batches":[{"items":[1,2]},{"items":[3]}],"x":{"y":[true]}}"#

    @Test func getPrintsWhatAPathSelects() throws {
        let file = try scratch.file(Self.nested)
        #expect(try CLITests.run(["get", "$.data[*].id", file]).output == "1\n2\n")
        #expect(try CLITests.run(["get", "-c", #"$.data[*].n["a.b"]"#, file]).output == "2\n3\n")
        #expect(try CLITests.run(["get", "--compact", "$.batches[1]", file]).output == #"{"items":[3]}"# + "\n")
        #expect(try CLITests.run(["get", "$.x.*[0]", file]).output == "true\n")
        // Standard input, and pretty output by default.
        #expect(try CLITests.run(["get", "$.x"], input: Self.nested).output == "{\n  \"y\": [\n    true\n  ]\n}\n")
        #expect(try CLITests.run(["get", "-c", "$"], input: "[1] [2]").output == "[1]\n[2]\n")
    }

    @Test func jqSpellingsSelectWhatTheirDollarFormsSelect() throws {
        let file = try scratch.file(Self.nested)
        for (jq, dollar) in [
            (".", "$"), (".data[0]", "$.data[0]"), (".[\"data\"][1].id", "$.data[1].id"), (#"."x".y"#, "$.x.y"),
            (".data[].id", "$.data[*].id"), (".batches[].items[]", "$.batches[*].items[*]")
        ] {
            let jqRun = try CLITests.run(["get", "-c", jq, file])
            #expect(jqRun.status == 0, "\(jq): \(jqRun.errors)")
            #expect(jqRun.output == (try CLITests.run(["get", "-c", dollar, file]).output), "\(jq)")
        }
        #expect(try CLITests.run(["get", "-c", ".[1]"], input: "[10, 20]").output == "20\n")
        #expect(try CLITests.run(["get", "-c", ".[]"], input: "[10, 20]").output == "10\n20\n")
        #expect(try CLITests.run(["get", "-c", #"."a b""#], input: #"{"a b": [1]}"#).output == "[1]\n")
        // A dot before nothing but the root's bracket is still a mistake.
        for path in ["..", "$.", #"."open"#, ".a.", #"."a"b"#] {
            let run = try CLITests.run(["get", path, file])
            #expect(run.status == 2 && run.errors.contains("invalid path"), "\(path): \(run.errors)")
        }
    }

    @Test func aPathThatSelectsNothingExitsOneAndAMalformedOneTwo() throws {
        let file = try scratch.file(Self.nested)
        for command in [["get", "$.nope"], ["count", "--path", "$.data[5].items"], ["ndjson", "--path", "$.nope[*]"]] {
            let run = try CLITests.run(command + [file])
            #expect(run.status == 1, "\(command)")
            #expect(run.errors.contains("names nothing"), "\(command): \(run.errors)")
        }
        for path in ["$.data[", "$..a", "$[x]", #"$["open"#] {
            let run = try CLITests.run(["get", path, file])
            #expect(run.status == 2, "\(path)")
            #expect(run.errors.contains("invalid path"), "\(path): \(run.errors)")
        }
        // An array the path names that is not an array: exit 1, saying what it is.
        let notArray = try CLITests.run(["count", "--path", "$.x", file])
        #expect(notArray.status == 1 && notArray.errors.contains("names object, not an array"))
    }

    @Test func countAndNdjsonTakeIndexesWildcardsAndQuotedKeys() throws {
        let file = try scratch.file(Self.nested)
        #expect(try CLITests.run(["count", "--path", "$.batches[0].items", file]).output == "2\n")
        #expect(try CLITests.run(["count", "--path", "$.batches[*].items[*]", file]).output == "3\n")
        #expect(try CLITests.run(["count", "--path", #"$["data"]"#, file]).output == "2\n")
        #expect(try CLITests.run(["ndjson", "--path", "$.data[*].id", file]).output == "1\n2\n")
        // An empty array the path names counts 0 (it was found).
        #expect(try CLITests.run(["count", "--path", "$.e"], input: #"{"e": []}"#).output == "0\n")
    }

    @Test func oneLayoutSpellingAcrossCommands() throws {
        let file = try scratch.file(#"{"b": [1], "a": {}}"#)
        #expect(try CLITests.run(["format", "-t", file]).output == "{\n\t\"b\": [\n\t\t1\n\t],\n\t\"a\": {}\n}\n")
        #expect(try CLITests.run(["format", "-i", "4", "-S", file]).output == "{\n    \"a\": {},\n    \"b\": [\n        1\n    ]\n}\n")
        #expect(try CLITests.run(["format", "-c", file]).output == #"{"b":[1],"a":{}}"# + "\n")
        #expect(try CLITests.run(["convert", "--to", "json", "--indent", "1", file]).output == "{\n \"b\": [\n  1\n ],\n \"a\": {}\n}\n")
        #expect(try CLITests.run(["convert", "--to", "json", file]).output == #"{"b":[1],"a":{}}"# + "\n")
        #expect(try CLITests.run(["format", "--pretty", "3", file]).output.hasPrefix("{\n   \"b\"")) // the earlier spelling still works
        let conflict = try CLITests.run(["format", "-c", "-t", file])
        #expect(conflict.status == 2)
    }

    @Test func colourOnRequestAndNeverIntoAPipe() throws {
        let json = #"{"a":[1,true,null,"x\"y"],"b":-2.5e3}"#
        let coloured = try CLITests.run(["format", "--color", "always", "-c"], input: json).output
        #expect(
            coloured == "{\u{1B}[1;34m\"a\"\u{1B}[0m:[\u{1B}[0;33m1\u{1B}[0m,\u{1B}[0;35mtrue\u{1B}[0m,\u{1B}[1;30mnull\u{1B}[0m,"
                + "\u{1B}[0;32m\"x\\\"y\"\u{1B}[0m],\u{1B}[1;34m\"b\"\u{1B}[0m:\u{1B}[0;33m-2.5e3\u{1B}[0m}\n")
        // The tests' standard output is a pipe: auto means no colour.
        #expect(!(try CLITests.run(["format"], input: json).output.contains("\u{1B}")))
        #expect(!(try CLITests.run(["get", "--color", "never", "$.a"], input: json).output.contains("\u{1B}")))
    }
}
