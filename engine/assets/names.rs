//! Names of toolboxes and tools: validation and "did you mean".

/// Members of `tools`; a toolbox may not take one of these names.
pub(crate) const RESERVED: [&str; 16] = [
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
    "install",
    "parallel",
    "help",
    "results",
];

/// Luau's reserved words: `tools.box.end()` would not parse, so no name may be one.
pub(crate) const KEYWORDS: [&str; 21] = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in", "local",
    "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
];

/// True when `name` is a Luau identifier (`^[A-Za-z_][A-Za-z0-9_]*$`) and not a keyword:
/// `t.name` reads as a field, any other key needs `t["name"]`.
pub(crate) fn is_plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name)
}

/// Longest allowed name.
pub(crate) const MAX_NAME_LEN: usize = 64;

/// Checks that `name` is a Luau identifier of at most 64 characters.
/// The error says what a valid name looks like.
pub(crate) fn check_name(kind: &str, name: &str) -> Result<(), String> {
    if name.len() > MAX_NAME_LEN {
        return Err(format!(
            "{kind} name '{}…' is {} characters long; use at most {MAX_NAME_LEN}",
            &name[..name.char_indices().nth(20).map_or(name.len(), |(i, _)| i)],
            name.len()
        ));
    }
    if KEYWORDS.contains(&name) {
        return Err(format!(
            "{kind} name '{name}' is a Luau keyword, so `tools.<box>.{name}` would not parse; pick another name (e.g. '{name}_' or 'do_{name}')"
        ));
    }
    if !is_plain_name(name) {
        return Err(format!(
            "{kind} name '{name}' is not a Luau identifier; use letters, digits and _ and start with a letter or _ (e.g. '{}')",
            suggest_identifier(name)
        ));
    }
    // `__index`, `__call`, ...: a member of that name reads as a metamethod to anyone
    // looking at `tools` and its toolboxes, and Luau reserves the prefix.
    if name.starts_with("__") {
        return Err(format!(
            "{kind} name '{name}' starts with two underscores, which Luau keeps for metamethods (__index, __call, ...); pick another name (e.g. '{}')",
            name.trim_start_matches('_')
        ));
    }
    Ok(())
}

/// Checks a toolbox name: an identifier that is not a member of `tools`.
pub(crate) fn check_toolbox_name(name: &str) -> Result<(), String> {
    check_name("toolbox", name)?;
    if RESERVED.contains(&name) {
        return Err(format!(
            "toolbox name '{name}' is taken by tools.{name}; pick another name (e.g. '{name}s' or 'my_{name}')"
        ));
    }
    Ok(())
}

/// A valid identifier close to `name` (used in error messages): its letters and digits,
/// other runs of characters as one `_`, or `my_tool` when nothing is left.
fn suggest_identifier(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    let mut out: String = out
        .trim_end_matches('_')
        .chars()
        .take(MAX_NAME_LEN)
        .collect();
    if out.is_empty() {
        out = "my_tool".to_string();
    }
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
        out.truncate(MAX_NAME_LEN);
    }
    out
}

/// Up to three candidates closest to `wanted`, best first.
pub(crate) fn nearest<'a>(
    wanted: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<&'a str> {
    // No name is longer than MAX_NAME_LEN, and comparing costs the product of the lengths.
    if wanted.len() > 4 * MAX_NAME_LEN {
        return Vec::new();
    }
    let wanted_lower = wanted.to_lowercase();
    let mut scored: Vec<(f64, &str)> = candidates
        .into_iter()
        .map(|c| {
            let lower = c.to_lowercase();
            let mut score = strsim::jaro_winkler(&wanted_lower, &lower);
            if lower.contains(&wanted_lower) || wanted_lower.contains(&lower) {
                score += 0.2;
            }
            (score, c)
        })
        .filter(|(score, _)| *score > 0.7)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

#[cfg(test)]
#[path = "../../tests/unit/assets/names.rs"]
mod tests;
