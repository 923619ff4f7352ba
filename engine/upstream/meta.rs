//! An upstream tool described the way a folder tool is ([`ToolMeta`]), so the one binder
//! (`crate::bind`) reads a command line for it as for any tool:
//! `codemode call github.create_issue --owner o --repo r --title "t"`.
//!
//! The tool has one parameter, `args`, typed as the table its input schema describes
//! (optional when no property is required); its properties are that table's fields, so
//! each is a `--NAME VALUE`, read by its type, and a boolean property is also a flag
//! (`--NAME` alone is true). One JSON word fills the whole table.

use std::path::Path;

use serde_json::{Map, Value as Json};

use super::tool::UpstreamTool;
use crate::assets::{Arg, Flag, Returns, ToolMeta};
use crate::bind::{parse_command_line, Schema};
use crate::bind::{Reason, Refusal};

impl UpstreamTool {
    /// This tool of `server` as a folder tool's metadata: `args` is its one parameter.
    pub(crate) fn meta(&self, server: &str) -> ToolMeta {
        let types = self.types();
        let required = types.args.iter().any(|a| !a.optional);
        let ty = types.args_param();
        ToolMeta {
            identity: format!("{server}.{}", self.name),
            name: self.name.clone(),
            toolbox: server.to_string(),
            description: self.description.clone(),
            signature: Some(self.signature_of(&types)),
            args: vec![Arg {
                name: "args".to_string(),
                ty,
                description: "the tool's arguments, by name".to_string(),
                optional: !required,
            }],
            returns: Some(Returns {
                ty: types.returns.clone(),
                description: types.returns_description.clone().unwrap_or_default(),
            }),
            examples: Vec::new(),
            tags: Vec::new(),
            flags: types
                .args
                .iter()
                .filter(|a| a.luau_type == "boolean")
                .map(|a| Flag {
                    name: a.name.clone(),
                    short: None,
                })
                .collect(),
            rest: None,
            vararg: None,
            status: "ready".to_string(),
            purpose: None,
            has_render: false,
            limits: None,
            cache: None,
        }
    }

    /// Binds shell words against this tool's input schema: the table of named arguments
    /// to send, or why the words do not fit (naming the flags it takes).
    pub(crate) fn bind_words(
        &self,
        server: &str,
        words: &[String],
        cwd: &Path,
    ) -> Result<Map<String, Json>, Refusal> {
        let schema = Schema::from_meta(&self.meta(server));
        let slots = parse_command_line(&schema, words, cwd)?;
        match slots.into_iter().next().flatten() {
            None => Ok(Map::new()),
            Some(Json::Object(map)) => Ok(map),
            // The binder checked the slot against a table type; an empty table reads as [].
            Some(Json::Array(items)) if items.is_empty() => Ok(Map::new()),
            Some(other) => Err(Refusal::new(
                Reason::WrongType,
                format!(
                    "{server}.{} takes a table of named arguments, not {other}; give each as --NAME VALUE",
                    self.name
                ),
            )),
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/meta.rs"]
mod tests;
