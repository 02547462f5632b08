// Runs one scenario's peer for N events on the main thread, for `callgrind.sh`:
//
//   InstructionCounts <scenario> <peer> <N> [--installed-loop]
//                                              e.g. InstructionCounts a Bindery 1000
//   InstructionCounts --list                   scenarios as tab-separated lines
//   InstructionCounts --check [N]              every peer once; checksums must agree
//
// Under valgrind, two runs with N1 and N2 events give instructions per event as
// (Ir(N2) - Ir(N1)) / (N2 - N1): process start-up and pipeline setup cancel out.
//
// By default no MainRunLoop is installed, so MainScheduler's loop thread is the process
// main thread, which this runs on. `--installed-loop` installs `CurrentThreadLoop` first,
// as the package-benchmark suite does for the Binder scenarios.
import Foundation
import Scenarios

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let installedLoop = arguments.contains("--installed-loop")
arguments.removeAll { $0 == "--installed-loop" }

// MainScheduler's thread is the process main thread when no loop is installed; top-level
// code runs there, which the Binder scenarios rely on.
guard Thread.isMainThread else { fail("InstructionCounts: not on the main thread") }

switch arguments.first {
case "--list":
    // id, name, peers (comma-separated), RxSwift reference, OpenCombine reference (issue), target, summary
    for scenario in allScenarios {
        let fields = [
            scenario.id, scenario.name, scenario.peers.map(\.name).joined(separator: ","),
            scenario.rxSwiftReference.map(String.init) ?? "-",
            scenario.openCombineReference.map(String.init) ?? "-",
            scenario.target.map(String.init) ?? "-",
            scenario.summary,
        ]
        print(fields.joined(separator: "\t"))
    }

case "--check":
    let n = arguments.count > 1 ? Int(arguments[1]) ?? 1_000 : 1_000
    var failed = false
    for scenario in allScenarios {
        let results = scenario.peers.map { ($0.name, $0.make().run(n)) }
        let agree = Set(results.map(\.1)).count == 1
        failed = failed || !agree
        print("\(scenario.title): " + results.map { "\($0.0)=\($0.1)" }.joined(separator: " ") + (agree ? "" : "  MISMATCH"))
    }
    if failed { exit(1) }

default:
    guard arguments.count == 3, let n = Int(arguments[2]), n >= 0 else {
        fail("usage: InstructionCounts <scenario> <peer> <N> [--installed-loop] | --list | --check [N]")
    }
    guard let scenario = scenario(named: arguments[0]) else { fail("unknown scenario \(arguments[0])") }
    guard let peer = scenario.peer(arguments[1]) else {
        fail("\(scenario.title) has no peer \(arguments[1]) (peers: \(scenario.peers.map(\.name).joined(separator: ", ")))")
    }
    let measure = { peer.make().run(n) }
    let checksum = installedLoop ? CurrentThreadLoop.run(measure) : measure()
    print("\(scenario.title) \(peer.name) N=\(n) checksum=\(checksum)")
}
