//! A local server given the world's folder (or one above it) could rewrite the world's
//! `.codemode/`, its policy and this server list, for any script that calls its tools:
//! such a server is refused unless its entry says `"allowWorldAccess": true`. A server
//! given `.codemode/` itself (or anything in it) is refused whatever its entry says:
//! `allowWorldAccess` is about the world's tools and files, and no server needs the
//! engine's own settings alone.
//!
//! Arguments are read as a server reads them: a `--flag=value`'s value, a `file:` URL's
//! decoded path, and the words of command text a shell runs (`shell_text.rs`); shell text
//! whose words are made only at run time (`$PWD`, globs) cannot be checked, and is
//! refused unless the entry allows world access.
//!
//! Servers run with the user's rights, outside the sandbox, so this guards the common
//! shape (a file server rooted at `.`), not every way a server could reach the folder.

use std::path::{Component, Path, PathBuf};

use super::config::{ServerConfig, Transport};

/// Why a local server's arguments (or working directory) are refused. The text of each
/// names the argument by its place and as the file writes it ([`which`]), never with a
/// `${NAME}` replaced by its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reach {
    /// The argument names the world's folder or one above it.
    World(String),
    /// The argument names the world's `.codemode/` or something inside it.
    Settings(String),
    /// The argument is command text for a shell whose words are made at run time, so
    /// what it reaches cannot be known: the argument, and what makes it so.
    Script(String, String),
    /// Its `cwd` is the world's `.codemode/` or a folder inside it.
    SettingsCwd(PathBuf),
    /// Its command or an argument (as written) names a file inside the world that scripts
    /// can rewrite: the server would run what a script wrote.
    Code(String),
}

/// Extensions of files a server's command line may run: a path inside the world that
/// does not exist yet but is named so is as dangerous as one that does (a script could
/// write it before the server starts).
const CODE_EXTENSIONS: [&str; 15] = [
    "py", "pyc", "js", "mjs", "cjs", "ts", "mts", "cts", "sh", "bash", "rb", "pl", "php", "lua",
    "jar",
];

/// What a local server's arguments reach that they may not: the world's `.codemode/`
/// always, the world's folder or one above it unless its entry allows that.
pub(crate) fn world_reach(server: &ServerConfig, world: &Path) -> Option<Reach> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    reach_from(server, world, home.as_deref())
}

/// One word of a server's command line to check: where it stands (0 the command, `i + 1`
/// `args[i]`), and the folders it may be read from (its `cwd`, and the folders a shell's
/// `cd` went to before it).
struct Word {
    at: usize,
    text: String,
    bases: Vec<PathBuf>,
}

impl Word {
    /// The paths this word may name.
    fn paths(&self, home: Option<&Path>) -> Vec<PathBuf> {
        self.bases
            .iter()
            .flat_map(|base| named(base, home, &self.text))
            .collect()
    }

    /// The paths this word names where the last `cd` went (`cd /opt/srv && exec node
    /// index.js` runs /opt/srv/index.js, not the world's).
    fn paths_after_cd(&self, home: Option<&Path>) -> Vec<PathBuf> {
        self.bases
            .last()
            .map(|base| named(base, home, &self.text))
            .unwrap_or_default()
    }
}

/// The words of a server's arguments: each argument, and each word of the command text a
/// shell runs; and the first shell text whose words cannot all be known before it runs
/// (its place, and why).
fn words_of(args: &[String], command: &str, base: &Path) -> (Vec<Word>, Option<(usize, String)>) {
    let scripts = super::shell_text::scripts(command, args);
    let mut unknowable = None;
    let mut out = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        // Command text stands for the words a shell reads in it, below.
        if !scripts.contains(&i) {
            out.push(Word {
                at: i + 1,
                text: arg.clone(),
                bases: vec![base.to_path_buf()],
            });
            continue;
        }
        let reading = super::shell_text::words(arg);
        if let (None, Some(why)) = (&unknowable, reading.unknowable) {
            unknowable = Some((i + 1, why));
        }
        let words = reading.words;
        let mut bases = vec![base.to_path_buf()];
        let mut after_cd = false;
        for word in words {
            if after_cd {
                let last = bases.last().cloned().unwrap_or_else(|| base.to_path_buf());
                bases.push(last.join(&word));
            }
            after_cd = word == "cd" || word == "pushd";
            out.push(Word {
                at: i + 1,
                text: word,
                bases: bases.clone(),
            });
        }
    }
    (out, unknowable)
}

