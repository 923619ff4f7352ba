//! A place toolboxes are found: a directory on disk or the bundled tree in the binary.

use std::io;
use std::path::{Path, PathBuf};

use include_dir::{Dir, DirEntry};
use walkdir::WalkDir;

use super::file::read_text;
use super::meta::Origin;

/// How deep below a root the discovery walk looks for `*.toolbox` folders.
pub(crate) const MAX_DEPTH: usize = 6;

/// Directory names the walk never enters (build output, dependencies).
pub(crate) const SKIPPED_DIRS: [&str; 3] = ["target", "node_modules", "__pycache__"];

/// A folder holding a file of this name is not walked (test fixtures, archives). The root
/// itself is always walked, so a fixture world still works when it is the world.
pub(crate) const IGNORE_MARKER: &str = ".codemode-ignore";

/// Where a root's files live.
#[derive(Debug, Clone)]
pub(crate) enum RootSource {
    /// A directory on disk.
    Disk(PathBuf),
    /// Files compiled into the binary.
    Bundled(&'static Dir<'static>),
}

/// The files of one folder, from [`Root::files`].
#[derive(Debug, Clone)]
pub(crate) struct FileSet {
    rel: String,
    /// File names, each with whether it is a symlink.
    files: Vec<(String, bool)>,
    /// Why the folder could not be listed (permissions), when it could not.
    unlisted: Option<String>,
}

impl FileSet {
    /// True when the folder holds a file of this name.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.files.iter().any(|(n, _)| n == name)
    }

    /// Why the folder could not be listed, when it could not: its files are unknown, not
    /// missing.
    pub(crate) fn unlisted(&self) -> Option<&str> {
        self.unlisted.as_deref()
    }

    /// The file names, sorted.
    pub(crate) fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.files.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        names
    }
}

/// What one toolbox folder holds, from one listing ([`Root::toolbox_entries`]): its tool
/// folders and the rest the index reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct BoxEntries {
    /// Tool folder names (`slugify.tool`), sorted.
    pub(crate) tools: Vec<String>,
    pub(crate) others: BoxFiles,
}

/// A toolbox folder's entries other than its tools: module folders, and whether its own
/// `.metadata` and `README.md` are there (a file that is not is never opened).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct BoxFiles {
    /// Module folder names (`shared.module`), sorted.
    pub(crate) modules: Vec<String>,
    pub(crate) metadata: bool,
    pub(crate) readme: bool,
    /// Symlinks named as tool or module folders, sorted: not followed (one may lead out of
    /// the world), and reported so the author knows why they are not there.
    pub(crate) links: Vec<String>,
    /// Why the folder could not be listed, when it could not: its tools are then unknown,
    /// which is reported rather than shown as an empty toolbox (never cached).
    #[serde(skip)]
    pub(crate) unlisted: Option<String>,
}

/// The toolbox folders below a root, from one walk ([`Root::toolbox_dirs`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Toolboxes {
    /// Relative paths of the `*.toolbox` folders, sorted.
    pub(crate) dirs: Vec<String>,
    /// Relative paths of symlinks named `*.toolbox`, sorted: not followed, reported.
    pub(crate) links: Vec<String>,
    /// Folders the walk could not list (relative path, `""` for the root itself), each with
    /// the reason: toolboxes inside them are unknown, not absent, and reported.
    pub(crate) unlisted: Vec<(String, String)>,
}

/// The problem of a folder the walk for toolboxes could not list (`rel` is `""` for the
/// root itself).
pub(crate) fn unlisted_problem(rel: &str, why: &str) -> String {
    let what = if rel.is_empty() {
        "the folder".to_string()
    } else {
        rel.to_string()
    };
    format!(
        "{what} cannot be listed ({why}): no toolbox in it is seen; give the user running codemode read access to it, or put a {IGNORE_MARKER} file in it to leave it out"
    )
}

/// The problem of a symlink where a toolbox, tool or module folder was expected.
pub(crate) fn link_problem(rel: &str) -> String {
    format!(
        "{rel} is a symlink, which the engine does not follow (it could lead out of the world); move or copy the folder here instead"
    )
}

