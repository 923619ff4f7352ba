//! A pool of runtimes: a fixed set of sandboxed VMs, each lent to one script at a time.
//!
//! A script runs on the thread that asked for it, not on a worker thread it must wake
//! and wait for: on a virtual machine each wake of a parked thread costs tens of
//! microseconds, more than a short script itself (see [`execute`] for when that is safe).
//! Callers wait in arrival order for the next free VM, so a script stuck at its deadline
//! holds only its own VM. A script waiting on something outside the VM (an MCP server, an
//! HTTP request) lends its place meanwhile: the next caller runs on another VM, made when
//! none is idle, so slow servers cannot hold every place while the cores sit idle. Each
//! run gets a fresh environment (see [`Runtime::run`]), and a VM that hit its memory
//! limit is replaced by the runtime itself, so nothing one run does is seen by the next.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::runtime::{Handle, RuntimeFlavor};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::{refused, Envelope, ErrorKind, RunRequest, Runtime, StartError};
use crate::check::Checking;
use crate::registry::Registry;
use crate::sandbox::{disarm_deadline, set_long_run_hook, set_wait_hook, Limits, StopCheck};

/// The most places lent at once by scripts waiting outside their VM, and the most VMs
/// beyond the workers: each VM holds up to the memory limit.
const MAX_LENT: usize = 32;

/// The memory the lent places may add up to, at each VM's limit: a waiting script keeps
/// its heap while another runs in its place, so without a bound one client holding many
/// waits would hold `MAX_LENT` times the memory limit. The workers themselves are not
/// counted (their memory is what `--workers` and `--memory-mb` ask for).
const LENT_MEMORY: usize = 2 << 30;

/// How many places may be lent with VMs of `memory_bytes` each (see [`LENT_MEMORY`]).
fn max_lent(memory_bytes: usize) -> usize {
    (LENT_MEMORY / memory_bytes.max(1)).clamp(1, MAX_LENT)
}

/// Why a script was not run.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// The queue holds as many scripts as it may.
    #[error("the server is busy: {0} scripts are already waiting; retry in a moment, or give the server more workers")]
    Busy(usize),
    /// The pool lost its VMs (the async runtime shut down mid-run).
    #[error("the script pool has shut down; restart the server")]
    Closed,
    /// The engine panicked during the run; its VM was replaced.
    #[error(
        "the engine failed while running this script (a bug: please report it); the server goes on"
    )]
    Panicked,
}

impl PoolError {
    /// The error envelope of a run that did not happen (or did not finish) for this reason.
    pub fn envelope(&self) -> Envelope {
        let kind = match self {
            PoolError::Panicked => ErrorKind::Runtime,
            PoolError::Busy(_) | PoolError::Closed => ErrorKind::Limit,
        };
        refused(kind, &self.to_string())
    }
}

/// A fixed set of [`Runtime`]s shared by concurrent callers.
pub struct Pool {
    vms: Arc<Vms>,
    /// Scripts waiting or running.
    pending: AtomicUsize,
    max_pending: usize,
    workers: usize,
    limits: Limits,
}

/// The VMs not in use, and the places to run: a caller holding a permit owns a VM (an
/// idle one, or one made for it). There is one permit per worker, plus one for each run
/// waiting outside its VM, which lends its place for the wait.
struct Vms {
    idle: Mutex<Vec<Runtime>>,
    free: Arc<Semaphore>,
    /// One permit per VM there may be (the workers plus [`Vms::max_lent`]): however often runs
    /// lend their places, no more scripts than this hold a VM at once.
    vm_slots: Arc<Semaphore>,
    /// What a new VM is made from, and the checker it gets.
    registry: Arc<Registry>,
    limits: Limits,
    checking: Mutex<Option<Arc<Checking>>>,
    /// Places lent by waiting runs right now.
    lent: AtomicUsize,
    /// The most places lent at once (see [`max_lent`]).
    max_lent: usize,
    /// Places to take back from the next runs that end: a wait ended when none was free.
    owed: AtomicUsize,
}

