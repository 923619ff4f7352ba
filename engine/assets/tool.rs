//! Reading one `<name>.tool/` folder: its files, then its metadata with the signature merged
//! in (a [`super::ToolEntry`] is made from them).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::callsig::call_signature;
use super::docstring::Docstring;
use super::file::unreadable;
use super::meta::{Arg, Flag, Returns, ToolMeta};
use super::metadata::{cut_to_cap, readme_purpose, Metadata, MAX_DESCRIPTION_CHARS};
use super::names::{check_name, check_toolbox_name};
use super::root::{FileSet, Root};
use super::signature::{read_signature, Returned, SigParam};
use super::stamp::{Stamp, Stamper};

/// The draft of the tool folder `rel` (when a cached entry cannot be decoded).
pub(crate) fn draft_of(root: &Root, rel: &str, toolbox: &str) -> Draft {
    read_folder(root, rel, toolbox).0
}

/// Reads what a tool folder holds, stamping each file before it is read.
pub(crate) fn read_folder(
    root: &Root,
    rel: &str,
    toolbox: &str,
) -> (Draft, Option<Arc<str>>, Option<String>, Stamp) {
    let dir_name = rel.rsplit('/').next().unwrap_or(rel);
    let name = dir_name.trim_end_matches(".tool").to_string();
    let mut refusals: Vec<String> = Vec::new();
    let folder = root.dir().map(|d| d.join(rel));
    let mut stamper = Stamper::new(rel, folder.as_deref());
    let mut read = |files: &FileSet, file: &'static str| {
        stamper.before_read(file, folder.as_ref().map(|f| f.join(file)).as_deref());
        let text = root.read_listed(files, file);
        if files.has(file) {
            stamper.content(
                file,
                text.as_ref()
                    .and_then(|t| t.as_ref().ok())
                    .map(String::as_str),
            );
        }
        text
    };

    if let Err(e) = check_name("tool", &name) {
        refusals.push(e);
    }
    // A toolbox `tools` cannot reach (`bad-box`, `list`) makes its tools uncallable too;
    // they stay listed, with the reason, so the author sees what to rename.
    if let Err(e) = check_toolbox_name(toolbox) {
        refusals.push(format!("{e}; rename the folder {toolbox}.toolbox"));
    }
    let files = root.files(rel);
    let metadata = match read(&files, ".metadata") {
        Some(Ok(text)) => Metadata::parse(&text, &format!("{rel}/.metadata")).unwrap_or_else(|e| {
            refusals.push(e);
            Metadata::default()
        }),
        Some(Err(e)) => {
            refusals.push(unreadable(&format!("{rel}/.metadata"), &e));
            Metadata::default()
        }
        None => Metadata::default(),
    };
    let readme = match read(&files, "README.md") {
        Some(Ok(text)) => Some(text),
        // Listed but removed meanwhile: as if it was never there.
        Some(Err(e)) if e.kind() == std::io::ErrorKind::NotFound => None,
        Some(Err(e)) => {
            refusals.push(unreadable(&format!("{rel}/README.md"), &e));
            None
        }
        None => None,
    };
    let source = match read(&files, "init.luau") {
        Some(Ok(text)) if text.len() > super::compile::MAX_SOURCE_BYTES => {
            refusals.push(format!(
                "{rel}/init.luau {}",
                super::compile::too_large(text.len())
            ));
            None
        }
        Some(Ok(text)) => Some(Arc::from(text)),
        Some(Err(e)) => {
            refusals.push(match e.kind() {
                std::io::ErrorKind::InvalidData => {
                    format!("{rel}/init.luau is not UTF-8 text; save it as UTF-8")
                }
                std::io::ErrorKind::FileTooLarge | std::io::ErrorKind::InvalidInput => {
                    unreadable(&format!("{rel}/init.luau"), &e)
                }
                _ => format!("{rel}/init.luau cannot be read: {e}; every tool needs one"),
            });
            None
        }
        None => {
            refusals.push(match files.unlisted() {
                Some(e) => format!(
                    "{rel} cannot be read ({e}); give the user running codemode read access to the folder"
                ),
                None => match ["init.lua", "Init.luau", "main.luau", "index.luau"]
                    .iter()
                    .find(|name| files.has(name))
                {
                    Some(near) => format!(
                        "{rel}/init.luau is missing; found {near}: rename it to init.luau"
                    ),
                    None => format!("{rel}/init.luau is missing; every tool needs one"),
                },
            });
            None
        }
    };
    for file in files.names() {
        stamper.name(file);
    }
    let status = metadata
        .status
        .clone()
        .unwrap_or_else(|| "ready".to_string());
    if status != "ready" {
        refusals.push(format!(
            "status is \"{status}\" in .metadata; set it to \"ready\" to make the tool callable"
        ));
    }
    let draft = Draft {
        name,
        toolbox: toolbox.to_string(),
        purpose: readme.as_deref().and_then(readme_purpose),
        metadata,
        status,
        has_render: files.has("render.luau"),
        refusals,
    };
    (draft, source, readme, stamper.finish())
}