/// How a message names the word at `at` of `server`'s command line: its place and its
/// text as the file writes it.
fn which(server: &ServerConfig, at: usize) -> String {
    let written = server.written.get(at);
    match (at, written) {
        (0, Some(text)) => format!("command {text:?}"),
        (0, None) => "command".to_string(),
        (at, Some(text)) => format!("args[{}] ({text:?})", at - 1),
        (at, None) => format!("args[{}]", at - 1),
    }
}

/// [`world_reach`], with `~` read as `home`.
fn reach_from(server: &ServerConfig, world: &Path, home: Option<&Path>) -> Option<Reach> {
    let Transport::Stdio {
        command, args, cwd, ..
    } = &server.transport
    else {
        return None;
    };
    let world = world.canonicalize().ok()?;
    let settings = settings_folders(&world);
    let base = match cwd {
        Some(cwd) => std::path::absolute(cwd).ok()?,
        None => world.clone(),
    };
    let inside_settings =
        |path: &Path| readings(path).any(|p| settings.iter().any(|s| p.starts_with(s)));
    if cwd.is_some() && inside_settings(&base) {
        return Some(Reach::SettingsCwd(base));
    }
    let (words, unknowable) = words_of(args, command, &base);
    if let Some(word) = words
        .iter()
        .find(|w| w.paths(home).iter().any(|p| inside_settings(p)))
    {
        return Some(Reach::Settings(which(server, word.at)));
    }
    // Trusted with the world, a server may run shell text whose words are made later.
    if server.allow_world_access {
        return None;
    }
    if let Some((at, why)) = unknowable
        .or_else(|| super::shell_text::inline_code(command, args).map(|(i, why)| (i + 1, why)))
    {
        return Some(Reach::Script(which(server, at), why));
    }
    // A bare command is found on PATH, not in the folder the server starts in.
    let code = |word: &Word, is_command: bool| {
        word.paths_after_cd(home).iter().any(|p| {
            std::iter::once(as_written(p))
                .chain(readings(p))
                .any(|p| writable_code(&world, &p, is_command))
        })
    };
    let command_word = Word {
        at: 0,
        text: command.clone(),
        bases: vec![base.clone()],
    };
    if command.contains('/') && code(&command_word, true) {
        return Some(Reach::Code(which(server, 0)));
    }
    if let Some(word) = words.iter().find(|w| code(w, false)) {
        return Some(Reach::Code(which(server, word.at)));
    }
    words
        .iter()
        .find(|w| {
            w.paths(home)
                .iter()
                .any(|p| readings(p).any(|dir| dir.is_dir() && world.starts_with(&dir)))
        })
        .map(|w| Reach::World(which(server, w.at)))
}

