//! `codemode call` on every bundled tool: usage from its schema, and real calls.

mod common;

use common::{codemode, World};

fn bundled_identities(world: &World) -> Vec<String> {
    let out = codemode(world.path(), &["list", "1", "--json"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| r["identity"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_bundled_tool_has_usage_for_the_shell() {
    let world = World::new();
    let identities = bundled_identities(&world);
    assert!(identities.len() >= 15, "{identities:?}");
    for identity in identities {
        let out = codemode(world.path(), &["call", &identity, "--help"], "");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{identity} --help failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains(&format!("usage: codemode call {identity}")),
            "{identity}:\n{text}"
        );
    }
}

#[test]
fn bundled_tools_run_from_shell_words() {
    let world = World::new();
    let cases: [(&[&str], &str); 9] = [
        (&["text.slugify", "Hello, World!"], "\"hello-world\""),
        (
            &["text.slugify", "Crème Brûlée", "--sep", "_"],
            "\"creme_brulee\"",
        ),
        (
            &["text.truncate", "Hello, world", "8", "--ellipsis", "..."],
            "\"Hello...\"",
        ),
        (
            &["text.caseConvert", "user account id", "camel"],
            "\"userAccountId\"",
        ),
        (&["text.wordCount", "one two\nthree"], "\"words\": 3"),
        (
            &["text.wrap", "the quick brown fox jumps", "10"],
            "\"the quick\\nbrown fox\\njumps\"",
        ),
        (&["json.get", "{\"a\": {\"b\": [10, 20]}}", "a.b[2]"], "20"),
        (
            &["json.stringify", "{\"b\": 1, \"a\": true}"],
            "\"{\\\"a\\\":true,\\\"b\\\":1}\"",
        ),
        (
            &["table.toCsv", "[{\"name\": \"ada\"}]"],
            "\"name\\nada\\n\"",
        ),
    ];
    for (words, expected) in cases {
        let mut args = vec!["call"];
        args.extend_from_slice(words);
        let out = codemode(world.path(), &args, "");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{words:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains(expected),
            "{words:?} printed {text}, expected {expected}"
        );
    }
}

#[test]
fn a_bundled_tool_with_render_prints_for_a_person() {
    let world = World::new();
    let out = codemode(
        world.path(),
        &["call", "table.parseCsv", "name,age\nada,36\nalan,41"],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("ada") && text.contains("alan") && !text.trim_start().starts_with('{'),
        "{text}"
    );
}

#[test]
fn bad_words_get_the_bind_message_and_exit_2() {
    let world = World::new();
    let out = codemode(
        world.path(),
        &["call", "text.truncate", "abc", "notanumber"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("maxChars"), "{err}");
    let out = codemode(
        world.path(),
        &["call", "text.slugify", "x", "--nope", "1"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--nope"));
}
