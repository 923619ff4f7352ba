//! Tests of `engine/upstream/stdout.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use tokio::io::AsyncReadExt;

const A: &str = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
const B: &str = r#"{"jsonrpc":"2.0","id":2,"result":{}}"#;

#[tokio::test]
async fn passes_messages_and_stops_at_garbage() {
    let input = format!("{A}\n  \n{B}\nServer ready on port 3\n{B}\n");
    let garbage = Garbage::default();
    let mut reader = CheckedStdout::new(input.as_bytes(), garbage.clone());
    let mut out = Vec::new();
    let err = reader.read_to_end(&mut out).await.unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    assert_eq!(String::from_utf8(out).unwrap(), format!("{A}\n{B}\n"));
    assert_eq!(
        garbage.lock().unwrap().as_deref(),
        Some("Server ready on port 3")
    );
}

/// What the transport reads of `input`, and the garbage recorded (if the read failed).
async fn read(input: &str) -> (Vec<Value>, Option<String>) {
    let garbage = Garbage::default();
    let mut reader = CheckedStdout::new(input.as_bytes(), garbage.clone());
    let mut out = Vec::new();
    let failed = reader.read_to_end(&mut out).await.is_err();
    let lines = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let recorded = garbage.lock().unwrap().clone();
    assert_eq!(failed, recorded.is_some());
    (lines, recorded)
}

#[tokio::test]
async fn a_response_rmcp_cannot_read_is_answered_with_an_error_for_its_request() {
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    for bad in [
        r#"{"jsonrpc":"2.0","id":7,"result":{},"error":{"code":1,"message":"x"}}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"\ud800"}]}}"#
            .to_string(),
        format!(r#"{{"jsonrpc":"2.0","id":7,"result":{{"structuredContent":{deep}}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","result":{{"x":{deep}}},"id":7}}"#),
        r#"{"jsonrpc":"2.0","id":7,"result":{}} trailing"#.to_string(),
    ] {
        let (lines, garbage) = read(&format!("{bad}\n{B}\n")).await;
        assert_eq!(garbage, None, "{bad}");
        assert_eq!(lines.len(), 2, "{bad}: {lines:?}");
        assert_eq!(lines[0]["id"], 7);
        assert_eq!(lines[0]["error"]["data"]["codemode"], MALFORMED);
        let message = lines[0]["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("the answer is not a JSON-RPC response ("),
            "{message}"
        );
        assert_eq!(lines[1], serde_json::from_str::<Value>(B).unwrap());
    }
}

#[tokio::test]
async fn json_that_is_no_message_fails_the_stream_and_a_bad_notification_goes_on() {
    for bad in [r#"{"foo":1}"#, "[1,2]"] {
        let (lines, garbage) = read(&format!("{B}\n{bad}\n{B}\n")).await;
        assert_eq!(lines.len(), 1, "{bad}");
        let garbage = garbage.unwrap();
        assert!(garbage.starts_with(bad), "{garbage}");
        assert!(garbage.contains("not a JSON-RPC message"), "{garbage}");
    }
    // rmcp decides about the server's own requests and notifications.
    let odd = r#"{"jsonrpc":"2.0","method":"notifications/message","params":5}"#;
    let (lines, garbage) = read(&format!("{odd}\n{B}\n")).await;
    assert_eq!(garbage, None);
    assert_eq!(lines.len(), 2);
}

fn ids(text: &str) -> Option<Value> {
    let mut scan = IdScan::default();
    for b in text.bytes() {
        scan.feed(b);
    }
    scan.id()
}

#[test]
fn finds_the_top_level_id_wherever_it_is() {
    assert_eq!(
        ids(r#"{"jsonrpc":"2.0","id":7,"result":{"id":9}}"#),
        Some(json!(7))
    );
    assert_eq!(
        ids(r#"{"result":{"id":9,"t":"\"id\":3, }"},"jsonrpc":"2.0","id":"a,b"}"#),
        Some(json!("a,b"))
    );
    assert_eq!(
        ids(r#"{ "id" : 12 , "x": [1, {"id": 2}]}"#),
        Some(json!(12))
    );
    assert_eq!(
        ids(r#"{"method":"notifications/x","params":{"id":1}}"#),
        None
    );
    assert_eq!(ids(r#"{"idx":1,"id":{"a":1}}"#), None);
    // Not complete yet while the value may go on.
    assert_eq!(ids(r#"{"result":1,"id":12"#), None);
}

#[tokio::test]
async fn an_oversized_line_is_answered_with_an_error_and_dropped() {
    let big = "x".repeat(100);
    for line in [
        format!("{{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":\"{big}\"}}\n"),
        format!("{{\"result\":\"{big}\",\"jsonrpc\":\"2.0\",\"id\":3}}\n"),
    ] {
        let input = format!("{A}\n{line}{B}\n");
        let mut reader = CheckedStdout::with_cap(input.as_bytes(), Garbage::default(), 64);
        let mut out = Vec::new();
        reader.read_to_end(&mut out).await.unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], A);
        let answer: Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(answer["id"], 3);
        assert_eq!(answer["error"]["data"]["codemode"], OVERSIZED);
        assert_eq!(lines[2], B);
        assert_eq!(lines.len(), 3, "{out}");
    }
}

#[tokio::test]
async fn clean_stream_reads_whole() {
    let input = format!("{A}\n{B}\n");
    let mut reader = CheckedStdout::new(input.as_bytes(), Garbage::default());
    let mut out = Vec::new();
    reader.read_to_end(&mut out).await.unwrap();
    assert_eq!(out, input.as_bytes());
}
