//! Tests of `engine/mcp/stdio.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use tokio::io::AsyncReadExt;

/// Feeds `input` to a transport, collects what it receives, then closes it and
/// returns the received messages and the written output.
async fn run(input: &[u8], max_frame: usize) -> (Vec<Value>, String) {
    let (mut client, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, mut output) = tokio::io::duplex(1 << 16);
    client.write_all(input).await.unwrap();
    drop(client);
    let mut transport = StdioTransport::new(server_in, server_out).with_max_frame(max_frame);
    let mut received = Vec::new();
    while let Some(message) = transport.receive().await {
        received.push(serde_json::to_value(&message).unwrap());
    }
    transport.close().await.unwrap();
    drop(transport);
    let mut text = String::new();
    output.read_to_string(&mut text).await.unwrap();
    (received, text)
}

fn replies(output: &str) -> Vec<Value> {
    output
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

#[tokio::test]
async fn a_last_frame_without_newline_is_read() {
    let (received, output) = run(PING.as_bytes(), 1024).await;
    assert_eq!(received.len(), 1);
    assert_eq!(received[0]["method"], "ping");
    assert_eq!(output, "");
}

#[tokio::test]
async fn bad_frames_get_one_error_each_and_reading_goes_on() {
    let mut bytes = Vec::new();
    for frame in [
        &b"not json\n"[..],
        b"{\"id\": \n",
        b"\xFF\xFE\n",
        b"{\"foo\":1}\n",
        b"\n  \r\n",
        &[b'x'; 100],
        b"\n",
        PING.as_bytes(),
        b"\r\n\xEF\xBB\xBF",
        PING.as_bytes(),
        b"\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"p\x80\"}\n",
    ] {
        bytes.extend_from_slice(frame);
    }
    let (received, output) = run(&bytes, 64).await;
    assert_eq!(received.len(), 2, "{received:?}");
    let replies = replies(&output);
    let codes: Vec<i64> = replies
        .iter()
        .map(|r| r["error"]["code"].as_i64().unwrap())
        .collect();
    assert_eq!(
        codes,
        [
            PARSE_ERROR,
            PARSE_ERROR,
            PARSE_ERROR,
            INVALID_REQUEST,
            PARSE_ERROR,
            PARSE_ERROR
        ]
    );
    for reply in &replies {
        assert_eq!(reply["jsonrpc"], "2.0");
        assert_eq!(reply["id"], Value::Null);
    }
    for at in [2, 5] {
        let message = replies[at]["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("Parse error: the message is not UTF-8"),
            "{message}"
        );
    }
    assert!(replies[4]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("longer than 64 bytes"));
}

#[tokio::test]
async fn an_over_long_last_frame_is_answered_not_read() {
    let (received, output) = run("y".repeat(300).as_bytes(), 64).await;
    assert!(received.is_empty());
    assert_eq!(replies(&output).len(), 1);
}

#[tokio::test]
async fn a_malformed_request_is_answered_by_its_id() {
    let (_, output) = run(br#"{"jsonrpc":"2.0","id":"a","method":5}"#, 1024).await;
    let reply = &replies(&output)[0];
    assert_eq!(reply["error"]["code"], INVALID_REQUEST, "{reply}");
    assert_eq!(reply["id"], "a");
}
