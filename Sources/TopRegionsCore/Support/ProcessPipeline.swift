import CSupport
import Foundation

/// Runs executables joined by pipes, as a shell runs `a | b | c`: each stage's standard
/// output is the next one's standard input; the first reads this process's standard input,
/// every stage writes its diagnostics (and progress, on a terminal) to this process's
/// standard error. Children start with SIGPIPE at its default and no signal blocked, as
/// from a shell, and get no other descriptor of this process (everything here is opened
/// close-on-exec) but the lock they are given to share.
///
/// The children die with this process: the kernel kills each (SIGKILL) when the thread that
/// started it ends, this process killed with -9 included, so a stage never runs on, orphaned,
/// beside the work of whoever comes next. A lock given to `run` is held by the children too,
/// on the same open file, until the last of them has ended: whoever waits for it starts
/// after every stage is gone, not when this process is.
public enum ProcessPipeline {
    public struct Stage: Sendable {
        /// An absolute path.
        public var executable: String
        public var arguments: [String]

        public init(_ executable: String, _ arguments: [String]) {
            self.executable = executable
            self.arguments = arguments
        }

        public var name: String { (executable as NSString).lastPathComponent }
    }

    /// How one stage ended, as a shell reports it: its exit status, or 128 plus the signal
    /// that killed it.
    public struct Outcome: Sendable, Equatable {
        public var stage: String
        public var status: Int32
        /// The signal that ended the stage, if one did.
        public var signal: Int32?
    }

    /// Starts every stage, waits for all of them, and returns how each ended, in pipeline
    /// order. `lastOutput` is the descriptor the last stage writes its standard output to.
    /// `ownSessions`: each stage starts a session of its own, without a controlling terminal
    /// (what it does to its session's CPU weight is then its own: see `SessionWeight`); they
    /// still die with this process. Call it on a thread that lives until it returns (as it
    /// does, unless the process ends).
    public static func run(
        _ stages: [Stage], environment: [String: String], lastOutput: Int32 = STDOUT_FILENO, sharing lock: KeyLock? = nil,
        ownSessions: Bool = false
    ) throws -> [Outcome] {
        precondition(!stages.isEmpty)
        var pipes: [(read: Int32, write: Int32)] = []
        defer {
            for pipe in pipes {
                close(pipe.read)
                close(pipe.write)
            }
        }
        for _ in 1..<stages.count {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else {
                throw SystemFailure.error(errno, "cannot create a pipe", otherwise: .unavailable)
            }
            pipes.append((fds[0], fds[1]))
            // (pipe2 is not in Swift's Glibc; nothing here spawns from another thread.)
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        }

        let environmentLines = environment.map { "\($0.key)=\($0.value)" }
        var started: [(stage: Stage, pid: pid_t)] = []
        var failure: (any Error)?
        for (index, stage) in stages.enumerated() {
            let input = index > 0 ? pipes[index - 1].read : STDIN_FILENO
            let output = index < stages.count - 1 ? pipes[index].write : lastOutput
            do {
                started.append((stage, try spawn(
                    stage, input: input, output: output, keeping: lock?.descriptor ?? -1, environment: environmentLines, ownSession: ownSessions)))
            } catch {
                failure = error
                break
            }
        }
        // Only the children hold the pipes now: a stage sees the end of its input when the
        // one before it exits, and a closed pipe when the one after it does.
        for pipe in pipes {
            close(pipe.read)
            close(pipe.write)
        }
        pipes = []

        var outcomes: [Outcome] = []
        for started in started {
            do {
                let (status, signal) = try wait(for: started.pid, stage: started.stage.name)
                outcomes.append(Outcome(stage: started.stage.name, status: status, signal: signal))
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return outcomes
    }

    private static func spawn(
        _ stage: Stage, input: Int32, output: Int32, keeping descriptor: Int32, environment: [String], ownSession: Bool
    ) throws -> pid_t {
        let argv = ([stage.executable] + stage.arguments).map { strdup($0) }
        let envp = environment.map { strdup($0) }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let status = tr_spawn_dying_with_parent(stage.executable, argv + [nil], envp + [nil], input, output, descriptor, SIGKILL, ownSession ? 1 : 0, &pid)
        guard status == 0 else {
            throw SystemFailure.error(status, "cannot start \(stage.executable)", otherwise: .unavailable)
        }
        return pid
    }

    private static func wait(for pid: pid_t, stage: String) throws -> (status: Int32, signal: Int32?) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            // Only a child this process did not start (or already waited for) gets here.
            guard errno == EINTR else {
                throw Failure(.internalError, "internal error: cannot wait for \(stage) (process \(pid)): \(String(cString: strerror(errno)))")
            }
        }
        let signal = status & 0x7F
        return signal == 0 ? ((status >> 8) & 0xFF, nil) : (128 + signal, signal)
    }

    /// The directory this process's executable is in (symbolic links resolved), where the
    /// toolkit's other executables are installed beside it.
    public static func executableDirectory() -> String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return (path as NSString).deletingLastPathComponent
        }
        // Without /proc (macOS): Foundation's idea of it, links resolved.
        guard let url = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        return url.deletingLastPathComponent().path
    }
}
