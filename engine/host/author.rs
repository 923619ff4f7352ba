//! The `author` capability: what `tools.createToolbox`, `tools.create` and `tools.delete`
//! need from Rust (name checks, the compiler, atomic publishing, where things live).
//! The prelude builds the files; this module only checks and writes them.
//!
//! Functions that can be refused return `(result, nil)` or `(nil, message, kind)`, so the
//! prelude can answer `{ ok = false, error = message }` instead of raising.

/// The Luau declarations of this capability (`author.d.luau`), for `codemode types`.
pub(crate) const DECLARATIONS: &str = include_str!("author.d.luau");

use mlua::{LuaSerdeExt, Table, Value};
use serde::{Deserialize, Serialize};

use crate::assets::{compile, names, Origin};
use crate::check::{Diagnostic, Severity};
use crate::sandbox::{Capability, Effect, Writes};
use crate::vfs::VfsError;

use super::state::{registry, with_state};
use super::vfs::{charge_write, refresh};

/// The `.metadata` fields `tools.createToolbox` and `tools.create` write.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(default)]
struct NewMetadata {
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    tags: Vec<String>,
}

/// Where a toolbox or tool lives, as the prelude sees it.
#[derive(Serialize)]
struct Place {
    /// World-relative path of the folder (empty for a library folder outside the world).
    path: String,
    origin: Origin,
    #[serde(rename = "hasShared")]
    has_shared: bool,
}

type Refusal = (Value, Option<String>, Option<&'static str>);

fn refused(message: String, kind: &'static str) -> Refusal {
    (Value::Nil, Some(message), Some(kind))
}

fn kind_of(e: &VfsError) -> &'static str {
    match e {
        VfsError::Exists { .. } => "exists",
        VfsError::ReadOnly { .. } => "read-only",
        VfsError::NotFound { .. } => "missing",
        _ => "refused",
    }
}

/// The most diagnostics `typecheck` returns: a model reads them, and the first ones say
/// what is wrong.
const MAX_DIAGNOSTICS: usize = 20;

/// The longest type text `checkType` reads.
const MAX_TYPE_BYTES: usize = 1024;

