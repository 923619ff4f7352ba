//! One type model, three surfaces that must agree on it, for every tool of the bundled
//! toolboxes and of `tests/worlds/types` (unions, optionals, string literals, arrays,
//! maps, records, variadics, shorthands and a type local to its tool):
//!
//! - `tools.bind`, run in a real VM, accepts or refuses sample arguments;
//! - the MCP input schema (`--expose-tools`), checked by an independent JSON Schema
//!   validator, accepts or refuses the same arguments sent as JSON;
//! - the `codemode types` declarations read back as the types bound.
//!
//! JSON and Luau meet through `luau_literal`, where `[]` and `{}` are both the empty
//! table: a Luau value agrees with the schema when one of its JSON spellings is valid.
//! Samples are valid values made from each type, every value of every other parameter
//! in the world, a fixed pool, and mutations of the valid ones (a value swapped for one
//! of another kind, a field added or removed).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

use crate::assets::ToolEntry;
use crate::host::definitions;
use crate::mcp::{input_schema, VARARG_PROPERTY};
use crate::registry::Registry;
use crate::types::{inline_aliases, Ty};
use crate::{Limits, Output, Runtime};
use full_moon::ast::luau::{TypeFieldKey, TypeInfo};
use full_moon::ast::Stmt;
use full_moon::LuaVersion;
use serde_json::{json, Map, Value as Json};

#[test]
fn bind_schema_and_declarations_agree_on_the_bundled_toolboxes() {
    let empty = tempfile::tempdir().unwrap();
    let registry = Registry::open(empty.path(), &[], true).unwrap();
    let report = agree(registry);
    assert!(report.tools >= 15, "only {} bundled tools", report.tools);
    assert!(
        report.hidden.iter().all(|(_, slot)| slot == "return"),
        "a bundled parameter is declared as any: {:?}",
        report.hidden
    );
}

#[test]
fn bind_schema_and_declarations_agree_on_every_kind_of_type() {
    let world = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/worlds/types");
    let registry = Registry::open(&world, &[], false).unwrap();
    let report = agree(registry);
    assert_eq!(report.tools, 12);
    // The type local to its tool is declared written out, so nothing is hidden.
    assert_eq!(report.hidden, BTreeSet::new());
}

/// What one world's check covered.
struct Report {
    tools: usize,
    /// (tool, parameter or "return") declared as `any` because the file cannot see it.
    hidden: BTreeSet<(String, String)>,
}

fn agree(registry: Registry) -> Report {
    let registry = Arc::new(registry);
    let index = registry.snapshot();
    let entries: Vec<Arc<ToolEntry>> = index
        .tools
        .values()
        .filter(|e| e.is_registered())
        .cloned()
        .collect();
    let defs = definitions(&index, &[]);
    let declared = declared_tools(&defs);
    let mut runtime = Runtime::new(registry.clone(), Limits::default()).unwrap();
    // Every valid value of every parameter in the world is a sample for all the others.
    let mut pool = fixed_pool();
    for entry in &entries {
        let meta = entry.meta();
        for ty in meta.args.iter().map(|a| Ty::parse(&a.ty)) {
            pool.extend(valid(&ty, 0));
        }
    }
    dedupe(&mut pool);
    let mut hidden = BTreeSet::new();
    for entry in &entries {
        hidden.extend(check_declarations(entry, &declared, &defs));
        check_values(&mut runtime, entry, &pool);
    }
    Report {
        tools: entries.len(),
        hidden,
    }
}

/// One declared tool: parameter types, the type of a trailing `...`, the returns.
struct Declared {
    params: Vec<(String, String)>,
    vararg: Option<String>,
    returns: String,
}

