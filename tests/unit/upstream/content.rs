//! Tests of `engine/upstream/content.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use crate::upstream::secret::Secret;
use serde_json::json;

fn conv(result: Value) -> Result<Value, UpstreamError> {
    convert("s.t", &result, &Redactor::new([&Secret::new("sekrit-123")]))
}

#[test]
fn converts_each_shape() {
    assert_eq!(
        conv(json!({"content": [{"type": "text", "text": "hi"}]})).unwrap(),
        json!("hi")
    );
    assert_eq!(
        conv(json!({"content": [{"type": "text", "text": "x"}], "structuredContent": {"a": 1}}))
            .unwrap(),
        json!({"a": 1})
    );
    assert_eq!(conv(json!({"content": []})).unwrap(), Value::Null);
    let several = conv(json!({"content": [
        {"type": "text", "text": "a", "_meta": {"x": 1}},
        {"type": "image", "data": "AAA", "mimeType": "image/png"}
    ]}))
    .unwrap();
    assert_eq!(
        several,
        json!([{"type": "text", "text": "a"}, {"type": "image", "data": "AAA", "mimeType": "image/png"}])
    );
    let one_image =
        conv(json!({"content": [{"type": "image", "data": "A", "mimeType": "image/png"}]}));
    assert!(one_image.unwrap().is_array());
}

#[test]
fn is_error_carries_the_message_masked() {
    let err =
        conv(json!({"isError": true, "content": [{"type": "text", "text": "bad key sekrit-123"}]}))
            .unwrap_err();
    assert_eq!(err.to_string(), "s.t failed: bad key ***");
}
