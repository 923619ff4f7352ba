//! The index cache under `<world>/.codemode/cache/`: a fresh process on an unchanged world
//! reads, parses and indexes nothing again; an edited tool is read and indexed again; a
//! damaged cache, or one written by another version, is rebuilt; two processes at once
//! both succeed and leave a valid cache; a world that cannot hold a cache still works.

use super::common;

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

/// Above the 64 tools from which a world gets a cache of its own.
const TOOLS: usize = 80;

fn world() -> common::World {
    let w = common::World::new();
    for i in 0..TOOLS {
        w.tool(
            &format!("box{}.op{i}", i / 20),
            &format!(
                "--!desc Handle record {i} of the ledger.\n--!arg id string Which record.\n--!return string The id.\nlocal function op{i}(id: string): string\n\treturn id\nend\n\nreturn op{i}\n"
            ),
        );
    }
    // Files modified within two seconds of being read are confirmed by content, and their
    // entries written again once settled: let them settle, so the counts below are exact.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    w
}

/// What one process logged about its indexes, and its envelope.
struct Run {
    envelope: Value,
    /// `reused` of "asset index built": tool folders taken from the cache.
    reused: usize,
    /// `upserts` of "search index updated", 0 when nothing was indexed.
    upserts: usize,
    in_ram: bool,
    log: String,
}