/// One root of the registry: the world or a library.
#[derive(Debug, Clone)]
pub(crate) struct Root {
    /// World or library.
    pub(crate) origin: Origin,
    /// Where the files are.
    pub(crate) source: RootSource,
}

impl Root {
    /// A root on disk. Paths are canonicalized so containment checks are exact.
    pub(crate) fn disk(origin: Origin, path: &Path) -> io::Result<Root> {
        let path = path.canonicalize().map_err(|e| {
            io::Error::new(e.kind(), format!("cannot open {}: {e}", path.display()))
        })?;
        if !path.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a directory", path.display()),
            ));
        }
        Ok(Root {
            origin,
            source: RootSource::Disk(path),
        })
    }

    /// The bundled toolboxes.
    pub(crate) fn bundled(dir: &'static Dir<'static>) -> Root {
        Root {
            origin: Origin::Library,
            source: RootSource::Bundled(dir),
        }
    }

    /// The directory on disk, when the root has one.
    pub(crate) fn dir(&self) -> Option<&Path> {
        match &self.source {
            RootSource::Disk(p) => Some(p),
            RootSource::Bundled(_) => None,
        }
    }

    /// A path a person can read: absolute on disk, `<bundled>/...` otherwise.
    pub(crate) fn display(&self, rel: &str) -> String {
        match &self.source {
            RootSource::Disk(p) => p.join(rel).display().to_string(),
            RootSource::Bundled(_) => format!("<bundled>/{rel}"),
        }
    }

    /// Reads a text file below the root. On disk, a file that leads (by a symlink on the
    /// way) out of the root or into a hidden folder of it is refused, and so is what is
    /// not a regular file or is over its cap (see `file.rs`).
    pub(crate) fn read(&self, rel: &str) -> io::Result<String> {
        match &self.source {
            RootSource::Disk(root) => read_text(root, rel, file_name(rel)),
            RootSource::Bundled(dir) => bundled_entry(dir, rel)
                .and_then(DirEntry::as_file)
                .and_then(|f| f.contents_utf8())
                .map(str::to_string)
                .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, format!("{rel} not found"))),
        }
    }

    /// The files directly inside folder `rel`, listed once so a tool folder costs one
    /// directory read instead of a stat per file it might hold.
    pub(crate) fn files(&self, rel: &str) -> FileSet {
        let mut files = Vec::new();
        let mut unlisted = None;
        match &self.source {
            RootSource::Disk(root) => {
                let listing = std::fs::read_dir(root.join(rel))
                    .map_err(|e| unlisted = Some(e.to_string()))
                    .ok();
                for entry in listing.into_iter().flatten().flatten() {
                    let Ok(kind) = entry.file_type() else {
                        continue;
                    };
                    if let Ok(name) = entry.file_name().into_string() {
                        // A FIFO or socket is listed too: reading it fails with a
                        // message naming it, where leaving it out would say "missing".
                        if !kind.is_dir() {
                            files.push((name, kind.is_symlink()));
                        }
                    }
                }
            }
            RootSource::Bundled(dir) => {
                let folder = bundled_entry(dir, rel).and_then(DirEntry::as_dir);
                for file in folder.into_iter().flat_map(|d| d.files()) {
                    if let Some(name) = file.path().file_name().and_then(|n| n.to_str()) {
                        files.push((name.to_string(), false));
                    }
                }
            }
        }
        FileSet {
            rel: rel.to_string(),
            files,
            unlisted,
        }
    }

    /// Reads `name` from a listed folder (`None` when the listing has no such file).
    pub(crate) fn read_listed(&self, set: &FileSet, name: &str) -> Option<io::Result<String>> {
        set.files.iter().find(|(n, _)| n == name)?;
        Some(self.read(&format!("{}/{name}", set.rel)))
    }

    /// Every `*.toolbox` folder below the root, and the symlinks named so (not followed).
    pub(crate) fn toolbox_dirs(&self) -> Toolboxes {
        let mut found = Toolboxes::default();
        match &self.source {
            RootSource::Disk(root) => disk_toolboxes(root, &mut found),
            RootSource::Bundled(dir) => bundled_toolboxes(dir, &mut found.dirs),
        }
        found.dirs.sort();
        found.links.sort();
        found.unlisted.sort();
        found
    }

    /// What the toolbox folder `rel` holds, in one listing. Hidden folders (a leading `.`,
    /// such as the engine's temporary ones) are skipped.
    pub(crate) fn toolbox_entries(&self, rel: &str) -> BoxEntries {
        let mut entries = BoxEntries::default();
        let mut note = |name: String, is_dir: bool, is_link: bool| {
            if is_dir && !name.starts_with('.') {
                if name.ends_with(".tool") {
                    entries.tools.push(name);
                } else if name.ends_with(".module") {
                    entries.others.modules.push(name);
                }
            } else if is_link
                && !name.starts_with('.')
                && (name.ends_with(".tool") || name.ends_with(".module"))
            {
                entries.others.links.push(name);
            } else if name == ".metadata" {
                entries.others.metadata = true;
            } else if name == "README.md" {
                entries.others.readme = true;
            }
        };
        match &self.source {
            RootSource::Disk(root) => {
                let listed = std::fs::read_dir(root.join(rel));
                if let Err(e) = &listed {
                    if e.kind() != std::io::ErrorKind::NotFound {
                        entries.others.unlisted = Some(format!(
                            "{rel} cannot be listed ({e}): its tools are left out; give the user running codemode read access to the folder"
                        ));
                    }
                }
                for entry in listed.into_iter().flatten().flatten() {
                    if let Ok(name) = entry.file_name().into_string() {
                        let kind = entry.file_type();
                        note(
                            name,
                            kind.as_ref().is_ok_and(|t| t.is_dir()),
                            kind.is_ok_and(|t| t.is_symlink()),
                        );
                    }
                }
            }
            RootSource::Bundled(dir) => {
                for entry in bundled_entry(dir, rel)
                    .and_then(DirEntry::as_dir)
                    .into_iter()
                    .flat_map(|d| d.entries())
                {
                    if let Some(name) = entry.path().file_name().and_then(|n| n.to_str()) {
                        note(name.to_string(), entry.as_dir().is_some(), false);
                    }
                }
            }
        }
        entries.tools.sort();
        entries.others.modules.sort();
        entries.others.links.sort();
        entries
    }
}

