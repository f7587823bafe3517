//! Running the viewer as a child process and reading its peak memory (`wait4`'s rusage), for the tests
//! that bound memory (gzip bombs, large files).

use std::process::Command;

/// What a run of the viewer did: its exit status, peak resident memory in bytes, its standard output
/// followed by its standard error, and how long it took.
#[derive(Debug)]
pub struct Measured {
    pub status: std::process::ExitStatus,
    pub peak: u64,
    pub text: String,
    pub elapsed: std::time::Duration,
}

/// Runs `command` to its end with its output drained on threads (a chatty child cannot block), and returns
/// its exit status, peak resident memory in bytes (Linux `wait4` rusage: ru_maxrss in KiB, scaled) and its
/// standard output followed by its standard error.
pub fn run_and_measure_peak(command: &mut Command) -> (std::process::ExitStatus, u64, String) {
    let run = run_measured(command, None);
    (run.status, run.peak, run.text)
}

/// As [`run_and_measure_peak`], killing the child and failing the test if it runs past `limit` (a reader
/// blocked on a FIFO would hang it).
pub fn run_within(command: &mut Command, limit: std::time::Duration) -> Measured {
    run_measured(command, Some(limit))
}

fn run_measured(command: &mut Command, limit: Option<std::time::Duration>) -> Measured {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let started = std::time::Instant::now();
    // Reaped by `wait4` below, which std's `wait` cannot replace (it gives no rusage).
    let child = command.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut child = child;
    let mut stderr = child.stderr.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut s).ok();
        s
    });
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).ok();
        s
    });
    let done = Arc::new(AtomicBool::new(false));
    let killed = Arc::new(AtomicBool::new(false));
    let watchdog = limit.map(|limit| {
        let (done, killed) = (done.clone(), killed.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) {
                if started.elapsed() > limit {
                    killed.store(true, Ordering::SeqCst);
                    let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        })
    });
    let mut status = 0;
    // SAFETY: plain FFI call on our own child's pid with valid out-pointers (std offers no way to read a
    // child's peak memory).
    #[allow(unsafe_code)]
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    #[allow(unsafe_code)]
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = started.elapsed();
    done.store(true, Ordering::SeqCst);
    if let Some(w) = watchdog {
        w.join().unwrap();
    }
    assert_eq!(r, pid, "wait4 failed");
    let text = out.join().unwrap() + &err.join().unwrap();
    assert!(!killed.load(Ordering::SeqCst), "the command ran past {limit:?} and was killed (blocked?):\n{text}");
    use std::os::unix::process::ExitStatusExt;
    Measured { status: std::process::ExitStatus::from_raw(status), peak: usage.ru_maxrss as u64 * 1024, text, elapsed }
}
