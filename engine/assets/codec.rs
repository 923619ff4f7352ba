//! The binary form of a tool's parsed metadata in the asset cache: [`Entry`] in the caches'
//! form (`crate::cache`). A fraction of the size of JSON and decoded borrowing from the file,
//! so a listing or search that reads many cached tools stays cheap. The identity, name and
//! toolbox are not stored: the entry knows them from its folder.
//!
//! [`Entry`] is its own type because `ToolMeta`'s serde form is the JSON scripts see (absent
//! fields left out), which a format without field names cannot read back.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::meta::{Arg, Flag, Returns, ToolMeta};
use super::tool::Reading;
use super::{CachePolicy, ToolLimits};

/// A tool's reading and README as the cache stores them; its field order is the format.
#[derive(Serialize, Deserialize)]
struct Entry<'a> {
    description: &'a str,
    #[serde(borrow)]
    signature: Option<&'a str>,
    #[serde(borrow)]
    args: Cow<'a, [Arg]>,
    #[serde(borrow)]
    returns: Option<Cow<'a, Returns>>,
    #[serde(borrow)]
    examples: Cow<'a, [String]>,
    #[serde(borrow)]
    tags: Cow<'a, [String]>,
    /// Each flag's name and short form.
    #[serde(borrow)]
    flags: Vec<(&'a str, Option<&'a str>)>,
    #[serde(borrow)]
    rest: Option<&'a str>,
    #[serde(borrow)]
    vararg: Option<&'a str>,
    status: &'a str,
    #[serde(borrow)]
    purpose: Option<&'a str>,
    has_render: bool,
    /// The timeout and the output cap, when `limits` is given.
    limits: Option<(Option<u64>, Option<u64>)>,
    ttl_seconds: Option<u64>,
    #[serde(borrow)]
    warnings: Cow<'a, [String]>,
    #[serde(borrow)]
    refusal: Option<&'a str>,
    #[serde(borrow)]
    readme: Option<&'a str>,
}

/// What [`decode`] reads back.
pub(crate) fn encode(reading: &Reading, readme: Option<&str>) -> Vec<u8> {
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
    crate::cache::encode(&Entry {
        description,
        signature: signature.as_deref(),
        args: Cow::Borrowed(args),
        returns: returns.as_ref().map(Cow::Borrowed),
        examples: Cow::Borrowed(examples),
        tags: Cow::Borrowed(tags),
        flags: flags
            .iter()
            .map(|f| (f.name.as_str(), f.short.as_deref()))
            .collect(),
        rest: rest.as_deref(),
        vararg: vararg.as_deref(),
        status,
        purpose: purpose.as_deref(),
        has_render: *has_render,
        limits: limits.map(|l| (l.timeout_ms, l.max_output_bytes)),
        ttl_seconds: cache.map(|c| c.ttl_seconds),
        warnings: Cow::Borrowed(warnings),
        refusal: refusal.as_deref(),
        readme,
    })
}

/// The reading and README of the tool `name` of `toolbox`, or `None` when the bytes are
/// not a whole entry.
pub(crate) fn decode(bytes: &[u8], name: &str, toolbox: &str) -> Option<(Reading, Option<String>)> {
    let entry: Entry = crate::cache::decode(bytes)?;
    let owned = |s: Option<&str>| s.map(str::to_string);
    let meta = ToolMeta {
        identity: format!("{toolbox}.{name}"),
        name: name.to_string(),
        toolbox: toolbox.to_string(),
        description: entry.description.to_string(),
        signature: owned(entry.signature),
        args: entry.args.into_owned(),
        returns: entry.returns.map(Cow::into_owned),
        examples: entry.examples.into_owned(),
        tags: entry.tags.into_owned(),
        flags: entry
            .flags
            .into_iter()
            .map(|(name, short)| Flag {
                name: name.to_string(),
                short: owned(short),
            })
            .collect(),
        rest: owned(entry.rest),
        vararg: owned(entry.vararg),
        status: entry.status.to_string(),
        purpose: owned(entry.purpose),
        has_render: entry.has_render,
        limits: entry
            .limits
            .map(|(timeout_ms, max_output_bytes)| ToolLimits {
                timeout_ms,
                max_output_bytes,
            }),
        cache: entry
            .ttl_seconds
            .map(|ttl_seconds| CachePolicy { ttl_seconds }),
    };
    let reading = Reading {
        meta,
        warnings: entry.warnings.into_owned(),
        refusal: owned(entry.refusal),
    };
    Some((reading, owned(entry.readme)))
}

#[cfg(test)]
#[path = "../../tests/unit/assets/codec.rs"]
mod tests;
