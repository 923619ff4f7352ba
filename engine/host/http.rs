//! The `http` capability: `http.request` for scripts, over [`crate::net`]. Built into a
//! VM only when the registry's capabilities grant some host (scripts then see the global
//! `http`; otherwise it is nil and undeclared).
//!
//! The grant and the credentials are read at each call, the time limit is the request's
//! `timeoutMs` or what is left of the run's deadline, whichever is first, and the body is
//! capped at the run's file limit.
//!
//! Everything a request gives back becomes a Luau value here and only here, masked first
//! (`crate::secrets`): the status line aside, no byte of a header, a body or an error
//! message reaches the script unmasked, so a host that echoes a credential (in a 401
//! body, `WWW-Authenticate`, a redirect's `Location`, base64 or percent-encoded, or
//! compressed, which the client decodes first) echoes `***`.

/// The Luau declarations of this capability, for `codemode types` (only when granted).
pub(crate) const DECLARATIONS: &str = include_str!("http.d.luau");

use std::time::Duration;

use mlua::{Lua, Table, Value};

use crate::net::{fetch, Allow, Credentials, Request};
use crate::sandbox::{
    blocking, check_deadline, deadline_remaining, stop_asked, Capability, Effect, HostError,
};
use crate::secrets::{mask, mask_bytes};

use super::state::{registry, with_state};

/// Most headers a request may set.
const MAX_HEADERS: usize = 64;

fn invalid(message: impl Into<String>) -> mlua::Error {
    HostError::new(message).into_lua()
}

/// A string field of the request table.
fn text_field(t: &Table, name: &str) -> mlua::Result<Option<mlua::LuaString>> {
    match t.raw_get::<Value>(name)? {
        Value::Nil => Ok(None),
        Value::String(s) => Ok(Some(s)),
        other => Err(invalid(format!(
            "http.request: `{name}` must be a string, got a {}",
            other.type_name()
        ))),
    }
}

/// A time limit in milliseconds (`timeoutMs`), if given.
pub(crate) fn timeout_field(t: &Table, call: &str) -> mlua::Result<Option<Duration>> {
    match t.raw_get::<Value>("timeoutMs")? {
        Value::Nil => Ok(None),
        Value::Integer(n) if n > 0 => Ok(Some(Duration::from_millis(n as u64))),
        Value::Number(n) if n.is_finite() && n >= 1.0 => Ok(Some(Duration::from_millis(n as u64))),
        other => Err(invalid(format!(
            "{call}: `timeoutMs` must be a positive number of milliseconds, got {}",
            match other {
                Value::Integer(n) => n.to_string(),
                Value::Number(n) => n.to_string(),
                v => format!("a {}", v.type_name()),
            }
        ))),
    }
}

/// The request's own limit, within what is left of the run's deadline.
pub(crate) fn time_left(lua: &Lua, own: Option<Duration>) -> mlua::Result<Duration> {
    let run = with_state(lua, |s| s.run.limits.timeout)?;
    let left = deadline_remaining().unwrap_or(run);
    Ok(own.map_or(left, |own| own.min(left)))
}

fn request(lua: &Lua, t: Table) -> mlua::Result<Table> {
    let registry = registry(lua)?;
    let allow = Allow::new(&registry.capabilities().http);
    let max_file = with_state(lua, |s| s.run.limits.max_file_bytes)?;
    let url = text_field(&t, "url")?
        .ok_or_else(|| invalid("http.request needs `url`, an absolute http:// or https:// URL"))?
        .to_str()?
        .to_string();
    let method = match text_field(&t, "method")? {
        Some(m) => m.to_str()?.to_ascii_uppercase(),
        None => "GET".to_string(),
    };
    let mut headers = Vec::new();
    match t.raw_get::<Value>("headers")? {
        Value::Nil => {}
        Value::Table(h) => {
            for pair in h.pairs::<Value, Value>() {
                let (name, value) = pair?;
                let (Value::String(name), Value::String(value)) = (&name, &value) else {
                    return Err(invalid(
                        "http.request: `headers` maps header names to string values",
                    ));
                };
                if headers.len() == MAX_HEADERS {
                    return Err(invalid(format!(
                        "http.request: at most {MAX_HEADERS} headers"
                    )));
                }
                headers.push((name.to_str()?.to_string(), value.to_str()?.to_string()));
            }
        }
        other => {
            return Err(invalid(format!(
                "http.request: `headers` must be a table of names to values, got a {}",
                other.type_name()
            )))
        }
    }
    let body = text_field(&t, "body")?.map(|b| b.as_bytes().to_vec());
    if body.as_ref().is_some_and(|b| b.len() > max_file) {
        return Err(invalid(format!(
            "http.request: the body is larger than the file limit of {max_file} bytes; send less per request"
        )));
    }
    let own = timeout_field(&t, "http.request")?;
    let timeout = time_left(lua, own)?;
    let credentials =
        Credentials::load(registry.world()).map_err(|e| invalid(mask(&e.to_string())))?;
    let request = Request {
        method,
        url,
        headers,
        body,
        timeout,
        max_body: max_file,
    };
    let outcome = blocking(|| fetch(request, &allow, &credentials, &stop_asked));
    let response = match outcome {
        Ok(response) => response,
        Err(e) => {
            // The run's own end (deadline, caller) is what stopped it, when it has come.
            check_deadline()?;
            // What the grant or the address guard refuses is the profile's word: `denied`.
            let message = mask(&e.to_string()).into_owned();
            if let crate::net::NetError::Refused { fix, .. } = &e {
                return Err(HostError::denied(message, mask(fix).into_owned()).into_lua());
            }
            return Err(invalid(message));
        }
    };
    let out = lua.create_table()?;
    out.raw_set("status", response.status)?;
    let headers = lua.create_table()?;
    for (name, value) in response.headers {
        headers.raw_set(mask(&name), mask(&value))?;
    }
    out.raw_set("headers", headers)?;
    out.raw_set("body", lua.create_string(mask_bytes(&response.body))?)?;
    Ok(out)
}

/// The `http` capability: each function with its effect.
pub(crate) fn capability() -> Capability {
    Capability::new("http").function(
        "request",
        Effect::Network,
        |lua, request_table: Value| match request_table {
            Value::Table(t) => request(lua, t),
            other => Err(invalid(format!(
                "http.request takes one table {{ url, method?, headers?, body?, timeoutMs? }}, got a {}",
                other.type_name()
            ))),
        },
    )
}
