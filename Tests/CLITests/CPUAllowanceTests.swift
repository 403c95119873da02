@testable import CLI
import Foundation
import Testing

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

    @Test("the cgroup folders read are the process's own and those above it, from /proc/self/cgroup")
    func cgroupFolders() {
        let v2Roots = ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"]
        let v1Roots = ["/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpuacct,cpu"]
        // A container with its own cgroup namespace: only the roots.
        let namespaced = CPUAllowance.cgroupFolders(procSelfCgroup: "0::/\n")
        #expect(namespaced.v2 == v2Roots && namespaced.v1 == v1Roots)
        let kubernetes = CPUAllowance.cgroupFolders(procSelfCgroup: "0::/kubepods/pod1/abc\n")
        #expect(kubernetes.v2 == ["/sys/fs/cgroup", "/sys/fs/cgroup/kubepods/pod1/abc", "/sys/fs/cgroup/kubepods/pod1",
                                  "/sys/fs/cgroup/kubepods", "/sys/fs/cgroup/unified", "/sys/fs/cgroup/unified/kubepods/pod1/abc",
                                  "/sys/fs/cgroup/unified/kubepods/pod1", "/sys/fs/cgroup/unified/kubepods"])
        // cgroup v1: the line whose controllers include cpu; memory's path is not the CPU's.
        let slurm = CPUAllowance.cgroupFolders(procSelfCgroup: "4:memory:/elsewhere\n3:cpu,cpuacct:/slurm/job_7\n")
        #expect(slurm.v1 == v1Roots.flatMap { [$0, $0 + "/slurm/job_7", $0 + "/slurm"] })
        #expect(slurm.v2 == v2Roots)
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
