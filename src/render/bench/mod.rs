//! Benchmarks that mirror the window's frame: the 3D view alone, headless ([`bench_view`]), and the
//! report both it and the window's benchmark (`app`) print ([`BenchReport`]).

mod report;
mod view3d;

pub use report::{BenchReport, DeformThroughput, StageSamples, StageTime, median};
pub use view3d::{ViewBenchOptions, bench_view};