/// What [`load_tool`] read, waiting for the signature to be merged in.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Draft {
    name: String,
    toolbox: String,
    purpose: Option<String>,
    metadata: Metadata,
    status: String,
    has_render: bool,
    refusals: Vec<String>,
}

impl Draft {
    /// The tool's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The toolbox's name.
    pub(crate) fn toolbox(&self) -> &str {
        &self.toolbox
    }
}

/// The tool's metadata with the signature merged in, and what that merge found.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Reading {
    /// The assembled metadata.
    pub(crate) meta: ToolMeta,
    /// Non-fatal findings (docstring/signature mismatches).
    pub(crate) warnings: Vec<String>,
    /// Why the tool cannot be called, when the files alone say so.
    pub(crate) refusal: Option<String>,
}

/// Merges the docstring, the typed signature, `.metadata` and README into [`ToolMeta`].
pub(crate) fn read_tool(draft: &Draft, source: Option<&str>, rel: &str) -> Reading {
    let mut refusals = draft.refusals.clone();
    let mut warnings = Vec::new();
    let doc = source.map(Docstring::parse).unwrap_or_default();
    warnings.extend(doc.problems.iter().map(|p| format!("{rel}/init.luau {p}")));
    let mut returned = Returned::Unknown;
    if let Some(src) = source {
        match read_signature(src, &draft.name) {
            Ok(Returned::NotAFunction(why)) => refusals.push(format!(
                "{rel}/init.luau must return the tool's function: {why}"
            )),
            Ok(r) => returned = r,
            // A source the engine refuses to read cannot be described, bound or checked.
            Err(e) if e.is_unreadable() => {
                refusals.push(format!("{rel}/init.luau: cannot read this signature: {e}"))
            }
            // The compiler, run on first use, gives the authoritative syntax error.
            Err(e) => warnings.push(format!("{rel}/init.luau: signature not readable ({e})")),
        }
    }
    let (args, shape, sig_returns) = merge_args(&doc, returned, rel, &mut warnings);
    let returns = merge_returns(&doc, sig_returns, rel, &mut warnings);
    warn_duplicate_args(&doc, rel, &mut warnings);
    // One rendering for every surface (tools.list, tools.get, .d.luau, docs): see callsig.
    let vararg = match &shape {
        Shape::Typed { vararg } => vararg.clone(),
        Shape::Documented => None,
    };
    let signature = match shape {
        Shape::Typed { vararg } => Some(call_signature(
            &draft.name,
            &args,
            vararg.as_deref(),
            returns.as_ref(),
        )),
        Shape::Documented if !args.is_empty() || returns.is_some() => {
            Some(call_signature(&draft.name, &args, None, returns.as_ref()))
        }
        Shape::Documented => None,
    };
    let description = match doc.description() {
        d if !d.is_empty() => d,
        _ => draft.purpose.clone().unwrap_or_default(),
    };
    // Each text a listing shows is held to the toolbox description's cap, so one tool
    // cannot fill a listing's output cap and hide the tools after it.
    let mut cap = |text: String, what: &str| capped(text, what, rel, &mut warnings);
    let description = cap(description, "description");
    let args: Vec<Arg> = args
        .into_iter()
        .map(|a| Arg {
            description: cap(
                a.description,
                &format!("description of argument `{}`", a.name),
            ),
            ..a
        })
        .collect();
    let returns = returns.map(|r| Returns {
        description: cap(r.description, "description of the result"),
        ..r
    });
    let mut examples = doc.examples.clone();
    if examples.len() > MAX_EXAMPLES {
        warnings.push(format!(
            "{rel}/init.luau: {} `--!example` lines; listings show the first {MAX_EXAMPLES}",
            examples.len()
        ));
        examples.truncate(MAX_EXAMPLES);
    }
    let mut long = 0;
    for example in &mut examples {
        if let Some(cut) = cut_to_cap(example) {
            *example = cut;
            long += 1;
        }
    }
    if long > 0 {
        warnings.push(format!(
            "{rel}/init.luau: {long} `--!example` lines are over {MAX_DESCRIPTION_CHARS} \
             characters; listings show the first {MAX_DESCRIPTION_CHARS} of each: an example \
             is one call"
        ));
    }
    let meta = ToolMeta {
        identity: format!("{}.{}", draft.toolbox, draft.name),
        toolbox: draft.toolbox.clone(),
        name: draft.name.clone(),
        description,
        signature,
        args,
        returns,
        examples,
        tags: draft.metadata.tags.clone(),
        flags: doc
            .flags
            .iter()
            .map(|(n, s)| Flag {
                name: n.clone(),
                short: s.clone(),
            })
            .collect(),
        rest: doc.rest.clone(),
        vararg,
        status: draft.status.clone(),
        purpose: draft.purpose.clone(),
        has_render: draft.has_render,
        // Parse already refused a malformed entry (the tool is then not callable).
        limits: draft
            .metadata
            .limits
            .as_ref()
            .and_then(|l| super::parse_limits(l, rel).ok()),
        cache: draft
            .metadata
            .cache
            .as_ref()
            .and_then(|c| super::parse_cache(c, rel, &[]).ok()),
    };
    Reading {
        meta,
        warnings,
        refusal: (!refusals.is_empty()).then(|| refusals.join("; ")),
    }
}

