//! The registry: the roots the engine reads and the current asset index snapshot.

mod watch;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use include_dir::{include_dir, Dir};

use crate::assets::{AssetIndex, Origin, Root};
use crate::policy::{Capabilities, Profile, ToolRules};
use crate::vfs::Vfs;

use crate::search::{Preload, SearchService};
use crate::upstream::{Catalogue, ServerView, Upstreams};
pub(crate) use watch::Watcher;
#[cfg(feature = "bench")]
pub(crate) use watch::QUIET;

/// The repo's `toolboxes/`, compiled into the binary.
static BUNDLED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/toolboxes");

/// A root the registry could not open.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// The world directory is missing or unreadable.
    #[error("world {path}: {reason}; the world must be an existing directory")]
    World {
        /// The path given.
        path: PathBuf,
        /// Why it could not be opened (shown in the message, not chained again).
        reason: std::io::Error,
    },
    /// The world given is itself a toolbox or tool folder, so nothing would be found in it.
    #[error(
        "world {path} is a {kind} folder, not a world; use the folder that holds it: {parent}"
    )]
    InsideWorld {
        /// The path given.
        path: PathBuf,
        /// `toolbox` or `tool`.
        kind: &'static str,
        /// The folder to pass instead.
        parent: String,
    },
    /// A `--library` directory is missing or unreadable.
    #[error("library {path}: {reason}; a library must be an existing directory")]
    Library {
        /// The path given.
        path: PathBuf,
        /// Why it could not be opened (shown in the message, not chained again).
        reason: std::io::Error,
    },
}

/// The roots and the asset index built from them. Shared by every runtime in the process.
#[derive(Debug)]
pub(crate) struct Registry {
    roots: Arc<Vec<Root>>,
    current: RwLock<Arc<AssetIndex>>,
    /// Held while a new snapshot is computed, so concurrent updates never lose each other.
    updating: Mutex<()>,
    vfs: Vfs,
    search: SearchService,
    /// The world's upstream MCP servers, once attached (see [`Registry::attach_upstreams`]);
    /// replaced when the configuration changes (see [`Registry::refresh_upstreams`]).
    upstreams: RwLock<Upstream>,
    /// The `--mcp-config` files read beside the world's own, once attached.
    mcp_files: std::sync::OnceLock<Vec<PathBuf>>,
    /// Whether a script's use of a server not fetched yet fetches its tools (see
    /// [`Registry::set_fetch_on_use`]).
    fetch_on_use: std::sync::atomic::AtomicBool,
    /// Bumped on every swap of the snapshot and every refreshed upstream catalogue.
    changes: Arc<tokio::sync::watch::Sender<u64>>,
    /// What runs over this registry may do (see [`Registry::with_capabilities`]).
    capabilities: RwLock<Arc<Capabilities>>,
    /// Which tools runs over this registry may see and call (see [`Registry::with_profile`]).
    rules: RwLock<Arc<ToolRules>>,
    /// The policy file this registry follows, when it does (see [`Registry::follow_policy`]).
    policy: Option<Followed>,
    /// Each upstream server's catalogue as last seen, and the part of it the rules allow
    /// (filtered once per catalogue, not once per lookup).
    allowed: Mutex<std::collections::HashMap<String, Allowed>>,
    /// The audit log every run over this registry writes to, once set (see
    /// [`Registry::set_audit`]).
    audit: std::sync::OnceLock<Arc<crate::audit::Log>>,
}

/// The world's policy file as a long-running process follows it: the profile asked for
/// at start-up and the text the profile in force was read from.
#[derive(Debug)]
struct Followed {
    /// `--profile`, or `None` for the default profile.
    requested: Option<String>,
    /// The file's bytes when last read (`None` when it was missing); `Unread` until the
    /// first look, so an edit between start-up and that look is not missed.
    seen: Mutex<Seen>,
}

#[derive(Debug, PartialEq)]
enum Seen {
    Unread,
    Text(Option<Vec<u8>>),
}

/// A server's catalogue as last seen, and the part of it the profile allows.
type Allowed = (Arc<Catalogue>, Arc<Catalogue>);