impl Vms {
    /// An idle VM, or a new one when every VM is in use (a place was lent).
    fn take(&self) -> Result<Runtime, PoolError> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        if let Some(runtime) = idle {
            return Ok(runtime);
        }
        let mut fresh = Runtime::new(self.registry.clone(), self.limits.clone()).map_err(|e| {
            tracing::error!("cannot make a VM for a lent place: {e}");
            PoolError::Closed
        })?;
        fresh.set_checking(
            self.checking
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone(),
        );
        Ok(fresh)
    }

    /// A run starts waiting outside its VM: its place goes to the next caller, when fewer
    /// than [`Vms::max_lent`] are lent. True when it was lent.
    fn lend(&self) -> bool {
        if self.lent.fetch_add(1, Ordering::AcqRel) >= self.max_lent {
            self.lent.fetch_sub(1, Ordering::AcqRel);
            return false;
        }
        self.free.add_permits(1);
        true
    }

    /// A run that lent its place stopped waiting: the place is taken back now if one is
    /// free, else from the next run that ends.
    fn take_back(&self) {
        self.lent.fetch_sub(1, Ordering::AcqRel);
        match self.free.try_acquire() {
            Ok(permit) => permit.forget(),
            Err(_) => {
                self.owed.fetch_add(1, Ordering::AcqRel);
            }
        }
    }

    /// True when a place is owed, counting it as paid: the caller keeps its permit from
    /// going back.
    fn pay_owed(&self) -> bool {
        self.owed
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
            .is_ok()
    }
}

impl Pool {
    /// A pool of `workers` VMs (at least one) over `registry`. At most `max_pending`
    /// scripts wait for a VM; more are refused with [`PoolError::Busy`].
    pub(crate) fn new(
        registry: Arc<Registry>,
        limits: Limits,
        workers: usize,
        max_pending: usize,
    ) -> Result<Pool, StartError> {
        let workers = workers.max(1);
        let max_lent = max_lent(limits.memory_bytes);
        let idle = (0..workers)
            .map(|_| Runtime::new(registry.clone(), limits.clone()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Pool {
            vms: Arc::new(Vms {
                idle: Mutex::new(idle),
                free: Arc::new(Semaphore::new(workers)),
                vm_slots: Arc::new(Semaphore::new(workers + max_lent)),
                registry,
                limits: limits.clone(),
                checking: Mutex::new(None),
                lent: AtomicUsize::new(0),
                max_lent,
                owed: AtomicUsize::new(0),
            }),
            pending: AtomicUsize::new(0),
            max_pending: max_pending.max(1),
            workers,
            limits,
        })
    }

    /// Type-checks every script before it runs (see [`Runtime::set_checking`]).
    pub(crate) fn set_checking(&self, checking: Option<Arc<Checking>>) {
        let mut idle = self.vms.idle.lock().unwrap_or_else(|e| e.into_inner());
        for runtime in idle.iter_mut() {
            runtime.set_checking(checking.clone());
        }
        *self.vms.checking.lock().unwrap_or_else(|e| e.into_inner()) = checking;
    }

    /// How many scripts compute at once (scripts waiting on a server lend their places).
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// The limits every run gets.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Scripts waiting or running right now.
    pub fn pending(&self) -> usize {
        self.pending.load(Ordering::Relaxed)
    }

    /// Runs `source` on the next free VM and returns its envelope. Waiting callers are
    /// served in arrival order; dropping the future while it waits leaves the script unrun.
    ///
    /// The script runs on the calling thread when that cannot stall other async tasks:
    /// give a multi-threaded tokio runtime more worker threads than the pool has VMs.
    /// With fewer, it runs there after `block_in_place`; in a current-thread runtime, on
    /// tokio's blocking threads.
    pub async fn run(&self, source: &str) -> Result<Envelope, PoolError> {
        self.run_stoppable(source, None).await
    }

    /// Like [`Pool::run`], and once running, the script is stopped early when `stop` says
    /// so (see [`RunRequest::stop`]): an MCP client cancelled its request.
    pub async fn run_stoppable(
        &self,
        source: &str,
        stop: Option<StopCheck>,
    ) -> Result<Envelope, PoolError> {
        let source = source.to_string();
        let run = self.run_with(stop, move |runtime, stop| {
            runtime.run(RunRequest::new(&source).stop_if(stop))
        });
        match run.await {
            Err(PoolError::Panicked) => Ok(PoolError::Panicked.envelope()),
            other => other,
        }
    }

    /// Runs `work` on the next free VM, as [`Pool::run_stoppable`] runs a script: in arrival
    /// order, on the calling thread when that is safe, and with `stop` (plus, on a blocking
    /// thread, whether the caller stopped waiting) handed to `work` to pass to the run.
    /// A call ([`Runtime::run_call`]) or a surface function ([`Runtime::run_surface`])
    /// runs this way. A panic inside the engine replaces the VM and is
    /// [`PoolError::Panicked`].
    pub(crate) async fn run_with<R, F>(
        &self,
        stop: Option<StopCheck>,
        work: F,
    ) -> Result<R, PoolError>
    where
        F: FnOnce(&mut Runtime, Option<StopCheck>) -> R + Send + 'static,
        R: Send + 'static,
    {
        let _ticket = self.ticket()?;
        // A VM's slot first, then a place to run: a place lent by a waiting run goes to a
        // caller that already has a VM to run on.
        let slot = self.vms.vm_slots.clone().acquire_owned().await;
        let slot = slot.map_err(|_| PoolError::Closed)?;
        let permit = self.vms.free.clone().acquire_owned().await;
        let permit = permit.map_err(|_| PoolError::Closed)?;
        let lease = Lease {
            vms: self.vms.clone(),
            runtime: Some(self.vms.take()?),
            permit: Some(permit),
            _slot: slot,
        };
        execute(lease, work, stop, self.workers).await
    }

    /// Runs `source` and waits for its envelope, for callers without an async runtime
    /// (benchmarks, tests). A refused script comes back as an error envelope.
    pub fn exec(&self, source: &str) -> Envelope {
        futures_executor::block_on(self.run(source)).unwrap_or_else(|e| e.envelope())
    }

    /// Counts a script as pending, or refuses it when the queue is full.
    fn ticket(&self) -> Result<Ticket<'_>, PoolError> {
        let queued = self.pending.fetch_add(1, Ordering::AcqRel);
        let ticket = Ticket(&self.pending);
        // Running scripts count too, so the cap is on waiting ones: max_pending beyond the VMs.
        if queued >= self.max_pending + self.workers {
            return Err(PoolError::Busy(queued.saturating_sub(self.workers)));
        }
        Ok(ticket)
    }
}

