//! `codemode-check`: Luau's type checker (the Analysis frontend, through the shim in
//! `vendor/luau-analyze`) in a process of its own, which the engine starts once and talks
//! to over a pipe.
//!
//! It lives apart from `codemode` because luau-analyze and mlua each bundle a different
//! version of Luau's C++ sources, and one binary cannot hold both (the `Luau::` symbols
//! clash). It uses neither the library nor mlua.
//!
//! The protocol is one JSON object per line each way, one reply per request, in order:
//!
//! - `{"defs": TEXT, "key": K, "named": NAME?}` loads declarations scripts are checked
//!   against into a fresh checker kept under the number `K` (the last [`HELD`] are kept;
//!   the declarations of one never leak into another's); the reply is `{"ok": true,
//!   "key": K, "len": BYTES, "digest": SHA256}` or `{"ok": false, "error": MESSAGE}`.
//!   `NAME` says what the text was built from, so a later client of the resident may ask
//!   for the same declarations by it alone.
//! - `{"named": NAME}`, a resident connection's first request, asks for the declarations
//!   an earlier client loaded under that name: the reply is that load's, or `{"ok":
//!   false, "unnamed": true}` when the resident holds none by it (the client then sends
//!   them).
//! - `{"check": SOURCE, "key": K, "timeoutMs": N}` checks one script in strict mode
//!   against the declarations kept under `K`; the reply is `{"ok": true, "timedOut": BOOL,
//!   "diagnostics": [{"line", "column", "endLine", "endColumn", "severity", "message",
//!   "kind"}]}` with 1-based lines and columns (columns count characters, not bytes), or
//!   `{"ok": false, "unloaded": true, ...}` when nothing is kept under `K` (the client
//!   loads it again).
//!
//! A diagnostic's `kind` is what it is as data, so the engine never reads `message` (the
//! English a Luau upgrade may reword): `"maybeNil"`, `"noReturn"`,
//! `"notCallable"`, `"gaveUp"` (the solver stopped short: too complex, or incomplete),
//! `"internal"`, `"timedOut"`; or an object of one field naming the kind:
//! `{"other": {"types"}}` (an error of another kind, with the types it names),
//! `{"lint": {"name"}}` (Luau's name of the lint, `LocalUnused`), `{"mismatch": {"wanted",
//! "given"}}` (types), `{"missingKey": {"of", "key", "owner"}}` (`owner` is `"table"`,
//! `"extern"`, `"suggested"` when Luau names a key of another case, or `"scalar"`),
//! `{"count": {"of", "expected", "actual"}}` (`of` is `"arguments"`, `"results"`,
//! `"values"` or `"returns"`), `{"unknownGlobal": {"name"}}`, `{"cannotExtend": {"table",
//! "what"}}` (`what` is `"property"`, `"indexer"` or `"metatable"`). Types are as Luau
//! prints them. `check::Kind` reads this.
//!
//! The process ends when its input closes. Its address space is capped, so a script
//! written to make the checker allocate without end kills only the checker.
//!
//! Started with `CODEMODE_CHECK_RESIDENT` naming a socket, it is instead the user's
//! resident checker, which one-shot runs connect to (see `resident.rs`); each connection
//! speaks the same protocol.

mod resident;

use std::time::Duration;

use luau_analyze::{CheckOptions, Checker, Data, Severity};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// mimalloc for Rust's allocations; its `override` feature takes over `malloc` itself, so
/// Luau's C++ allocates through it too (see the dependency's note in `Cargo.toml`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The address space the checker may take beyond what it holds at start: the bundled
/// world's declarations and a large script take tens of megabytes, so this is far from
/// any honest need.
const MAX_ADDRESS_SPACE: u64 = 2 << 30;

/// How many sets of declarations are kept loaded, the least recently used let go first:
/// each holds about 10 MB, and loading one again costs a few milliseconds.
const HELD: usize = 4;

/// What a warm child checks before it is handed a client: any declarations have `tools`
/// and its surface functions, so this touches the paths a script's tool calls take.
const WARM_UP: &str = r#"local t = tools
local found = t.search("warm up", { limit = 2 })
local rows = {}
for i, row in found.value do
	table.insert(rows, string.format("%d %s", i, row.identity))
end
return { rows = rows, help = t.help("search").stdout }
"#;

/// The longest a check may run when the request names no timeout.
const DEFAULT_TIMEOUT: Duration = Duration::from_millis(500);

fn main() {
    cap_memory();
    // Luau's builtins are registered before the first request: an engine starts the
    // checker early and sends the declarations later, so this overlaps its own work. A
    // resident's children inherit the ready checker.
    let mut state = State {
        checkers: Vec::new(),
        spare: Checker::new().ok(),
    };
    if let Some(socket) = std::env::var_os(resident::RESIDENT_ENV) {
        resident::run(std::path::Path::new(&socket), &mut state);
    }
    resident::serve(
        std::io::stdin().lock(),
        std::io::stdout().lock(),
        &mut state,
    );
}