/// The folders of the world (resolved) that a local server is given, by an argument or
/// its `cwd`: what it writes there is its own, so toolbox folders inside them are left out
/// of the world's tools (see `AssetIndex::serving`). None for a server trusted with the
/// world (`allowWorldAccess`). A folder not made yet counts when written with a `/`.
pub(crate) fn served_folders(server: &ServerConfig, world: &Path) -> Vec<PathBuf> {
    let Transport::Stdio { args, cwd, .. } = &server.transport else {
        return Vec::new();
    };
    let Ok(world) = world.canonicalize() else {
        return Vec::new();
    };
    if server.allow_world_access {
        return Vec::new();
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let base = match cwd {
        Some(cwd) => std::path::absolute(cwd).unwrap_or_else(|_| cwd.clone()),
        None => world.clone(),
    };
    let mut candidates: Vec<(PathBuf, bool)> = cwd.iter().map(|_| (base.clone(), false)).collect();
    for arg in args {
        let written_as_path = path_part(arg).is_some_and(|p| p.contains('/'));
        candidates.extend(
            named(&base, home.as_deref(), arg)
                .into_iter()
                .map(|p| (p, written_as_path)),
        );
    }
    let mut folders: Vec<PathBuf> = candidates
        .into_iter()
        .flat_map(|(p, written_as_path)| {
            readings(&p)
                .filter(move |r| r.is_dir() || (written_as_path && !r.exists()))
                .collect::<Vec<_>>()
        })
        .filter(|r| r != &world && r.starts_with(&world))
        .collect();
    folders.sort();
    folders.dedup();
    folders
}

/// True when `path` names code inside `world`: the command itself, or an argument named
/// like code (present or not yet) or marked executable. A data file (`app.db`) is not code.
/// Code in a hidden folder counts too, though no script writes it: what it loads is found
/// through folders above it that scripts do write (Node looks for a package in the
/// `node_modules` of every folder up to the root, so `.mcp-servers/srv.mjs` would load a
/// `node_modules/` a script made at the top of the world).
fn writable_code(world: &Path, path: &Path, is_command: bool) -> bool {
    use std::os::unix::fs::PermissionsExt;
    if !path
        .strip_prefix(world)
        .is_ok_and(|rel| !rel.as_os_str().is_empty())
    {
        return false;
    }
    let meta = std::fs::metadata(path);
    if meta.as_ref().is_ok_and(|m| m.is_dir()) {
        return false;
    }
    let named_like_code = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| CODE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
    is_command || named_like_code || meta.is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

/// True when a script could read or write the file `path` (relative to the current
/// folder, symlinks followed) through `vfs` or a command it may start: it lies inside
/// `world`, in a top-level entry not hidden by a leading `.`.
pub(crate) fn script_reachable(world: &Path, path: &Path) -> bool {
    let Ok(cwd) = std::env::current_dir() else {
        return false;
    };
    readings(&cwd.join(path)).any(|real| open_to_scripts(world, &real))
}

/// True when `path` (resolved) lies below `world` in a top-level entry not hidden by a
/// leading `.`. `vfs` refuses a hidden name anywhere on the way, but a command a profile
/// may start is confined to the world's top-level entries as a whole (`shell/confine.rs`),
/// so a hidden folder below one of them (`tools/.x/`) is within its reach.
fn open_to_scripts(world: &Path, path: &Path) -> bool {
    path.strip_prefix(world).is_ok_and(|rel| {
        rel.components()
            .next()
            .is_some_and(|top| !top.as_os_str().to_string_lossy().starts_with('.'))
    })
}

/// The world's settings folder as spelt under the canonical world and, when it is a
/// symlink, where it leads.
fn settings_folders(world: &Path) -> Vec<PathBuf> {
    let spelt = world.join(".codemode");
    let mut folders = vec![spelt.clone()];
    if let Ok(real) = spelt.canonicalize() {
        if real != spelt {
            folders.push(real);
        }
    }
    folders
}

/// The paths `arg` may name for a server started in `base`: itself, or what follows `=`
/// in `--root=/some/dir`; and each word of it, for a command line a shell reads
/// (`sh -c "node server.js ."`). `~` is the home folder, as servers expand it, and
/// `/proc/self/cwd` (however spelt) is the server's own folder, not codemode's.
fn named(base: &Path, home: Option<&Path>, arg: &str) -> Vec<PathBuf> {
    let mut words: Vec<&str> = vec![arg];
    if arg.contains(char::is_whitespace) {
        words.extend(arg.split_whitespace().map(|w| w.trim_matches(['"', '\''])));
    }
    words
        .into_iter()
        .flat_map(path_parts)
        .map(|word| named_by_word(base, home, &word))
        .collect()
}

/// The path one word names for a server started in `base` (see [`named`]).
fn named_by_word(base: &Path, home: Option<&Path>, word: &str) -> PathBuf {
    let path = match (word.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
            home.join(rest.trim_start_matches('/'))
        }
        _ => PathBuf::from(word),
    };
    let spelt = as_written(&path);
    for own in ["/proc/self/cwd", "/proc/thread-self/cwd"] {
        if let Ok(rest) = spelt.strip_prefix(own) {
            return base.join(rest);
        }
    }
    base.join(path)
}

/// What `path` (absolute) may name: as the kernel resolves it, and as most servers read
/// it, dropping `name/..` as written before they look (Node's `path.resolve`, Python's
/// `os.path.normpath`): to them `./missing/..` is the folder itself, where the kernel
/// finds nothing.
fn readings(path: &Path) -> impl Iterator<Item = PathBuf> {
    [resolve(path), resolve(&as_written(path))]
        .into_iter()
        .flatten()
}

/// `path` with `.` and `name/..` dropped as written, without looking at the disk.
fn as_written(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` (absolute) with symlinks, `.` and `..` resolved one part at a time, as the
/// kernel would; from the first part that does not exist (a file a server would create)
/// on, the rest is applied as written. A symlink whose target does not exist yet is
/// followed all the same: the server would create the file where it points.
fn resolve(path: &Path) -> Option<PathBuf> {
    resolve_within(path, 0)
}

/// As [`resolve`], giving up past the kernel's own limit on symlinks in one lookup.
fn resolve_within(path: &Path, links: usize) -> Option<PathBuf> {
    if !path.is_absolute() || links > 40 {
        return None;
    }
    let mut out = PathBuf::from("/");
    for part in path.components() {
        match part {
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(name) => {
                out.push(name);
                if let Ok(real) = out.canonicalize() {
                    out = real;
                } else if let Ok(target) = std::fs::read_link(&out) {
                    out.pop();
                    out = resolve_within(&out.join(target), links + 1)?;
                }
            }
        }
    }
    Some(out)
}

/// The path an argument names: itself, or what follows `=` in `--root=/some/dir`; a
/// `file:` URL (`file:///w`, `file://localhost/w/%2Ecodemode`) names its path, decoded.
fn path_part(arg: &str) -> Option<String> {
    path_parts(arg).into_iter().next()
}

/// [`path_part`], with every reading of a `file:` URL whose host is not `localhost`: its
/// path alone (most readers), and the host and path as one relative path (readers that
/// take `file://./data` for `./data`).
fn path_parts(arg: &str) -> Vec<String> {
    let path = match arg.strip_prefix('-') {
        Some(_) => match arg.split_once('=') {
            Some((_, value)) => value,
            None => {
                return glued_value(arg)
                    .map(|v| vec![v.to_string()])
                    .unwrap_or_default()
            }
        },
        None => arg,
    };
    if path.is_empty() {
        return Vec::new();
    }
    let is_url = path
        .get(..5)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("file:"));
    if !is_url {
        let mut out = vec![path.to_string()];
        out.extend(listed_paths(path).map(str::to_string));
        return out;
    }
    let Ok(url) = url::Url::parse(path) else {
        return Vec::new();
    };
    let host = url.host_str().unwrap_or_default();
    // The path alone, whatever the host: a server reads it so.
    let decoded = url::Url::parse(&format!("file://{}", url.path()))
        .ok()
        .and_then(|local| local.to_file_path().ok());
    let Some(decoded) = decoded else {
        return Vec::new();
    };
    let decoded = decoded.to_string_lossy().into_owned();
    let mut out = vec![decoded.clone()];
    if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
        out.push(format!("{host}{decoded}"));
    }
    out
}

