//! Tests of `engine/assets/codec.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn full() -> Reading {
    Reading {
        meta: ToolMeta {
            identity: "text.pad".into(),
            name: "pad".into(),
            toolbox: "text".into(),
            description: "Pad text — to a width.".into(),
            signature: Some("pad(text: string, width: number?): string".into()),
            args: vec![
                Arg {
                    name: "text".into(),
                    ty: "string".into(),
                    description: "What to pad.".into(),
                    optional: false,
                },
                Arg {
                    name: "width".into(),
                    ty: "number?".into(),
                    description: String::new(),
                    optional: true,
                },
            ],
            returns: Some(Returns {
                ty: "string".into(),
                description: "The padded text.".into(),
            }),
            examples: vec!["tools.text.pad('a', 3)".into()],
            tags: vec!["text".into(), "format".into()],
            flags: vec![
                Flag {
                    name: "left".into(),
                    short: Some("l".into()),
                },
                Flag {
                    name: "trim".into(),
                    short: None,
                },
            ],
            rest: Some("more".into()),
            vararg: Some("string".into()),
            status: "ready".into(),
            purpose: Some("Pads.".into()),
            has_render: true,
            limits: Some(ToolLimits {
                timeout_ms: Some(250),
                max_output_bytes: None,
            }),
            cache: Some(CachePolicy { ttl_seconds: 60 }),
        },
        warnings: vec!["a warning".into()],
        refusal: Some("no".into()),
    }
}

#[test]
fn an_entry_reads_back_as_written() {
    let reading = full();
    let bytes = encode(&reading, Some("# Pad\n\nPads text."));
    let (back, readme) = decode(&bytes, "pad", "text").unwrap();
    assert_eq!(back.meta, reading.meta);
    assert_eq!(back.warnings, reading.warnings);
    assert_eq!(back.refusal, reading.refusal);
    assert_eq!(readme.as_deref(), Some("# Pad\n\nPads text."));
}

#[test]
fn a_cut_or_padded_entry_does_not_decode() {
    let bytes = encode(&full(), None);
    for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
        assert!(
            decode(&bytes[..cut], "pad", "text").is_none(),
            "cut at {cut}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(decode(&longer, "pad", "text").is_none());
}
