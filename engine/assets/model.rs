//! The data the asset index holds about toolboxes and tools.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde::Serialize;

use super::meta::{Origin, ToolMeta};
use super::root::Root;
use super::stamp::Stamp;
use super::tool::{read_folder, read_tool, Draft, Reading};
use crate::cache::FileBytes;

/// Identifies a toolbox folder: the index of its root and its path below that root.
pub(crate) type FolderKey = (usize, Arc<str>);

/// Identifies a tool folder: its toolbox folder and its own folder name (`slugify.tool`).
pub(crate) type ToolKey = (FolderKey, String);

/// The tools of a snapshot by some key. A fresh process on a world of 100,000 tools builds
/// two of these before its first search, and an ordered map built from sorted entries in
/// one go is several times faster than a persistent one built by inserts; the price is a
/// copy of the map (tens of milliseconds at that size) when a later snapshot changes it,
/// which only a long-lived process whose world changes pays.
pub(crate) type ToolMap<K> = Arc<BTreeMap<K, Arc<ToolEntry>>>;

/// Whether a toolbox is a plain toolbox or a workflow (entry tool `start`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum BoxKind {
    /// A plain toolbox.
    Toolbox,
    /// A toolbox whose `.metadata` says `"kind": "workflow"`.
    Workflow,
}

/// Compiled Luau bytecode, shared between VMs and runs.
pub(crate) type Bytecode = Arc<[u8]>;

/// Whether a tool can be called, and if not, why.
#[derive(Debug, Clone)]
pub(crate) enum Registration {
    /// The tool compiled; its bytecode is ready to instantiate.
    Registered(Bytecode),
    /// The tool is listed but never callable.
    Unregistered(String),
}

/// A tool as the index holds it.
///
/// Problems visible in the folder's files (bad `.metadata`, status) are found when the
/// folder is read. The signature is read (with `full_moon`) and the source compiled on
/// first use (a call, a listing, search, `codemode check`); both results are kept until
/// the files change, which replaces the entry. An entry from the index cache
/// (`assets/cache.rs`) carries those results already: its metadata is decoded on first
/// use and its source read from disk only when it is called.
#[derive(Debug)]
pub(crate) struct ToolEntry {
    /// `"<box>.<name>"`.
    pub identity: String,
    /// Where the toolbox's name ends in `identity` (the name follows the dot): one string
    /// instead of three per entry, for worlds of 100,000 tools.
    dot: usize,
    content: Content,
    // What is worked out on first use, boxed: most entries of a large world are never
    // decoded, read or compiled, and kept inline it made every entry half again as large
    // (memory a fresh process on 100,000 tools pays for in page faults).
    later: OnceLock<Box<Later>>,
    verdict: OnceLock<Result<(), String>>,
    /// Key into [`super::AssetIndex::folders`]: the toolbox folder this tool lives in.
    pub folder: super::FolderKey,
    /// Path of the tool folder relative to its root (for messages).
    pub(crate) rel: String,
    /// Where the tool was found.
    pub origin: Origin,
    /// What the files looked like when read: how the cache tells they did not change.
    pub(crate) stamp: Stamp,
    /// Every root (shared by all entries); this tool's is `folder.0`.
    roots: Arc<Vec<super::Root>>,
}

/// What an entry was made from.
#[derive(Debug)]
enum Content {
    /// The files, just read.
    Read {
        draft: Box<Draft>,
        readme: Option<String>,
    },
    /// A tool's reading and README as the index cache encodes them (`codec.rs`), decoded
    /// on first use.
    Cached(Blob),
}

/// The parts of a [`ToolEntry`] worked out on first use.
#[derive(Debug, Default)]
struct Later {
    decoded: OnceLock<Option<Decoded>>,
    reading: OnceLock<Reading>,
    source: OnceLock<Option<Arc<str>>>,
    compiled: OnceLock<Result<Bytecode, String>>,
}

#[derive(Debug)]
struct Decoded {
    reading: Reading,
    readme: Option<String>,
}

impl ToolEntry {
    /// An entry for a tool folder that was just read.
    pub(crate) fn new(
        draft: Draft,
        source: Option<Arc<str>>,
        readme: Option<String>,
        folder: super::FolderKey,
        rel: String,
        roots: &Arc<Vec<super::Root>>,
        stamp: Stamp,
    ) -> ToolEntry {
        ToolEntry {
            identity: format!("{}.{}", draft.toolbox(), draft.name()),
            dot: draft.toolbox().len(),
            content: Content::Read {
                draft: Box::new(draft),
                readme,
            },
            later: OnceLock::from(Box::new(Later {
                source: OnceLock::from(source),
                ..Later::default()
            })),
            verdict: OnceLock::new(),
            origin: roots[folder.0].origin,
            folder,
            rel,
            stamp,
            roots: roots.clone(),
        }
    }