/// The upstream servers a registry reaches, and what was wrong with their configuration.
#[derive(Debug, Default)]
struct Upstream {
    servers: Option<Arc<Upstreams>>,
    problems: Vec<String>,
    /// The servers in force: the configuration read last, except that a server whose
    /// edit broke keeps its entry from before (see [`Registry::refresh_upstreams`]).
    configs: Vec<crate::upstream::ServerConfig>,
}

/// A world named like an asset folder (`text.toolbox`, `slugify.tool`) would index as
/// empty: say which folder was meant instead.
fn refuse_asset_folder(world: &Path) -> Result<(), RegistryError> {
    let name = world
        .canonicalize()
        .unwrap_or_else(|_| world.to_path_buf())
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let kind = if name.ends_with(".toolbox") {
        "toolbox"
    } else if name.ends_with(".tool") {
        "tool"
    } else {
        return Ok(());
    };
    let mut parent = world.canonicalize().unwrap_or_else(|_| world.to_path_buf());
    parent.pop();
    if kind == "tool" {
        parent.pop();
    }
    Err(RegistryError::InsideWorld {
        path: world.to_path_buf(),
        kind,
        parent: parent.display().to_string(),
    })
}

/// The policy file's bytes, `None` when there is none. Read whole (a timestamp can miss an
/// edit of the same length), but never past what a policy file may hold, and never from
/// anything but a regular file (a FIFO would block the run that looks).
fn read_policy(path: &Path) -> Result<Option<Vec<u8>>, String> {
    use std::io::Read;
    let cannot =
        |e: std::io::Error| format!("{}: cannot read the policy file ({e})", path.display());
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(None)
        }
        Err(e) => return Err(cannot(e)),
    };
    if !meta.is_file() {
        return Err(format!(
            "{}: the policy file is not a regular file",
            path.display()
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            f.take(crate::policy::MAX_FILE_BYTES + 1)
                .read_to_end(&mut bytes)
        })
        .map_err(cannot)?;
    if bytes.len() as u64 > crate::policy::MAX_FILE_BYTES {
        return Err(format!(
            "{}: the policy file is larger than the {} bytes a policy file may hold",
            path.display(),
            crate::policy::MAX_FILE_BYTES
        ));
    }
    Ok(Some(bytes))
}

/// True when a toolbox folder of `index` stands in for the server of this toolbox name:
/// only in a snapshot that does not reserve the name.
pub(crate) fn shadowed(index: &AssetIndex, server: &str) -> bool {
    index.reserved_by(server).is_none() && index.has_folder(server)
}

/// The roots of a registry: the world, the `--library` folders and (when `bundled`) the
/// bundled toolboxes, in precedence order.
fn roots(world: &Path, libraries: &[PathBuf], bundled: bool) -> Result<Vec<Root>, RegistryError> {
    refuse_asset_folder(world)?;
    let mut roots =
        vec![
            Root::disk(Origin::World, world).map_err(|reason| RegistryError::World {
                path: world.to_path_buf(),
                reason,
            })?,
        ];
    for lib in libraries {
        roots.push(
            Root::disk(Origin::Library, lib).map_err(|reason| RegistryError::Library {
                path: lib.clone(),
                reason,
            })?,
        );
    }
    if bundled {
        roots.push(Root::bundled(&BUNDLED));
    }
    Ok(roots)
}

impl Registry {
    /// Opens the world, the `--library` folders and (when `bundled`) the bundled toolboxes,
    /// and indexes them. Precedence: world, then libraries in order, then bundled.
    pub(crate) fn open(
        world: &Path,
        libraries: &[PathBuf],
        bundled: bool,
    ) -> Result<Registry, RegistryError> {
        Ok(Registry::build(roots(world, libraries, bundled)?, true))
    }

    /// Opens as [`Registry::open`] does, without reading the world's search index ahead on
    /// another thread: for a command that does not search (a listing, a check), that read
    /// only takes a core from reading the world. A search still works; it reads the index
    /// then.
    pub(crate) fn open_unsearched(
        world: &Path,
        libraries: &[PathBuf],
        bundled: bool,
    ) -> Result<Registry, RegistryError> {
        Ok(Registry::build(roots(world, libraries, bundled)?, false))
    }

