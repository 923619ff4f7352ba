//! Tests of `engine/upstream/settings.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;
use serde_json::json;

fn read(v: Value) -> Result<ServerSettings, String> {
    ServerSettings::read(v.as_object().unwrap())
}

#[test]
fn a_tool_entry_may_use_either_name_and_one_naming_no_tool_is_reported() {
    let s = read(json!({
        "tools": {
            "trigger_long_running_operation": {"limits": {"timeoutMs": 1000}},
            "get_sun": {"limits": {"timeoutMs": 5}}
        }
    }))
    .unwrap();
    let (limits, _) = s.of(
        "trigger-long-running-operation",
        "trigger_long_running_operation",
        None,
    );
    assert_eq!(limits.timeout_ms, Some(1000));
    let raw = [
        json!({"name": "trigger-long-running-operation", "inputSchema": {"type": "object"}}),
        json!({"name": "get-sum", "inputSchema": {"type": "object"}}),
    ];
    let catalogue = super::super::Catalogue::from_raw("everything", 1, &raw);
    let unmatched = s.unmatched(&catalogue.tools);
    assert_eq!(unmatched.len(), 1, "{unmatched:?}");
    assert!(
        unmatched[0].contains("'get_sun'") && unmatched[0].contains("did you mean 'get"),
        "{unmatched:?}"
    );
}

#[test]
fn a_tool_overrides_its_server_and_hints_gate_the_server_cache() {
    let s = read(json!({
        "limits": {"timeoutMs": 5000, "maxOutputBytes": 100},
        "cache": {"ttlSeconds": 60, "readOnlyHints": true},
        "tools": {"fast": {"limits": {"timeoutMs": 10}, "cache": {"ttlSeconds": 5}}}
    }))
    .unwrap();
    let (limits, cache) = s.of("fast", "fast", None);
    assert_eq!(
        limits,
        ToolLimits {
            timeout_ms: Some(10),
            max_output_bytes: Some(100)
        }
    );
    assert_eq!(cache.unwrap().ttl_seconds, 5);
    let pure = json!({"readOnlyHint": true, "idempotentHint": true});
    assert_eq!(
        s.of("other", "other", Some(&pure)).1.unwrap().ttl_seconds,
        60
    );
    let writes = json!({"readOnlyHint": false, "idempotentHint": true});
    assert!(s.of("other", "other", Some(&writes)).1.is_none());
    assert!(s.of("other", "other", None).1.is_none());
}

#[test]
fn malformed_entries_name_the_field_and_the_fix() {
    let e = read(json!({"limits": {"timeoutMs": -1}})).unwrap_err();
    assert!(e.contains("limits.timeoutMs is -1"), "{e}");
    let e = read(json!({"cache": {"ttlSeconds": 5, "readOnlyHints": "yes"}})).unwrap_err();
    assert!(e.contains("readOnlyHints must be true or false"), "{e}");
    let e = read(json!({"tools": {"x": {"timeout": 3}}})).unwrap_err();
    assert!(e.contains("tools.x has no field \"timeout\""), "{e}");
    let e = read(json!({"tools": []})).unwrap_err();
    assert!(e.contains("\"tools\" must be an object"), "{e}");
}