fn field(log: &str, line: &str, name: &str) -> Option<usize> {
    let l = log.lines().find(|l| l.contains(line))?;
    let at = l.find(&format!("{name}="))? + name.len() + 1;
    l[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

fn command(world: &Path, script: &str) -> std::process::Child {
    let mut child = Command::new(common::bin())
        .args(["--no-bundled", "--world"])
        .arg(world)
        .args(["exec", "-"])
        .env("CODEMODE_LOG", "codemode=debug")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn codemode");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    child
}

fn finish(child: std::process::Child) -> Run {
    let out = child.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&out.stderr).to_string();
    // Colours would split `name=value`; strip escape sequences.
    let log: String = strip_ansi(&log);
    let envelope: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not one JSON envelope ({e}); log:\n{log}"));
    Run {
        envelope,
        reused: field(&log, "asset index built", "reused")
            .unwrap_or_else(|| panic!("no asset index line in:\n{log}")),
        upserts: field(&log, "search index updated", "upserts").unwrap_or(0),
        in_ram: log.contains("on_disk=false"),
        log,
    }
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn run(world: &Path, script: &str) -> Run {
    finish(command(world, script))
}

/// Everything a first search indexes: the tools, their toolboxes (20 tools each) and the
/// functions of `tools` itself (search finds `tools.create` too).
fn indexed() -> usize {
    TOOLS + TOOLS.div_ceil(20) + crate::types::surface_functions().len()
}

const SEARCH: &str = "local r = tools.search('ledger record 42')\nreturn { first = r.value[1].identity, n = #tools.list().value }";

#[test]
fn a_fresh_process_on_an_unchanged_world_reuses_the_cache() {
    let w = world();
    let first = run(w.path(), SEARCH);
    assert_eq!(
        first.envelope["value"]["first"], "box2.op42",
        "{}",
        first.envelope
    );
    assert_eq!(first.reused, 0);
    assert_eq!(
        first.upserts,
        indexed(),
        "every tool, toolbox and function of `tools` indexed once"
    );
    assert!(w.path().join(".codemode/cache/assets/tools").is_file());
    assert!(w.path().join(".codemode/cache/search/table").is_file());

    let second = run(w.path(), SEARCH);
    assert_eq!(second.envelope["value"], first.envelope["value"]);
    assert_eq!(second.reused, TOOLS, "every tool folder from the cache");
    assert_eq!(second.upserts, 0, "nothing indexed again");
    assert!(!second.in_ram);
}

#[test]
fn an_edited_tool_is_read_and_indexed_again() {
    let w = world();
    run(w.path(), SEARCH);
    // Edited in place: the folder's time does not change, the file's does.
    w.tool(
        "box0.op7",
        "--!desc Polish the zanzibar gemstones.\nlocal function op7(): string\n\treturn 'shiny'\nend\n\nreturn op7\n",
    );
    let after = run(
        w.path(),
        "return { first = tools.search('zanzibar gemstones', { mode = 'keyword' }).value[1].identity, call = tools.box0.op7(), desc = tools.get('box0.op7').description }",
    );
    let v = &after.envelope["value"];
    assert_eq!(v["first"], "box0.op7", "{}", after.envelope);
    assert_eq!(v["call"], "shiny");
    assert_eq!(v["desc"], "Polish the zanzibar gemstones.");
    assert_eq!(after.reused, TOOLS - 1);
    assert_eq!(after.upserts, 1, "only the edited tool");

    // A removed tool leaves both indexes.
    std::fs::remove_dir_all(w.path().join("box0.toolbox/op7.tool")).unwrap();
    let gone = run(
        w.path(),
        "return { hits = #tools.search('zanzibar gemstones', { mode = 'keyword' }).value, got = tools.get('box0.op7') == nil }",
    );
    assert_eq!(gone.envelope["value"]["hits"], 0, "{}", gone.envelope);
    assert_eq!(gone.envelope["value"]["got"], true);
}

#[test]
fn a_damaged_cache_is_rebuilt() {
    let w = world();
    let first = run(w.path(), SEARCH);
    for file in ["assets/tools", "search/table"] {
        let path = w.path().join(".codemode/cache").join(file);
        let mut bytes = std::fs::read(&path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x5a;
        std::fs::write(&path, &bytes).unwrap();
    }
    let again = run(w.path(), SEARCH);
    assert_eq!(again.envelope["value"], first.envelope["value"]);
    assert_eq!(again.reused, 0, "nothing trusted from a damaged file");
    assert_eq!(again.upserts, indexed(), "the search index rebuilt whole");
    // And the rebuilt cache is good again.
    let third = run(w.path(), SEARCH);
    assert_eq!((third.reused, third.upserts), (TOOLS, 0));

    // A search index folder with garbage in it is rebuilt too.
    let index = w.path().join(".codemode/cache/search/index");
    for entry in std::fs::read_dir(&index).unwrap().flatten() {
        std::fs::write(entry.path(), b"not an index").unwrap();
    }
    let fourth = run(w.path(), SEARCH);
    assert_eq!(fourth.envelope["value"], first.envelope["value"]);
    assert_eq!(fourth.upserts, indexed());
}

/// Flips 20 bytes of `path` in its last three quarters, at places drawn from `seed`: the
/// damage a bad disk or a careless hand does, which tantivy's files carry no checksum for.
fn flip(path: &Path, seed: u64) {
    let mut bytes = std::fs::read(path).unwrap();
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let from = bytes.len() / 4;
    for _ in 0..20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let at = from + (x % (bytes.len() - from) as u64) as usize;
        bytes[at] ^= 0xff;
    }
    std::fs::write(path, &bytes).unwrap();
}

/// Damages the search index's files named `*.{ext}` with `damage`, runs a search, and
/// says whether tantivy panicked on them (`None`: the damage went unnoticed).
fn search_damaged(w: &Path, expected: &Value, ext: &str, damage: impl Fn(&Path)) -> Option<bool> {
    let index = w.join(".codemode/cache/search/index");
    for entry in std::fs::read_dir(&index).unwrap().flatten() {
        if entry.path().extension().is_some_and(|e| e == ext) {
            damage(&entry.path());
        }
    }
    let run = run(w, SEARCH);
    assert_eq!(
        &run.envelope["value"], expected,
        "{}\n{}",
        run.envelope, run.log
    );
    // Neither a panic nor "a bug" reaches the user: the log says what was rebuilt.
    assert!(!run.log.contains("bug"), "{}", run.log);
    assert!(!run.log.contains("WARN crate::cli"), "{}", run.log);
    let rebuilt = run.log.contains("search index on disk was damaged");
    if rebuilt {
        assert_eq!(run.upserts, indexed(), "rebuilt whole");
    }
    rebuilt.then(|| run.log.contains("caught a parser or index panic"))
}

#[test]
fn a_search_index_that_tantivy_errs_or_panics_on_is_rebuilt() {
    let w = world();
    let first = run(w.path(), SEARCH).envelope["value"].clone();
    // A damaged term dictionary makes tantivy panic (out-of-bounds slices in its FST) or
    // say "Data corrupted", depending on where the damage falls.
    let (mut panicked, mut failed) = (0, 0);
    for seed in 1..=8u64 {
        match search_damaged(w.path(), &first, "term", |p| flip(p, seed)) {
            Some(true) => panicked += 1,
            Some(false) => failed += 1,
            None => {}
        }
    }
    assert!(
        panicked > 0 && failed > 0,
        "{panicked} panics, {failed} errors"
    );
    // A damaged document store makes it fail with an error instead.
    let seen = search_damaged(w.path(), &first, "store", |p| {
        let mut bytes = std::fs::read(p).unwrap();
        let mid = bytes.len() / 2;
        for b in &mut bytes[mid..mid + 64] {
            *b ^= 0xff;
        }
        std::fs::write(p, &bytes).unwrap();
    });
    assert_eq!(seen, Some(false), "an error, rebuilt");
    // After each rebuild the index is whole again: nothing is indexed.
    assert_eq!(run(w.path(), SEARCH).upserts, 0);
}

/// Rewrites the engine version in a cache file's header (and its checksum), as another
/// build of the engine would have written it.
fn as_other_version(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    let version = env!("CARGO_PKG_VERSION").as_bytes();
    // The kind's four bytes, then the schema and the version's length (a byte each: small
    // numbers are one byte in the caches' form).
    let at = 4 + 1 + 1;
    assert_eq!(&bytes[at..at + version.len()], version);
    let mut changed = bytes[..bytes.len() - 4].to_vec();
    changed[at] ^= 1;
    let sum = crc32fast::hash(&changed);
    changed.extend_from_slice(&sum.to_le_bytes());
    std::fs::write(path, changed).unwrap();
}

#[test]
fn a_cache_written_by_another_version_is_ignored() {
    let w = world();
    let first = run(w.path(), SEARCH);
    as_other_version(&w.path().join(".codemode/cache/assets/tools"));
    as_other_version(&w.path().join(".codemode/cache/search/table"));
    let again = run(w.path(), SEARCH);
    assert_eq!(again.envelope["value"], first.envelope["value"]);
    assert_eq!(again.reused, 0);
    assert_eq!(again.upserts, indexed());
}

#[test]
fn two_processes_at_once_both_succeed_and_leave_a_valid_cache() {
    let w = world();
    for _ in 0..3 {
        let (a, b) = (command(w.path(), SEARCH), command(w.path(), SEARCH));
        let (a, b) = (finish(a), finish(b));
        for r in [&a, &b] {
            assert_eq!(r.envelope["value"]["first"], "box2.op42", "{}", r.envelope);
            assert_eq!(r.envelope["value"]["n"], TOOLS);
        }
        // An edit between rounds, so the next pair has something to index.
        w.tool("box1.op30", "--!desc Handle record 30 of the ledger, edited.\nlocal function op30(id: string): string\n\treturn id\nend\n\nreturn op30\n");
        std::thread::sleep(std::time::Duration::from_millis(20));
        w.tool("box1.op31", &format!("--!desc Handle record 31 of the ledger, round {}.\nlocal function op31(id: string): string\n\treturn id\nend\n\nreturn op31\n", a.upserts));
    }
    // Past the window in which a just-modified file is confirmed by content (and its entry
    // written again once it settles), so the next two runs are exact.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let after = run(w.path(), SEARCH);
    assert_eq!(after.envelope["value"]["first"], "box2.op42");
    let last = run(w.path(), SEARCH);
    assert_eq!(
        (last.reused, last.upserts),
        (TOOLS, 0),
        "the cache is whole"
    );
    assert!(!last.in_ram);
}

#[test]
fn a_world_that_cannot_hold_a_cache_still_works() {
    let w = world();
    // `.codemode` is a file: no cache folder can be made under it.
    std::fs::write(w.path().join(".codemode"), "not a folder").unwrap();
    for _ in 0..2 {
        let r = run(w.path(), SEARCH);
        assert_eq!(r.envelope["value"]["first"], "box2.op42", "{}", r.envelope);
        assert_eq!(r.reused, 0);
        assert_eq!(r.upserts, indexed());
        assert!(r.in_ram);
    }
}

/// Two registries on one world in one process (as `serve` beside a `codemode exec`): each
/// follows what the other committed, and neither search goes stale or wrong.
#[test]
fn a_long_lived_process_follows_what_another_committed() {
    use crate::registry::Registry;
    use crate::search::{Mode, SearchRequest};
    let w = world();
    let keyword = |registry: &Registry, query: &str| {
        let mut request = SearchRequest::new(query);
        request.mode = Mode::Keyword;
        let found = registry
            .search()
            .search(&registry.snapshot(), &request)
            .unwrap();
        found.rows.first().map(|r| r.identity.clone())
    };
    let long = Registry::open(w.path(), &[], false).unwrap();
    assert_eq!(keyword(&long, "op12").as_deref(), Some("box0.op12"));

    let file = w.path().join("box0.toolbox/op12.tool/init.luau");
    std::fs::write(
        &file,
        "--!desc Count the quokkas.\nreturn function() return 1 end\n",
    )
    .unwrap();
    let other = Registry::open(w.path(), &[], false).unwrap();
    assert_eq!(keyword(&other, "quokkas").as_deref(), Some("box0.op12"));
    drop(other);

    long.apply_changes(std::slice::from_ref(&file));
    assert_eq!(keyword(&long, "quokkas").as_deref(), Some("box0.op12"));
    std::fs::write(
        &file,
        "--!desc Feed the wombats.\nreturn function() return 2 end\n",
    )
    .unwrap();
    long.apply_changes(std::slice::from_ref(&file));
    assert_eq!(keyword(&long, "wombats").as_deref(), Some("box0.op12"));
    assert_eq!(keyword(&long, "quokkas"), None);

    // A third process finds the cache as the long-lived one left it.
    let last = run(
        w.path(),
        "return tools.search('wombats', { mode = 'keyword' }).value[1].identity",
    );
    assert_eq!(last.envelope["value"], "box0.op12", "{}", last.envelope);
    assert_eq!(last.upserts, 0);
}

/// `codemode exec` run in a folder of a few tools leaves nothing behind: such a world is
/// read about as fast as a cache, and gets one only once it has a `.codemode/` folder.
#[test]
fn a_small_world_gets_a_cache_only_when_it_has_a_codemode_folder() {
    let w = common::World::new();
    for i in 0..5 {
        w.tool(
            &format!("box.op{i}"),
            &format!(
                "--!desc Handle record {i} of the ledger.\nreturn function() return {i} end\n"
            ),
        );
    }
    let script = "return tools.search('ledger record 3', { mode = 'keyword' }).value[1].identity";
    let small = run(w.path(), script);
    assert_eq!(small.envelope["value"], "box.op3", "{}", small.envelope);
    assert!(small.in_ram, "no search index on disk");
    assert!(
        !w.path().join(".codemode").exists(),
        "no .codemode folder made in a small world"
    );

    std::fs::create_dir(w.path().join(".codemode")).unwrap();
    let kept = run(w.path(), script);
    assert_eq!(kept.envelope["value"], "box.op3", "{}", kept.envelope);
    assert!(!kept.in_ram);
    assert!(w.path().join(".codemode/cache/assets/tools").is_file());
    assert!(w.path().join(".codemode/cache/search/table").is_file());
}

/// A toolbox folder whose time did not change is not listed again (its tool folders are
/// the cached ones); adding, renaming or removing a tool folder changes that time, so a
/// fresh process sees each of them.
#[test]
fn tool_folders_added_renamed_or_removed_in_a_cached_toolbox_are_seen() {
    let w = world();
    run(w.path(), SEARCH);
    let names = "local names = {} for _, r in tools.list('box3').value do table.insert(names, r.name) end return table.concat(names, ' ')";
    let listed = |run: &Run| {
        run.envelope["value"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let before = run(w.path(), names);
    assert_eq!(before.reused, TOOLS, "{}", before.envelope);
    assert!(!listed(&before).contains("fresh"));

    w.tool(
        "box3.fresh",
        "--!desc A tool added after the cache was written.\nreturn function() return 'new' end\n",
    );
    let added = run(w.path(), names);
    assert!(listed(&added).contains("fresh"), "{}", added.envelope);
    assert_eq!(added.reused, TOOLS, "the others still from the cache");

    let dir = w.path().join("box3.toolbox");
    std::fs::rename(dir.join("fresh.tool"), dir.join("renamed.tool")).unwrap();
    let renamed = run(w.path(), names);
    assert!(listed(&renamed).contains("renamed"), "{}", renamed.envelope);
    assert!(!listed(&renamed).contains("fresh"));

    std::fs::remove_dir_all(dir.join("renamed.tool")).unwrap();
    let removed = run(w.path(), names);
    assert!(
        !listed(&removed).contains("renamed"),
        "{}",
        removed.envelope
    );
    assert_eq!(removed.envelope["value"], before.envelope["value"]);
}

#[test]
fn a_readme_added_to_a_cached_toolbox_is_read() {
    let w = world();
    run(w.path(), SEARCH);
    let purpose = "for _, b in tools.toolboxes().value do if b.toolbox == 'box3' then return b.purpose end end return nil";
    let before = run(w.path(), purpose);
    assert_eq!(before.reused, TOOLS, "{}", before.envelope);
    assert!(
        !before.envelope["value"]
            .as_str()
            .unwrap_or_default()
            .contains("Ledger"),
        "{}",
        before.envelope
    );
    // The cached listing said the folder had no README: a new one changes the folder's
    // time, so it is listed and read again.
    let readme = w.path().join("box3.toolbox/README.md");
    std::fs::write(&readme, "# box3\n\nLedger records, the third batch.\n").unwrap();
    let added = run(w.path(), purpose);
    assert_eq!(
        added.envelope["value"], "Ledger records, the third batch.",
        "{}",
        added.envelope
    );
    // Edited in place (the folder's time stays): the README is read each time.
    std::fs::write(&readme, "# box3\n\nLedger records, edited.\n").unwrap();
    let edited = run(w.path(), purpose);
    assert_eq!(
        edited.envelope["value"], "Ledger records, edited.",
        "{}",
        edited.envelope
    );
}

#[test]
fn cache_clear_removes_the_index_caches() {
    let w = world();
    let first = run(w.path(), SEARCH);
    let out = common::codemode(w.path(), &["cache", "clear"], "");
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    assert!(
        common::text(&out.stdout).contains("removed the index cache"),
        "{}",
        common::text(&out.stdout)
    );
    let cache = w.path().join(".codemode/cache");
    assert!(!cache.join("search/table").exists());
    assert!(!cache.join("assets/tools").exists());
    assert_eq!(
        std::fs::read_dir(cache.join("search/index"))
            .unwrap()
            .count(),
        0,
        "no index file left"
    );
    let again = run(w.path(), SEARCH);
    assert_eq!(again.envelope["value"], first.envelope["value"]);
    assert_eq!((again.reused, again.upserts), (0, indexed()), "rebuilt");
}

#[test]
fn a_held_search_lock_falls_back_to_ram_well_inside_the_deadline() {
    let w = world();
    run(w.path(), SEARCH);
    let lock = std::fs::File::options()
        .write(true)
        .open(w.path().join(".codemode/cache/search/lock"))
        .unwrap();
    lock.try_lock().expect("the lock is free between processes");
    w.tool(
        "box0.op7",
        "--!desc Polish the zanzibar gemstones.\nlocal function op7(): string\n\treturn 'shiny'\nend\n\nreturn op7\n",
    );
    let started = std::time::Instant::now();
    let after = run(
        w.path(),
        "return tools.search('zanzibar gemstones', { mode = 'keyword' }).value[1].identity",
    );
    let took = started.elapsed();
    assert_eq!(after.envelope["value"], "box0.op7", "{}", after.log);
    assert!(after.in_ram, "indexed in RAM while the lock is held");
    // The default deadline is 10 s: waiting for the lock must leave most of it.
    assert!(took.as_secs_f64() < 6.0, "took {took:?}");
    lock.unlock().unwrap();
}

/// Waits for `child` to exit, at most 30 s: a file a world ships must never make a run
/// wait on it.
fn exited_within(child: &mut std::process::Child, what: &str) -> std::process::ExitStatus {
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > std::time::Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{what}: the run hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// [`finish`], once the child exited within 30 s (see [`exited_within`]).
fn finish_within(mut child: std::process::Child, what: &str) -> Run {
    exited_within(&mut child, what);
    finish(child)
}

/// What `dir` holds, by name.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn links_and_fifos_a_world_ships_under_codemode_are_never_followed_or_waited_on() {
    use std::os::unix::fs::symlink;
    let w = world();
    // A tool whose results are kept in `.codemode/results.db`.
    w.tool(
        "keep.k",
        "--!desc Keep.\n--!arg x string The x.\n--!return string The x.\nreturn function(x) return x end\n",
    );
    std::fs::write(
        w.path().join("keep.toolbox/k.tool/.metadata"),
        r#"{"cache": {"ttlSeconds": 60}}"#,
    )
    .unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("tools"), "the user's own file").unwrap();
    let script = "local kept = tools.keep.k('a')\nlocal r = tools.search('ledger record 42')\nreturn { first = r.value[1].identity, kept = kept }";
    let expect = |r: &Run, what: &str| {
        assert_eq!(
            r.envelope["value"]["first"], "box2.op42",
            "{what}: {}",
            r.envelope
        );
    };
    let untouched = |what: &str| {
        assert_eq!(
            names_in(outside.path()),
            ["tools"],
            "{what}: written outside"
        );
        assert_eq!(
            std::fs::read_to_string(outside.path().join("tools")).unwrap(),
            "the user's own file",
            "{what}"
        );
    };

    // The whole cache folder, or one cache's folder, a link to outside the world.
    let settings = w.path().join(".codemode");
    std::fs::create_dir_all(&settings).unwrap();
    symlink(outside.path(), settings.join("cache")).unwrap();
    symlink(
        outside.path().join("stolen.db"),
        settings.join("results.db"),
    )
    .unwrap();
    let r = finish_within(command(w.path(), script), "linked cache");
    expect(&r, "linked cache");
    assert_eq!(r.envelope["value"]["kept"], "a", "{}", r.envelope);
    assert!(r.in_ram, "the search index was kept in memory");
    untouched("linked cache");
    std::fs::remove_file(settings.join("cache")).unwrap();
    std::fs::create_dir_all(settings.join("cache")).unwrap();
    symlink(outside.path(), settings.join("cache/assets")).unwrap();
    std::fs::create_dir_all(settings.join("cache/search")).unwrap();
    symlink(
        outside.path().join("lock"),
        settings.join("cache/search/lock"),
    )
    .unwrap();
    let r = finish_within(command(w.path(), script), "linked assets and lock");
    expect(&r, "linked assets and lock");
    untouched("linked assets and lock");

    // FIFOs where the cache files go, once the caches exist: read as missing, not waited on.
    std::fs::remove_file(settings.join("cache/assets")).unwrap();
    std::fs::remove_file(settings.join("cache/search/lock")).unwrap();
    std::fs::remove_file(settings.join("results.db")).unwrap();
    finish_within(command(w.path(), script), "a warm-up run");
    for file in [
        "cache/assets/tools",
        "cache/search/table",
        "cache/search/index/meta.json",
        "cache/search/lock",
        "results.db-wal",
    ] {
        let path = settings.join(file);
        let _ = std::fs::remove_file(&path);
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success(), "mkfifo {file}");
        let r = finish_within(command(w.path(), script), file);
        expect(&r, file);
        std::fs::remove_file(&path).unwrap();
    }
    // And where the world's settings go: the run answers (a policy that cannot be read
    // refuses it, saying why) instead of waiting for a writer.
    for (file, ok) in [("mcp.json", true), ("policy.json", false)] {
        let path = settings.join(file);
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success(), "mkfifo {file}");
        let mut child = command(w.path(), "return 1");
        let status = exited_within(&mut child, file);
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            status.success(),
            ok,
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if !ok {
            let said = String::from_utf8_lossy(&out.stderr);
            assert!(said.contains("not a regular file"), "{file}: {said}");
        }
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn a_same_size_edit_that_puts_the_old_time_back_is_seen() {
    // What `cp -p`, `rsync -t`, `tar x` and `touch -r` do: new content, old modification
    // time. Only the change time tells.
    let w = world();
    let first = run(w.path(), "return tools.get('box0.op7').description");
    assert_eq!(first.envelope["value"], "Handle record 7 of the ledger.");
    let file = w.path().join("box0.toolbox/op7.tool/init.luau");
    let before = std::fs::metadata(&file).unwrap().modified().unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("Handle record", "Delete record")).unwrap();
    let edited = std::fs::File::options().write(true).open(&file).unwrap();
    edited.set_modified(before).unwrap();
    drop(edited);
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        before
    );
    let second = run(w.path(), "return tools.get('box0.op7').description");
    assert_eq!(second.envelope["value"], "Delete record 7 of the ledger.");
    assert_eq!(
        second.reused,
        TOOLS - 1,
        "only the edited tool was read again"
    );
}

/// Every file under `dir` with its bytes (links listed, not followed).
fn files_under(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut found = std::collections::BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        let rel = entry
            .path()
            .strip_prefix(dir)
            .unwrap()
            .display()
            .to_string();
        let bytes = match entry.file_type().is_file() {
            true => std::fs::read(entry.path()).unwrap(),
            false => Vec::new(),
        };
        found.insert(rel, bytes);
    }
    found
}

