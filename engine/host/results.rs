//! The `results` capability: what the prelude needs to apply a tool's `limits` and
//! `cache` around its calls, and `tools.results.get` / `tools.results.search` over the
//! result cache (`crate::results`).
//!
//! A cached call is looked up before the tool runs (`lookup`), and what the tool returned
//! is kept after (`keep`). A tool returning the contract `{ brief, raw, indexTerms }`
//! gives its caller `brief` and the key; the store keeps `raw` and the terms.

/// The Luau declarations of this capability (`results.d.luau`), for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("results.d.luau");

use std::hash::BuildHasher;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use foldhash::fast::FixedState;
use mlua::{Lua, MultiValue, Table, Value};
use serde_json::Value as Json;

use super::tool_policy::Policy;
use crate::results::{Entry, NewEntry, Shared};
use crate::sandbox::{to_json, Capability, Effect, HostError, Writes};

use super::convert::to_lua;
use super::state::with_state;

/// Bytes of JSON a call's arguments may take to be cached (larger calls run uncached).
const MAX_ARGS_BYTES: usize = 64 * 1024;
/// Bytes of JSON one stored result may take.
const MAX_RESULT_BYTES: usize = 4 << 20;
/// Index terms one result may carry, and characters per term.
const MAX_TERMS: usize = 64;
const MAX_TERM_CHARS: usize = 128;
/// Rows `tools.results.search` returns at most, and the bytes of results it reads at
/// most (past that it returns fewer rows).
const MAX_ROWS: usize = 100;
const MAX_SEARCH_BYTES: usize = 16 << 20;

/// The policy of the folder or upstream tool `identity`, if there is such a tool.
pub(crate) fn policy(lua: &Lua, identity: &str) -> mlua::Result<Option<Policy>> {
    let index = with_state(lua, |s| s.index.clone())?;
    if let Some(entry) = index.tool(identity) {
        let meta = entry.meta();
        let mut stamp = format!("{:016x}", entry.stamp.hash);
        if meta.cache.is_some() {
            // A tool may `require` its toolbox's modules: editing one changes its results.
            if let Some(folder) = index.folder(&entry.folder) {
                for module in &folder.modules {
                    let hash = FixedState::default().hash_one((&module.name, module.text()));
                    stamp.push_str(&format!("-{hash:016x}"));
                }
            }
        }
        return Ok(Some(Policy {
            limits: meta.limits.unwrap_or_default(),
            cache: meta.cache,
            stamp,
        }));
    }
    let Some((server, tool)) = identity.split_once('.') else {
        return Ok(None);
    };
    super::upstream::policy(lua, server, tool)
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The world's result cache, opened once per run.
fn store(lua: &Lua) -> mlua::Result<Arc<Shared>> {
    with_state(lua, |s| {
        if s.results.is_none() {
            s.results = Some(Shared::for_world(s.registry.world()));
        }
        s.results.clone()
    })?
    .ok_or_else(|| mlua::Error::runtime("the run's result cache was not opened"))
}

/// The run's scope in the store: the fingerprint of what its profile grants and of the
/// tools it may call. A cached tool may call others: its result under a profile that
/// allows them must not reach one that denies them.
fn scope(lua: &Lua) -> mlua::Result<String> {
    with_state(lua, |s| {
        let rules = s.registry.rules();
        format!(
            "{};default={:?};allow={:?};deny={:?}",
            s.registry.capabilities().fingerprint(),
            rules.default,
            rules.allow,
            rules.deny
        )
    })
}

/// Placeholders `to_json` writes for what JSON cannot hold: a call with any of them has
/// no canonical form, so it is not cached.
fn opaque(json: &Json) -> bool {
    match json {
        Json::String(s) => {
            s.starts_with('<')
                && (matches!(
                    s.as_str(),
                    "<function>" | "<coroutine>" | "<cycle>" | "<userdata>"
                ) || s.starts_with("<buffer of ")
                    || s.starts_with("<nested deeper"))
        }
        Json::Array(items) => items.iter().any(opaque),
        Json::Object(map) => map.values().any(opaque),
        _ => false,
    }
}

/// True when JSON holds `value` as it is, so that two calls with the same JSON are the
/// same call: finite numbers, UTF-8 strings, and tables that are either a sequence
/// (keys 1..n) or a record (string keys only), without a metatable. `0/0`, `math.huge`,
/// `tools.json.null()` and `nil` all become `null`, `-0` becomes `0`, `{[1] = 'a'}` and
/// `{['1'] = 'a'}` the same object: such calls are not cached.
fn exact(value: &Value, depth: usize) -> bool {
    match value {
        Value::Nil | Value::Boolean(_) | Value::Integer(_) => true,
        // -0 writes as 0.
        Value::Number(n) => n.is_finite() && !(*n == 0.0 && n.is_sign_negative()),
        // A table with a metatable is more than its keys (`tools.json.null()` writes as
        // `null`, like nil).
        Value::Table(t) if t.metatable().is_some() => false,
        Value::String(s) => std::str::from_utf8(&s.as_bytes()).is_ok(),
        Value::Table(t) if depth > 0 => {
            let (mut count, mut strings, mut largest) = (0usize, 0usize, 0i64);
            for pair in t.clone().pairs::<Value, Value>() {
                let Ok((key, item)) = pair else {
                    return false;
                };
                count += 1;
                match key {
                    Value::String(k) if std::str::from_utf8(&k.as_bytes()).is_ok() => strings += 1,
                    Value::Integer(i) if i >= 1 => largest = largest.max(i),
                    Value::Number(n) if n >= 1.0 && n.fract() == 0.0 && n < 2f64.powi(53) => {
                        largest = largest.max(n as i64)
                    }
                    _ => return false,
                }
                if !exact(&item, depth - 1) {
                    return false;
                }
            }
            strings == count || (strings == 0 && largest as usize == count)
        }
        _ => false,
    }
}

/// `values` as one JSON array within `budget` bytes; `None` when cut, opaque or not
/// [`exact`].
fn exact_json<'a>(values: impl IntoIterator<Item = &'a Value>, budget: usize) -> Option<Json> {
    let mut items = Vec::new();
    let mut left = budget;
    for value in values {
        let (json, cut) = to_json(value, left, 32);
        if cut || opaque(&json) || !exact(value, 32) {
            return None;
        }
        left = left.checked_sub(serde_json::to_string(&json).ok()?.len())?;
        items.push(json);
    }
    Some(Json::Array(items))
}

