//! A tool's source as the checker reads it.

/// `source` with each `require("...")` of a toolbox module written as `(nil :: any)`:
/// the checker reads one file at a time, so what a module gives is unknown to it, and
/// an unknown `require` would be an error of its own. Lines keep their numbers.
pub fn tool_source(source: &str) -> String {
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
                out.push_str("(nil :: any)");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requires_stand_for_any_and_lines_stay() {
        let source = "local shared = require(\".shared\")\nlocal x = myrequire(\"a\")\nreturn require(name)\n";
        assert_eq!(
            tool_source(source),
            "local shared = (nil :: any)\nlocal x = myrequire(\"a\")\nreturn require(name)\n"
        );
    }
}
