import Base
import FoundationEssentials
import Glibc
import Reports

/// How many CPUs this process may really use: the default of `--threads`. A Slurm
/// task given one CPU (an affinity mask) or a Kubernetes container with a CPU limit
/// (a cgroup quota) sees every core of the machine in `activeProcessorCount`; more
/// threads than its share only time-slice against each other.
package enum CPUAllowance {
    /// The smallest of: the CPUs in the affinity mask, each cgroup CPU quota found
    /// (rounded up) and `ProcessInfo.activeProcessorCount`; at least 1.
    /// - Complexity: O(depth of the process's cgroup): a few small file reads.
    package static func available() -> Int {
        combine(affinity: affinityCount(), quotas: cgroupQuotas(), processors: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The smallest of the counts known, at least 1.
    /// - Complexity: O(quotas).
    package static func combine(affinity: Int?, quotas: [Int], processors: Int) -> Int {
        max(1, ([affinity].compactMap { $0 } + quotas + [processors]).min() ?? 1)
    }

    /// CPUs a cgroup v2 `cpu.max` ("quota period", or "max period" for no limit)
    /// allows: quota / period rounded up, at least 1; nil for no limit or a file
    /// that does not parse.
    /// - Complexity: O(n) in the text's length.
    package static func cgroupV2Limit(_ cpuMax: String) -> Int? {
        let fields = cpuMax.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, fields[0] != "max" else { return nil }
        return limit(quota: String(fields[0]), period: String(fields[1]))
    }

    /// CPUs cgroup v1's `cpu.cfs_quota_us` and `cpu.cfs_period_us` allow; nil for
    /// no limit (a quota of -1).
    /// - Complexity: O(n) in the texts' length.
    package static func cgroupV1Limit(quota: String, period: String) -> Int? {
        limit(quota: trimmed(quota), period: trimmed(period))
    }

    /// `text` without the white space and line ends around it (a cgroup file ends in `\n`).
    private static func trimmed(_ text: String) -> String {
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text.lastIndex { !$0.isWhitespace }.map(text.index(after:)) ?? start
        return String(text[start..<end])
    }

    private static func limit(quota: String, period: String) -> Int? {
        guard let quota = Int64(quota), let period = Int64(period), quota > 0, period > 0 else { return nil }
        return Int(max(1, (quota + period - 1) / period))
    }

    /// The folders whose CPU quota binds this process: its own cgroup and each above it
    /// (a parent's limit binds its children), from `/proc/self/cgroup`'s lines
    /// "id:controllers:path" ("0::path" for v2), under the usual mount points. A
    /// container sees its own cgroup as the root, so the roots are always included.
    /// - Complexity: O(n) in the text's length.
    package static func cgroupFolders(procSelfCgroup: String) -> (v2: [String], v1: [String]) {
        func withParents(_ path: String, under roots: [String]) -> [String] {
            var paths: [String] = []
            var current: String? = path
            while let folder = current, folder != "/", !folder.isEmpty {
                paths.append(folder)
                current = ReportWriter.parent(of: folder)
            }
            return roots.flatMap { root in [root] + paths.map { root + $0 } }
        }
        let v2Roots = ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"]
        let v1Roots = ["/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpuacct,cpu"]
        var v2 = v2Roots, v1 = v1Roots
        for line in procSelfCgroup.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let path = String(fields[2])
            if fields[0] == "0" && fields[1].isEmpty {
                v2 = withParents(path, under: v2Roots)
            } else if fields[1].split(separator: ",").contains("cpu") {
                v1 = withParents(path, under: v1Roots)
            }
        }
        return (v2, v1)
    }

    /// The quota of every folder of `cgroupFolders` that sets one, v2 and v1.
    private static func cgroupQuotas() -> [Int] {
        func text(_ path: String) -> String? {
            (try? FileBytes.read(path: path)).map { String(decoding: $0, as: UTF8.self) }
        }
        let folders = cgroupFolders(procSelfCgroup: text("/proc/self/cgroup") ?? "")
        var quotas: [Int] = []
        for folder in folders.v2 {
            if let limit = text(folder + "/cpu.max").flatMap(cgroupV2Limit) { quotas.append(limit) }
        }
        for folder in folders.v1 {
            if let quota = text(folder + "/cpu.cfs_quota_us"), let period = text(folder + "/cpu.cfs_period_us"),
               let limit = cgroupV1Limit(quota: quota, period: period) {
                quotas.append(limit)
            }
        }
        return quotas
    }

    /// CPUs in this process's affinity mask (`taskset`, Slurm's binding), or nil
    /// where the system cannot say. Swift's Glibc module leaves out the `_GNU_SOURCE`
    /// declaration of `sched_getaffinity`, so the C function is looked up by name.
    private static func affinityCount() -> Int? {
        #if os(Linux)
        typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer?) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "sched_getaffinity") else { return nil }
        let getAffinity = unsafeBitCast(symbol, to: GetAffinity.self)
        // Room for 8192 CPUs (glibc's cpu_set_t holds 1024, too few for the largest machines).
        var mask = [UInt8](repeating: 0, count: 1024)
        guard mask.withUnsafeMutableBytes({ getAffinity(0, $0.count, $0.baseAddress) }) == 0 else { return nil }
        let count = mask.reduce(0) { $0 + $1.nonzeroBitCount }
        return count > 0 ? count : nil
        #else
        return nil
        #endif
    }
}
