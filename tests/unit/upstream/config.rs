//! Tests of `engine/upstream/config.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn parse(text: &str) -> Configs {
    parse_text(Path::new("/w/.codemode/mcp.json"), text)
}

#[test]
fn reads_every_client_shape() {
    let c = parse(
        r#"{"mcpServers": {
                "files": {"command": "npx", "args": ["-y", "pkg", 3], "env": {"TOKEN": "s3cret-value", "N": 1}, "cwd": "sub"},
                "my-remote": {"type": "streamable-http", "url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer abcdef"}},
                "plain-url": {"url": "http://localhost:1/mcp", "autoApprove": []},
                "off": {"command": "x", "disabled": true}
            }}"#,
    );
    assert!(c.problems.is_empty(), "{:?}", c.problems);
    assert_eq!(c.servers.len(), 3);
    let files = c.get("files").unwrap();
    let Transport::Stdio {
        command,
        args,
        env,
        cwd,
    } = &files.transport
    else {
        panic!("stdio expected")
    };
    assert_eq!(command, "npx");
    assert_eq!(args, &["-y", "pkg", "3"]);
    assert_eq!(env["TOKEN"].expose(), "s3cret-value");
    assert_eq!(cwd.as_deref(), Some(Path::new("/w/.codemode/sub")));
    let remote = c.get("my_remote").unwrap();
    assert_eq!(remote.original_name, "my-remote");
    assert_eq!(remote.kind(), "http");
    // Debug never shows a secret.
    let debug = format!("{c:?}");
    assert!(
        !debug.contains("s3cret") && !debug.contains("abcdef"),
        "{debug}"
    );
}

#[test]
fn each_bad_server_is_reported_and_the_rest_kept() {
    let c = parse(
        r#"{"mcpServers": {
                "good": {"command": "x"},
                "both": {"command": "x", "url": "http://a/b"},
                "none": {"args": []},
                "sse": {"type": "sse", "url": "http://a/sse"},
                "weird": {"type": "websocket", "url": "ws://a"},
                "list": {"command": "x"},
                "badargs": {"command": "x", "args": "a b"},
                "secure": {"url": "https://example.invalid/mcp"},
                "nohost": {"url": "https:///mcp"},
                "a-b": {"command": "x"},
                "a_b": {"command": "y"},
                "!!!": {"command": "x"}
            }}"#,
    );
    assert_eq!(
        c.servers
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>(),
        ["good", "secure", "a_b"]
    );
    let text: Vec<String> = c.problems.iter().map(|p| p.to_string()).collect();
    let find = |server: &str, needle: &str| {
        assert!(
            text.iter()
                .any(|t| t.contains(&format!("server '{server}'")) && t.contains(needle)),
            "no problem for {server} with {needle:?} in {text:#?}"
        )
    };
    find("both", "both \"command\" and \"url\"");
    find("none", "no \"command\"");
    find("sse", "does not support");
    find("weird", "unknown \"type\"");
    find("list", "taken by tools.list");
    find("badargs", "must be a list of strings");
    find("nohost", "names no host; write it as https://host/path");
    find("a-b", "also the name of server 'a_b'");
    find("!!!", "no letter or digit");
    assert!(text
        .iter()
        .all(|t| t.starts_with("/w/.codemode/mcp.json: ")));
}

#[test]
fn environment_variables_expand() {
    let lookup = |name: &str| (name == "TOKEN").then(|| "abc".to_string());
    assert_eq!(
        expand_with("Bearer ${TOKEN}", "f", lookup).unwrap(),
        "Bearer abc"
    );
    assert_eq!(
        expand_with("${NOPE:-x}/${TOKEN}$", "f", lookup).unwrap(),
        "x/abc$"
    );
    let err = expand_with("${NOPE}", "env.KEY", lookup).unwrap_err();
    assert!(
        err.contains("\"env.KEY\" uses ${NOPE}, which is not set"),
        "{err}"
    );
    assert!(expand_with("${a b}", "f", lookup)
        .unwrap_err()
        .contains("not a variable name"));
    assert!(expand_with("${TOKEN", "f", lookup)
        .unwrap_err()
        .contains("without its"));
    // Through a whole file, with codemode's own environment.
    let c = parse(
        r#"{"mcpServers": {"a": {"command": "${CODEMODE_SURELY_UNSET_VAR:-srv}", "args": ["${CODEMODE_SURELY_UNSET_VAR}"]}}}"#,
    );
    assert!(c.servers.is_empty());
    assert!(c.problems[0]
        .message
        .contains("\"args[0]\" uses ${CODEMODE_SURELY_UNSET_VAR}"));
}

#[test]
fn bad_json_names_line_and_column() {
    let c = parse("{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",}\n  }\n}");
    assert!(c.servers.is_empty());
    let text = c.problems[0].to_string();
    assert!(text.contains("line 3, column"), "{text}");
    let c = parse("{\"other\": 1}");
    assert!(c.problems[0].message.contains("no \"mcpServers\""));
}

#[test]
fn a_variable_put_into_a_url_is_masked_where_the_url_is_shown() {
    let lookup = |name: &str| (name == "KEY").then(|| "s3cr3t-value".to_string());
    assert_eq!(
        expand_noting("https://h/mcp?k=${KEY}&d=${NONE:-plain}", "url", lookup)
            .unwrap()
            .1,
        ["s3cr3t-value"]
    );
    std::env::set_var("CODEMODE_TEST_URL_KEY", "url-k3y-value");
    let text =
        r#"{"mcpServers": {"r": {"url": "http://127.0.0.1:9/mcp?key=${CODEMODE_TEST_URL_KEY}"}}}"#;
    let server = parse_text(Path::new("/x/mcp.json"), text).servers.remove(0);
    let Transport::Http { url, .. } = &server.transport else {
        panic!("an http server")
    };
    assert!(url.contains("url-k3y-value"), "{url}");
    let shown = server
        .redactor()
        .redact(&format!("cannot connect to {url}"));
    assert_eq!(shown, "cannot connect to http://127.0.0.1:9/mcp?key=***");
}