#[test]
fn a_cache_folder_linked_to_another_worlds_is_neither_written_nor_cleared_through() {
    use std::os::unix::fs::symlink;
    // Another world with a whole cache of its own: what a link in a cloned world may name.
    let other = world();
    run(other.path(), SEARCH);
    let theirs = other.path().join(".codemode/cache");
    let before = files_under(&theirs);
    assert!(before.contains_key("search/table"), "{:?}", before.keys());
    for (link, target) in [
        ("cache", theirs.clone()),
        ("cache/search", theirs.join("search")),
    ] {
        let w = world();
        let settings = w.path().join(".codemode");
        std::fs::create_dir_all(settings.join("cache")).unwrap();
        if link == "cache" {
            std::fs::remove_dir(settings.join("cache")).unwrap();
        }
        symlink(&target, settings.join(link)).unwrap();
        let r = finish_within(command(w.path(), SEARCH), link);
        assert_eq!(
            r.envelope["value"]["first"], "box2.op42",
            "{link}: {}",
            r.envelope
        );
        assert_eq!(
            files_under(&theirs),
            before,
            "{link}: a search wrote through the link"
        );
        let out = common::codemode(w.path(), &["cache", "clear"], "");
        assert!(
            out.status.success(),
            "{link}: {}",
            common::text(&out.stderr)
        );
        let said = common::text(&out.stdout);
        assert!(
            said.contains("not a folder: a symbolic link"),
            "{link}: {said}"
        );
        assert!(
            std::fs::symlink_metadata(settings.join(link)).is_err(),
            "{link}"
        );
        assert_eq!(
            files_under(&theirs),
            before,
            "{link}: cleared through the link"
        );
    }
}