/// The checkers with declarations loaded, most recently used last, and a fresh one made
/// ahead for the next declarations.
struct State {
    checkers: Vec<Loaded>,
    spare: Option<Checker>,
}

/// A checker with declarations loaded, under the key its client names them by and the
/// digest of their text: a resident's clients may name different texts by one key.
struct Loaded {
    key: u64,
    digest: [u8; 32],
    checker: Checker,
}

impl resident::Serve for State {
    fn answer(&mut self, line: &str) -> String {
        match serde_json::from_str::<Value>(line) {
            Ok(request) => answer(&request, &mut self.checkers, &mut self.spare),
            Err(e) => json!({"ok": false, "error": format!("the request is not JSON: {e}")}),
        }
        .to_string()
    }

    fn within(&self, line: &str) -> Duration {
        let timeout = serde_json::from_str::<Value>(line)
            .ok()
            .and_then(|request| request.get("timeoutMs")?.as_u64());
        // A load of declarations (a fresh checker and a world's types) takes longer.
        timeout.map_or(Duration::from_secs(5), Duration::from_millis)
    }

    fn loads(&self, line: &str) -> bool {
        line.starts_with("{\"defs\"")
    }

    fn name_loaded(&self, line: &str) -> Option<String> {
        if !self.loads(line) {
            return None;
        }
        serde_json::from_str::<Named>(line).ok()?.named
    }

    fn name_asked(&self, line: &str) -> Option<String> {
        if !line.starts_with("{\"named\"") {
            return None;
        }
        serde_json::from_str::<Named>(line).ok()?.named
    }

    fn warm(&mut self, first: &str) -> String {
        let Ok(request) = serde_json::from_str::<Value>(first) else {
            return self.answer(first);
        };
        let key = request.get("key").and_then(Value::as_u64).unwrap_or(0);
        let reply = answer(&request, &mut self.checkers, &mut self.spare);
        // Twice, and with a call, a loop and a table: a forked child's first check pays
        // for the pages it writes (copied from the resident, or new) and for cold caches,
        // several times a warm check, which these take off the client's path.
        let check = json!({"check": WARM_UP, "key": key});
        for _ in 0..2 {
            answer(&check, &mut self.checkers, &mut self.spare);
        }
        reply.to_string()
    }

    fn restock(&mut self) {
        if self.spare.is_none() {
            self.spare = Checker::new().ok();
        }
    }
}

/// The name a request gives declarations (see the protocol above); its other fields are
/// skipped unread.
#[derive(serde::Deserialize)]
struct Named {
    named: Option<String>,
}

/// The reply to one request. `checkers` holds the loaded declarations, most recently used
/// last.
fn answer(request: &Value, checkers: &mut Vec<Loaded>, spare: &mut Option<Checker>) -> Value {
    let key = request.get("key").and_then(Value::as_u64).unwrap_or(0);
    if let Some(defs) = request.get("defs").and_then(Value::as_str) {
        let digest: [u8; 32] = Sha256::digest(defs.as_bytes()).into();
        // What a client that asks by name alone learns of the text it did not send.
        let loaded = json!({
            "ok": true,
            "key": key,
            "len": defs.len(),
            "digest": digest.iter().map(|b| format!("{b:02x}")).collect::<String>(),
        });
        // Held already (a resident's earlier client sent the same text): kept, not loaded
        // again.
        if let Some(at) = checkers
            .iter()
            .position(|l| l.key == key && l.digest == digest)
        {
            let held = checkers.remove(at);
            checkers.push(held);
            return loaded;
        }
        checkers.retain(|l| l.key != key);
        return match load(defs, spare.take()) {
            Ok(checker) => {
                if checkers.len() >= HELD {
                    checkers.remove(0);
                }
                checkers.push(Loaded {
                    key,
                    digest,
                    checker,
                });
                loaded
            }
            Err(error) => json!({"ok": false, "error": error}),
        };
    }
    if request.get("named").is_some() {
        return json!({"ok": false, "unnamed": true, "error": "no declarations are held by this name"});
    }
    let Some(source) = request.get("check").and_then(Value::as_str) else {
        return json!({"ok": false, "error": "a request holds `defs` or `check`"});
    };
    let Some(at) = checkers.iter().position(|l| l.key == key) else {
        return json!({"ok": false, "unloaded": true, "error": "no declarations are loaded under this key"});
    };
    let held = checkers.remove(at);
    checkers.push(held);
    let Some(Loaded { checker, .. }) = checkers.last_mut() else {
        return json!({"ok": false, "unloaded": true, "error": "no declarations are loaded under this key"});
    };
    let timeout = request
        .get("timeoutMs")
        .and_then(Value::as_u64)
        .map_or(DEFAULT_TIMEOUT, Duration::from_millis);
    let options = CheckOptions {
        timeout: Some(timeout),
        ..CheckOptions::default()
    };
    match checker.check_with_options(source, options) {
        Ok(result) => {
            let columns = Columns::of(source);
            let diagnostics: Vec<Value> = result
                .diagnostics
                .iter()
                .map(|d| {
                    json!({
                        "line": d.line + 1,
                        "column": columns.at(d.line, d.col),
                        "endLine": d.end_line + 1,
                        "endColumn": columns.at(d.end_line, d.end_col),
                        "severity": match d.severity {
                            Severity::Error => "error",
                            Severity::Warning => "warning",
                        },
                        "message": d.message,
                        "kind": kind(&d.data),
                    })
                })
                .collect();
            json!({"ok": true, "timedOut": result.timed_out, "diagnostics": diagnostics})
        }
        Err(e) => json!({"ok": false, "error": e.to_string()}),
    }
}

