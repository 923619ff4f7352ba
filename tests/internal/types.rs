//! `codemode types`: the `.d.luau` definitions declare every tool with its parameter and
//! return types, and show the same signature line as `tools.get` and `tools.list(3)`.
//!
//! full_moon (like Luau's own compiler) does not parse definition-file syntax (`declare`),
//! so the check rewrites each `declare NAME: T` line to `local NAME: T`, which both
//! parsers read, and then walks the declared types with full_moon.

use super::common;

use common::fixture;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::registry::Registry;
use crate::{Output, Runtime};
use full_moon::ast::luau::{TypeFieldKey, TypeInfo};
use full_moon::ast::{Ast, Stmt};
use full_moon::LuaVersion;

/// `declare` lines rewritten as `local` ones, which ordinary Luau parsers read.
fn as_plain_luau(definitions: &str) -> String {
    definitions
        .lines()
        .map(|l| match l.strip_prefix("declare ") {
            Some(rest) => format!("local {rest}"),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn parse(definitions: &str) -> Ast {
    let plain = as_plain_luau(definitions);
    let parsed = full_moon::parse_fallible(&plain, LuaVersion::luau());
    assert!(
        parsed.errors().is_empty(),
        "definitions do not parse: {:?}\n{plain}",
        parsed.errors()
    );
    parsed.into_ast()
}

/// A declared function: parameter (name, type) pairs and the return type, as text.
#[derive(Debug)]
struct Declared {
    params: Vec<(String, String)>,
    returns: String,
}

fn text(t: &impl std::fmt::Display) -> String {
    t.to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The fields of a table type: name -> type.
fn fields(ty: &TypeInfo) -> BTreeMap<String, &TypeInfo> {
    let TypeInfo::Table { fields, .. } = ty else {
        panic!("expected a table type, got {ty}");
    };
    fields
        .iter()
        .filter_map(|f| match f.key() {
            TypeFieldKey::Name(n) => Some((n.token().to_string(), f.value())),
            _ => None,
        })
        .collect()
}

fn declared(ty: &TypeInfo) -> Declared {
    let TypeInfo::Callback {
        arguments,
        return_type,
        ..
    } = ty
    else {
        panic!("expected a function type, got {ty}");
    };
    Declared {
        params: arguments
            .iter()
            .map(|a| {
                let name = a
                    .name()
                    .map(|(n, _)| n.token().to_string())
                    .unwrap_or_else(|| "...".into());
                (name, text(a.type_info()))
            })
            .collect(),
        returns: text(return_type.as_ref()),
    }
}

/// Toolbox type aliases (`Toolbox_<box>` -> its tools) and the `local` declarations.
fn read(
    ast: &Ast,
) -> (
    BTreeMap<String, BTreeMap<String, Declared>>,
    BTreeMap<String, String>,
) {
    let mut boxes = BTreeMap::new();
    let mut globals = BTreeMap::new();
    for stmt in ast.nodes().stmts() {
        match stmt {
            Stmt::ExportedTypeDeclaration(e) => {
                let decl = e.type_declaration();
                let name = decl.type_name().token().to_string();
                if let Some(toolbox) = name.strip_prefix("Toolbox_") {
                    let tools = fields(decl.type_definition())
                        .into_iter()
                        .map(|(n, t)| (n, declared(t)))
                        .collect();
                    boxes.insert(toolbox.to_string(), tools);
                }
            }
            Stmt::LocalAssignment(l) => {
                for (name, ty) in l.names().iter().zip(l.type_specifiers()) {
                    globals.insert(
                        name.token().to_string(),
                        ty.map(|t| text(t.type_info())).unwrap_or_default(),
                    );
                }
            }
            _ => {}
        }
    }
    (boxes, globals)
}

fn definitions(world: &std::path::Path) -> String {
    let out = fixture::codemode(world, &["types"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    fixture::stdout(&out)
}

#[test]
fn every_tool_is_declared_with_its_parameter_and_return_types() {
    let world = fixture::world();
    let text_out = definitions(world.path());
    let ast = parse(&text_out);
    let (boxes, globals) = read(&ast);
    assert!(
        globals.contains_key("tools") && globals.contains_key("vfs"),
        "{globals:?}"
    );
    for member in [
        "toolboxes",
        "list",
        "search",
        "get",
        "callable",
        "use",
        "createToolbox",
        "create",
        "delete",
        "bind",
        "parseCommandLine",
        "render",
    ] {
        assert!(
            globals["tools"].contains(&format!("{member}:")),
            "tools.{member} is not declared"
        );
    }

    let registry = Registry::open(world.path(), &[], false).unwrap();
    let index = registry.snapshot();
    let mut checked = 0;
    for entry in index.tools.values().filter(|e| e.is_registered()) {
        let meta = &entry.meta();
        let tools = boxes
            .get(&meta.toolbox)
            .unwrap_or_else(|| panic!("no type for toolbox {}", meta.toolbox));
        assert!(globals["tools"].contains(&format!("{}: Toolbox_{}", meta.toolbox, meta.toolbox)));
        let d = tools
            .get(&meta.name)
            .unwrap_or_else(|| panic!("{} is not declared", meta.identity));
        let names: Vec<&str> = d
            .params
            .iter()
            .map(|(n, _)| n.as_str())
            .filter(|n| *n != "...")
            .collect();
        let wanted: Vec<&str> = meta.args.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, wanted, "parameters of {}", meta.identity);
        for (arg, (_, ty)) in meta.args.iter().zip(&d.params) {
            // A type the tool defines for itself is declared written out.
            let slot = crate::types::Slot::Param;
            let expected = crate::types::declarable(&arg.ty, slot, &["Path"])
                .or_else(|refused| {
                    let source = entry.source().unwrap_or_default();
                    let inlined = crate::types::inline_aliases(&arg.ty, source);
                    crate::types::declarable(&inlined, slot, &["Path"]).map_err(|_| refused)
                })
                .unwrap_or_else(|(t, _)| t);
            assert_eq!(
                ty,
                &text(&expected),
                "type of {}({})",
                meta.identity,
                arg.name
            );
        }
        let ret = meta.returns.as_ref().map_or("any".to_string(), |r| {
            crate::types::declarable(&r.ty, crate::types::Slot::Return, &[])
                .unwrap_or_else(|(t, _)| t)
        });
        assert_eq!(d.returns, text(&ret), "return type of {}", meta.identity);
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} tools checked");
    let text_box = &boxes["text"];
    assert!(
        !text_box.contains_key("broken"),
        "a tool that does not load is not declared"
    );
    assert!(text_out.contains("-- broken is not callable"));
    // Concrete expectations on the fixture.
    let slugify = &text_box["slugify"];
    assert_eq!(
        slugify.params,
        [
            ("text".into(), "string".into()),
            ("opts".into(), "{ sep: string? }?".into())
        ]
    );
    assert_eq!(slugify.returns, "string");
    assert_eq!(
        text_box["wordCount"].params[1],
        ("opts".into(), "{ minLength: number? }?".into()),
        "a type the tool defines for itself is written out"
    );
    assert!(!text_out.contains("Note: opts: `Options?` names Options"));
    assert_eq!(text_box["shout"].returns, "any", "an untyped return is any");
    assert_eq!(
        boxes["math_ops"]["addAll"].params.last().unwrap().1,
        "...number",
        "a trailing ... keeps its type"
    );
    assert!(
        text_out.contains("--- Turn text into a URL slug."),
        "docstrings become doc comments"
    );
    assert!(text_out.contains("--- @param text The text to slug."));
}

#[test]
fn luau_itself_parses_the_definitions() {
    let world = fixture::world();
    let plain = as_plain_luau(&definitions(world.path()));
    crate::assets::compile(&plain)
        .unwrap_or_else(|e| panic!("Luau rejects the definitions: {e}\n{plain}"));
}

#[test]
fn granted_http_and_shell_are_declared_and_parse() {
    let world = fixture::world();
    let registry = Registry::open(world.path(), &[], true).unwrap();
    let granted = crate::policy::Capabilities {
        http: vec!["api.example.com".into()],
        shell: vec!["git".into()],
        ..Default::default()
    };
    let defs = crate::host::definitions_granted(&registry.snapshot(), &[], &granted);
    assert!(defs.contains("declare http: {") && defs.contains("declare shell: {"));
    let ast = parse(&defs);
    let (_, globals) = read(&ast);
    assert!(globals["http"].contains("request:"), "{}", globals["http"]);
    assert!(globals["shell"].contains("run:"), "{}", globals["shell"]);
    let plain = as_plain_luau(&defs);
    crate::assets::compile(&plain)
        .unwrap_or_else(|e| panic!("Luau rejects the definitions: {e}\n{plain}"));
    // Without a grant (the default), neither is declared.
    let plain = definitions(world.path());
    assert!(!plain.contains("declare http") && !plain.contains("declare shell"));
}

#[test]
fn tools_get_and_tools_list_show_the_declared_signatures() {
    let world = fixture::world();
    let defs = definitions(world.path());
    let registry = Arc::new(Registry::open(world.path(), &[], true).unwrap());
    let mut runtime = Runtime::new(registry, Default::default()).unwrap();
    let listed = runtime.exec("return tools.list(3).stdout", Output::Capture);
    let listed = listed.value.unwrap().as_str().unwrap().to_string();
    for id in [
        "text.slugify",
        "text.wordCount",
        "text.shout",
        "math_ops.addAll",
    ] {
        let got = runtime.exec(
            &format!("return tools.get('{id}').signature"),
            Output::Capture,
        );
        let sig = got.value.unwrap().as_str().unwrap().to_string();
        let (toolbox, _) = id.split_once('.').unwrap();
        let line = format!("tools.{toolbox}.{sig}");
        assert!(
            defs.contains(&format!("--- `{line}`")),
            "{line} missing from the definitions"
        );
        assert!(
            listed.contains(&line),
            "{line} missing from tools.list(3):\n{listed}"
        );
    }
    assert!(
        listed.contains("tools.text.shout(text: string, loud: boolean)"),
        "docstring types fill an untyped signature"
    );
    assert!(listed.contains("tools.math_ops.addAll(xs: { number }, ...: number): number"));
}

#[test]
fn out_writes_the_file_and_keeps_stdout_empty() {
    let world = fixture::world();
    let file = world.path().join("editor/codemode.d.luau");
    let out = fixture::codemode(world.path(), &["types", "--out", file.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty(), "stdout: {}", fixture::stdout(&out));
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("declare tools:") && written.contains("declare vfs:"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--definitions=@codemode="));
}

#[test]
fn every_member_of_the_real_tools_table_is_declared() {
    let world = fixture::world();
    let ast = parse(&definitions(world.path()));
    let (_, globals) = read(&ast);
    let declared = &globals["tools"];
    let registry = Arc::new(Registry::open(world.path(), &[], true).unwrap());
    let mut runtime = Runtime::new(registry, Default::default()).unwrap();
    let got = runtime.exec(
        "local names = {} for k, v in tools do if type(v) == 'function' or type(v) == 'table' then table.insert(names, k) end end table.sort(names) return names",
        Output::Capture,
    );
    let real: Vec<String> = serde_json::from_value(got.value.expect("members listed")).unwrap();
    assert!(real.len() >= 5, "{real:?}");
    for member in &real {
        assert!(
            crate::assets::names::RESERVED.contains(&member.as_str()),
            "tools.{member} would hide a toolbox of that name: add it to names::RESERVED"
        );
    }
    for member in &real {
        assert!(
            declared.contains(&format!("{member}:")),
            "tools.{member} exists but is not declared in surface.d.luau"
        );
    }
    let surface = include_str!("../../engine/types/surface.d.luau");
    let members = surface
        .split("export type ToolsSurface = {")
        .nth(1)
        .unwrap()
        .split("\n}\n")
        .next()
        .unwrap();
    for line in members
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("--") && l.contains(':'))
    {
        let name = line.split(':').next().unwrap();
        assert!(
            real.iter().any(|r| r == name),
            "tools.{name} is declared but the prelude has no such member"
        );
    }
}

#[test]
fn hostile_names_and_docstring_types_never_break_the_file() {
    let world = fixture::world();
    let root = world.path();
    let tool =
        |args: &str| format!("{args}\nreturn function(x: number): number\n\treturn x\nend\n");
    // Toolboxes `tools` cannot reach, a keyword as a tool name, and docstring types that
    // smuggle in a second type, a comment or an assignment.
    fixture::put(
        root,
        "bad-box.toolbox/x.tool/init.luau",
        &tool("--!desc Unreachable."),
    );
    fixture::put(
        root,
        "list.toolbox/x.tool/init.luau",
        &tool("--!desc Shadowed."),
    );
    fixture::put(
        root,
        "odd.toolbox/end.tool/init.luau",
        &tool("--!desc A keyword."),
    );
    fixture::put(
        root,
        "odd.toolbox/pair.tool/init.luau",
        "--!desc Two results.\n--!arg x string--x\n--!return string,number\nreturn function(x)\n\treturn x, 1\nend\n",
    );
    fixture::put(
        root,
        "odd.toolbox/assign.tool/init.luau",
        "--!desc Odd arg.\n--!arg x string=x\nreturn function(x)\n\treturn x\nend\n",
    );
    let nested = format!(
        "--!desc Deep.\nreturn function()\n\treturn {}1{}\nend\n",
        "{".repeat(1000),
        "}".repeat(1000)
    );
    fixture::put(root, "odd.toolbox/deep.tool/init.luau", &nested);
    let defs = definitions(root);
    let plain = as_plain_luau(&defs);
    crate::assets::compile(&plain)
        .unwrap_or_else(|e| panic!("Luau rejects the definitions: {e}\n{plain}"));
    assert!(defs.contains("bad-box.toolbox is left out"), "{defs}");
    assert!(defs.contains("list.toolbox is left out"), "{defs}");
    assert!(defs.contains("-- end is not callable"), "{defs}");
    // The good tools of the same world are all still declared.
    assert!(defs.contains("\tslugify: ("), "{defs}");
    // And the docs of that world are written, the deep tool included.
    let site = tempfile::tempdir().unwrap();
    let out = fixture::codemode(root, &["docs", "--out", &site.path().display().to_string()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(site.path().join("odd/deep/TOOL.md").exists());
    // The unreachable toolboxes' tools are refused, with what to rename.
    let check = fixture::codemode(root, &["check"]);
    let said = String::from_utf8_lossy(&check.stdout).to_string()
        + &String::from_utf8_lossy(&check.stderr);
    assert_eq!(check.status.code(), Some(1), "{said}");
    assert!(said.contains("rename the folder bad-box.toolbox"), "{said}");
    assert!(said.contains("rename the folder list.toolbox"), "{said}");
}