/// The most `--!example` lines a tool's listing shows.
const MAX_EXAMPLES: usize = 20;

/// `text` cut to [`MAX_DESCRIPTION_CHARS`] with a warning naming `what` when it is longer.
fn capped(text: String, what: &str, rel: &str, warnings: &mut Vec<String>) -> String {
    match cut_to_cap(&text) {
        Some(cut) => {
            warnings.push(format!(
                "{rel}/init.luau: the {what} is {} characters; listings show the first \
                 {MAX_DESCRIPTION_CHARS}: make it a sentence or two (details go in README.md)",
                text.chars().count()
            ));
            cut
        }
        None => text,
    }
}

/// `--!arg` lines written twice for one parameter. (A `--!flag` that names nothing is
/// found by binding, which knows the options table's fields: see `codemode check`.)
fn warn_duplicate_args(doc: &Docstring, rel: &str, warnings: &mut Vec<String>) {
    let mut seen = Vec::new();
    for arg in &doc.args {
        if seen.contains(&arg.name.as_str()) {
            warnings.push(format!(
                "{rel}/init.luau: `--!arg {}` is written twice; keep one line per parameter",
                arg.name
            ));
        }
        seen.push(arg.name.as_str());
    }
}

/// What is known about the shape of a tool's function.
enum Shape {
    /// The source declares the function; `vararg` is the type of a trailing `...`.
    Typed { vararg: Option<String> },
    /// Only the docstring describes it.
    Documented,
}