/// A script's place in the count of pending scripts, given back when it is dropped.
struct Ticket<'a>(&'a AtomicUsize);

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A VM lent to one run, with its permit. Dropping it gives both back, wherever that
/// happens: also on a blocking thread whose caller stopped waiting.
struct Lease {
    vms: Arc<Vms>,
    /// Always set until the lease is dropped.
    runtime: Option<Runtime>,
    /// Always set until the lease is dropped.
    permit: Option<OwnedSemaphorePermit>,
    /// The VM's slot, released after the VM is back (a field, dropped after `drop`).
    _slot: OwnedSemaphorePermit,
}

impl Lease {
    fn run<R>(&mut self, work: impl FnOnce(&mut Runtime) -> R) -> Result<R, PoolError> {
        let vms = self.vms.clone();
        // The run's waits outside the VM lend its place (see `Vms::lend`).
        set_wait_hook(Some(Arc::new(move |waiting| {
            if waiting {
                vms.lend()
            } else {
                vms.take_back();
                false
            }
        })));
        let done = match self.runtime.as_mut() {
            Some(runtime) => run_guarded(runtime, work),
            None => Err(PoolError::Closed),
        };
        set_wait_hook(None);
        done
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        // The VM goes back before the permit is released, so whoever gets the permit
        // finds a VM.
        if let Some(runtime) = self.runtime.take() {
            let mut idle = self.vms.idle.lock().unwrap_or_else(|e| e.into_inner());
            idle.push(runtime);
        }
        if let Some(permit) = self.permit.take() {
            if self.vms.pay_owed() {
                permit.forget();
            }
        }
    }
}
/// Runs a script on a leased VM where it may block; the lease ends with the run.
///
/// Waking another thread costs tens of microseconds on a virtual machine, more than a
/// short script, so the script runs on the calling thread whenever that is safe: outside
/// any async runtime, or on a multi-threaded runtime with more threads than the pool has
/// VMs. There a script that runs past [`LONG_RUN`] hands the thread's async duties (its
/// other tasks, and the I/O driver it may have been polling) to another thread, so a long
/// script never keeps the server from reading its next message. With no thread to spare,
/// `block_in_place` hands them off before the script starts.
async fn execute<R, F>(
    mut lease: Lease,
    work: F,
    stop: Option<StopCheck>,
    vms: usize,
) -> Result<R, PoolError>
where
    F: FnOnce(&mut Runtime, Option<StopCheck>) -> R + Send + 'static,
    R: Send + 'static,
{
    let place = match Handle::try_current() {
        Err(_) => Place::Inline,
        Ok(handle) => match handle.runtime_flavor() {
            RuntimeFlavor::CurrentThread => Place::BlockingThread,
            _ if handle.metrics().num_workers() > vms => Place::OnWorker,
            _ => Place::HandOff,
        },
    };
    match place {
        Place::Inline => lease.run(|runtime| work(runtime, stop)),
        Place::OnWorker => {
            set_long_run_hook(Some((hand_off_worker, LONG_RUN, HAND_OFF_AGAIN)));
            let done = lease.run(|runtime| work(runtime, stop));
            set_long_run_hook(None);
            done
        }
        Place::HandOff => tokio::task::block_in_place(|| lease.run(|runtime| work(runtime, stop))),
        Place::BlockingThread => {
            // Only here can the caller stop waiting mid-run (drop this future): then the
            // run is stopped, and the lease, owned by the blocking task, still goes back.
            let abandoned = Arc::new(AtomicBool::new(false));
            let _guard = SetOnDrop(abandoned.clone());
            let stop: StopCheck = Arc::new(move || {
                abandoned.load(Ordering::Relaxed) || stop.as_ref().is_some_and(|stop| stop())
            });
            tokio::task::spawn_blocking(move || lease.run(|runtime| work(runtime, Some(stop))))
                .await
                .map_err(|_| PoolError::Closed)?
        }
    }
}