/// The tools of every `Toolbox_<box>` type in a definition file, by identity.
fn declared_tools(definitions: &str) -> BTreeMap<String, Declared> {
    // full_moon does not read `declare`; the toolbox types are plain Luau.
    let plain: String = definitions
        .lines()
        .map(|l| match l.strip_prefix("declare ") {
            Some(rest) => format!("local {rest}\n"),
            None => format!("{l}\n"),
        })
        .collect();
    let parsed = full_moon::parse_fallible(&plain, LuaVersion::luau());
    assert!(parsed.errors().is_empty(), "{:?}", parsed.errors());
    let ast = parsed.into_ast();
    let text = |t: &dyn std::fmt::Display| {
        t.to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = BTreeMap::new();
    for stmt in ast.nodes().stmts() {
        let Stmt::ExportedTypeDeclaration(e) = stmt else {
            continue;
        };
        let decl = e.type_declaration();
        let name = decl.type_name().token().to_string();
        let Some(toolbox) = name.strip_prefix("Toolbox_") else {
            continue;
        };
        let TypeInfo::Table { fields, .. } = decl.type_definition() else {
            panic!("{name} is not a table type");
        };
        for field in fields {
            let TypeFieldKey::Name(tool) = field.key() else {
                continue;
            };
            let TypeInfo::Callback {
                arguments,
                return_type,
                ..
            } = field.value()
            else {
                panic!("{toolbox}.{} is not a function type", tool.token());
            };
            let mut params = Vec::new();
            let mut vararg = None;
            for a in arguments {
                match (a.name(), a.type_info()) {
                    (Some((n, _)), ty) => params.push((n.token().to_string(), text(ty))),
                    (None, TypeInfo::Variadic { type_info, .. }) => {
                        vararg = Some(text(type_info.as_ref()))
                    }
                    (None, other) => panic!("an unnamed parameter {other}"),
                }
            }
            out.insert(
                format!("{toolbox}.{}", tool.token()),
                Declared {
                    params,
                    vararg,
                    returns: text(return_type.as_ref()),
                },
            );
        }
    }
    out
}

/// Each declared type reads back as the type bound, or is `any` with a note saying what
/// the definition file cannot see. Returns the (tool, slot) pairs declared as `any`.
fn check_declarations(
    entry: &ToolEntry,
    declared: &BTreeMap<String, Declared>,
    defs: &str,
) -> Vec<(String, String)> {
    let meta = entry.meta();
    let id = &meta.identity;
    let d = declared
        .get(id)
        .unwrap_or_else(|| panic!("{id} is not declared"));
    let mut hidden = Vec::new();
    let source = entry.source().unwrap_or_default();
    let mut same = |slot: &str, written: &str, bound: Ty, back: Ty| {
        if back == bound {
            return;
        }
        // A type the tool defines for itself is declared written out.
        let inlined = inline_aliases(written, source);
        let reads = |text: &str| match slot {
            "return" => Ty::parse_returns(text),
            _ => Ty::parse(text),
        };
        if inlined != written && back == reads(&inlined) {
            return;
        }
        let note = format!("--- Note: {slot}: `{written}`");
        assert!(
            back == Ty::Any && defs.contains(&note),
            "{id} {slot}: `{written}` is bound as {bound:?} but declared as {back:?}"
        );
        hidden.push((id.clone(), slot.to_string()));
    };
    let names: Vec<&str> = d.params.iter().map(|(n, _)| n.as_str()).collect();
    let wanted: Vec<&str> = meta.args.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, wanted, "parameters of {id}");
    for (arg, (_, text)) in meta.args.iter().zip(&d.params) {
        same(&arg.name, &arg.ty, Ty::parse(&arg.ty), Ty::parse(text));
    }
    match (&meta.vararg, &d.vararg) {
        (Some(written), Some(text)) => same("...", written, Ty::parse(written), Ty::parse(text)),
        (None, None) => {}
        other => panic!("{id}: trailing ... bound and declared as {other:?}"),
    }
    if let Some(r) = &meta.returns {
        same(
            "return",
            &r.ty,
            Ty::parse_returns(&r.ty),
            Ty::parse_returns(&d.returns),
        );
    }
    hidden
}

/// One call's arguments: a value or nothing per parameter, and the trailing values.
#[derive(Clone)]
struct Case {
    params: Vec<Option<Json>>,
    rest: Vec<Json>,
}

