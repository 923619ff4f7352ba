//! `codemode docs --out DIR`: TOOL.md per tool, SKILL.md per toolbox, and an index.html a
//! person can search; the page is driven in headless Chromium when one is installed.

mod common;

use common::fixture;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn write_docs() -> (tempfile::TempDir, PathBuf) {
    let world = fixture::world();
    let out = world.path().join("site");
    let run = fixture::codemode(world.path(), &["docs", "--out", out.to_str().unwrap()]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(run.stdout.is_empty(), "stdout stays clean");
    (world, out)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const TOOL_SECTIONS: [&str; 9] = [
    "## Purpose",
    "## Commands",
    "## Inputs",
    "## Outputs",
    "## Data flow",
    "## Configuration",
    "## Dependencies",
    "## Tests",
    "## Failure modes",
];

/// Every heading has content before the next heading of the same or a higher level.
fn assert_no_empty_headings(md: &str, what: &str) {
    let lines: Vec<&str> = md.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let level = line.chars().take_while(|c| *c == '#').count();
        if level == 0 || !line[level..].starts_with(' ') {
            continue;
        }
        let body: Vec<&&str> = lines[i + 1..]
            .iter()
            .take_while(|l| {
                let l2 = l.chars().take_while(|c| *c == '#').count();
                l2 == 0 || l2 > level || !l[l2..].starts_with(' ')
            })
            .filter(|l| !l.trim().is_empty())
            .collect();
        assert!(!body.is_empty(), "{what}: heading `{line}` is empty");
    }
}

#[test]
fn writes_a_tool_md_per_tool_with_every_required_section() {
    let (_world, out) = write_docs();
    for rel in [
        "text/slugify",
        "text/word-count",
        "text/shout",
        "text/broken",
        "math-ops/add-all",
    ] {
        let md = read(&out.join(rel).join("TOOL.md"));
        let mut at = 0;
        for section in TOOL_SECTIONS {
            let found = md[at..]
                .find(&format!("\n{section}\n"))
                .unwrap_or_else(|| panic!("{rel}: no `{section}` after byte {at}\n{md}"));
            at += found + 1;
        }
        assert!(md.starts_with("# Tool Spec: "), "{rel}");
        assert_no_empty_headings(&md, rel);
    }
    let slugify = read(&out.join("text/slugify/TOOL.md"));
    assert!(slugify.starts_with("# Tool Spec: text-slugify\n"));
    assert!(
        slugify.contains("### `tools.text.slugify(text: string, opts: { sep: string? }?): string`")
    );
    assert!(slugify.contains("| `text` | `string` | yes | The text to slug. |"));
    assert!(slugify.contains("| `opts` | `{ sep: string? }?` | no |"));
    assert!(slugify.contains("Returns `string`: The slug."));
    assert!(slugify.contains("- `.shared`: the `shared.module/` of the `text` toolbox"));
    assert!(slugify.contains("The tool raises `text is empty; pass some words`"));
    assert!(slugify.contains("### Notes") && slugify.contains("# a shell comment, not a heading"));
    let shout = read(&out.join("text/shout/TOOL.md"));
    assert!(
        shout.contains("- `tools.text.slugify`: another tool"),
        "calls are dependencies:\n{shout}"
    );
    assert!(shout.contains("`--loud`/`-l`"));
    let slug_deps = slugify
        .split("## Dependencies")
        .nth(1)
        .unwrap()
        .split("## Tests")
        .next()
        .unwrap();
    assert!(
        !slug_deps.contains("tools.text.slugify"),
        "its own example is not a dependency"
    );
    let broken = read(&out.join("text/broken/TOOL.md"));
    assert!(broken.contains("**Not callable:**") && broken.contains("no description yet"));
}

#[test]
fn writes_a_skill_md_per_toolbox_a_skill_loader_can_read() {
    let (_world, out) = write_docs();
    for (dir, name) in [("text", "text"), ("math-ops", "math_ops")] {
        let md = read(&out.join(dir).join("SKILL.md"));
        let front = md
            .strip_prefix("---\n")
            .expect("frontmatter first")
            .split("\n---\n")
            .next()
            .unwrap();
        let fields: Vec<(&str, &str)> = front.lines().filter_map(|l| l.split_once(": ")).collect();
        assert_eq!(
            fields[0],
            ("name", dir),
            "the skill name is the folder name"
        );
        assert_eq!(fields[1].0, "description");
        let description: String =
            serde_json::from_str(fields[1].1).expect("a double-quoted YAML scalar");
        assert!(
            description.contains(&format!("tools.{name}.")),
            "{description}"
        );
        assert!(description.len() <= 1024);
        for heading in [
            "## When to Use This Skill",
            "## Workflow",
            "## Inputs",
            "## Outputs",
            "## Failure modes",
        ] {
            assert!(
                md.contains(&format!("\n{heading}\n")),
                "{dir}: no {heading}"
            );
        }
        assert_no_empty_headings(&md, dir);
    }
    let text = read(&out.join("text/SKILL.md"));
    assert!(text.contains("description: \"Small text helpers: slugs, counts and case."));
    let when = text
        .split("## When to Use This Skill")
        .nth(1)
        .unwrap()
        .split("## Workflow")
        .next()
        .unwrap();
    assert!(
        when.contains("tools.text.slugify") && !when.contains("broken"),
        "{when}"
    );
    assert!(text.contains("`text.broken` is not callable"));
    assert!(text.contains("[slugify](slugify/TOOL.md)"));
    assert!(text.contains("`return tools.text.slugify(\"Hello World\")`"));
}

#[test]
fn index_html_is_self_contained_and_escaped() {
    let (_world, out) = write_docs();
    let html = read(&out.join("index.html"));
    for needle in ["http://", "https://", "<link", "<script src", "<img"] {
        assert!(
            !html.contains(needle),
            "the page must not load anything: found {needle}"
        );
    }
    assert!(html.contains("Arithmetic &lt;helpers&gt; &amp; friends."));
    assert!(html.contains("id=\"text.slugify\""));
    assert!(html.contains("href=\"text/slugify/TOOL.md\""));
    assert!(html.contains("href=\"math-ops/SKILL.md\""));
}

/// The Chromium binary: `CODEMODE_CHROMIUM`, else the first of the usual names on PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CODEMODE_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|p| p.is_file())
}

