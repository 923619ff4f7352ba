//! Reading one `<name>.tool/` folder into a [`ToolEntry`].

use std::sync::{Arc, OnceLock};

use super::callsig::call_signature;
use super::docstring::Docstring;
use super::metadata::{readme_purpose, Metadata};
use super::model::{Arg, Flag, Returns, ToolEntry, ToolMeta};
use super::names::check_name;
use super::root::Root;
use super::signature::{read_signature, Returned, SigParam};
use super::FolderKey;

/// Where a tool folder is: its root, its toolbox folder and its own folder name.
pub struct ToolLocation<'a> {
    /// The root the toolbox lives in.
    pub root: &'a Root,
    /// Key of the toolbox folder.
    pub folder: &'a FolderKey,
    /// Toolbox name.
    pub toolbox: &'a str,
    /// The tool folder's name (`slugify.tool`).
    pub dir_name: &'a str,
}

/// Reads and compiles one tool. Never fails: problems make the tool unregistered.
pub fn load_tool(at: &ToolLocation) -> ToolEntry {
    let name = at.dir_name.trim_end_matches(".tool").to_string();
    let rel = format!("{}/{}", at.folder.1, at.dir_name);
    let mut refusals: Vec<String> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();

    if let Err(e) = check_name("tool", &name) {
        refusals.push(e);
    }
    let files = at.root.files(&rel);
    let metadata = match at.root.read_listed(&files, ".metadata") {
        Some(Ok(text)) => Metadata::parse(&text, &format!("{rel}/.metadata")).unwrap_or_else(|e| {
            refusals.push(e);
            Metadata::default()
        }),
        Some(Err(e)) => {
            refusals.push(format!("{rel}/.metadata cannot be read: {e}"));
            Metadata::default()
        }
        None => Metadata::default(),
    };
    let readme = at
        .root
        .read_listed(&files, "README.md")
        .and_then(Result::ok);
    let purpose = readme.as_deref().and_then(readme_purpose);
    let source = at.root.read_listed(&files, "init.luau").unwrap_or_else(|| {
        Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "no such file",
        ))
    });

    let doc = source.as_deref().map(Docstring::parse).unwrap_or_default();
    warnings.extend(doc.problems.iter().map(|p| format!("{rel}/init.luau {p}")));

    let mut returned = Returned::Unknown;
    match &source {
        Err(e) => refusals.push(format!(
            "{rel}/init.luau cannot be read: {e}; every tool needs one"
        )),
        Ok(src) => match read_signature(src, &name) {
            Ok(Returned::NotAFunction(why)) => refusals.push(format!(
                "{rel}/init.luau must return the tool's function: {why}"
            )),
            Ok(r) => returned = r,
            // The compiler, run on first use, gives the authoritative syntax error.
            Err(e) => warnings.push(format!("{rel}/init.luau: signature not readable ({e})")),
        },
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

    let (args, shape, sig_returns) = merge_args(&doc, returned, &rel, &mut warnings);
    let returns = merge_returns(&doc, sig_returns, &rel, &mut warnings);
    // One rendering for every surface (tools.list, tools.get, .d.luau, docs): see callsig.
    let signature = match shape {
        Shape::Typed { vararg } => Some(call_signature(
            &name,
            &args,
            vararg.as_deref(),
            returns.as_ref(),
        )),
        Shape::Documented if !args.is_empty() || returns.is_some() => {
            Some(call_signature(&name, &args, None, returns.as_ref()))
        }
        Shape::Documented => None,
    };
    let description = match doc.description() {
        d if !d.is_empty() => d,
        _ => purpose.clone().unwrap_or_default(),
    };
    let meta = ToolMeta {
        identity: format!("{}.{name}", at.toolbox),
        toolbox: at.toolbox.to_string(),
        name,
        description,
        signature,
        args,
        returns,
        examples: doc.examples.clone(),
        tags: metadata.tags,
        flags: doc
            .flags
            .iter()
            .map(|(n, s)| Flag {
                name: n.clone(),
                short: s.clone(),
            })
            .collect(),
        rest: doc.rest.clone(),
        status,
        purpose,
        has_render: files.has("render.luau"),
    };
    ToolEntry {
        meta,
        refusal: (!refusals.is_empty()).then(|| refusals.join("; ")),
        source: source.ok().map(Arc::from),
        compiled: OnceLock::new(),
        warnings,
        readme,
        folder: at.folder.clone(),
        path: at.root.display(&rel),
        rel,
        origin: at.root.origin,
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
fn same_type(a: &str, b: &str) -> bool {
    let strip = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    strip(a) == strip(b)
}