    /// A registry over `roots`, reading the world's search index ahead when `preload`.
    fn build(roots: Vec<Root>, preload: bool) -> Registry {
        let roots = Arc::new(roots);
        let preload = match preload {
            true => roots.first().and_then(Root::dir).and_then(Preload::start),
            false => None,
        };
        let index = AssetIndex::build(roots.clone());
        let tools_on_disk = index.tools_on_disk();
        let world = roots
            .first()
            .and_then(Root::dir)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let read_only = roots
            .iter()
            .skip(1)
            .filter_map(Root::dir)
            .filter(|d| d.starts_with(&world))
            .map(Path::to_path_buf)
            .collect();
        Registry {
            current: RwLock::new(Arc::new(index)),
            updating: Mutex::new(()),
            vfs: Vfs::new(world, read_only),
            search: match roots.first().and_then(Root::dir) {
                Some(world) => SearchService::for_world(world, tools_on_disk).with_preload(preload),
                None => SearchService::new(),
            },
            roots,
            upstreams: RwLock::new(Upstream::default()),
            mcp_files: std::sync::OnceLock::new(),
            fetch_on_use: std::sync::atomic::AtomicBool::new(true),
            changes: Arc::new(tokio::sync::watch::channel(0).0),
            capabilities: RwLock::new(Arc::new(Capabilities::default())),
            rules: RwLock::new(Arc::new(Profile::open().rules)),
            policy: None,
            allowed: Mutex::new(std::collections::HashMap::new()),
            audit: std::sync::OnceLock::new(),
        }
    }

    /// The same registry granting its runs `capabilities` instead of the default.
    pub(crate) fn with_capabilities(mut self, capabilities: Capabilities) -> Registry {
        self.capabilities = RwLock::new(Arc::new(capabilities));
        self
    }

