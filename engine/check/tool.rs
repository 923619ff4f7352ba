//! A tool's source as the checker reads it.

/// `source` with each `require("...")` of a toolbox module written as `(nil :: any)`:
/// the checker reads one file at a time, so what a module gives is unknown to it, and
/// an unknown `require` would be an error of its own. Lines keep their numbers.
pub(crate) fn tool_source(source: &str) -> String {
    replace_requires(source, |_| None)
}

/// A tool's source with its toolbox's modules in front, so the checker types what a
/// `require` gives from the module's own source.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WithModules {
    /// The text to check.
    pub text: String,
    /// How many lines stand before the tool's first line.
    pub offset: u32,
}

/// The prefix of the local a module's value is bound to in [`with_modules`].
const MODULE_LOCAL: &str = "__codemode_module_";

/// `source` with each module it requires (`require(".<name>")`, found by `module`)
/// written in front as `local __codemode_module_<name> = (function() ... end)()` and the
/// `require` replaced by that local, so the tool is checked against what the module
/// really returns. A module's own requires stand for `any` (one level: modules requiring
/// each other in a cycle stay checkable), its `export type`s become local ones (a
/// function body holds no exports), and a `require` of a module `module` does not know
/// stands for `any`, as in [`tool_source`].
pub(crate) fn with_modules<'a>(
    source: &str,
    module: impl Fn(&str) -> Option<&'a str>,
) -> WithModules {
    let mut text = String::new();
    let mut inlined: Vec<String> = Vec::new();
    let body = replace_requires(source, |name| {
        let name = name.strip_prefix("./").or_else(|| name.strip_prefix('.'))?;
        let valid =
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        let found = module(name).filter(|_| valid)?;
        if !inlined.iter().any(|n| n == name) {
            let own = tool_source(found).replace("\nexport type ", "\ntype ");
            let own = own
                .strip_prefix("export type ")
                .map_or(own.clone(), |rest| format!("type {rest}"));
            text.push_str(&format!(
                "local {MODULE_LOCAL}{name} = (function()\n{own}\nend)()\n"
            ));
            inlined.push(name.to_string());
        }
        Some(format!("{MODULE_LOCAL}{name}"))
    });
    let offset = text.matches('\n').count() as u32;
    text.push_str(&body);
    WithModules { text, offset }
}

/// `source` with each literal `require("<name>")` written as what `replace` gives for
/// the name (`(nil :: any)` when it gives nothing).
fn replace_requires(source: &str, mut replace: impl FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(at) = rest.find("require(") {
        let (before, call) = rest.split_at(at);
        out.push_str(before);
        let preceded = before.chars().next_back();
        let args = &call["require(".len()..];
        let literal = args.find(')').map(|end| &args[..end]).filter(|inside| {
            let inside = inside.trim();
            inside.len() >= 2
                && (inside.starts_with('"') || inside.starts_with('\''))
                && !inside.contains('\n')
        });
        match literal {
            Some(inside)
                if !preceded.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') =>
            {
                let name = inside.trim();
                let name = &name[1..name.len() - 1];
                match replace(name) {
                    Some(local) => out.push_str(&local),
                    None => out.push_str("(nil :: any)"),
                }
                rest = &args[inside.len() + 1..];
            }
            _ => {
                out.push_str("require(");
                rest = args;
            }
        }
    }
    out.push_str(rest);
    out
}
