//! The type check on a corpus of agent-style scripts (`tests/check_corpus/`): half are
//! correct, half hold a mistake agents make (the first line names it). Each mode's table
//! is printed; the default mode must stop at least 90% of the wrong scripts before they
//! run and refuse none of the correct ones, which must also run to the end.

use super::common;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::check::Checking;
use crate::check::{Checker, Mode};
use crate::registry::Registry;
use crate::{ErrorKind, Limits, Output, Runtime};
use common::World;

fn corpus(kind: &str) -> Vec<(String, String)> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/check_corpus")).join(kind);
    let mut scripts: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "luau"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    scripts.sort();
    scripts
}

fn runtime(world: &World, mode: Mode) -> Runtime {
    runtime_checking(world, |checker| Checking::new(mode, checker))
}

fn runtime_checking(world: &World, checking: impl FnOnce(Checker) -> Checking) -> Runtime {
    let registry = Arc::new(Registry::open(world.path(), &[], true).unwrap());
    let mut runtime = Runtime::new(registry, Limits::default()).unwrap();
    let checker = Checker::with_program(
        Ok(common::checker_bin()),
        // Generous: a debug build under a loaded machine must not time out.
        Duration::from_secs(5),
    );
    runtime.set_checking(Some(Arc::new(checking(checker))));
    runtime
}