/// Loads `url` in headless Chromium and returns the DOM after the page's scripts ran.
fn dump_dom(chromium: &Path, url: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--disable-background-networking",
            "--no-first-run",
            "--disable-sync",
            "--disable-component-update",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let deadline = Instant::now() + Duration::from_secs(90);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish loading {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// The text of `<pre id="result">` in a dumped DOM.
fn result(dom: &str) -> serde_json::Value {
    let start = dom
        .find("<pre id=\"result\">")
        .expect("the driver script wrote its result")
        + 17;
    let end = start + dom[start..].find("</pre>").unwrap();
    let text = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Types queries into the search box the way a person would (one `input` event per
/// keystroke) and records which tools stay visible after each.
const DRIVER: &str = r#"<script>
(function () {
	var q = document.getElementById("q");
	function visible() {
		return Array.prototype.slice.call(document.querySelectorAll("article.tool"))
			.filter(function (a) { return !a.hidden && a.offsetParent !== null; })
			.map(function (a) { return a.getAttribute("data-identity"); });
	}
	function type(text) {
		q.value = "";
		q.dispatchEvent(new Event("input"));
		for (var i = 0; i < text.length; i++) {
			q.value += text[i];
			q.dispatchEvent(new Event("input"));
		}
		return {
			query: text,
			visible: visible(),
			count: document.getElementById("count").textContent,
			none: !document.getElementById("none").hidden,
			boxes: Array.prototype.slice.call(document.querySelectorAll("section.toolbox"))
				.filter(function (s) { return !s.hidden; })
				.map(function (s) { return s.getAttribute("data-toolbox"); })
		};
	}
	var steps = ["", "slugify", "NUMBER", "add all", "zzzz", ""].map(type);
	var pre = document.createElement("pre");
	pre.id = "result";
	pre.textContent = JSON.stringify(steps);
	document.body.appendChild(pre);
})();
</script>
</body>"#;

/// Says on the real stderr that a test was skipped: the test harness captures `eprintln!`
/// of a passing test, which would hide that nothing was checked.
fn skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED (passes without checking): {why}"
    );
}

const CHROMIUM_TEST: &str = "the_search_box_filters_tools_live_in_headless_chromium";

#[test]
fn the_search_box_filters_tools_live_in_headless_chromium() {
    let Some(chromium) = chromium() else {
        if std::env::var_os("CI").is_some() {
            panic!("chromium is not installed; CI must install it (apt-get install -y chromium)");
        }
        skipped(
            "chromium not found (install the Debian package `chromium`, or set CODEMODE_CHROMIUM)",
        );
        return;
    };
    let (_world, out) = write_docs();
    let page = read(&out.join("index.html"));
    let driven = out.join("driven.html");
    std::fs::write(&driven, page.replace("</body>", DRIVER)).unwrap();
    let dom = dump_dom(&chromium, &format!("file://{}", driven.display()));
    let steps = result(&dom);
    let visible =
        |i: usize| -> Vec<String> { serde_json::from_value(steps[i]["visible"].clone()).unwrap() };
    let all = [
        "math_ops.addAll",
        "text.broken",
        "text.shout",
        "text.slugify",
        "text.wordCount",
    ];
    assert_eq!(visible(0), all, "everything shows before a search");
    assert_eq!(steps[0]["count"], "5 of 5 tools");
    assert_eq!(visible(1), ["text.slugify"]);
    assert_eq!(
        steps[1]["boxes"],
        serde_json::json!(["text"]),
        "a toolbox with no match hides"
    );
    assert_eq!(
        visible(2),
        ["math_ops.addAll", "text.wordCount"],
        "search ignores case and reads types"
    );
    assert_eq!(visible(3), ["math_ops.addAll"], "every word must match");
    assert_eq!(visible(4), Vec::<String>::new());
    assert_eq!(steps[4]["none"], true, "an empty result says so");
    assert_eq!(steps[4]["count"], "0 of 5 tools");
    assert_eq!(visible(5), all, "clearing the box shows everything again");

    // A search in the address is applied on load, so a search can be linked.
    let dom = dump_dom(
        &chromium,
        &format!("file://{}#q=addall", out.join("index.html").display()),
    );
    let shown: Vec<&str> = dom
        .split("<article ")
        .skip(1)
        .filter(|a| !a.split('>').next().unwrap().contains("hidden"))
        .filter_map(|a| a.split("data-identity=\"").nth(1)?.split('"').next())
        .collect();
    assert_eq!(shown, ["math_ops.addAll"], "{dom}");

    // A link that is not valid percent-encoding still leaves a working page.
    let dom = dump_dom(
        &chromium,
        &format!("file://{}#q=100%", out.join("index.html").display()),
    );
    assert!(dom.contains("0 of 5 tools"), "{dom}");
}

#[test]
fn a_second_run_removes_the_pages_of_tools_that_are_gone_and_nothing_else() {
    let world = fixture::world();
    let out = world.path().join("site");
    let docs = |world: &Path| fixture::codemode(world, &["docs", "--out", out.to_str().unwrap()]);
    assert!(docs(world.path()).status.success());
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let page = out.join("text/word-count/TOOL.md");
    assert!(page.exists());
    std::fs::rename(
        world.path().join("text.toolbox/wordCount.tool"),
        world.path().join("text.toolbox/renamed.tool"),
    )
    .unwrap();
    let second = docs(world.path());
    assert!(second.status.success());
    assert!(!page.exists(), "the page of the renamed tool stayed");
    assert!(
        !out.join("text/word-count").exists(),
        "its empty folder stayed"
    );
    assert!(out.join("text/renamed/TOOL.md").exists());
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(String::from_utf8_lossy(&second.stderr).contains("removed 1 page of"));
}

/// The Chromium test run alone, in a child test process that can find no Chromium.
fn chromium_test_without_chromium(ci: bool) -> std::process::Output {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["--exact", CHROMIUM_TEST])
        .env("PATH", "")
        .env_remove("CODEMODE_CHROMIUM")
        .env_remove("CI");
    if ci {
        command.env("CI", "true");
    }
    command.output().unwrap()
}

#[test]
fn without_chromium_the_page_test_says_skipped_locally_and_fails_under_ci() {
    let local = chromium_test_without_chromium(false);
    let stderr = String::from_utf8_lossy(&local.stderr);
    assert!(local.status.success(), "{stderr}");
    assert!(
        stderr.contains("SKIPPED (passes without checking): chromium not found"),
        "the skip shows although the harness captures the test's output: {stderr}"
    );
    let ci = chromium_test_without_chromium(true);
    let stdout = String::from_utf8_lossy(&ci.stdout);
    assert!(!ci.status.success(), "{stdout}");
    assert!(stdout.contains("CI must install it"), "{stdout}");
}
