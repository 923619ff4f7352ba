//! Turning what was typed into a runnable chunk.
//!
//! - an expression (`1 + 1`, `tools.list()`) runs as `return <entry>` so its value prints;
//! - input the compiler says ends too early (an open `function`, `do`, `{`) asks for more;
//! - top-level `local` declarations become assignments into the session environment, so
//!   `local x = 1` in one entry is `x` in the next (locals inside blocks stay local).

use crate::assets::with_luau;
use full_moon::ast::Stmt;
use full_moon::node::Node;
use mlua::chunk::Compiler;

/// What to do with the input so far.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Prepared {
    /// The input is unfinished: read another line.
    Incomplete,
    /// Run this chunk (it may still fail; the run reports how).
    Run(String),
}

/// Decides whether `buffer` is complete, and if so how to run it.
pub(crate) fn prepare(buffer: &str) -> Prepared {
    let expression = format!("return {buffer}");
    match Compiler::new().compile(&expression) {
        Ok(_) => return Prepared::Run(expression),
        // `x +` is an unfinished expression, though as a statement it is merely wrong.
        Err(mlua::Error::SyntaxError {
            incomplete_input: true,
            ..
        }) => return Prepared::Incomplete,
        Err(_) => {}
    }
    match Compiler::new().compile(buffer) {
        Err(mlua::Error::SyntaxError {
            incomplete_input: true,
            ..
        }) => Prepared::Incomplete,
        Err(_) => Prepared::Run(buffer.to_string()),
        Ok(_) => Prepared::Run(persist_locals(buffer)),
    }
}

/// Rewrites top-level `local a, b = ...` to `a, b = ...`, `local x` to `x = nil` and
/// `local function f` to `function f`, so the names land in the session environment.
pub(crate) fn persist_locals(source: &str) -> String {
    let Ok(edits) = with_luau(source, local_edits) else {
        return source.to_string();
    };
    let mut out = source.to_string();
    for (start, end, replacement) in edits.into_iter().rev() {
        if start <= end && end <= out.len() {
            out.replace_range(start..end, &replacement);
        }
    }
    out
}

/// The edits [`persist_locals`] makes: byte ranges and what replaces them, in order.
fn local_edits(ast: &full_moon::ast::Ast) -> Vec<(usize, usize, String)> {
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for stmt in ast.nodes().stmts() {
        match stmt {
            Stmt::LocalAssignment(a) => {
                let start = a.local_token().token().start_position().bytes();
                let names: Vec<String> = a.names().iter().map(|n| n.token().to_string()).collect();
                let names = names.join(", ");
                match a.equal_token() {
                    Some(eq) => edits.push((
                        start,
                        eq.token().start_position().bytes(),
                        format!("{names} "),
                    )),
                    None => {
                        let end = a.end_position().map_or(start, |p| p.bytes());
                        edits.push((start, end, format!("{names} = nil")));
                    }
                }
            }
            Stmt::LocalFunction(f) => {
                let start = f.local_token().token().start_position().bytes();
                let end = f.function_token().token().start_position().bytes();
                edits.push((start, end, String::new()));
            }
            _ => {}
        }
    }
    edits
}

#[cfg(test)]
#[path = "../../tests/unit/repl/entry.rs"]
mod tests;
