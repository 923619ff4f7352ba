//! The limits every run is held to.

use std::time::Duration;

/// Per-run limits. A run that hits one stops with an error of that kind;
/// the engine keeps serving the next run.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// Wall-clock deadline (`--timeout-ms`, default 10 s).
    pub timeout: Duration,
    /// Heap of the VM (`--memory-mb`, default 256 MiB).
    pub memory_bytes: usize,
    /// Bytes of `print` output plus the returned value as JSON: the value gets what
    /// printing left (`--max-output-bytes`, default 1 MiB).
    pub max_output_bytes: usize,
    /// Coroutines one run may create.
    pub max_coroutines: usize,
    /// Nesting depth of the returned value before it is replaced by a placeholder.
    pub max_value_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(10),
            memory_bytes: 256 * 1024 * 1024,
            max_output_bytes: 1024 * 1024,
            max_coroutines: 10_000,
            max_value_depth: 64,
        }
    }
}