    /// An entry rebuilt from the index cache: `body` is encoded by `codec.rs` and
    /// `verdict` whether the tool was callable.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_cache(
        name: &str,
        toolbox: &str,
        body: Blob,
        verdict: Result<(), String>,
        folder: super::FolderKey,
        rel: String,
        roots: &Arc<Vec<super::Root>>,
        stamp: Stamp,
    ) -> ToolEntry {
        ToolEntry {
            identity: format!("{toolbox}.{name}"),
            dot: toolbox.len(),
            content: Content::Cached(body),
            later: OnceLock::new(),
            verdict: OnceLock::from(verdict),
            origin: roots[folder.0].origin,
            folder,
            rel,
            stamp,
            roots: roots.clone(),
        }
    }

    /// The root the tool was found in.
    fn root(&self) -> &super::Root {
        &self.roots[self.folder.0]
    }

    /// Path of the tool folder a person can open.
    pub(crate) fn path(&self) -> String {
        self.root().display(&self.rel)
    }

    /// This entry with the parse and verdict of a cached one of the same content.
    pub(crate) fn adopt(mut self, body: Blob, verdict: Result<(), String>) -> ToolEntry {
        self.content = Content::Cached(body);
        self.verdict = OnceLock::from(verdict);
        self
    }

    /// The tool's name.
    pub(crate) fn name(&self) -> &str {
        &self.identity[self.dot + 1..]
    }

    /// The toolbox's name.
    pub(crate) fn toolbox(&self) -> &str {
        &self.identity[..self.dot]
    }

    /// The `init.luau` source, when it can be read (a cached entry reads it now).
    pub(crate) fn source(&self) -> Option<&str> {
        self.later()
            .source
            .get_or_init(|| {
                let text = self.root().read(&format!("{}/init.luau", self.rel)).ok()?;
                (text.len() <= super::compile::MAX_SOURCE_BYTES).then(|| Arc::from(text))
            })
            .as_deref()
    }

    /// The parts worked out on first use.
    fn later(&self) -> &Later {
        self.later.get_or_init(Box::default)
    }

    fn decoded(&self) -> Option<&Decoded> {
        self.later()
            .decoded
            .get_or_init(|| {
                let Content::Cached(body) = &self.content else {
                    return None;
                };
                match super::codec::decode(body.bytes(), self.name(), self.toolbox()) {
                    Some((reading, readme)) => Some(Decoded { reading, readme }),
                    None => {
                        tracing::warn!("index cache entry of {} is unreadable", self.rel);
                        None
                    }
                }
            })
            .as_ref()
    }

    fn reading(&self) -> &Reading {
        if let Some(d) = self.decoded() {
            return &d.reading;
        }
        // Read on this thread: each parse inside goes to the indexing threads' big stacks
        // only when the source nests deeply (see `parse::with_luau_within`), so a
        // one-shot run that declares a toolbox starts no threads.
        self.later().reading.get_or_init(|| {
            let fallback;
            let draft = match &self.content {
                Content::Read { draft, .. } => draft,
                // A cached body that does not decode: read the metadata from the files.
                Content::Cached(_) => {
                    fallback = super::tool::draft_of(self.root(), &self.rel, self.toolbox());
                    &fallback
                }
            };
            read_tool(draft, self.source(), &self.rel)
        })
    }

    /// Everything the four metadata sources say (read on first call).
    pub(crate) fn meta(&self) -> &ToolMeta {
        &self.reading().meta
    }

    /// README.md text, shown at tier 3 and in docs.
    pub(crate) fn readme(&self) -> Option<&str> {
        match &self.content {
            Content::Read { readme, .. } => readme.as_deref(),
            Content::Cached(_) => self.decoded().and_then(|d| d.readme.as_deref()),
        }
    }

    /// Non-fatal findings for `codemode check` (docstring/signature mismatches).
    pub(crate) fn warnings(&self) -> &[String] {
        &self.reading().warnings
    }

    /// Whether the tool is callable, and why not: the files' refusal, else the compiler's.
    fn verdict(&self) -> &Result<(), String> {
        self.verdict.get_or_init(|| {
            if let Some(refusal) = &self.reading().refusal {
                return Err(refusal.clone());
            }
            self.bytecode().map(|_| ())
        })
    }

    fn bytecode(&self) -> Result<Bytecode, String> {
        self.later()
            .compiled
            .get_or_init(|| match self.source() {
                Some(src) => super::compile(src)
                    .map(Arc::from)
                    .map_err(|e| format!("{}/init.luau does not compile: {e}", self.rel)),
                None => Err(format!(
                    "{}/init.luau cannot be read; every tool needs one",
                    self.rel
                )),
            })
            .clone()
    }

    /// Callable (with its bytecode) or not (with the reason); compiles on first call.
    pub(crate) fn registration(&self) -> Registration {
        if let Err(reason) = self.verdict() {
            return Registration::Unregistered(reason.clone());
        }
        match self.bytecode() {
            Ok(code) => Registration::Registered(code),
            Err(reason) => Registration::Unregistered(reason),
        }
    }

    /// True when the tool can be called (compiles once, unless the cache knows).
    pub(crate) fn is_registered(&self) -> bool {
        self.verdict().is_ok()
    }

    /// The reason the tool cannot be called, if any.
    pub(crate) fn reason(&self) -> Option<&str> {
        self.verdict().as_ref().err().map(String::as_str)
    }

    /// The encoded metadata and verdict, as the index cache stores them (reads, parses
    /// and compiles the tool if that was not done yet).
    pub(crate) fn cache_body(&self) -> (Blob, Result<(), String>) {
        let verdict = self.verdict().clone();
        let body = match &self.content {
            // Reused as read unless it failed to decode.
            Content::Cached(body)
                if !matches!(self.later.get().and_then(|l| l.decoded.get()), Some(None)) =>
            {
                body.clone()
            }
            _ => Blob::new(super::codec::encode(self.reading(), self.readme())),
        };
        (body, verdict)
    }
}