/// The folders at or below `from` (a folder of the root `root`) whose entries the index
/// reads: the folders the discovery walk enters, each toolbox folder, and the tool and
/// module folders in it. A file watcher that watches these, and only these, sees every
/// change the index can see (and not the `.codemode/` caches, dependencies or fixtures).
pub(crate) fn read_folders(root: &Path, from: &Path) -> Vec<PathBuf> {
    let Ok(rel) = from.strip_prefix(root) else {
        return Vec::new();
    };
    let names: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let walked = |n: &String| !n.starts_with('.') && !SKIPPED_DIRS.contains(&n.as_str());
    if !names.iter().all(walked) {
        return Vec::new();
    }
    match names.iter().position(|n| n.ends_with(".toolbox")) {
        Some(at) if at + 1 == names.len() => toolbox_folders(from),
        Some(at) if at + 2 == names.len() && is_asset_folder(&names[at + 1]) => {
            vec![from.to_path_buf()]
        }
        Some(_) => Vec::new(),
        None if names.iter().any(|n| n.ends_with(".tool")) => Vec::new(),
        None => {
            let mut out = Vec::new();
            let depth = MAX_DEPTH.saturating_sub(names.len());
            let mut walk = WalkDir::new(from).max_depth(depth).into_iter();
            while let Some(entry) = walk.next() {
                let Ok(entry) = entry else { continue };
                if !entry.file_type().is_dir() {
                    continue;
                }
                let name = entry.file_name().to_string_lossy().into_owned();
                if entry.depth() > 0
                    && (!walked(&name)
                        || name.ends_with(".tool")
                        || entry.path().join(IGNORE_MARKER).exists())
                {
                    walk.skip_current_dir();
                    continue;
                }
                if entry.depth() > 0 && name.ends_with(".toolbox") {
                    out.extend(toolbox_folders(entry.path()));
                    walk.skip_current_dir();
                    continue;
                }
                out.push(entry.into_path());
            }
            out
        }
    }
}