/// `{ brief, raw, indexTerms? }` and nothing else: the contract of a cached tool.
fn contract(values: &MultiValue) -> mlua::Result<Option<Table>> {
    let (1, Some(Value::Table(t))) = (values.len(), values.front()) else {
        return Ok(None);
    };
    if t.raw_get::<Value>("brief")?.is_nil() || t.raw_get::<Value>("raw")?.is_nil() {
        return Ok(None);
    }
    for pair in t.pairs::<Value, Value>() {
        let (k, _) = pair?;
        let known = matches!(&k, Value::String(s) if matches!(s.as_bytes().as_ref(), b"brief" | b"raw" | b"indexTerms"));
        if !known {
            return Ok(None);
        }
    }
    Ok(Some(t.clone()))
}

fn terms(identity: &str, t: &Table) -> mlua::Result<Vec<String>> {
    let wrong = || {
        HostError::hinted(
            format!("tools.{identity} returned indexTerms that is not a list of strings"),
            "return { brief = ..., raw = ..., indexTerms = { \"word\", ... } }",
        )
        .into_lua()
    };
    match t.raw_get::<Value>("indexTerms")? {
        Value::Nil => Ok(Vec::new()),
        Value::Table(list) => {
            let mut out = Vec::new();
            // Only the first terms are read: a list of millions costs no more than these.
            for item in list.sequence_values::<Value>().take(MAX_TERMS) {
                let Value::String(s) = item? else {
                    return Err(wrong());
                };
                out.push(s.to_string_lossy().chars().take(MAX_TERM_CHARS).collect());
            }
            Ok(out)
        }
        _ => Err(wrong()),
    }
}

/// `results.lookup(identity, version, ...)`: `(true, packed)` on a hit (`packed` holds
/// the values the caller gets, with `n`), else `(false, key)`; the key is nil when the
/// call cannot be cached: the tool has no cache, its arguments have no JSON form, or the
/// function called is not the tool's current `version` (its files changed after the run
/// resolved it, and its results must not be kept under the new files' stamp).
fn lookup(
    lua: &Lua,
    identity: String,
    version: &str,
    args: MultiValue,
) -> mlua::Result<(bool, Value)> {
    let Some(Policy {
        cache: Some(_),
        stamp,
        limits,
    }) = policy(lua, &identity)?
    else {
        return Ok((false, Value::Nil));
    };
    let cap = limits.max_output_bytes;
    if stamp != version {
        return Ok((false, Value::Nil));
    }
    let Some(args) = exact_json(args.iter(), MAX_ARGS_BYTES) else {
        return Ok((false, Value::Nil));
    };
    let scope = scope(lua)?;
    let key = crate::results::key(&identity, &stamp, &scope, &args.to_string());
    let Some(entry) = store(lua)?.get(&key, &scope, now_ms()) else {
        return Ok((false, Value::String(lua.create_string(&key)?)));
    };
    let packed = lua.create_table()?;
    // A row that does not decode (written by hand, or a future format) is a miss.
    let Ok(brief) = serde_json::from_str::<Json>(&entry.brief) else {
        return Ok((false, Value::String(lua.create_string(&key)?)));
    };
    // A hit is cut to the tool's cap as its call would be (a contract's brief, not the key).
    if entry.raw.is_some() {
        let brief = capped(
            lua,
            &identity,
            cap,
            MultiValue::from_vec(vec![to_lua(lua, &brief)?]),
        )?;
        packed.raw_set(1, brief.into_iter().next().unwrap_or(Value::Nil))?;
        packed.raw_set(2, key)?;
        packed.raw_set("n", 2)?;
    } else {
        let Json::Array(values) = brief else {
            return Ok((false, Value::String(lua.create_string(&key)?)));
        };
        let values = values
            .iter()
            .map(|v| to_lua(lua, v))
            .collect::<mlua::Result<Vec<_>>>()?;
        let values = capped(lua, &identity, cap, MultiValue::from_vec(values))?;
        packed.raw_set("n", values.len())?;
        for (i, v) in values.into_iter().enumerate() {
            packed.raw_set(i + 1, v)?;
        }
    }
    with_state(lua, |s| s.answered_from_cache = true)?;
    Ok((true, Value::Table(packed)))
}

