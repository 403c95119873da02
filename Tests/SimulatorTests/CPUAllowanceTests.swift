import Foundation
import Testing
@testable import Simulator

/// The default `--threads`: the CPUs the process may run on, after its affinity
/// mask and any cgroup CPU quota.
@Suite("CPU allowance")
struct CPUAllowanceTests {
    @Test("cgroup v2 cpu.max: quota / period rounded up, at least 1; 'max' is no limit", arguments: [
        ("max 100000", nil), ("max 100000\n", nil), ("150000 100000", 2), ("100000 100000\n", 1), ("50000 100000", 1),
        ("1000 100000", 1), ("400000 100000", 4), ("-1", nil), ("", nil), ("abc 100000", nil), ("100000 0", nil),
    ] as [(String, Int?)])
    func cgroupV2(cpuMax: String, limit: Int?) {
        #expect(CPUAllowance.cgroupV2Limit(cpuMax) == limit)
    }

    @Test("cgroup v1 cfs quota and period: -1 is no limit", arguments: [
        ("-1", "100000", nil), ("-1\n", "100000\n", nil), ("150000\n", "100000\n", 2), ("100000", "100000", 1),
        ("20000", "100000", 1), ("", "100000", nil),
    ] as [(String, String, Int?)])
    func cgroupV1(quota: String, period: String, limit: Int?) {
        #expect(CPUAllowance.cgroupV1Limit(quota: quota, period: period) == limit)
    }

    @Test("the process's cgroup v2 folder comes from the 0:: line of /proc/self/cgroup")
    func cgroupPath() {
        #expect(CPUAllowance.cgroupV2Path(procSelfCgroup: "0::/\n") == "/")
        #expect(CPUAllowance.cgroupV2Path(procSelfCgroup: "0::/kubepods/pod1/abc\n") == "/kubepods/pod1/abc")
        #expect(CPUAllowance.cgroupV2Path(procSelfCgroup: "12:cpu,cpuacct:/slurm/uid_0/job_7\n0::/x\n") == "/x")
        #expect(CPUAllowance.cgroupV2Path(procSelfCgroup: "4:cpu,cpuacct:/docker/abc\n") == nil)
    }

    @Test("the smallest of affinity, quotas and processors wins; one CPU from Slurm or a 1-CPU limit gives 1")
    func smallestWins() {
        #expect(CPUAllowance.combine(affinity: 1, quotas: [], processors: 64) == 1)       // Slurm: one CPU bound
        #expect(CPUAllowance.combine(affinity: 64, quotas: [1], processors: 64) == 1)     // Kubernetes: limit 1 CPU
        #expect(CPUAllowance.combine(affinity: 8, quotas: [4, 2], processors: 64) == 2)
        #expect(CPUAllowance.combine(affinity: nil, quotas: [], processors: 6) == 6)
        #expect(CPUAllowance.combine(affinity: nil, quotas: [], processors: 0) == 1)
    }

    @Test("the default is between 1 and the active processor count, and run and bench use it")
    func defaultIsWithinTheMachine() throws {
        let available = CPUAllowance.available()
        #expect((1...ProcessInfo.processInfo.activeProcessorCount).contains(available))
        let options = try RunCommand.Options(["x.json"])
        #expect(options.threads == available)
    }
}
