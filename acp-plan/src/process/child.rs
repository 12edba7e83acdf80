//! The agent as a child process: started in a process group of its own,
//! its output read as lines, its standard error kept or passed on, and the
//! whole group ended on every way out, a signal to the client included
//! (the folder's documentation says how).

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::{Duration, Instant};

/// Blocks until the process is asked to stop (`Ctrl-C`, `SIGTERM`,
/// `SIGHUP`), and returns the exit status the signal would have given
/// (128 and its number), so the caller can clean up and end as it would
/// have: `acp-plan model` removes its throwaway home this way.
#[cfg(unix)]
pub(crate) fn until_stopped() -> u8 {
    u8::try_from(128 + group::until_stopped()).unwrap_or(1)
}

/// Elsewhere: blocks for good (the process ends as the platform ends it).
#[cfg(not(unix))]
pub(crate) fn until_stopped() -> u8 {
    loop {
        std::thread::park();
    }
}

/// The agent's output as a channel of lines, read on a thread of its own
/// (not scoped: an agent that never closes its output must not keep the
/// client waiting; the thread ends when the output does).
pub(crate) fn lines(agent_out: impl BufRead + Send + 'static) -> mpsc::Receiver<Vec<u8>> {
    let (sender, inbox) = mpsc::channel();
    std::thread::spawn(move || {
        for read in agent_out.split(b'\n') {
            let Ok(bytes) = read else { break };
            if sender.send(bytes).is_err() {
                break;
            }
        }
    });
    inbox
}

/// How long the group has between `SIGTERM` and `SIGKILL`.
const TERMINATE_GRACE: Duration = Duration::from_secs(1);

/// How many of the agent's last standard error lines are kept.
const STDERR_TAIL: usize = 12;

/// Where the agent's standard error goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stderr {
    /// To the client's, as it comes (the board: a person watches).
    Inherit,
    /// Kept, its last lines quoted when the agent could not be driven
    /// (`check`: a report, not the agent's log).
    Keep,
}

/// A running agent, ended (with its process group) when dropped.
#[derive(Debug)]
pub(crate) struct AgentProcess {
    child: Child,
    /// How long [`Drop`] waits for the agent to exit on its own after its
    /// input closed.
    grace: Duration,
    /// Its last lines on standard error, with [`Stderr::Keep`].
    stderr: Option<Arc<Mutex<VecDeque<String>>>>,
}

