//! The binary form of a tool's parsed metadata in the asset cache: fields in a fixed order,
//! strings and lists prefixed by their length (`crate::cache`'s byte format). A fraction
//! of the size of JSON and decoded without a parser, so a listing or search that reads
//! many cached tools stays cheap. The identity, name and toolbox are not stored: the
//! entry knows them from its folder.

use super::model::{Arg, Flag, Returns, ToolMeta};
use super::tool::Reading;
use super::{CachePolicy, ToolLimits};
use crate::cache::{Reader, Writer};

/// Appends what [`decode`] reads back.
pub(crate) fn encode(w: &mut Writer, reading: &Reading, readme: Option<&str>) {
    // Destructured whole: a field added to the model must be added here too.
    let Reading {
        meta,
        warnings,
        refusal,
    } = reading;
    let ToolMeta {
        identity: _,
        name: _,
        toolbox: _,
        description,
        signature,
        args,
        returns,
        examples,
        tags,
        flags,
        rest,
        vararg,
        status,
        purpose,
        has_render,
        limits,
        cache,
    } = meta;
    w.str(description);
    opt(w, signature.as_deref());
    w.u32(args.len() as u32);
    for Arg {
        name,
        ty,
        description,
        optional,
    } in args
    {
        w.str(name);
        w.str(ty);
        w.str(description);
        w.u8(u8::from(*optional));
    }
    match returns {
        None => w.u8(0),
        Some(Returns { ty, description }) => {
            w.u8(1);
            w.str(ty);
            w.str(description);
        }
    }
    list(w, examples);
    list(w, tags);
    w.u32(flags.len() as u32);
    for Flag { name, short } in flags {
        w.str(name);
        opt(w, short.as_deref());
    }
    opt(w, rest.as_deref());
    opt(w, vararg.as_deref());
    w.str(status);
    opt(w, purpose.as_deref());
    w.u8(u8::from(*has_render));
    match limits {
        None => w.u8(0),
        Some(ToolLimits {
            timeout_ms,
            max_output_bytes,
        }) => {
            w.u8(1);
            opt_u64(w, *timeout_ms);
            opt_u64(w, *max_output_bytes);
        }
    }
    opt_u64(w, cache.map(|c| c.ttl_seconds));
    list(w, warnings);
    opt(w, refusal.as_deref());
    opt(w, readme);
}

/// The reading and README of the tool `name` of `toolbox`, or `None` when the bytes are
/// not a whole entry.
pub(crate) fn decode(bytes: &[u8], name: &str, toolbox: &str) -> Option<(Reading, Option<String>)> {
    let mut r = Reader::new(bytes);
    let description = string(&mut r)?;
    let signature = opt_string(&mut r)?;
    let args = (0..count(&mut r)?)
        .map(|_| {
            Some(Arg {
                name: string(&mut r)?,
                ty: string(&mut r)?,
                description: string(&mut r)?,
                optional: flag(&mut r)?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let returns = match r.u8()? {
        0 => None,
        1 => Some(Returns {
            ty: string(&mut r)?,
            description: string(&mut r)?,
        }),
        _ => return None,
    };
    let examples = strings(&mut r)?;
    let tags = strings(&mut r)?;
    let flags = (0..count(&mut r)?)
        .map(|_| {
            Some(Flag {
                name: string(&mut r)?,
                short: opt_string(&mut r)?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let meta = ToolMeta {
        identity: format!("{toolbox}.{name}"),
        name: name.to_string(),
        toolbox: toolbox.to_string(),
        description,
        signature,
        args,
        returns,
        examples,
        tags,
        flags,
        rest: opt_string(&mut r)?,
        vararg: opt_string(&mut r)?,
        status: string(&mut r)?,
        purpose: opt_string(&mut r)?,
        has_render: flag(&mut r)?,
        limits: match r.u8()? {
            0 => None,
            1 => Some(ToolLimits {
                timeout_ms: read_opt_u64(&mut r)?,
                max_output_bytes: read_opt_u64(&mut r)?,
            }),
            _ => return None,
        },
        cache: read_opt_u64(&mut r)?.map(|ttl_seconds| CachePolicy { ttl_seconds }),
    };
    let reading = Reading {
        meta,
        warnings: strings(&mut r)?,
        refusal: opt_string(&mut r)?,
    };
    let readme = opt_string(&mut r)?;
    r.done().then_some((reading, readme))
}

fn opt(w: &mut Writer, v: Option<&str>) {
    match v {
        None => w.u8(0),
        Some(s) => {
            w.u8(1);
            w.str(s);
        }
    }
}

fn opt_u64(w: &mut Writer, v: Option<u64>) {
    match v {
        None => w.u8(0),
        Some(v) => {
            w.u8(1);
            w.u64(v);
        }
    }
}

fn read_opt_u64(r: &mut Reader) -> Option<Option<u64>> {
    match r.u8()? {
        0 => Some(None),
        1 => Some(Some(r.u64()?)),
        _ => None,
    }
}

fn list(w: &mut Writer, items: &[String]) {
    w.u32(items.len() as u32);
    for item in items {
        w.str(item);
    }
}

fn string(r: &mut Reader) -> Option<String> {
    r.str().map(str::to_string)
}

fn opt_string(r: &mut Reader) -> Option<Option<String>> {
    match r.u8()? {
        0 => Some(None),
        1 => Some(Some(string(r)?)),
        _ => None,
    }
}

fn flag(r: &mut Reader) -> Option<bool> {
    match r.u8()? {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    }
}

/// A list's length, bounded by what is left to read (each item takes at least 4 bytes),
/// so a damaged count cannot make a huge allocation.
fn count(r: &mut Reader) -> Option<usize> {
    let n = r.u32()? as usize;
    (n <= r.left() / 4).then_some(n)
}

fn strings(r: &mut Reader) -> Option<Vec<String>> {
    (0..count(r)?).map(|_| string(r)).collect()
}

#[cfg(test)]
mod tests {
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
        let mut w = Writer::default();
        encode(&mut w, &reading, Some("# Pad\n\nPads text."));
        let bytes = w.into_bytes();
        let (back, readme) = decode(&bytes, "pad", "text").unwrap();
        assert_eq!(back.meta, reading.meta);
        assert_eq!(back.warnings, reading.warnings);
        assert_eq!(back.refusal, reading.refusal);
        assert_eq!(readme.as_deref(), Some("# Pad\n\nPads text."));
    }

    #[test]
    fn a_cut_or_padded_entry_does_not_decode() {
        let mut w = Writer::default();
        encode(&mut w, &full(), None);
        let bytes = w.into_bytes();
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
}