/// Where a tool folder is: its root, its toolbox folder and its own folder name.
pub(crate) struct ToolLocation<'a> {
    /// Every root.
    pub(crate) roots: &'a Arc<Vec<Root>>,
    /// The root the toolbox lives in.
    pub(crate) root: &'a Root,
    /// Key of the toolbox folder.
    pub(crate) folder: &'a FolderKey,
    /// Toolbox name.
    pub(crate) toolbox: &'a str,
    /// The tool folder's name (`slugify.tool`).
    pub(crate) dir_name: &'a str,
}

/// Reads one tool folder's files. Never fails: problems make the tool unregistered.
/// Only cheap work happens here (docstring, `.metadata`, README); the signature is read
/// and the source compiled on first use, so indexing thousands of tools stays fast.
pub(crate) fn load_tool(at: &ToolLocation) -> ToolEntry {
    let rel = format!("{}/{}", at.folder.1, at.dir_name);
    let (draft, source, readme, stamp) = read_folder(at.root, &rel, at.toolbox);
    ToolEntry::new(
        draft,
        source,
        readme,
        at.folder.clone(),
        rel,
        at.roots,
        stamp,
    )
}

/// Bytes shared with others: a cached entry's body is a range of the cache file read or
/// mapped.
#[derive(Debug, Clone)]
pub(crate) struct Blob {
    data: Arc<FileBytes>,
    range: std::ops::Range<usize>,
}

impl Blob {
    /// Bytes of their own.
    pub(crate) fn new(data: Vec<u8>) -> Blob {
        let range = 0..data.len();
        Blob {
            data: Arc::new(FileBytes::Read(data)),
            range,
        }
    }

    /// A range of shared bytes.
    pub(crate) fn slice(data: &Arc<FileBytes>, range: std::ops::Range<usize>) -> Blob {
        Blob {
            data: data.clone(),
            range,
        }
    }

    /// The bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.data[self.range.clone()]
    }
}

/// One `<box>.toolbox/` folder. Several folders (world, libraries) can share a name.
#[derive(Debug, Clone)]
pub(crate) struct ToolboxFolder {
    /// The toolbox name.
    pub name: String,
    /// Which root the folder is in (index into the registry's roots).
    pub(crate) root: usize,
    /// Path of the folder relative to its root.
    pub(crate) path: String,
    /// Where it was found.
    pub(crate) origin: Origin,
    /// README purpose, or `.metadata` description.
    pub purpose: String,
    /// Tags from `.metadata`.
    pub(crate) tags: Vec<String>,
    /// Toolbox or workflow.
    pub(crate) kind: BoxKind,
    /// `<m>.module/init.luau` modules: `require(".<m>")`.
    pub modules: Vec<Module>,
    /// Problems with the folder itself (bad `.metadata`, an unreadable module).
    pub(crate) warnings: Vec<String>,
    /// Why the folder could not be listed, when it could not: its tools are unknown, not
    /// absent (the same text is one of `warnings`).
    pub(crate) unlisted: Option<String>,
}

/// One `<m>.module/init.luau` of a toolbox, compiled on first use (a `require`, or
/// `codemode check`): a process that never loads it never pays for it.
#[derive(Debug, Clone)]
pub(crate) struct Module {
    /// The module's name (`shared` for `shared.module/`).
    pub name: String,
    /// `<box>.toolbox/<m>.module/init.luau`, for messages.
    path: String,
    /// The source, or why it could not be read.
    source: Result<Arc<str>, String>,
    compiled: OnceLock<Result<Bytecode, String>>,
}

impl Module {
    /// The module's source, when its file could be read.
    pub(crate) fn text(&self) -> Option<&str> {
        self.source.as_deref().ok()
    }

    /// A module whose file was read (or not).
    pub(crate) fn new(name: String, path: String, source: Result<Arc<str>, String>) -> Module {
        Module {
            name,
            path,
            source,
            compiled: OnceLock::new(),
        }
    }

    /// The module's bytecode, or why there is none (compiles on first call).
    pub(crate) fn bytecode(&self) -> Result<Bytecode, String> {
        self.compiled
            .get_or_init(|| {
                let source = self.source.as_ref().map_err(Clone::clone)?;
                super::compile(source)
                    .map(Arc::from)
                    .map_err(|e| format!("{} does not compile: {e}", self.path))
            })
            .clone()
    }
}