/// How long a script runs on an async worker before the worker's duties are handed off.
const LONG_RUN: Duration = Duration::from_millis(2);
/// How often the hand-off is tried again while the script goes on (in case tokio's new
/// thread had not taken the duties when the pause below ended).
const HAND_OFF_AGAIN: Duration = Duration::from_millis(100);
/// The pause in which tokio's new thread takes the duties over.
const HAND_OFF_PAUSE: Duration = Duration::from_millis(1);

/// Called from the deadline interrupt of a long script running on an async worker (no
/// work: the pause lets tokio's new thread take the duties), and around host code that
/// blocks such a script (the work: the duties are handed off for as long as it waits).
fn hand_off_worker(work: Option<&mut dyn FnMut()>) {
    match work {
        Some(work) => tokio::task::block_in_place(work),
        None => tokio::task::block_in_place(|| std::thread::sleep(HAND_OFF_PAUSE)),
    }
}

/// Where a script runs.
enum Place {
    /// On the calling thread, as is (no async runtime).
    Inline,
    /// On the calling async worker, handing its duties off if the script runs long.
    OnWorker,
    /// On the calling thread, after handing its other async tasks to another thread.
    HandOff,
    /// On the async runtime's blocking threads (a current-thread runtime must not block).
    BlockingThread,
}

/// Sets its flag when dropped.
struct SetOnDrop(Arc<AtomicBool>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs `work`; a panic inside the engine becomes [`PoolError::Panicked`] and a fresh VM.
fn run_guarded<R>(
    runtime: &mut Runtime,
    work: impl FnOnce(&mut Runtime) -> R,
) -> Result<R, PoolError> {
    match catch_unwind(AssertUnwindSafe(|| work(runtime))) {
        Ok(done) => Ok(done),
        Err(_) => {
            tracing::error!("a run panicked inside the engine; replacing its VM");
            // The panic skipped the run's own disarm: clear this thread's deadline state.
            let _ = disarm_deadline();
            if let Ok(mut fresh) =
                Runtime::new(runtime.registry().clone(), runtime.limits().clone())
            {
                fresh.set_checking(runtime.checking().cloned());
                *runtime = fresh;
            }
            Err(PoolError::Panicked)
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/runtime/pool.rs"]
mod tests;
