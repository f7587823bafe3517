//! The runner of the test files whose tests need something a machine may lack: a GPU adapter, a display,
//! a program (ffmpeg, xmllint, GNU parallel, …) or a corpus file kept outside the repository.
//!
//! Rust's own runner has no way for a test to say "I could not run": such a test returned early and was
//! reported `ok`. These files are built with `harness = false` (Cargo.toml) and run by libtest-mimic,
//! which takes the same command line and prints the same lines, and reports a test that calls [`skip`]
//! as `ignored, <why>`, counted in the summary's `ignored`. A test that ran without some of its listed
//! files ([`partly`]) is reported the same way, naming them.
//!
//! Under `CI=true` nothing is ignored: [`skip`] and [`partly`] fail the test instead, since CI has every
//! tool and file (`.ci/run` installs them).
//!
//! A file lists its tests once, with [`test_main!`](crate::test_main); a function that is not listed is
//! unused, which the compiler reports.

use std::any::Any;
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::process::ExitCode;

use libtest_mimic::{Arguments, Completion, Failed, Trial};

/// Whether this is a CI run (`CI=true`), where every test must run.
pub fn in_ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

/// The payload of a skip: a test unwinds with it, and the runner reports it ignored.
struct Skip(String);

thread_local! {
    /// The test running on this thread, and what it ran without.
    static RUNNING: RefCell<Option<(&'static str, Vec<String>)>> = const { RefCell::new(None) };
}

/// Stops the running test, which cannot run here for the reason given: reported `ignored, <why>`. Under
/// `CI=true`, a failure.
pub fn skip(why: impl Into<String>) -> ! {
    let why = why.into();
    if in_ci() {
        panic!("CI=true but this test cannot run: {why}");
    }
    // Without the panic hook: nothing is printed, the runner prints the reason.
    resume_unwind(Box::new(Skip(why)))
}

/// Notes that the running test goes on without part of what it checks (`what`, e.g. a corpus file that
/// is not there): when it passes, it is reported `ignored, ran without …`. Under `CI=true`, a failure.
pub fn partly(what: impl Into<String>) {
    let what = what.into();
    if in_ci() {
        panic!("CI=true but this test would run without {what}");
    }
    RUNNING.with(|r| match r.borrow_mut().as_mut() {
        Some((_, missing)) => missing.push(what),
        // Outside this runner (a file on Rust's own runner): a test that runs partly is a failure there.
        None => panic!("this test would run without {what}, and its file's runner cannot report that"),
    });
}

/// The name of the test running on this thread, when this runner runs it.
pub fn running_test() -> Option<&'static str> {
    RUNNING.with(|r| r.borrow().as_ref().map(|(name, _)| *name))
}

/// Runs `tests` (name, function) as libtest would, reporting skips as ignored; the process's exit code.
pub fn run(tests: &[(&'static str, fn())]) -> ExitCode {
    let args = Arguments::from_args();
    let trials = tests.iter().map(|&(name, test)| Trial::ignorable_test(name, move || run_one(name, test))).collect();
    libtest_mimic::run(&args, trials).exit_code()
}

/// Runs one test on a thread of its own, joined to its very end, as Rust's own runner does. The runner's
/// pool threads are waited for only until their work returns; a GPU driver's thread-local destructors
/// still running on them then raced with the process's exit (a double free or a crash after every test
/// had passed).
fn run_one(name: &'static str, test: fn()) -> Result<Completion, Failed> {
    let thread = std::thread::Builder::new().name(name.to_string()).spawn(move || run_here(name, test));
    match thread {
        Ok(handle) => handle.join().unwrap_or_else(|payload| Err(Failed::from(panic_message(payload.as_ref())))),
        Err(e) => Err(Failed::from(format!("could not start the test's thread: {e}"))),
    }
}

fn run_here(name: &'static str, test: fn()) -> Result<Completion, Failed> {
    RUNNING.with(|r| *r.borrow_mut() = Some((name, Vec::new())));
    let outcome = catch_unwind(AssertUnwindSafe(test));
    let missing = RUNNING.with(|r| r.borrow_mut().take()).map(|(_, m)| m).unwrap_or_default();
    match outcome {
        Ok(()) if missing.is_empty() => Ok(Completion::Completed),
        Ok(()) => Ok(Completion::ignored_with(format!("ran without {}", missing.join(", ")))),
        Err(payload) => match payload.downcast::<Skip>() {
            Ok(skip) => Ok(Completion::ignored_with(skip.0)),
            Err(payload) => Err(Failed::from(panic_message(payload.as_ref()))),
        },
    }
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "the test panicked".to_string()
    }
}

/// The `main` of a test file run by this runner: `test_main!(first_test, second_test, …);` lists its
/// tests, each a `fn()` of the file (no `#[test]` attribute: the file is built without Rust's runner).
#[macro_export]
macro_rules! test_main {
    ($($test:ident),+ $(,)?) => {
        fn main() -> std::process::ExitCode {
            $crate::common::harness::run(&[$((stringify!($test), $test as fn())),+])
        }
    };
}