/// `results.keep(identity, key, ...)`: stores what the tool returned. `(true, brief)` when
/// it returned the contract (its caller gets `brief` and the key), else `(false)`.
fn keep(
    lua: &Lua,
    identity: String,
    key: String,
    values: MultiValue,
) -> mlua::Result<(bool, Value)> {
    let Some(Policy {
        cache: Some(cache),
        limits,
        ..
    }) = policy(lua, &identity)?
    else {
        return Ok((false, Value::Nil));
    };
    let ttl = Duration::from_secs(cache.ttl_seconds);
    let store = store(lua)?;
    let scope = scope(lua)?;
    if let Some(t) = contract(&values)? {
        let brief: Value = t.raw_get("brief")?;
        let raw: Value = t.raw_get("raw")?;
        let terms = terms(&identity, &t)?;
        let encoded = exact_json(std::slice::from_ref(&brief), MAX_RESULT_BYTES)
            .zip(exact_json(&[raw], MAX_RESULT_BYTES));
        if let Some((Json::Array(mut b), Json::Array(mut r))) = encoded {
            let (brief_json, raw_json) = (b.remove(0).to_string(), r.remove(0).to_string());
            store.put(&NewEntry {
                key: &key,
                scope: &scope,
                identity: &identity,
                brief: &brief_json,
                raw: Some(&raw_json),
                terms: &terms,
                now_ms: now_ms(),
                ttl,
            });
        }
        let brief = capped(
            lua,
            &identity,
            limits.max_output_bytes,
            MultiValue::from_vec(vec![brief]),
        )?;
        return Ok((true, brief.into_iter().next().unwrap_or(Value::Nil)));
    }
    if let Some(json) = exact_json(values.iter(), MAX_RESULT_BYTES) {
        store.put(&NewEntry {
            key: &key,
            scope: &scope,
            identity: &identity,
            brief: &json.to_string(),
            raw: None,
            terms: &[],
            now_ms: now_ms(),
            ttl,
        });
    }
    Ok((false, Value::Nil))
}

/// `results.cut(identity, cap, ...)`: the values, cut as the envelope cuts a value when
/// together they pass `cap` bytes of JSON; the run's envelope then says so.
fn cut(lua: &Lua, identity: String, cap: usize, values: MultiValue) -> mlua::Result<MultiValue> {
    let depth = with_state(lua, |s| s.run.limits.max_value_depth)?;
    let mut out = Vec::with_capacity(values.len());
    let mut left = cap;
    let mut any = false;
    for value in values.iter() {
        let (json, was_cut) = to_json(value, left, depth);
        any |= was_cut;
        left = left.saturating_sub(serde_json::to_string(&json).map_or(0, |s| s.len()));
        out.push(json);
    }
    if !any {
        return Ok(values);
    }
    with_state(lua, |s| {
        if !s.cuts.iter().any(|(id, _)| *id == identity) {
            s.cuts.push((identity, cap));
        }
    })?;
    out.iter().map(|j| to_lua(lua, j)).collect()
}

/// [`cut`] when the tool has a cap.
fn capped(
    lua: &Lua,
    identity: &str,
    cap: Option<u64>,
    values: MultiValue,
) -> mlua::Result<MultiValue> {
    match cap {
        Some(cap) => cut(
            lua,
            identity.to_string(),
            usize::try_from(cap).unwrap_or(usize::MAX),
            values,
        ),
        None => Ok(values),
    }
}

