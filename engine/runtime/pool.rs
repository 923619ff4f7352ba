//! A pool of runtimes: one sandboxed VM per worker thread, fed from one queue.
//!
//! Any free worker takes the next script, so a script stuck at its deadline holds
//! only its own worker; the others keep draining the queue. Each run gets a fresh
//! environment (see [`Runtime::exec`]), and a VM that hit its memory limit is
//! replaced by the runtime itself, so nothing one run does is seen by the next.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;

use super::{Envelope, ErrorKind, Limits, Output, Runtime, ScriptError, StartError};
use crate::registry::Registry;

/// Called with the envelope when a job finishes.
type Reply = Box<dyn FnOnce(Envelope) + Send>;
/// Asked just before a job starts; `false` means the caller went away and the job is skipped.
type Wanted = Box<dyn Fn() -> bool + Send>;

struct Job {
    source: String,
    reply: Reply,
    wanted: Wanted,
}

/// Why a script was not queued.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// The queue holds as many scripts as it may.
    #[error("the server is busy: {0} scripts are already waiting; retry in a moment or start the server with more --workers")]
    Busy(usize),
    /// The workers are gone (the pool is shutting down).
    #[error("the script pool has shut down; restart the server")]
    Closed,
}

/// A fixed set of worker threads, each owning one [`Runtime`].
pub struct Pool {
    sender: Mutex<Sender<Job>>,
    pending: Arc<AtomicUsize>,
    max_pending: usize,
    workers: usize,
    limits: Limits,
}

impl Pool {
    /// Starts `workers` threads (at least one) over `registry`, each with its own VM.
    /// At most `max_pending` scripts wait in the queue; more are refused with [`PoolError::Busy`].
    pub fn new(
        registry: Arc<Registry>,
        limits: Limits,
        workers: usize,
        max_pending: usize,
    ) -> Result<Pool, StartError> {
        let workers = workers.max(1);
        let (sender, receiver) = channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        let pending = Arc::new(AtomicUsize::new(0));
        for i in 0..workers {
            let runtime = Runtime::new(registry.clone(), limits.clone())?;
            let receiver = receiver.clone();
            let pending = pending.clone();
            thread::Builder::new()
                .name(format!("codemode-worker-{i}"))
                .spawn(move || work(runtime, receiver, pending))
                .map_err(|e| StartError(mlua::Error::external(e)))?;
        }
        Ok(Pool {
            sender: Mutex::new(sender),
            pending,
            max_pending: max_pending.max(1),
            workers,
            limits,
        })
    }

    /// The number of worker threads.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// The limits every run gets.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Scripts queued or running right now.
    pub fn pending(&self) -> usize {
        self.pending.load(Ordering::Relaxed)
    }

    /// Queues `source`; `reply` gets its envelope. `wanted` is asked when a worker picks the
    /// job up: when it says `false` (the caller disconnected) the job is dropped unrun.
    pub fn submit(
        &self,
        source: String,
        reply: impl FnOnce(Envelope) + Send + 'static,
        wanted: impl Fn() -> bool + Send + 'static,
    ) -> Result<(), PoolError> {
        let queued = self.pending.fetch_add(1, Ordering::AcqRel);
        // Running jobs count too, so the cap is on waiting ones: max_pending beyond the workers.
        if queued >= self.max_pending + self.workers {
            self.pending.fetch_sub(1, Ordering::AcqRel);
            return Err(PoolError::Busy(queued.saturating_sub(self.workers)));
        }
        let job = Job {
            source,
            reply: Box::new(reply),
            wanted: Box::new(wanted),
        };
        let sent = self
            .sender
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(job);
        sent.map_err(|_| {
            self.pending.fetch_sub(1, Ordering::AcqRel);
            PoolError::Closed
        })
    }

    /// Runs `source` on the pool and waits for its envelope (for callers without an
    /// async runtime: benchmarks, tests). A refused job comes back as an error envelope.
    pub fn exec(&self, source: &str) -> Envelope {
        let (tx, rx) = channel();
        let queued = self.submit(
            source.to_string(),
            move |envelope| {
                let _ = tx.send(envelope);
            },
            || true,
        );
        match queued {
            Ok(()) => rx
                .recv()
                .unwrap_or_else(|_| refused(ErrorKind::Limit, &PoolError::Closed.to_string())),
            Err(e) => refused(ErrorKind::Limit, &e.to_string()),
        }
    }
}

/// An error envelope for a script that never ran.
pub fn refused(kind: ErrorKind, message: &str) -> Envelope {
    Envelope {
        ok: false,
        value: None,
        error: Some(ScriptError {
            kind,
            message: message.to_string(),
            line: None,
            hint: None,
        }),
        stdout: String::new(),
        truncated: false,
        truncation: Vec::new(),
        elapsed_ms: 0.0,
    }
}

/// One worker: take the next job, run it, reply; until the pool is dropped.
fn work(mut runtime: Runtime, receiver: Arc<Mutex<Receiver<Job>>>, pending: Arc<AtomicUsize>) {
    loop {
        let job = {
            let receiver = receiver.lock().unwrap_or_else(|e| e.into_inner());
            match receiver.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        if (job.wanted)() {
            let envelope = run_guarded(&mut runtime, &job.source);
            (job.reply)(envelope);
        }
        pending.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Runs a script; a panic inside the engine becomes an error envelope and a fresh VM.
fn run_guarded(runtime: &mut Runtime, source: &str) -> Envelope {
    match catch_unwind(AssertUnwindSafe(|| runtime.exec(source, Output::Capture))) {
        Ok(envelope) => envelope,
        Err(_) => {
            tracing::error!("a run panicked inside the engine; replacing its VM");
            if let Ok(fresh) = Runtime::new(runtime.registry().clone(), runtime.limits().clone()) {
                *runtime = fresh;
            }
            refused(ErrorKind::Runtime, "the engine failed while running this script (a bug: please report it); the server goes on")
        }
    }
}
