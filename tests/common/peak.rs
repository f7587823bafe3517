//! Running the viewer as a child process and reading its peak memory (`wait4`'s rusage), for the tests
//! that bound memory (gzip bombs, large files).

use std::process::Command;

/// Runs `command` to its end with its output drained on threads (a chatty child cannot block), and returns
/// its exit status, peak resident memory in bytes (Linux `wait4` rusage: ru_maxrss in KiB, scaled) and its
/// standard output followed by its standard error.
pub fn run_and_measure_peak(command: &mut Command) -> (std::process::ExitStatus, u64, String) {
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
    let mut status = 0;
    // SAFETY: plain FFI call on our own child's pid with valid out-pointers (std offers no way to read a
    // child's peak memory).
    #[allow(unsafe_code)]
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    #[allow(unsafe_code)]
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4 failed");
    let text = out.join().unwrap() + &err.join().unwrap();
    use std::os::unix::process::ExitStatusExt;
    (std::process::ExitStatus::from_raw(status), usage.ru_maxrss as u64 * 1024, text)
}