/// One row of `tools.results.get` and `tools.results.search`, its brief and raw result
/// cut to the tool's `maxOutputBytes` as a call of it would be; `None` for a row that does
/// not decode, or whose tool the run can no longer resolve (nor, so, its limits).
fn row(lua: &Lua, entry: &Entry) -> mlua::Result<Option<Table>> {
    // The store is the world's, shared by every profile: a profile reads back only the
    // results of tools it may call.
    let denied = with_state(lua, |s| s.index.denial(&entry.identity).is_some())?;
    if denied {
        return Ok(None);
    }
    let Some(policy) = policy(lua, &entry.identity)? else {
        return Ok(None);
    };
    let cap = policy.limits.max_output_bytes;
    let one = |value: Value| -> mlua::Result<Value> {
        let values = capped(lua, &entry.identity, cap, MultiValue::from_vec(vec![value]))?;
        Ok(values.into_iter().next().unwrap_or(Value::Nil))
    };
    let t = lua.create_table()?;
    let Ok(brief) = serde_json::from_str::<Json>(&entry.brief) else {
        return Ok(None);
    };
    let raw: Json = match &entry.raw {
        Some(raw) => match serde_json::from_str(raw) {
            Ok(raw) => raw,
            Err(_) => return Ok(None),
        },
        // No contract: the result is what the tool returned (several values: the list).
        None => match brief.clone() {
            Json::Array(mut values) if values.len() == 1 => values.remove(0),
            other => other,
        },
    };
    t.raw_set("key", entry.key.as_str())?;
    t.raw_set("identity", entry.identity.as_str())?;
    if entry.raw.is_some() {
        t.raw_set("brief", one(to_lua(lua, &brief)?)?)?;
    }
    t.raw_set("raw", one(to_lua(lua, &raw)?)?)?;
    let terms = lua.create_sequence_from(entry.terms.lines().filter(|l| !l.is_empty()))?;
    t.raw_set("indexTerms", terms)?;
    t.raw_set("createdAt", entry.created_ms)?;
    t.raw_set("expiresAt", entry.expires_ms)?;
    Ok(Some(t))
}

/// `{ cache, maxOutputBytes }` for the prelude's `policed`, or nil when the tool has
/// neither (its calls then go straight to its function).
pub(crate) fn policy_row(lua: &Lua, policy: &Policy) -> mlua::Result<Value> {
    let cap = policy.limits.max_output_bytes;
    if policy.cache.is_none() && cap.is_none() {
        return Ok(Value::Nil);
    }
    let row = lua.create_table()?;
    row.raw_set("cache", policy.cache.is_some())?;
    row.raw_set("maxOutputBytes", cap)?;
    // The version of the tool the caller's function is: a run may change the tool's files
    // after it resolved the function, and a result is kept only under its own version.
    row.raw_set("stamp", policy.stamp.as_str())?;
    Ok(Value::Table(row))
}

/// The `results` capability: each function with its effect.
pub(crate) fn capability() -> Capability {
    Capability::new("results")
        .function("policy", Effect::Read, |lua, identity: String| {
            let Some(policy) = policy(lua, &identity)? else {
                return Ok(Value::Nil);
            };
            policy_row(lua, &policy)
        })
        .reaching(Effect::Upstream)
        .function(
            "lookup",
            Effect::Read,
            |lua, (identity, version, args): (String, String, MultiValue)| {
                lookup(lua, identity, &version, args)
            },
        )
        .reaching(Effect::Upstream)
        .function(
            "keep",
            Effect::Write(Writes::Cache),
            |lua, (identity, key, values): (String, String, MultiValue)| {
                keep(lua, identity, key, values)
            },
        )
        .called("the result cache")
        .reaching(Effect::Upstream)
        .function(
            "cut",
            Effect::None,
            |lua, (identity, cap, values): (String, usize, MultiValue)| {
                cut(lua, identity, cap, values)
            },
        )
        .function("get", Effect::Read, |lua, key: String| {
            match store(lua)?.get(&key, &scope(lua)?, now_ms()) {
                Some(entry) => Ok(row(lua, &entry)?.map_or(Value::Nil, Value::Table)),
                None => Ok(Value::Nil),
            }
        })
        .reaching(Effect::Upstream)
        .function(
            "search",
            Effect::Read,
            |lua, (query, limit): (String, Option<usize>)| {
                let limit = limit.unwrap_or(10).clamp(1, MAX_ROWS);
                let rows =
                    store(lua)?.search(&query, &scope(lua)?, limit, MAX_SEARCH_BYTES, now_ms());
                let out = lua.create_table_with_capacity(rows.len(), 0)?;
                for entry in &rows {
                    if let Some(row) = row(lua, entry)? {
                        out.raw_push(row)?;
                    }
                }
                Ok(out)
            },
        )
        .reaching(Effect::Upstream)
}