/// Samples each parameter (and the trailing `...`) with the others at a valid baseline,
/// and asks `tools.bind` and the input schema about each.
fn check_values(runtime: &mut Runtime, entry: &ToolEntry, pool: &[Json]) {
    let meta = entry.meta();
    let id = &meta.identity;
    let types: Vec<Ty> = meta.args.iter().map(|a| Ty::parse(&a.ty)).collect();
    let baseline: Vec<Option<Json>> = types
        .iter()
        .map(|ty| match ty.accepts_nil() {
            true => None,
            false => Some(
                valid(ty, 0)
                    .into_iter()
                    .next()
                    .unwrap_or_else(|| panic!("{id}: no JSON value fits a required {ty}")),
            ),
        })
        .collect();
    let mut cases = vec![Case {
        params: baseline.clone(),
        rest: Vec::new(),
    }];
    // (which slot a case varies, for the tally)
    let mut slot_of = vec![None];
    for (i, ty) in types.iter().enumerate() {
        for sample in samples(ty, pool) {
            let mut params = baseline.clone();
            params[i] = sample;
            cases.push(Case {
                params,
                rest: Vec::new(),
            });
            slot_of.push(Some(i));
        }
    }
    if let Some(vararg) = &meta.vararg {
        let ty = Ty::parse(vararg);
        let first = valid(&ty, 0).into_iter().next();
        for sample in samples(&ty, pool).into_iter().flatten() {
            cases.push(Case {
                params: baseline.clone(),
                rest: vec![sample.clone()],
            });
            slot_of.push(Some(types.len()));
            if let Some(first) = &first {
                cases.push(Case {
                    params: baseline.clone(),
                    rest: vec![first.clone(), sample],
                });
                slot_of.push(Some(types.len()));
            }
        }
    }

    let bound = bind_all(runtime, id, &cases);
    let schema = Json::Object(input_schema(meta));
    let validator = jsonschema::validator_for(&schema)
        .unwrap_or_else(|e| panic!("{id}: the input schema is not JSON Schema: {e}\n{schema}"));
    let mut disagreements = Vec::new();
    // (accepted, refused) per slot, so no slot passes by accepting or refusing everything.
    let mut tally = vec![(0usize, 0usize); types.len() + 1];
    for ((case, bind), slot) in cases.iter().zip(&bound).zip(&slot_of) {
        let args = json_args(meta, case);
        let valid_json = spellings(&args).iter().any(|a| validator.is_valid(a));
        let bind_ok = bind == "ok";
        if bind_ok != valid_json {
            disagreements.push(format!(
                "{id} {args}: tools.bind says {bind}, the schema says {}",
                if valid_json { "valid" } else { "invalid" }
            ));
        }
        if let Some(slot) = slot {
            let t = &mut tally[*slot];
            if bind_ok {
                t.0 += 1
            } else {
                t.1 += 1
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {} samples disagree; input schema {schema}:\n{}",
        disagreements.len(),
        cases.len(),
        disagreements
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(bound[0], "ok", "{id}: the baseline itself is refused");
    for (i, ty) in types.iter().enumerate() {
        let (accepted, refused) = tally[i];
        assert!(accepted > 0, "{id}: no sample of {ty} was accepted");
        assert!(
            refused > 0 || ty.accepts_anything(),
            "{id}: every sample of {ty} was accepted"
        );
    }
    if meta.vararg.is_some() {
        let (accepted, refused) = tally[types.len()];
        assert!(
            accepted > 0 && refused > 0,
            "{id}: ... {accepted}/{refused}"
        );
    }
}

/// `tools.bind` on every case in one script: "ok", or the refusal's reason and message.
fn bind_all(runtime: &mut Runtime, id: &str, cases: &[Case]) -> Vec<String> {
    let mut script = format!(
        "local id = {}\nlocal cases = {{\n",
        luau_literal(&json!(id))
    );
    for case in cases {
        let values = case
            .params
            .iter()
            .map(Option::as_ref)
            .chain(case.rest.iter().map(Some));
        let entries: Vec<String> = values
            .enumerate()
            .filter_map(|(i, v)| Some(format!("[{}] = {}", i + 1, luau_literal(v?))))
            .collect();
        script.push_str(&format!("\t{{ {} }},\n", entries.join(", ")));
    }
    script.push_str(
        "}\nlocal out = {}\nfor i, args in cases do\n\tlocal r = tools.bind(id, args)\n\
         \tout[i] = if r.ok then \"ok\" else `{r.reason}: {r.message}`\nend\nreturn out\n",
    );
    let envelope = runtime.exec(&script, Output::Capture);
    let Some(value) = envelope.value.clone() else {
        panic!("{id}: the bind script failed: {}", envelope.to_json());
    };
    let out: Vec<String> = serde_json::from_value(value).unwrap();
    assert_eq!(out.len(), cases.len(), "{id}");
    out
}

/// The MCP arguments of a case: parameters by name, trailing values as an array.
fn json_args(meta: &crate::assets::ToolMeta, case: &Case) -> Json {
    let mut args = Map::new();
    for (arg, value) in meta.args.iter().zip(&case.params) {
        if let Some(v) = value {
            args.insert(arg.name.clone(), v.clone());
        }
    }
    if !case.rest.is_empty() {
        args.insert(VARARG_PROPERTY.into(), Json::Array(case.rest.clone()));
    }
    Json::Object(args)
}

/// Every JSON spelling of the same Luau value: each empty array may be `{}` and each
/// empty object `[]` (at most 64 spellings).
fn spellings(value: &Json) -> Vec<Json> {
    let mut out = match value {
        Json::Array(items) if items.is_empty() => vec![json!([]), json!({})],
        Json::Object(map) if map.is_empty() => vec![json!({}), json!([])],
        Json::Array(items) => product(items.iter().map(spellings))
            .into_iter()
            .map(Json::Array)
            .collect(),
        Json::Object(map) => product(map.values().map(spellings))
            .into_iter()
            .map(|vs| Json::Object(map.keys().cloned().zip(vs).collect()))
            .collect(),
        other => vec![other.clone()],
    };
    out.truncate(64);
    out
}

fn product(parts: impl Iterator<Item = Vec<Json>>) -> Vec<Vec<Json>> {
    let mut out: Vec<Vec<Json>> = vec![Vec::new()];
    for options in parts {
        out = out
            .iter()
            .flat_map(|prefix| {
                options.iter().map(move |o| {
                    let mut next = prefix.clone();
                    next.push(o.clone());
                    next
                })
            })
            .take(64)
            .collect();
    }
    out
}

/// The values a slot is tried with: nothing, the type's own valid values, mutations of
/// them, and the pool.
fn samples(ty: &Ty, pool: &[Json]) -> Vec<Option<Json>> {
    let own = valid(ty, 0);
    let mut values: Vec<Json> = own.clone();
    for v in &own {
        values.extend(mutations(v));
    }
    values.extend(pool.iter().cloned());
    dedupe(&mut values);
    std::iter::once(None)
        .chain(values.into_iter().map(Some))
        .collect()
}

/// Values made to fit `ty` (a few per type, nested types a few levels deep).
fn valid(ty: &Ty, depth: usize) -> Vec<Json> {
    if depth > 4 {
        return Vec::new();
    }
    let deeper = |t: &Ty| valid(t, depth + 1);
    let mut out = match ty {
        t if t.accepts_anything() => vec![json!("x"), json!(3), json!({"k": [1]}), json!([true])],
        Ty::Nil | Ty::Function | Ty::Callback(_) => Vec::new(),
        Ty::Boolean => vec![json!(true), json!(false)],
        Ty::BoolLiteral(b) => vec![json!(b)],
        Ty::Number => vec![json!(0), json!(2.5), json!(-7)],
        Ty::String => vec![json!(""), json!("text")],
        Ty::Path => vec![json!("notes/a.txt")],
        Ty::Literal(s) => vec![json!(s)],
        Ty::Table => vec![json!([]), json!({"k": 1}), json!([1, "a"])],
        Ty::Array(item) => {
            let items = deeper(item);
            let mut out = vec![json!([])];
            if let Some(first) = items.first() {
                out.push(json!([first]));
                out.push(Json::Array(items.iter().take(3).cloned().collect()));
            }
            out
        }
        Ty::Map(k, v) => entries(&[], Some((k, v)), depth),
        Ty::Record(fields, indexer) => {
            entries(fields, indexer.as_deref().map(|kv| (&kv.0, &kv.1)), depth)
        }
        Ty::Union(members) => members.iter().flat_map(deeper).collect(),
        _ => Vec::new(),
    };
    dedupe(&mut out);
    out.truncate(12);
    out
}

/// Tables with the required fields, with every field, with each field's other values,
/// and with entries the indexer takes.
fn entries(fields: &[crate::types::Field], indexer: Option<(&Ty, &Ty)>, depth: usize) -> Vec<Json> {
    let first = |t: &Ty| valid(t, depth + 1).into_iter().next();
    let mut minimal = Map::new();
    for f in fields.iter().filter(|f| !f.ty.accepts_nil()) {
        match first(&f.ty) {
            Some(v) => minimal.insert(f.name.clone(), v),
            None => return Vec::new(),
        };
    }
    let mut out = vec![Json::Object(minimal.clone())];
    let mut full = minimal.clone();
    for f in fields {
        if let Some(v) = first(&f.ty) {
            full.insert(f.name.clone(), v);
        }
        for v in valid(&f.ty, depth + 1).into_iter().take(3) {
            let mut one = minimal.clone();
            one.insert(f.name.clone(), v);
            out.push(Json::Object(one));
        }
    }
    out.push(Json::Object(full));
    if let Some((k, v)) = indexer {
        let values = valid(v, depth + 1);
        let Some(value) = values.first() else {
            return out;
        };
        for key in keys(k) {
            match key {
                Some(name) => {
                    let mut with = minimal.clone();
                    with.insert(name, value.clone());
                    out.push(Json::Object(with));
                }
                // Integer keys: a JSON array.
                None if fields.iter().all(|f| f.ty.accepts_nil()) => {
                    out.push(Json::Array(values.iter().take(2).cloned().collect()))
                }
                None => {}
            }
        }
    }
    out
}

/// Keys of type `k`: a name, or `None` for array positions.
fn keys(k: &Ty) -> Vec<Option<String>> {
    match k {
        t if t.accepts_anything() => vec![Some("key".into()), None],
        Ty::String | Ty::Path => vec![Some("key".into())],
        Ty::Literal(s) => vec![Some(s.clone())],
        Ty::Number => vec![None],
        Ty::Union(members) => members.iter().flat_map(keys).collect(),
        _ => Vec::new(),
    }
}

/// Values near `v`: each value inside it swapped for one of another kind, each table
/// given an unknown field or item, each field removed.
fn mutations(v: &Json) -> Vec<Json> {
    let others = [
        json!(7),
        json!("str"),
        json!(true),
        json!([1]),
        json!({"q": 1}),
        json!([]),
    ];
    let mut out: Vec<Json> = others.iter().filter(|o| *o != v).cloned().collect();
    match v {
        Json::Array(items) => {
            let mut longer = items.clone();
            longer.push(json!("extra"));
            out.push(Json::Array(longer));
            for (i, item) in items.iter().enumerate().take(2) {
                for m in mutations(item).into_iter().take(8) {
                    let mut changed = items.clone();
                    changed[i] = m;
                    out.push(Json::Array(changed));
                }
            }
        }
        Json::Object(map) => {
            let mut wider = map.clone();
            wider.insert("zzz".into(), json!(1));
            out.push(Json::Object(wider));
            for (k, item) in map {
                let mut fewer = map.clone();
                fewer.remove(k);
                out.push(Json::Object(fewer));
                for m in mutations(item).into_iter().take(8) {
                    let mut changed = map.clone();
                    changed.insert(k.clone(), m);
                    out.push(Json::Object(changed));
                }
            }
        }
        _ => {}
    }
    out
}

/// Values of every kind, whatever the world's types.
fn fixed_pool() -> Vec<Json> {
    vec![
        json!(true),
        json!(false),
        json!(0),
        json!(1.5),
        json!(""),
        json!("word"),
        json!([]),
        json!({}),
        json!([1, 2]),
        json!(["a", "b"]),
        json!([[1, 2], [3]]),
        json!([{"a": 1}]),
        json!({"a": 1}),
        json!({"a": "b"}),
        json!({"x": 1, "y": 2}),
        json!({"name": "x", "extra": true}),
        json!({"1": "one"}),
        json!([true, "a", 1]),
    ]
}

fn dedupe(values: &mut Vec<Json>) {
    let mut seen = BTreeSet::new();
    values.retain(|v| seen.insert(v.to_string()));
}

/// A Luau literal for a JSON value (the test writes its cases as one Luau script): bytes
/// that are not plain are escaped as `\ddd`, `null` is `nil`, arrays and objects are tables.
fn luau_literal(value: &Json) -> String {
    match value {
        Json::Null => "nil".into(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.to_string(),
        Json::String(s) => {
            let mut out = String::from("\"");
            for b in s.bytes() {
                if b.is_ascii_alphanumeric() || b == b' ' {
                    out.push(b as char);
                } else {
                    out.push_str(&format!("\\{b:03}"));
                }
            }
            out.push('"');
            out
        }
        Json::Array(items) => {
            let entries: Vec<String> = items
                .iter()
                .enumerate()
                .map(|(i, v)| format!("[{}] = {}", i + 1, luau_literal(v)))
                .collect();
            format!("{{ {} }}", entries.join(", "))
        }
        Json::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    format!(
                        "[{}] = {}",
                        luau_literal(&Json::String(k.clone())),
                        luau_literal(v)
                    )
                })
                .collect();
            format!("{{ {} }}", entries.join(", "))
        }
    }
}