/// What a run's envelope says, without its time, each message as the sorted list of its
/// words: Luau orders the members of a union it prints (`number | string`) by where it
/// allocated them, which differs from one checker to another on the same script.
fn said(envelope: &crate::Envelope) -> serde_json::Value {
    fn words(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(fields) => {
                for (name, field) in fields.iter_mut() {
                    match field {
                        serde_json::Value::String(message) if name == "message" => {
                            let mut all: Vec<&str> = message.split_whitespace().collect();
                            all.sort();
                            *field = all.join(" ").into();
                        }
                        other => words(other),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(words),
            _ => {}
        }
    }
    let mut json: serde_json::Value = serde_json::from_str(&envelope.to_json()).unwrap();
    json.as_object_mut().unwrap().remove("elapsedMs");
    words(&mut json);
    json
}

#[test]
fn a_one_shot_check_of_what_a_script_names_gives_the_whole_worlds_verdict() {
    let world = World::new();
    let scripts: Vec<(String, String)> = corpus("correct")
        .into_iter()
        .map(|(n, s)| (format!("correct/{n}"), s))
        .chain(
            corpus("wrong")
                .into_iter()
                .map(|(n, s)| (format!("wrong/{n}"), s)),
        )
        .collect();
    // Most scripts name their toolboxes, so most are checked against fewer declarations.
    let named = scripts
        .iter()
        .filter(|(_, s)| crate::check::only_by_name(s))
        .count();
    assert!(
        named * 3 >= scripts.len() * 2,
        "only {named} of {} corpus scripts reach tools by name alone",
        scripts.len()
    );
    for mode in [Mode::Certain, Mode::Strict] {
        let mut whole = runtime(&world, mode);
        let mut one_shot =
            runtime_checking(&world, |checker| Checking::new(mode, checker).one_shot());
        for (name, source) in &scripts {
            let expected = said(&whole.exec(source, Output::Capture));
            let got = said(&one_shot.exec(source, Output::Capture));
            assert_eq!(got, expected, "{name} under --check {mode}");
        }
    }
}

/// The mistake a wrong script's first line names (`-- mistake: misspelt tool`).
fn mistake(source: &str) -> &str {
    source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("-- mistake: "))
        .unwrap_or("unnamed")
}

#[test]
fn the_default_mode_stops_the_wrong_scripts_and_refuses_no_correct_one() {
    let world = World::new();
    let correct = corpus("correct");
    let wrong = corpus("wrong");
    assert!(
        correct.len() >= 50 && wrong.len() >= 50,
        "the corpus holds {} correct and {} wrong scripts; it must hold at least 50 of each",
        correct.len(),
        wrong.len()
    );

    // Every wrong script really fails when run unchecked, and every correct one runs.
    let mut unchecked = runtime(&world, Mode::Off);
    for (name, source) in &wrong {
        let envelope = unchecked.exec(source, Output::Capture);
        assert!(
            !envelope.ok,
            "wrong/{name} runs fine unchecked: it is not wrong"
        );
    }

    let mut table =
        String::from("mode     wrong stopped   correct refused   correct with diagnostics\n");
    let mut default_row = None;
    for mode in [Mode::Warn, Mode::Certain, Mode::Strict] {
        let mut rt = runtime(&world, mode);
        let mut missed_by_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        let mut stopped = 0;
        for (name, source) in &wrong {
            let envelope = rt.exec(source, Output::Capture);
            let entry = missed_by_kind.entry(mistake(source)).or_default();
            entry.1 += 1;
            let error = envelope.error.as_ref();
            if error.is_some_and(|e| e.kind == ErrorKind::Type) {
                stopped += 1;
                entry.0 += 1;
                let error = error.unwrap();
                assert!(
                    error.line.is_some() && error.column.is_some(),
                    "wrong/{name}: {}",
                    envelope.to_json()
                );
                assert!(
                    error
                        .hint
                        .as_deref()
                        .is_some_and(|h| h.contains("nothing took effect")),
                    "wrong/{name}: {}",
                    envelope.to_json()
                );
                assert!(
                    envelope.stdout.is_empty(),
                    "wrong/{name} printed before it was stopped"
                );
            }
        }
        let mut refused = Vec::new();
        let mut noted = 0;
        for (name, source) in &correct {
            let envelope = rt.exec(source, Output::Capture);
            if envelope
                .error
                .as_ref()
                .is_some_and(|e| e.kind == ErrorKind::Type)
            {
                refused.push(name.clone());
            } else {
                assert!(envelope.ok, "correct/{name} failed: {}", envelope.to_json());
                assert!(
                    !envelope
                        .diagnostics
                        .iter()
                        .any(|d| d.message.contains("unchecked")),
                    "correct/{name} was not checked: {}",
                    envelope.to_json()
                );
            }
            noted += usize::from(!envelope.diagnostics.is_empty());
        }
        let percent = 100.0 * stopped as f64 / wrong.len() as f64;
        table.push_str(&format!(
            "{:<8} {stopped:>3}/{} ({percent:>5.1}%)  {:>3}/{}           {noted:>3}\n",
            mode.to_string(),
            wrong.len(),
            refused.len(),
            correct.len()
        ));
        for (kind, (hit, all)) in &missed_by_kind {
            table.push_str(&format!("           {kind}: {hit}/{all} stopped\n"));
        }
        if mode == Mode::default() {
            default_row = Some((percent, refused));
        }
    }
    println!("{table}");
    let (percent, refused) = default_row.expect("the default mode is one of those measured");
    assert!(
        percent >= 90.0,
        "the default mode stops {percent:.1}% of the wrong scripts (at least 90% wanted)\n{table}"
    );
    assert!(
        refused.is_empty(),
        "the default mode refuses correct scripts: {refused:?}\n{table}"
    );
}

/// What a run's verdict is, without any message: whether it ran, where and how it was
/// stopped, and where each diagnostic beside it is and how serious.
fn verdict(envelope: &codemode::Envelope) -> String {
    let stop = envelope.error.as_ref().map_or("ran".to_string(), |e| {
        format!("stopped {:?} at {:?}:{:?}", e.kind, e.line, e.column)
    });
    let beside: Vec<String> = envelope
        .diagnostics
        .iter()
        .map(|d| format!("{}:{} {:?}", d.line, d.column, d.severity))
        .collect();
    format!("{stop}; {}", beside.join(", "))
}

/// A checker that forwards every request to `codemode-check` and replaces the message of
/// every diagnostic in its replies with the same sentence.
const SWAPPING_CHECKER: &str = r#"#!/usr/bin/env python3
import json, subprocess, sys
checker = subprocess.Popen([sys.argv[0] + ".real"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    checker.stdin.write(line)
    checker.stdin.flush()
    reply = json.loads(checker.stdout.readline())
    for d in reply.get("diagnostics", []):
        d["message"] = "something is wrong here"
    print(json.dumps(reply), flush=True)
"#;

#[test]
fn no_verdict_depends_on_what_the_checkers_messages_say() {
    let world = World::new();
    let dir = tempfile::tempdir().unwrap();
    let swapping = dir.path().join("codemode-check");
    std::fs::write(&swapping, SWAPPING_CHECKER).unwrap();
    std::os::unix::fs::symlink(
        common::checker_bin(),
        dir.path().join("codemode-check.real"),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&swapping, std::fs::Permissions::from_mode(0o755)).unwrap();
    let scripts: Vec<(String, String)> = corpus("correct")
        .into_iter()
        .map(|(n, s)| (format!("correct/{n}"), s))
        .chain(
            corpus("wrong")
                .into_iter()
                .map(|(n, s)| (format!("wrong/{n}"), s)),
        )
        .collect();
    let mut dump = String::new();
    let mut changed = Vec::new();
    for mode in [Mode::Certain, Mode::Strict] {
        let mut plain = runtime(&world, mode);
        let mut swapped = runtime_checking(&world, |_| {
            let checker = Checker::with_program(Ok(swapping.clone()), Duration::from_secs(5));
            Checking::new(mode, checker)
        });
        let mut swaps = 0;
        for (name, source) in &scripts {
            let expected = plain.exec(source, Output::Capture);
            let got = swapped.exec(source, Output::Capture);
            swaps += got
                .diagnostics
                .iter()
                .filter(|d| d.message.contains("something is wrong here"))
                .count();
            dump.push_str(&format!("{mode} {name}: {}\n", verdict(&expected)));
            if verdict(&got) != verdict(&expected) {
                changed.push(format!(
                    "{name} under --check {mode}: {} with the checker's messages, {} with them replaced",
                    verdict(&expected),
                    verdict(&got)
                ));
            }
        }
        assert!(
            swaps > 0,
            "the messages were not replaced under --check {mode}"
        );
    }
    // The verdicts, for comparing one checker or engine with another.
    if let Some(path) = std::env::var_os("CHECK_CORPUS_VERDICTS") {
        std::fs::write(path, dump).unwrap();
    }
    assert!(
        changed.is_empty(),
        "verdicts that changed with the messages:\n{}",
        changed.join("\n")
    );
}