/// The last part of a relative path.
fn file_name(rel: &str) -> &str {
    rel.rsplit('/').next().unwrap_or(rel)
}

/// A folder a toolbox holds that the index reads files of: a tool or a module.
fn is_asset_folder(name: &str) -> bool {
    !name.starts_with('.') && (name.ends_with(".tool") || name.ends_with(".module"))
}

/// A toolbox folder and its tool and module folders.
fn toolbox_folders(toolbox: &Path) -> Vec<PathBuf> {
    let mut out = vec![toolbox.to_path_buf()];
    for entry in std::fs::read_dir(toolbox).into_iter().flatten().flatten() {
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir && is_asset_folder(&entry.file_name().to_string_lossy()) {
            out.push(entry.path());
        }
    }
    out
}

fn disk_toolboxes(root: &Path, found: &mut Toolboxes) {
    let out = &mut found.dirs;
    let mut walk = WalkDir::new(root).max_depth(MAX_DEPTH).into_iter();
    while let Some(entry) = walk.next() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                note_unlisted(root, &e, &mut found.unlisted);
                continue;
            }
        };
        let name = entry.file_name().to_string_lossy();
        if entry.path_is_symlink() && name.ends_with(".toolbox") && !name.starts_with('.') {
            if let Ok(rel) = entry.path().strip_prefix(root) {
                found.links.push(rel.to_string_lossy().replace('\\', "/"));
            }
            continue;
        }
        if !entry.file_type().is_dir() || entry.depth() == 0 {
            continue;
        }
        if name.starts_with('.')
            || SKIPPED_DIRS.contains(&name.as_ref())
            || name.ends_with(".tool")
            || entry.path().join(IGNORE_MARKER).exists()
        {
            walk.skip_current_dir();
            continue;
        }
        if name.ends_with(".toolbox") {
            if let Ok(rel) = entry.path().strip_prefix(root) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
            walk.skip_current_dir();
        }
    }
}

/// Notes a folder the walk could not list. One removed while the walk ran is simply gone.
fn note_unlisted(root: &Path, e: &walkdir::Error, out: &mut Vec<(String, String)>) {
    let (Some(path), Some(io)) = (e.path(), e.io_error()) else {
        return;
    };
    if io.kind() == io::ErrorKind::NotFound {
        return;
    }
    if let Ok(rel) = path.strip_prefix(root) {
        out.push((rel.to_string_lossy().replace('\\', "/"), io.to_string()));
    }
}

fn bundled_toolboxes(dir: &'static Dir<'static>, out: &mut Vec<String>) {
    for child in dir.dirs() {
        let path = child.path().to_string_lossy().replace('\\', "/");
        if path.ends_with(".toolbox") {
            out.push(path);
        } else {
            bundled_toolboxes(child, out);
        }
    }
}

/// The entry at `rel` in the bundled tree, found one folder level at a time by comparing
/// each child's stored path with the prefix of `rel` so far. (`Dir::get_entry` compares
/// whole paths component by component across the tree, and was a third of the start-up
/// of a one-line script.) `rel` may be empty (the root itself has no entry: `None`).
fn bundled_entry<'a>(dir: &'a Dir<'a>, rel: &str) -> Option<&'a DirEntry<'a>> {
    let mut prefix = String::with_capacity(rel.len());
    let mut entries = dir.entries();
    let mut found = None;
    for segment in rel.split('/').filter(|s| !s.is_empty() && *s != ".") {
        if !prefix.is_empty() {
            prefix.push('/');
        }
        prefix.push_str(segment);
        let entry = entries
            .iter()
            .find(|e| e.path().as_os_str().as_encoded_bytes() == prefix.as_bytes())?;
        entries = entry.as_dir().map_or(&[], |d| d.entries());
        found = Some(entry);
    }
    found
}

#[cfg(test)]
#[path = "../../tests/unit/assets/root.rs"]
mod tests;