/// Parameters from the signature (authoritative) with descriptions from `--!arg`.
fn merge_args(
    doc: &Docstring,
    returned: Returned,
    rel: &str,
    warnings: &mut Vec<String>,
) -> (Vec<Arg>, Shape, Option<String>) {
    let Returned::Function {
        params, returns, ..
    } = returned
    else {
        let args = doc
            .args
            .iter()
            .map(|a| arg(&a.name, &a.ty, &a.description))
            .collect();
        return (args, Shape::Documented, None);
    };
    let vararg = params
        .iter()
        .find(|p| p.name == "...")
        .map(|p| p.ty.clone().unwrap_or_else(|| "any".into()));
    let params: Vec<SigParam> = params.into_iter().filter(|p| p.name != "...").collect();
    for documented in &doc.args {
        if !params.iter().any(|p| p.name == documented.name) {
            warnings.push(format!(
                "{rel}/init.luau: `--!arg {}` names no parameter of the function",
                documented.name
            ));
        }
    }
    let args = params
        .iter()
        .map(|p| {
            let documented = doc.args.iter().find(|a| a.name == p.name);
            if let (Some(d), Some(ty)) = (documented, &p.ty) {
                if !same_type(&d.ty, ty) {
                    warnings.push(format!(
                        "{rel}/init.luau: `--!arg {}` says {} but the signature says {ty}; the signature wins",
                        p.name, d.ty
                    ));
                }
            }
            let ty = p.ty.clone().or_else(|| documented.map(|d| d.ty.clone())).unwrap_or_else(|| "any".into());
            arg(&p.name, &ty, documented.map_or("", |d| &d.description))
        })
        .collect();
    (args, Shape::Typed { vararg }, returns)
}

fn merge_returns(
    doc: &Docstring,
    sig: Option<String>,
    rel: &str,
    warnings: &mut Vec<String>,
) -> Option<Returns> {
    match (&doc.returns, sig) {
        (Some((doc_ty, description)), Some(ty)) => {
            if !same_type(doc_ty, &ty) {
                warnings.push(format!(
                    "{rel}/init.luau: `--!return` says {doc_ty} but the signature says {ty}; the signature wins"
                ));
            }
            Some(Returns {
                ty,
                description: description.clone(),
            })
        }
        (Some((ty, description)), None) => Some(Returns {
            ty: ty.clone(),
            description: description.clone(),
        }),
        (None, Some(ty)) => Some(Returns {
            ty,
            description: String::new(),
        }),
        (None, None) => None,
    }
}

fn arg(name: &str, ty: &str, description: &str) -> Arg {
    Arg {
        name: name.to_string(),
        ty: ty.to_string(),
        description: description.to_string(),
        optional: ty.ends_with('?'),
    }
}

/// Docstring types are one token; compare without spaces.
/// True when a docstring's type agrees with the signature's: the same text, or the same
/// but for the signature saying it may be nil, or a docstring shorthand the signature's
/// type is a case of (`table` for `{ sep: string? }` or a table alias, `function` for a
/// function type, `any` for anything).
fn same_type(doc: &str, sig: &str) -> bool {
    let strip = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    let (doc, sig) = (strip(doc), strip(sig));
    let base = |s: &str| s.strip_suffix('?').unwrap_or(s).to_string();
    let (doc_base, sig_base) = (base(&doc), base(&sig));
    let is_alias = |s: &str| {
        s.chars().next().is_some_and(char::is_alphabetic)
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
            && !["string", "number", "boolean", "nil", "any", "unknown"].contains(&s)
    };
    doc == sig
        || doc_base == sig_base
        || doc_base == "any"
        || (doc_base == "table" && (sig_base.starts_with('{') || is_alias(&sig_base)))
        || (doc_base == "function" && sig_base.contains("->"))
}

#[cfg(test)]
#[path = "../../tests/unit/assets/tool.rs"]
mod tests;