/// The value glued to a short flag (`-r/srv/data`, `-d.`), which many servers read as
/// `-r /srv/data`.
fn glued_value(arg: &str) -> Option<&str> {
    let mut chars = arg.chars();
    let (Some('-'), Some(flag)) = (chars.next(), chars.next()) else {
        return None;
    };
    let value = chars.as_str();
    (flag.is_ascii_alphabetic() && !value.is_empty()).then_some(value)
}

/// The paths a word lists or sets inside itself, which servers split out as they read
/// it: `a,/w` and `/w:/data` (lists), `root=/w` and `dir:.` (settings), `{"root":"/w"}`
/// (JSON). Only pieces written as paths (`/`, `.`, `~` first): a list of names or a port
/// names no folder.
fn listed_paths(word: &str) -> impl Iterator<Item = &str> {
    word.split([',', ':', '=', ';', '{', '}', '[', ']', '"', '\''])
        .map(str::trim)
        .filter(move |piece| *piece != word && piece.starts_with(['/', '.', '~']))
}

/// The message for a server refused by [`world_reach`].
pub(crate) fn refusal(reach: &Reach, world: &Path) -> String {
    match reach {
        Reach::World(arg) => format!(
            "its {arg} gives it the world's folder {} (or one above it), which \
             holds .codemode/ (the world's policy and this server list): a script could \
             rewrite them through the server's tools; give it a folder inside the world \
             instead (such as \"./data\"), or add \"allowWorldAccess\": true to its entry \
             if every script may change them",
            world.display()
        ),
        Reach::Settings(arg) => settings_refusal(arg, world),
        Reach::Script(arg, why) => format!(
            "its {arg} is code a shell or an interpreter runs, with {why}: what it reaches is \
             made when it runs, so codemode cannot tell whether it is the world's folder or \
             its .codemode/ (the world's policy and this server list); write the command line \
             without it (the program and its arguments as words of \"args\", or a script \
             kept outside the world), or add \"allowWorldAccess\": true to its entry if \
             every script may change the world's settings through the server"
        ),
        Reach::SettingsCwd(cwd) => settings_refusal(&format!("\"cwd\" {}", cwd.display()), world),
        Reach::Code(word) => format!(
            "its {word} names a file inside the world {}, which scripts can \
             rewrite (vfs.write, or a command a profile may start): the next start of the \
             server would run what a script wrote, outside the sandbox and with your rights; \
             keep the server's code outside the world (a hidden folder of it is not enough: \
             what the code loads is looked for in folders scripts write), or add \
             \"allowWorldAccess\": true to its entry if every script may run commands as you",
            world.display()
        ),
    }
}

fn settings_refusal(what: &str, world: &Path) -> String {
    format!(
        "its {what} names {}/.codemode/ or something in it (the world's policy and this \
         server list): a script could rewrite them through the server's tools and grant \
         itself anything; give it a folder of the world's files instead (such as \
         \"./data\"). \"allowWorldAccess\" does not lift this: it is about the world's \
         tools and files, not the engine's own settings",
        world.display()
    )
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/guard.rs"]
mod tests;
