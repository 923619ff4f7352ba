//! The typed signature of the function a tool's `init.luau` returns, read with `full_moon`.

use full_moon::ast::{self, Expression, LastStmt, Parameter, Stmt};

use super::parse::{with_luau, ParseError};

/// One parameter as the signature declares it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SigParam {
    /// Name (`...` for varargs).
    pub(crate) name: String,
    /// Type as written, when annotated.
    pub(crate) ty: Option<String>,
}

/// What the source says about the returned function.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Returned {
    /// The chunk returns a function whose signature we could read.
    Function {
        /// Parameters in order.
        params: Vec<SigParam>,
        /// Return type as written, when annotated.
        returns: Option<String>,
        /// `name(params): ret` as one line.
        signature: String,
    },
    /// The chunk returns something computed at run time; checked on first call.
    Unknown,
    /// The chunk ends without returning a function (the reason says what it returns).
    NotAFunction(String),
}

/// Parses `source` as Luau and finds the returned function's signature.
/// `Err` carries the parser's first error with its line.
///
/// Most tools end with `return NAME` after a `local function NAME(...)`: for those only
/// the function's header is parsed (the compiler has already checked the whole file),
/// which keeps indexing thousands of tools cheap. Anything else gets a full parse.
pub(crate) fn read_signature(source: &str, fallback_name: &str) -> Result<Returned, ParseError> {
    if let Some(snippet) = header_snippet(source) {
        if let Ok(found @ Returned::Function { .. }) = parse_returned(&snippet, fallback_name) {
            return Ok(found);
        }
    }
    parse_returned(source, fallback_name)
}

/// `local function NAME(...): T` plus `end return NAME`, cut from a file ending in `return NAME`.
fn header_snippet(source: &str) -> Option<String> {
    let last = source
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("--"))?;
    let name = last
        .strip_prefix("return ")?
        .trim()
        .trim_end_matches(';')
        .trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let start = unique_top_definition(source, name)?;
    let header = &source[start..];
    let end = header_end(header)?;
    Some(format!("{}\nend\nreturn {name}\n", &header[..end]))
}

/// Where `local function NAME` starts when it is written once, at the start of a line: then it
/// is the top-level function the file returns. A second definition (a nested function of the
/// same name) or an indented one needs the full parse to tell which is returned.
fn unique_top_definition(source: &str, name: &str) -> Option<usize> {
    let pattern = format!("local function {name}");
    let mut found = None;
    for (at, _) in source.match_indices(&pattern) {
        let next = source[at + pattern.len()..].chars().next();
        if next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue; // `local function nameLonger`
        }
        if found.is_some() {
            return None;
        }
        found = Some(at);
    }
    let at = found?;
    (at == 0 || source[..at].ends_with('\n')).then_some(at)
}

/// Where the header ends: after the parameter list and the return type, at the end of
/// the line where brackets are balanced again.
fn header_end(header: &str) -> Option<usize> {
    let mut depth = 0i32;
    let mut params_closed = false;
    let mut quote: Option<char> = None;
    for (i, c) in header.char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => {
                depth -= 1;
                if depth == 0 && c == ')' {
                    params_closed = true;
                }
            }
            '\n' if params_closed && depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

fn parse_returned(source: &str, fallback_name: &str) -> Result<Returned, ParseError> {
    with_luau(source, |ast| returned(ast.nodes(), fallback_name))
}

fn returned(block: &ast::Block, fallback_name: &str) -> Returned {
    let Some(LastStmt::Return(ret)) = block.last_stmt() else {
        return Returned::NotAFunction("the file ends without `return <function>`".into());
    };
    let Some(expr) = ret.returns().iter().next() else {
        return Returned::NotAFunction("the file's `return` returns nothing".into());
    };
    match expr {
        Expression::Function(func) => describe(fallback_name, func.body()),
        Expression::Var(ast::Var::Name(name)) => {
            let wanted = name.token().to_string();
            find_local_function(block, &wanted)
                .map(|body| describe(&wanted, body))
                .unwrap_or(Returned::Unknown)
        }
        Expression::String(_) | Expression::Number(_) | Expression::TableConstructor(_) => {
            Returned::NotAFunction(format!(
                "the file returns `{}`, not a function",
                compact(&expr.to_string())
            ))
        }
        Expression::Symbol(sym) => Returned::NotAFunction(format!(
            "the file returns `{}`, not a function",
            sym.token()
        )),
        _ => Returned::Unknown,
    }
}

/// The last `local function NAME` or `local NAME = function` in the top-level block.
fn find_local_function<'a>(block: &'a ast::Block, wanted: &str) -> Option<&'a ast::FunctionBody> {
    let mut found = None;
    for stmt in block.stmts() {
        match stmt {
            Stmt::LocalFunction(f) if f.name().token().to_string() == wanted => {
                found = Some(f.body())
            }
            Stmt::LocalAssignment(a) => {
                for (name, expr) in a.names().iter().zip(a.expressions().iter()) {
                    if name.token().to_string() == wanted {
                        if let Expression::Function(func) = expr {
                            found = Some(func.body());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    found
}

fn describe(name: &str, body: &ast::FunctionBody) -> Returned {
    let params: Vec<SigParam> = body
        .parameters()
        .iter()
        .zip(body.type_specifiers())
        .map(|(param, ty)| SigParam {
            name: match param {
                Parameter::Ellipsis(_) => "...".to_string(),
                Parameter::Name(n) => n.token().to_string(),
                _ => "?".to_string(),
            },
            ty: ty.map(|t| compact(&t.type_info().to_string())),
        })
        .collect();
    let returns = body
        .return_type()
        .map(|t| compact(&t.type_info().to_string()));
    let rendered: Vec<String> = params
        .iter()
        .map(|p| match &p.ty {
            Some(ty) => format!("{}: {ty}", p.name),
            None => p.name.clone(),
        })
        .collect();
    let mut signature = format!("{name}({})", rendered.join(", "));
    if let Some(r) = &returns {
        signature.push_str(": ");
        signature.push_str(r);
    }
    Returned::Function {
        params,
        returns,
        signature,
    }
}

/// Collapses runs of whitespace (types written over several lines) into single spaces, and
/// drops the trailing comma a formatter (StyLua) leaves in a table type split over lines.
fn compact(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(", }", " }")
}

#[cfg(test)]
#[path = "../../tests/unit/assets/signature.rs"]
mod tests;