/// The `kind` of a diagnostic, from the shim's codes (see `luau_analyze::Data`).
fn kind(data: &Data) -> Value {
    let of = |names: &[&'static str]| names.get(data.context as usize).copied().unwrap_or("other");
    match data.kind {
        1 => json!({"lint": {"name": data.first}}),
        3 if data.context == 2 => json!({"other": {"types": [data.second]}}),
        3 | 4 => json!({"mismatch": {"wanted": data.first, "given": data.second}}),
        5 => json!({"missingKey": {
            "of": data.first,
            "key": data.second,
            "owner": of(&["table", "extern", "scalar", "suggested"]),
        }}),
        6 => json!({"count": {
            "of": of(&["arguments", "results", "values", "returns"]),
            "expected": data.expected,
            "actual": data.actual,
        }}),
        7 => json!("maybeNil"),
        8 if data.context == 0 => json!({"unknownGlobal": {"name": data.first}}),
        9 => json!("noReturn"),
        10 => json!({"cannotExtend": {
            "table": data.first,
            "what": of(&["property", "indexer", "metatable"]),
        }}),
        11 => json!("notCallable"),
        12 | 13 => json!("gaveUp"),
        14 => json!("internal"),
        15 => json!("timedOut"),
        _ => json!({"other": {"types": data.first.lines().collect::<Vec<_>>()}}),
    }
}

/// Turns Luau's columns (0-based byte offsets in a line) into 1-based character counts, the
/// columns an agent or an editor counts: after an `é` or an emoji the two differ.
enum Columns<'a> {
    /// Every byte is a character.
    Ascii,
    /// The source and where each of its lines starts.
    Text(&'a str, Vec<usize>),
}

impl<'a> Columns<'a> {
    fn of(source: &'a str) -> Columns<'a> {
        if source.is_ascii() {
            return Columns::Ascii;
        }
        let starts = std::iter::once(0)
            .chain(source.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        Columns::Text(source, starts)
    }

    /// The 1-based character column of byte `byte` of line `line` (both 0-based).
    fn at(&self, line: u32, byte: u32) -> usize {
        let Columns::Text(source, starts) = self else {
            return byte as usize + 1;
        };
        let Some(&start) = starts.get(line as usize) else {
            return byte as usize + 1;
        };
        let end = starts
            .get(line as usize + 1)
            .map_or(source.len(), |next| next - 1);
        let text = &source.as_bytes()[start..end];
        let before = &text[..(byte as usize).min(text.len())];
        // A continuation byte does not start a character.
        before.iter().filter(|b| (**b & 0xC0) != 0x80).count() + 1
    }
}

/// A checker with `defs` loaded: `spare` (a fresh checker made ahead), else a new one.
fn load(defs: &str, spare: Option<Checker>) -> Result<Checker, String> {
    let mut checker = match spare {
        Some(checker) => checker,
        None => Checker::new().map_err(|e| e.to_string())?,
    };
    checker.add_definitions(defs).map_err(|e| e.to_string())?;
    Ok(checker)
}

/// Caps the process's address space; where the platform refuses, the engine's deadline
/// on each reply still bounds the time a runaway check takes.
fn cap_memory() {
    // The allocator reserves an arena of address space up front (reserved, not used), so
    // the cap is counted from what the process holds now.
    let held = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|statm| statm.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0, |pages| pages * page_size());
    let cap = held.saturating_add(MAX_ADDRESS_SPACE);
    let limit = libc::rlimit {
        rlim_cur: cap as libc::rlim_t,
        rlim_max: cap as libc::rlim_t,
    };
    // SAFETY: setrlimit reads the struct it is given and changes only this process.
    unsafe {
        libc::setrlimit(libc::RLIMIT_AS, &limit);
    }
}

fn page_size() -> u64 {
    // SAFETY: sysconf only reads a constant of the system.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(size).unwrap_or(4096)
}
