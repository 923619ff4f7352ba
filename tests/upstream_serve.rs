//! Upstream MCP servers behind `codemode serve`, driven by real clients: a script waiting
//! for a slow upstream call holds up no other request.

mod common;
#[path = "upstream/servers.rs"]
mod servers;

use serde_json::json;
use servers::*;

#[test]
fn a_script_waiting_upstream_holds_up_no_other_request() {
    let _serial = serial();
    let dir = world(json!({ "everything": everything_stdio() }));
    let (_, err, code) = {
        let out = common::codemode(dir.path(), &["mcp", "sync"], "");
        (
            common::text(&out.stdout),
            common::text(&out.stderr),
            out.status.code(),
        )
    };
    assert_eq!(code, Some(0), "{err}");
    let report = common::sdk_client(
        "tests/upstream/beside_client.py",
        [
            common::bin().as_os_str(),
            dir.path().as_os_str(),
            "8".as_ref(),
        ],
    );
    for round in report["rounds"].as_array().unwrap() {
        let seconds = |what: &str| round[what][0].as_f64().unwrap();
        assert!(
            round["slow"][1]
                .as_str()
                .unwrap()
                .contains("Long running operation completed"),
            "{round}"
        );
        assert!(seconds("slow") >= 1.9, "{round}");
        // The second slow call ran beside the first, though there is one worker.
        assert!(
            (1.9..3.5).contains(&seconds("alsoSlow")),
            "the second slow call waited for the first: {round}"
        );
        assert!(
            round["fast"][1].as_str().unwrap().contains("\"value\":2"),
            "{round}"
        );
        // The slow call answers 3 s after it started; the short requests, sent 0.3 s and
        // 0.5 s after it, must not wait for it.
        assert!(
            seconds("fast") < 1.5,
            "1 + 1 waited for the upstream call: {round}"
        );
        assert!(
            seconds("search") < 1.5,
            "search_tools waited for the upstream call: {round}"
        );
    }
}
