//! The front door for an embedder (another Rust agent or service): open a world, make a
//! runtime over it, run scripts, read their envelopes. A world is a folder of toolboxes
//! with its settings under `.codemode/` (`policy.json`, `mcp.json`, `apis.json`); the
//! bundled toolboxes come with it. The command line opens its world the same way.
//!
//! ```
//! use codemode::{RunRequest, World};
//!
//! let dir = tempfile::tempdir()?;
//! let world = World::open(dir.path())?;
//! let mut runtime = world.runtime()?;
//! let envelope = runtime.run(RunRequest::new("return tools.text.slugify('Hello World')"));
//! assert!(envelope.ok);
//! assert_eq!(envelope.value, Some(serde_json::json!("hello-world")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::check::{Checker, Checking, Mode};
use crate::policy::{PolicyError, Profile};
use crate::registry::{Registry, RegistryError};
use crate::runtime::{Pool, Runtime, StartError};
use crate::sandbox::Limits;

/// Why a world could not be opened; each says what to do.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The folder is not a world (missing, unreadable, or a toolbox folder itself).
    #[error("{0}")]
    Folder(#[from] RegistryError),
    /// Its `.codemode/policy.json` cannot be used.
    #[error("{0}")]
    Policy(#[from] PolicyError),
}

/// How a world is opened (see [`World::open_with`]).
#[derive(Debug, Clone)]
pub struct Options {
    /// Folders of toolboxes read after the world's own (`--library`), in order.
    pub libraries: Vec<PathBuf>,
    /// Whether the bundled toolboxes are there (last in precedence).
    pub bundled: bool,
    /// The policy profile runs act under (`None`: the file's default).
    pub profile: Option<String>,
    /// MCP configuration files read beside the world's own `.codemode/mcp.json`.
    pub mcp_files: Vec<PathBuf>,
    /// Whether the world's search index is read ahead on another thread (a process that
    /// will not search leaves it).
    pub searching: bool,
    /// The limits every run gets.
    pub limits: Limits,
    /// What the type check may stop (`Mode::Off`: no check).
    pub check: Mode,
    /// The longest one script's check may take.
    pub check_timeout: Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            libraries: Vec::new(),
            bundled: true,
            profile: None,
            mcp_files: Vec::new(),
            searching: true,
            limits: Limits::default(),
            check: Mode::default(),
            check_timeout: crate::check::DEFAULT_TIMEOUT,
        }
    }
}

/// An open world: its registry (the index of its toolboxes, its policy and its servers),
/// the limits and the check its runtimes get.
pub struct World {
    registry: Arc<Registry>,
    limits: Limits,
    checking: Option<Arc<Checking>>,
}

impl World {
    /// Opens `dir` with the default [`Options`]: the bundled toolboxes, the policy's
    /// default profile, the default limits and check.
    pub fn open(dir: impl AsRef<Path>) -> Result<World, OpenError> {
        World::open_with(dir, &Options::default())
    }

    /// Opens `dir` as `options` say. The policy is read first (a policy that cannot be
    /// used stops here, before any work) and followed: an edit applies to the next run.
    pub fn open_with(dir: impl AsRef<Path>, options: &Options) -> Result<World, OpenError> {
        let dir = dir.as_ref();
        let profile = match dir.is_dir() {
            true => crate::policy::load(dir, options.profile.as_deref())?,
            // Opening the world below says what is wrong with it.
            false => Profile::open(),
        };
        let open = match options.searching {
            true => Registry::open,
            false => Registry::open_unsearched,
        };
        let registry = open(dir, &options.libraries, options.bundled)?
            .with_profile(profile)
            .follow_policy(options.profile.as_deref());
        registry.attach_upstreams(&options.mcp_files);
        let checking = (options.check != Mode::Off).then(|| {
            Arc::new(Checking::new(
                options.check,
                Checker::new(options.check_timeout),
            ))
        });
        Ok(World {
            registry: Arc::new(registry),
            limits: options.limits.clone(),
            checking,
        })
    }

    /// A runtime over this world: one VM, running one script at a time. Make one per
    /// thread that runs scripts (or use [`crate::Pool`] for many).
    pub fn runtime(&self) -> Result<Runtime, StartError> {
        let mut runtime = Runtime::new(self.registry.clone(), self.limits.clone())?;
        runtime.set_checking(self.checking.clone());
        Ok(runtime)
    }

    /// A pool of `workers` runtimes over this world, for many scripts at once (a server's
    /// requests): at most `max_pending` scripts wait for one, more are refused with
    /// [`crate::PoolError::Busy`].
    pub fn pool(&self, workers: usize, max_pending: usize) -> Result<Pool, StartError> {
        let pool = Pool::new(
            self.registry.clone(),
            self.limits.clone(),
            workers,
            max_pending,
        )?;
        pool.set_checking(self.checking.clone());
        Ok(pool)
    }

    /// The world's registry.
    pub(crate) fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }
}
