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
    /// Bytes one run may write through `vfs.write` and the authoring calls; every file
    /// counts at least [`Limits::MIN_WRITE_COST`], so files cannot flood the disk either.
    pub max_write_bytes: usize,
    /// The largest source (the script, a `loadstring` chunk) a run compiles. Luau's
    /// compiler spends up to about 80 bytes of its own memory, outside the heap limit, per
    /// byte of source, so [`Limits::compile_cap`] also keeps it under 1/128 of the heap.
    pub max_source_bytes: usize,
    /// The largest file `vfs.read` returns and `vfs.write`, `tools.create` and
    /// `tools.install` write (default 4 MiB).
    pub max_file_bytes: usize,
    /// Writes are refused when they would leave less than this free on the disk holding
    /// the world (default 1 GiB): each run's budget is bounded, but runs follow one
    /// another, and none may fill the disk the host needs.
    pub min_free_disk_bytes: u64,
}

impl Limits {
    /// The least a write counts against [`Limits::max_write_bytes`].
    pub(crate) const MIN_WRITE_COST: usize = 64 * 1024;

    /// The largest source a run may compile: [`Limits::max_source_bytes`], and at most
    /// 1/128 of the memory limit.
    pub(crate) fn compile_cap(&self) -> usize {
        self.max_source_bytes
            .min(self.memory_bytes / 128)
            .max(16 * 1024)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(10),
            memory_bytes: 256 * 1024 * 1024,
            max_output_bytes: 1024 * 1024,
            max_coroutines: 10_000,
            max_value_depth: 64,
            max_write_bytes: 64 * 1024 * 1024,
            max_source_bytes: 4 * 1024 * 1024,
            max_file_bytes: 4 * 1024 * 1024,
            min_free_disk_bytes: 1 << 30,
        }
    }
}
