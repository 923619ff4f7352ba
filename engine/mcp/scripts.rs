//! The Luau scripts the server runs on a client's behalf: a search, or one exposed tool call.
//! Client values enter only as literals (see [`super::literal`]).

use serde_json::Value;

use super::literal::{luau_literal, TooDeep};

/// The arguments of `search_tools`, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchArgs {
    /// Words to look for; empty lists the catalogue (or one toolbox).
    pub query: String,
    /// Only this toolbox.
    pub toolbox: Option<String>,
    /// At most this many rows.
    pub limit: Option<u64>,
    /// `"keyword"` or `"semantic"`.
    pub mode: Option<String>,
}

/// Runs `tools.search` when the prelude has it; otherwise ranks `tools.list(3)` rows by
/// how many query words their identity, description and tags contain.
const SEARCH: &str = r#"
local search = rawget(tools, "search")
if search then
	return search(query, { toolbox = toolbox, limit = limit, mode = mode })
end
local words = {}
for word in string.gmatch(string.lower(query), "[%w_]+") do
	table.insert(words, word)
end
local listed = if toolbox then tools.list(3, toolbox) else tools.list(3)
local hits = {}
for _, row in listed.value do
	local hay = string.lower(row.identity .. " " .. (row.description or "") .. " " .. table.concat(row.tags or {}, " "))
	local score = 0
	for _, word in words do
		if string.find(hay, word, 1, true) then
			score += 1
		end
	end
	if #words == 0 or score > 0 then
		table.insert(hits, { row = row, score = score })
	end
end
table.sort(hits, function(a, b)
	if a.score ~= b.score then
		return a.score > b.score
	end
	return a.row.identity < b.row.identity
end)
local rows, lines = {}, {}
for i, hit in hits do
	if i > (limit or 10) then
		break
	end
	local r = hit.row
	table.insert(rows, {
		identity = r.identity, name = r.name, toolbox = r.toolbox, assetType = "tool",
		registered = r.registered, description = r.description, signature = r.signature,
		use = `tools.{r.identity}(...)`,
	})
	local sig = if r.signature then `tools.{r.toolbox}.{r.signature}` else `tools.{r.identity}(...)`
	table.insert(lines, `{sig} - {r.description}`)
end
if #lines == 0 then
	table.insert(lines, `no tool matches "{query}"; try fewer or other words, or tools.toolboxes()`)
end
return { stdout = table.concat(lines, "\n"), value = rows, total = #hits }
"#;

/// The script behind `search_tools`.
pub fn search_script(args: &SearchArgs) -> Result<String, TooDeep> {
    let opt = |v: Option<Value>| v.map_or(Ok("nil".to_string()), |v| luau_literal(&v));
    Ok(format!(
        "local query, toolbox, limit, mode = {}, {}, {}, {}\n{SEARCH}",
        luau_literal(&Value::String(args.query.clone()))?,
        opt(args.toolbox.clone().map(Value::String))?,
        opt(args.limit.map(Value::from))?,
        opt(args.mode.clone().map(Value::String))?,
    ))
}

/// `return tools.<box>.<name>(args...)` with the arguments in parameter order.
/// `toolbox` and `name` are identifiers (the asset index only admits those).
pub fn call_script(toolbox: &str, name: &str, args: &[Value]) -> Result<String, TooDeep> {
    let args = args
        .iter()
        .map(luau_literal)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(format!(
        "return tools.{toolbox}.{name}({})",
        args.join(", ")
    ))
}