/// The `author` capability: each function with its effect.
pub(crate) fn capability() -> Capability {
    Capability::new("author")
        .function(
            "checkName",
            Effect::None,
            |_, (kind, name): (String, String)| {
                Ok(match kind.as_str() {
                    "toolbox" => names::check_toolbox_name(&name).err(),
                    _ => names::check_name(&kind, &name).err(),
                })
            },
        )
        .function("checkType", Effect::None, |_, text: mlua::LuaString| {
            // Measured before it is copied: a type is one line, never megabytes.
            let bytes = text.as_bytes();
            if bytes.len() > MAX_TYPE_BYTES {
                return Ok(Some(format!(
                    "a type is at most {MAX_TYPE_BYTES} bytes; this one has {}",
                    bytes.len()
                )));
            }
            Ok(crate::types::type_problem(&String::from_utf8_lossy(&bytes)))
        })
        .function("compile", Effect::None, |_, source: String| {
            Ok(compile(&source).err())
        })
        // The checker may still be busy with this run's own script: it waits at the gate.
        .function(
            "typecheck",
            Effect::Checker,
            |lua, (source, identity): (String, Option<String>)| {
                let (checking, index) = with_state(lua, |s| (s.checking.clone(), s.index.clone()))?;
                let Some(checking) = checking else {
                    return Ok(Value::Nil);
                };
                let registry = registry(lua)?;
                let declarations = checking.declarations(&registry, &index, &source);
                // The modules the new tool requires are its toolbox folder's.
                let folder = identity.as_deref().and_then(|identity| {
                    let toolbox = identity.split('.').next().unwrap_or_default();
                    match index.tool(identity) {
                        Some(tool) => index.folder(&tool.folder),
                        None => index.toolbox(toolbox),
                    }
                });
                let module = |name: &str| {
                    folder?
                        .modules
                        .iter()
                        .find(|m| m.name == name)
                        .and_then(|m| m.text())
                };
                let found = match checking.check_tool_with(&declarations, &source, module) {
                    Ok(found) => found,
                    Err(e) => return lua.to_value(&[Diagnostic::note(e.about_a_tool())]),
                };
                // The certain errors first: those are what a caller must fix. Lints are left
                // out: the generated file's own lines (an unused `shared`) would be among them.
                let mut shown = found.errors;
                shown.extend(
                    found
                        .others
                        .into_iter()
                        .filter(|d| d.severity == Severity::Error),
                );
                shown.truncate(MAX_DIAGNOSTICS);
                lua.to_value(&shown)
            },
        )
        .called("tools.create")
        .function("checkTags", Effect::None, |lua, value: Value| {
            // The same rule the index applies when it reads `.metadata`; the counts are
            // looked at before anything is copied out of the VM.
            if let Value::Table(t) = &value {
                let count = t.raw_len();
                if count > crate::assets::MAX_TAGS {
                    return Ok(Some(format!(
                        "{count} tags; give at most {}, the words a search for this should match",
                        crate::assets::MAX_TAGS
                    )));
                }
                for i in 1..=count {
                    if let Value::String(s) = t.raw_get::<Value>(i)? {
                        if s.as_bytes().len() > 4 * crate::assets::MAX_TAG_CHARS {
                            return Ok(Some(format!(
                                "tag {i} is longer than {} characters; a tag is a word or two",
                                crate::assets::MAX_TAG_CHARS
                            )));
                        }
                    }
                }
            }
            let tags: Vec<String> = lua.from_value(value).unwrap_or_default();
            let text = serde_json::json!({ "tags": tags }).to_string();
            Ok(crate::assets::Metadata::parse(&text, "tags").err())
        })
        .function(
            "checkDescription",
            Effect::None,
            |_, text: mlua::LuaString| {
                Ok(crate::assets::description_problem(&text.to_string_lossy()))
            },
        )
        .function("metadata", Effect::None, |lua, value: Value| {
            let meta: NewMetadata = lua.from_value(value)?;
            serde_json::to_string_pretty(&meta)
                .map(|s| s + "\n")
                .map_err(mlua::Error::external)
        })
        .function("toolbox", Effect::Read, |lua, name: String| {
            let index = with_state(lua, |s| s.index.clone())?;
            let registry = registry(lua)?;
            // A world folder of that name speaks first: that is where new tools go.
            let folder = index.toolbox(&name);
            let Some(folder) = folder else {
                return Ok(Value::Nil);
            };
            let full = index.roots[folder.root].dir().map(|d| d.join(&folder.path));
            let path = full
                .and_then(|p| registry.vfs().relative(&p))
                .unwrap_or_default();
            lua.to_value(&Place {
                path,
                origin: folder.origin,
                has_shared: folder.modules.iter().any(|m| m.name == "shared"),
            })
        })
        .function("locate", Effect::Read, |lua, identity: String| {
            let index = with_state(lua, |s| s.index.clone())?;
            let registry = registry(lua)?;
            let Some(entry) = index.tool(&identity) else {
                return Ok(Value::Nil);
            };
            let dir = index.roots[entry.folder.0].dir().map(|d| {
                d.join(&*entry.folder.1)
                    .join(format!("{}.tool", entry.meta().name))
            });
            let path = dir
                .and_then(|p| registry.vfs().relative(&p))
                .unwrap_or_default();
            lua.to_value(&Place {
                path,
                origin: entry.origin,
                has_shared: false,
            })
        })
        .function("server", Effect::Read, |lua, name: String| {
            with_state(lua, |s| s.index.reserved_by(&name).map(str::to_string))
        })
        .function(
            "permit",
            Effect::Read,
            |lua, (call, target): (String, Option<String>)| {
                super::permission::authoring(lua, &call, target.as_deref())
            },
        )
        // The prelude asked (`permit`) first; the linker refuses a write here all the same.
        .function(
            "publish",
            Effect::Write(Writes::Tools),
            |lua, (parent, name, files): (String, String, Table)| {
                let at = format!("{parent}/{name}");
                if let Some(why) = super::permission::server_folder(lua, &[&at])? {
                    return Ok(refused(why, "refused"));
                }
                let mut contents = Vec::new();
                for pair in files.pairs::<String, mlua::LuaString>() {
                    let (file, text) = pair?;
                    contents.push((file, text.as_bytes().to_vec()));
                }
                for (_, text) in &contents {
                    charge_write(lua, text.len())?;
                }
                let registry = registry(lua)?;
                let max_file = with_state(lua, |s| s.run.limits.max_file_bytes)?;
                match registry
                    .vfs()
                    .publish_dir(&parent, &name, &contents, max_file)
                {
                    Ok(full) => {
                        let rel = registry.vfs().relative(&full).unwrap_or_default();
                        refresh(lua, full)?;
                        Ok((Value::String(lua.create_string(rel)?), None, None))
                    }
                    Err(e) => Ok(refused(e.to_string(), kind_of(&e))),
                }
            },
        )
        .called("tools.create")
        .function(
            "remove",
            Effect::Write(Writes::Tools),
            |lua, path: String| {
                let registry = registry(lua)?;
                match registry.vfs().remove(&path) {
                    Ok(full) => {
                        refresh(lua, full)?;
                        Ok((Value::String(lua.create_string(&path)?), None, None))
                    }
                    Err(e) => Ok(refused(e.to_string(), kind_of(&e))),
                }
            },
        )
        .called("tools.delete")
}