    /// The host capabilities runs over this registry get (a run reads them when it uses
    /// one, so a policy edit [`Registry::refresh_policy`] applies reaches the next call).
    pub(crate) fn capabilities(&self) -> Arc<Capabilities> {
        self.capabilities
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The same registry serving `profile`: its capabilities, and its tool rules, which
    /// every snapshot (this one and those after) and every upstream catalogue the registry
    /// hands out are filtered by, so no front end sees a tool the profile denies.
    pub(crate) fn with_profile(self, profile: Profile) -> Registry {
        let mut registry = self.with_capabilities(profile.capabilities);
        let rules = Arc::new(profile.rules);
        let index = registry.snapshot().restricted(rules.clone());
        *registry
            .current
            .get_mut()
            .unwrap_or_else(|e| e.into_inner()) = Arc::new(index);
        registry.rules = RwLock::new(rules);
        registry
    }

    /// The same registry following the world's policy file: [`Registry::refresh_policy`]
    /// reads it again when it changed and serves the profile `requested` (the default
    /// profile when `None`) of the new text. For processes that outlive an edit (`serve`,
    /// `repl`): a revoked grant must not keep working until a restart.
    pub(crate) fn follow_policy(mut self, requested: Option<&str>) -> Registry {
        self.policy = Some(Followed {
            requested: requested.map(str::to_string),
            seen: Mutex::new(Seen::Unread),
        });
        self
    }

    /// Reads the policy file again if its text changed since the last look, and serves
    /// the new profile from now on: its capabilities for the next call that uses one, its
    /// rules for every snapshot handed out after this. A file that cannot be used keeps
    /// the profile in force, with a warning that says why. True when the profile changed.
    /// Does nothing unless the registry follows the policy file.
    pub(crate) fn refresh_policy(&self) -> bool {
        let Some(followed) = &self.policy else {
            return false;
        };
        let path = self.world().join(crate::policy::POLICY_FILE);
        let keep = |why: String| {
            tracing::warn!("{why}; the profile read before stays in force until that is fixed");
            false
        };
        let text = match read_policy(&path) {
            Ok(text) => text,
            Err(why) => return keep(why),
        };
        let before = {
            let mut seen = followed.seen.lock().unwrap_or_else(|e| e.into_inner());
            let now = Seen::Text(text.clone());
            if *seen == now {
                return false;
            }
            std::mem::replace(&mut *seen, now)
        };
        // An editor may remove the file for a moment while it saves, and a running
        // process is never opened up by a file that went away.
        let Some(text) = text else {
            if matches!(before, Seen::Text(Some(_))) {
                return keep(format!(
                    "{}: the policy file is gone (restart to run without one)",
                    path.display()
                ));
            }
            return false;
        };
        // The very bytes compared above: an edit in between is the next look's.
        let profile = match std::str::from_utf8(&text)
            .map_err(|e| format!("{}: the policy file is not UTF-8 ({e})", path.display()))
            .and_then(|text| {
                crate::policy::parse(&path, text, followed.requested.as_deref())
                    .map_err(|e| e.to_string())
            }) {
            Ok(profile) => profile,
            Err(why) => return keep(why),
        };
        let _updating = self.updating.lock().unwrap_or_else(|e| e.into_inner());
        if *self.capabilities() == profile.capabilities && *self.rules() == profile.rules {
            return false;
        }
        let rules = Arc::new(profile.rules);
        let index = Arc::new(self.snapshot().restricted(rules.clone()));
        *self.capabilities.write().unwrap_or_else(|e| e.into_inner()) =
            Arc::new(profile.capabilities);
        *self.rules.write().unwrap_or_else(|e| e.into_inner()) = rules;
        self.allowed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = index;
        tracing::info!("{}: policy changed; the next runs get it", path.display());
        self.changed();
        true
    }

    /// Records every run over this registry, and each tool call in it, in `log` from now
    /// on. Set once: a log in force is never swapped or turned off by the process.
    pub(crate) fn set_audit(&self, log: crate::audit::Log) {
        if self.audit.set(Arc::new(log)).is_err() {
            tracing::warn!("the registry already has an audit log; the second is ignored");
        }
    }

    /// The audit log runs over this registry write to, when one is set.
    pub(crate) fn audit(&self) -> Option<&Arc<crate::audit::Log>> {
        self.audit.get()
    }

    /// The tool rules of the profile this registry serves.
    pub(crate) fn rules(&self) -> Arc<ToolRules> {
        self.rules.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// A receiver that sees a new value as soon as the snapshot is swapped (a file event,
    /// `tools.create`, a reload) or a started upstream server's catalogue is refreshed, so
    /// listeners (the MCP server's `tools/list_changed`) need not poll.
    pub(crate) fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changes.subscribe()
    }

    fn changed(&self) {
        self.changes.send_modify(|generation| *generation += 1);
    }

    /// The current snapshot; a run keeps the one it started with.
    pub(crate) fn snapshot(&self) -> Arc<AssetIndex> {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Re-reads every root (and the policy file, when the registry follows it) and swaps
    /// the new index in whole.
    pub(crate) fn reload(&self) {
        self.refresh_policy();
        let _updating = self.updating.lock().unwrap_or_else(|e| e.into_inner());
        // A fresh build knows no profile and no server: filter it as the snapshot it
        // replaces was.
        let (reserved, served) = self.upstreams().map_or_else(Default::default, |u| {
            server_claims(u.servers().iter(), self.world())
        });
        let index = Arc::new(
            AssetIndex::build(self.roots.clone())
                .restricted(self.rules())
                .reserving(reserved)
                .serving(served),
        );
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = index;
        crate::cache::release_freed_memory();
        self.changed();
    }

    /// Reads again only what changed at `paths` (absolute paths on disk, as a file watcher
    /// or a write reports them), swaps the new snapshot in whole and returns it.
    /// Tools the paths do not touch keep their `Arc<ToolEntry>`.
    pub(crate) fn apply_changes(&self, paths: &[PathBuf]) -> Arc<AssetIndex> {
        let _updating = self.updating.lock().unwrap_or_else(|e| e.into_inner());
        let current = self.snapshot();
        if !current.touches(paths) {
            return current;
        }
        let index = Arc::new(current.apply(paths));
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = index.clone();
        self.changed();
        index
    }

    /// The roots, world first.
    pub(crate) fn roots(&self) -> &[Root] {
        &self.roots
    }

    /// The filesystem confined to the world (library folders inside it are read-only).
    pub(crate) fn vfs(&self) -> &Vfs {
        &self.vfs
    }

    /// Reads the world's `.codemode/mcp.json` and `extra` files and attaches their servers
    /// (each becomes a toolbox `tools.<server>`). Starts no server. Problems in the files
    /// are kept for [`Registry::upstream_problems`]; the rest of the world works anyway.
    /// Only the first call attaches anything.
    pub(crate) fn attach_upstreams(&self, extra: &[PathBuf]) {
        if self.mcp_files.set(extra.to_vec()).is_err() {
            return;
        }
        let configs = crate::upstream::load(self.world(), extra);
        self.apply_upstreams(configs.servers, &configs.problems);
    }

    /// Reads the MCP configuration files again and serves what they say now: an added
    /// server becomes a toolbox, a changed one restarts on its next use, a removed one is
    /// stopped and its toolbox goes; the tools of added and changed servers are fetched in
    /// the background. An entry (or a whole file) that no longer reads keeps
    /// what it said before, and the problem is logged and kept for
    /// [`Registry::upstream_problems`]. Returns what changed; nothing when the servers
    /// were never attached. For processes that outlive an edit (`serve`, `repl`).
    pub(crate) fn refresh_upstreams(&self) -> crate::upstream::Reconfigured {
        let Some(extra) = self.mcp_files.get() else {
            return Default::default();
        };
        let loaded = crate::upstream::load(self.world(), extra);
        let before = self
            .upstreams
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .configs
            .clone();
        let (servers, kept) = keep_broken(before, &loaded);
        let changed = self.apply_upstreams(servers, &loaded.problems);
        for problem in self.upstream_problems() {
            tracing::warn!("{problem}");
        }
        if !kept.is_empty() {
            tracing::warn!(
                "until that is fixed, these servers keep the entry read before: {}",
                kept.join(", ")
            );
        }
        if !changed.is_empty() {
            // Started now rather than by the first script: a serving process announces
            // the new tools as soon as they are known.
            if let Some(upstreams) = self.upstreams() {
                upstreams.fetch_missing();
            }
            tracing::info!(
                added = ?changed.added,
                changed = ?changed.changed,
                removed = ?changed.removed,
                "the MCP server configuration changed"
            );
        }
        changed
    }

    /// Serves `servers` (with `problems` to report): the toolbox names they claim leave
    /// the snapshot, and the connections follow (see [`Upstreams::reconfigure`]).
    fn apply_upstreams(
        &self,
        servers: Vec<crate::upstream::ServerConfig>,
        problems: &[crate::upstream::ConfigProblem],
    ) -> crate::upstream::Reconfigured {
        // What went wrong may quote an argument that holds a `${NAME}`'s value; these
        // lines reach `codemode list`, `check` and `types`, and a script's error.
        let problems: Vec<String> = problems
            .iter()
            .map(|p| crate::secrets::mask(&p.to_string()).into_owned())
            .collect();
        let _updating = self.updating.lock().unwrap_or_else(|e| e.into_inner());
        let mut upstream = self.upstreams.write().unwrap_or_else(|e| e.into_inner());
        let unchanged = upstream.configs == servers;
        let mut done = crate::upstream::Reconfigured::default();
        let mut problems = problems;
        if !unchanged {
            let configs = crate::upstream::Configs {
                servers: servers.clone(),
                problems: Vec::new(),
            };
            match &upstream.servers {
                Some(live) => done = live.reconfigure(&configs),
                None if servers.is_empty() => {}
                None => match Upstreams::new(self.world(), &configs, self.upstream_options()) {
                    Ok(live) => {
                        done.added = servers.iter().map(|s| s.name.clone()).collect();
                        upstream.servers = Some(Arc::new(live));
                    }
                    Err(e) => problems.push(format!("the MCP servers cannot be reached: {e}")),
                },
            }
            upstream.configs = servers;
            // A server answers for its toolbox name: a folder of that name (one a script
            // wrote, say) is left out of the snapshot and named among its problems.
            let (reserved, served) = server_claims(upstream.configs.iter(), self.world());
            let index = Arc::new(self.snapshot().reserving(reserved).serving(served));
            *self.current.write().unwrap_or_else(|e| e.into_inner()) = index;
        }
        let problems_changed = upstream.problems != problems;
        upstream.problems = problems;
        drop(upstream);
        if !unchanged || problems_changed {
            self.allowed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clear();
            self.changed();
        }
        done
    }

    /// How this registry's servers run.
    fn upstream_options(&self) -> crate::upstream::UpstreamOptions {
        crate::upstream::UpstreamOptions {
            // tools.parallel fans out: enough for a script's burst to one server.
            max_in_flight: 16,
            on_catalogue_change: Some({
                let changes = self.changes.clone();
                Arc::new(move |_: &str| changes.send_modify(|g| *g += 1))
            }),
            ..Default::default()
        }
    }

    /// Whether a run that calls, gets, lists or searches the tools of a server not
    /// fetched yet fetches them first (the default), or sees it without tools (a one-shot
    /// listing at the shell, which starts no server unless asked: `codemode mcp sync`).
    pub(crate) fn set_fetch_on_use(&self, fetch: bool) {
        self.fetch_on_use
            .store(fetch, std::sync::atomic::Ordering::Relaxed);
    }

    /// See [`Registry::set_fetch_on_use`].
    pub(crate) fn fetches_on_use(&self) -> bool {
        self.fetch_on_use.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Each of `views` by name with its number of tools, as the choice of which toolboxes
    /// the declarations hold in full reads them.
    pub(crate) fn tool_counts(views: &[ServerView]) -> Vec<(&str, usize)> {
        views
            .iter()
            .map(|v| (v.name.as_str(), v.tools().len()))
            .collect()
    }

    /// One number for the state of `views`' catalogues (see [`ServerView::stamp`]): it
    /// changes when a server's tools are fetched or refreshed, or a server comes or goes.
    pub(crate) fn catalogues_stamp(views: &[ServerView]) -> u64 {
        ServerView::stamp(views)
    }

    /// The attached upstream servers, if any are configured.
    pub(crate) fn upstreams(&self) -> Option<Arc<Upstreams>> {
        self.upstreams
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .servers
            .clone()
    }

    /// The upstream servers scripts of `index` see, with their cached catalogues: every
    /// configured server. A toolbox folder of a server's name is left out of the
    /// registry's snapshots ([`AssetIndex::reserving`]); only in a snapshot taken before
    /// the servers were attached does such a folder still stand in for the server.
    /// Starts nothing.
    /// The profile's rules apply: a server shows only the tools they allow, and a server
    /// left with none is not shown.
    pub(crate) fn upstream_views(&self, index: &AssetIndex) -> Vec<ServerView> {
        self.upstreams().map_or_else(Vec::new, |u| {
            u.views()
                .into_iter()
                .filter(|v| !shadowed(index, &v.name))
                .filter_map(|v| self.allowed_view(v))
                .collect()
        })
    }

    /// `view` as the profile sees it, or `None` when it allows none of its tools.
    fn allowed_view(&self, mut view: ServerView) -> Option<ServerView> {
        let rules = self.rules();
        if rules.is_open() {
            return Some(view);
        }
        let Some(catalogue) = view.catalogue.take() else {
            // Not fetched yet: shown unless the rules refuse whatever it holds.
            return rules.toolbox_denial(&view.name).is_none().then_some(view);
        };
        let mut allowed = self.allowed.lock().unwrap_or_else(|e| e.into_inner());
        let filtered = match allowed.get(&view.name) {
            Some((seen, filtered)) if Arc::ptr_eq(seen, &catalogue) => filtered.clone(),
            _ => {
                let mut kept = (*catalogue).clone();
                kept.tools
                    .retain(|t| rules.allows(&format!("{}.{}", view.name, t.name)));
                let kept = Arc::new(kept);
                allowed.insert(view.name.clone(), (catalogue, kept.clone()));
                kept
            }
        };
        if filtered.tools.is_empty() {
            return None;
        }
        view.catalogue = Some(filtered);
        Some(view)
    }

    /// True when `name` is a configured server the profile hides (it allows none of its
    /// tools), so a call of one of them is refused as denied rather than unknown.
    pub(crate) fn hides_server(&self, index: &AssetIndex, name: &str) -> bool {
        let Some(upstreams) = self.upstreams() else {
            return false;
        };
        upstreams.server(name).is_some()
            && !shadowed(index, name)
            && !self.upstream_views(index).iter().any(|v| v.name == name)
    }

    /// The toolbox name of the configured server written `name` in its mcp.json
    /// (`odd-server` is `odd_server`); `name` itself when it is a server's toolbox name;
    /// `None` when no server has either name.
    pub(crate) fn upstream_toolbox(&self, name: &str) -> Option<String> {
        let upstreams = self.upstreams()?;
        if upstreams.server(name).is_some() {
            return Some(name.to_string());
        }
        upstreams
            .servers()
            .into_iter()
            .find(|s| s.original_name == name)
            .map(|s| s.name.clone())
    }

    /// What was wrong with the upstream configuration files.
    pub(crate) fn upstream_problems(&self) -> Vec<String> {
        self.upstreams
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .problems
            .clone()
    }

    /// Why the MCP server configured under the name `toolbox` cannot be used, when its
    /// entry was refused (a script that calls `tools.<toolbox>` is told that, not only
    /// that there is no such toolbox). `None` when the profile of `index` denies the whole
    /// toolbox: its scripts are told that, and learn nothing of the server's entry.
    /// Written for a script: paths inside the world are relative to it, as `vfs` names
    /// them, so a script learns nothing of where the world lies on the machine.
    pub(crate) fn unusable_server(&self, index: &AssetIndex, toolbox: &str) -> Option<String> {
        if index.toolbox_denial(toolbox).is_some() {
            return None;
        }
        let named = format!("server '{toolbox}': ");
        let problems = self.upstream_problems();
        let problem = problems.iter().find(|p| p.contains(&named))?;
        Some(self.for_scripts(problem))
    }

    /// What keeps a server list from being read whole (not valid JSON, say), when something
    /// does: a script told that a toolbox is missing learns that a server added there may be
    /// why. Written for a script, as [`Registry::unusable_server`] writes.
    pub(crate) fn unread_servers(&self) -> Option<String> {
        let whole: Vec<String> = self
            .upstream_problems()
            .iter()
            .filter(|p| !p.contains(": server '"))
            .map(|p| self.for_scripts(p))
            .collect();
        (!whole.is_empty()).then(|| whole.join("; "))
    }

    /// `text` with the world's path left out: paths inside it as `vfs` names them.
    fn for_scripts(&self, text: &str) -> String {
        let world = self.world().display().to_string();
        if world == "/" {
            return text.to_string();
        }
        text.replace(&format!("{world}/"), "").replace(&world, ".")
    }

    /// The search service; it follows whichever snapshot a search names.
    pub(crate) fn search(&self) -> &SearchService {
        &self.search
    }

    /// The world directory.
    pub(crate) fn world(&self) -> &Path {
        self.roots[0]
            .dir()
            .expect("the world is always a directory")
    }
}

/// The servers `loaded` configures, except where an entry (or a whole file) could not be
/// read: there the entries of `before` from that file stay, so a half-saved edit never
/// stops a server that was working.
/// Also returns the names of the servers kept so.
fn keep_broken(
    before: Vec<crate::upstream::ServerConfig>,
    loaded: &crate::upstream::Configs,
) -> (Vec<crate::upstream::ServerConfig>, Vec<String>) {
    let mut servers = loaded.servers.clone();
    let mut kept = Vec::new();
    for old in before {
        let broken = loaded.problems.iter().any(|p| {
            p.file == old.file
                && p.server
                    .as_ref()
                    .is_none_or(|name| *name == old.original_name)
        });
        if broken && !servers.iter().any(|s| s.name == old.name) {
            kept.push(old.original_name.clone());
            servers.push(old);
        }
    }
    (servers, kept)
}

/// What configured servers claim in a world: their toolbox names (with each server's
/// name as its file writes it), and the world's folders they are given (see
/// [`AssetIndex::serving`]).
fn server_claims<'a>(
    servers: impl Iterator<Item = &'a crate::upstream::ServerConfig>,
    world: &std::path::Path,
) -> (
    std::collections::BTreeMap<String, String>,
    Vec<(std::path::PathBuf, String)>,
) {
    let mut names = std::collections::BTreeMap::new();
    let mut folders = Vec::new();
    for server in servers {
        names.insert(server.name.clone(), server.original_name.clone());
        folders.extend(
            crate::upstream::served_folders(server, world)
                .into_iter()
                .map(|f| (f, server.original_name.clone())),
        );
    }
    (names, folders)
}