impl AgentProcess {
    /// Starts `program` with `args` and `env` added to this process's
    /// environment, its standard input and output piped,
    /// its standard error the client's, in a process group of its own.
    ///
    /// # Errors
    /// Why it could not be started.
    pub(crate) fn start(
        program: &str,
        args: &[String],
        env: &[(String, String)],
        stderr: Stderr,
    ) -> io::Result<(Self, ChildStdin, ChildStdout)> {
        let mut command = Command::new(program);
        command
            .args(args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match stderr {
                Stderr::Inherit => Stdio::inherit(),
                Stderr::Keep => Stdio::piped(),
            });
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn()?;
        #[cfg(unix)]
        group::watch(child.id());
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            unreachable!("both were piped")
        };
        let kept = child.stderr.take().map(|pipe| {
            let tail = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL)));
            let keep = Arc::clone(&tail);
            // Read to its end on a thread of its own, so a full pipe never
            // stalls the agent.
            std::thread::spawn(move || {
                for line in io::BufReader::new(pipe).split(b'\n') {
                    let Ok(line) = line else { break };
                    let mut tail = keep.lock().unwrap_or_else(PoisonError::into_inner);
                    if tail.len() == STDERR_TAIL {
                        tail.pop_front();
                    }
                    tail.push_back(String::from_utf8_lossy(&line).trim_end().to_owned());
                }
            });
            tail
        });
        let agent = Self {
            child,
            grace: Duration::ZERO,
            stderr: kept,
        };
        Ok((agent, input, output))
    }

    /// The agent's last lines on standard error (with [`Stderr::Keep`]),
    /// blank ones left out.
    pub(crate) fn stderr_tail(&self) -> Vec<String> {
        self.stderr.as_ref().map_or_else(Vec::new, |tail| {
            let tail = tail.lock().unwrap_or_else(PoisonError::into_inner);
            tail.iter()
                .filter(|l| !l.trim().is_empty())
                .cloned()
                .collect()
        })
    }

    /// Ends the agent, giving it `grace` to exit on its own first (its input
    /// must be closed by then: the caller drops the [`ChildStdin`]).
    pub(crate) fn end(mut self, grace: Duration) {
        self.grace = grace;
        // Drop does the work.
    }

    /// Whether the agent has exited.
    pub(crate) fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Waits at most `within` for the agent to exit: its exit code, `None`
    /// if it has not exited by then or a signal ended it.
    pub(crate) fn wait_status(&mut self, within: Duration) -> Option<i32> {
        self.wait_exit(within);
        self.child.try_wait().ok().flatten().and_then(|s| s.code())
    }

    /// Waits at most `within` for the agent to exit.
    fn wait_exit(&mut self, within: Duration) {
        let deadline = Instant::now() + within;
        while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for AgentProcess {
    fn drop(&mut self) {
        self.wait_exit(self.grace);
        #[cfg(unix)]
        {
            let pgid = self.child.id();
            // What the agent started may outlive it: the group goes too.
            if group::signal(pgid, group::Signal::Terminate) {
                let deadline = Instant::now() + TERMINATE_GRACE;
                while Instant::now() < deadline {
                    let _ = self.child.try_wait();
                    if !group::signal(pgid, group::Signal::Probe) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                group::signal(pgid, group::Signal::Kill);
            }
            group::forget(pgid);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The process-group calls std lacks: signalling a group, and a handler
/// that ends the agent's group when the client is interrupted.
#[cfg(unix)]
#[allow(unsafe_code)] // FFI to kill(2), signal(2), raise(3); each call is commented.
mod group {
    use std::sync::Once;
    use std::sync::atomic::{AtomicI32, Ordering};

    /// The agent's process group, for the signal handler (0: none).
    static AGENT_GROUP: AtomicI32 = AtomicI32::new(0);
    static INSTALL: Once = Once::new();

    /// What to send a group.
    #[derive(Debug, Clone, Copy)]
    pub(super) enum Signal {
        /// Nothing: whether the group still has a member.
        Probe,
        /// `SIGTERM`.
        Terminate,
        /// `SIGKILL`.
        Kill,
    }

    /// Sends `signal` to every process of group `pgid`; whether one got it
    /// (false once the group is empty).
    pub(super) fn signal(pgid: u32, signal: Signal) -> bool {
        let Ok(pgid) = i32::try_from(pgid) else {
            return false;
        };
        if pgid <= 1 {
            return false; // never the caller's own group or every process
        }
        let number = match signal {
            Signal::Probe => 0,
            Signal::Terminate => libc::SIGTERM,
            Signal::Kill => libc::SIGKILL,
        };
        // SAFETY: kill(2) with a negative pid signals that process group;
        // it touches no memory of ours.
        unsafe { libc::kill(-pgid, number) == 0 }
    }

    /// Remembers `pgid` as the agent's group, and installs the handlers
    /// (once per process).
    pub(super) fn watch(pgid: u32) {
        AGENT_GROUP.store(i32::try_from(pgid).unwrap_or(0), Ordering::SeqCst);
        INSTALL.call_once(|| {
            for number in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                let handler = on_signal as extern "C" fn(libc::c_int);
                // SAFETY: the handler only makes async-signal-safe calls
                // (kill, signal, raise) and reads an atomic. A signal the
                // client was started ignoring (`nohup`, a background job)
                // stays ignored.
                unsafe {
                    if libc::signal(number, handler as libc::sighandler_t) == libc::SIG_IGN {
                        libc::signal(number, libc::SIG_IGN);
                    }
                }
            }
        });
    }

    /// The agent is gone: the handler has nothing to end.
    pub(super) fn forget(pgid: u32) {
        let _ = AGENT_GROUP.compare_exchange(
            i32::try_from(pgid).unwrap_or(0),
            0,
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
    }

    /// The pipe `until_stopped`'s handler writes the signal's number to
    /// (-1: none).
    static STOP_PIPE: AtomicI32 = AtomicI32::new(-1);

    /// Blocks until `SIGINT`, `SIGTERM` or `SIGHUP` arrives, and returns
    /// its number (0 if the pipe cannot be made): the handler writes it to
    /// a pipe, so the caller unwinds as on any other way out, its `Drop`s
    /// run, and it ends with the signal's status itself.
    pub(super) fn until_stopped() -> i32 {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe(2) fills the two descriptors of the array it is given.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return 0;
        }
        STOP_PIPE.store(fds[1], Ordering::SeqCst);
        for number in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            let handler = on_stop as extern "C" fn(libc::c_int);
            // SAFETY: the handler only reads an atomic and calls write(2),
            // both async-signal-safe; an ignored signal stays ignored.
            unsafe {
                if libc::signal(number, handler as libc::sighandler_t) == libc::SIG_IGN {
                    libc::signal(number, libc::SIG_IGN);
                }
            }
        }
        let mut number = 0u8;
        loop {
            // SAFETY: read(2) of one byte into a byte we own.
            let read = unsafe { libc::read(fds[0], (&raw mut number).cast(), 1) };
            if read == 1 {
                return i32::from(number);
            }
            if read == 0
                || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
            {
                return 0;
            }
        }
    }

    extern "C" fn on_stop(number: libc::c_int) {
        let fd = STOP_PIPE.load(Ordering::SeqCst);
        let byte = u8::try_from(number).unwrap_or(0);
        // SAFETY: write(2) is async-signal-safe; it reads one byte we own.
        unsafe {
            libc::write(fd, (&raw const byte).cast(), 1);
        }
    }

    /// Ends the agent's group, then the client, as `number` would have.
    extern "C" fn on_signal(number: libc::c_int) {
        let pgid = AGENT_GROUP.swap(0, Ordering::SeqCst);
        // SAFETY: kill, signal and raise are async-signal-safe. Restoring the
        // default action and raising again ends the process with the
        // signal's own status (130 for Ctrl-C in a shell).
        unsafe {
            if pgid > 1 {
                libc::kill(-pgid, libc::SIGTERM);
            }
            libc::signal(number, libc::SIG_DFL);
            libc::raise(number);
        }
    }
}
