//! `${NAME}` and `${NAME:-default}` in the configuration files (`mcp.json`, `apis.json`):
//! one reader, so every file names its problems alike and remembers what it takes.

/// `text` with every `${NAME}` replaced by `lookup(NAME)` (`${NAME:-default}`: the default
/// when it is not set), and the values taken; each value for which `secret` says so is
/// [`super::remember`]ed as it is taken. Defaults are written in the file, so they are not
/// among the values taken. The error names the field and the variable, never a value.
pub(crate) fn expand(
    text: &str,
    field: &str,
    lookup: impl Fn(&str) -> Option<String>,
    secret: impl Fn(&str) -> bool,
) -> Result<(String, Vec<String>), String> {
    let mut used = Vec::new();
    if !text.contains("${") {
        return Ok((text.to_string(), used));
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            return Err(format!(
                "\"{field}\" has a '${{' without its '}}'; write ${{NAME}} or ${{NAME:-default}}"
            ));
        };
        let inner = &after[..end];
        let (name, default) = match inner.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (inner, None),
        };
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            let shown: String = inner.chars().take(40).collect();
            return Err(format!(
                "\"{field}\" has ${{{shown}}}, which is not a variable name; write ${{NAME}} or ${{NAME:-default}}"
            ));
        }
        match (lookup(name), default) {
            (Some(value), _) => {
                if secret(&value) {
                    super::remember(&value);
                }
                out.push_str(&value);
                used.push(value);
            }
            (None, Some(default)) => out.push_str(default),
            (None, None) => {
                return Err(format!(
                    "\"{field}\" uses ${{{name}}}, which is not set in codemode's environment; set it, or write ${{{name}:-default}}"
                ))
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok((out, used))
}
