//! Reading shell words against a tool's schema: what `tools.parseCommandLine` answers.
//!
//! - `--name value` and `--name=value` set a parameter or an options-table field;
//! - `--NAME` / `-S` (and clusters `-abc`) set a `--!flag` to true; `--NAME=false` clears it;
//! - a boolean parameter or field given as `--name` alone is true (a following `true` or
//!   `false` is its value);
//! - other words fill the positional parameters in order, then the `--!rest` parameter;
//! - `--` ends flags: every later word is positional;
//! - a word like `-5` or `-0.5` is a value, not a flag; a value that itself starts
//!   with `--` is given as `--name=--value`.
//!
//! Each word is read by its slot's type (see [`read_word`]); the slots are then checked
//! as `tools.bind` checks them.

use std::path::{Component, Path, PathBuf};

use serde_json::{Map, Value as Json};

use super::refusal::{Reason, Refusal};
use super::schema::Schema;
use super::slots::{check_slots, Style};
use super::usage::usage_line;
use crate::assets::names::nearest;
use crate::types::Ty;

/// Most words one command line may hold.
pub(crate) const MAX_WORDS: usize = 4096;

/// Where a `--name` lands.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Target<'a> {
    Param(usize),
    Field(&'a str),
}

/// Parses `words` into one JSON slot per parameter (`None` when not given), then checks them.
pub(crate) fn parse_command_line(
    schema: &Schema,
    words: &[String],
    cwd: &Path,
) -> Result<Vec<Option<Json>>, Refusal> {
    if words.len() > MAX_WORDS {
        return Err(Refusal::new(
            Reason::TooManyArguments,
            format!(
                "{}: {} words is more than the {MAX_WORDS} a command line may hold",
                schema.identity,
                words.len()
            ),
        ));
    }
    let mut reader = Reader {
        schema,
        cwd,
        slots: vec![None; schema.params.len()],
        fields: Map::new(),
        given: Vec::new(),
    };
    let mut positional: Vec<&str> = Vec::new();
    let mut only_positional = false;
    let mut i = 0;
    while i < words.len() {
        let word = words[i].as_str();
        i += 1;
        if only_positional || !looks_like_flag(word) {
            positional.push(word);
        } else if word == "--" {
            only_positional = true;
        } else if let Some(long) = word.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let target = reader.long_target(name)?;
            let boolean = matches!(reader.ty(target).without_nil(), Ty::Boolean);
            let value = match (schema.flag(name).is_some(), inline) {
                (true, None) => "true",
                (_, Some(v)) => v,
                (false, None) if boolean => match words.get(i).map(String::as_str) {
                    Some(given @ ("true" | "false")) => {
                        i += 1;
                        given
                    }
                    _ => "true",
                },
                (false, None) => match words.get(i) {
                    Some(next) if !next.starts_with("--") => {
                        i += 1;
                        next.as_str()
                    }
                    _ => return Err(missing_value(schema, name)),
                },
            };
            reader.set(target, &format!("--{name}"), value)?;
        } else {
            reader.shorts(&word[1..])?;
        }
    }
    reader.positionals(&positional)?;
    let slots = reader.finish()?;
    check_slots(schema, &slots, Style::Shell)?;
    Ok(slots)
}

/// True when a word is a flag: starts with `-`, is not `-` alone, and is not a negative number.
fn looks_like_flag(word: &str) -> bool {
    let Some(rest) = word.strip_prefix('-') else {
        return false;
    };
    match rest.chars().next() {
        None => false,
        Some(c) => !(c.is_ascii_digit() || c == '.'),
    }
}

struct Reader<'a> {
    schema: &'a Schema,
    cwd: &'a Path,
    slots: Vec<Option<Json>>,
    fields: Map<String, Json>,
    /// Names already given (parameters and fields), for given-twice.
    given: Vec<String>,
}

impl<'a> Reader<'a> {
    fn long_target(&self, name: &str) -> Result<Target<'a>, Refusal> {
        if let Some(i) = self.schema.param(name) {
            return Ok(Target::Param(i));
        }
        if let Some(f) = self.schema.field(name) {
            return Ok(Target::Field(f.name.as_str()));
        }
        Err(unknown_flag(self.schema, &format!("--{name}"), name))
    }

    fn shorts(&mut self, cluster: &str) -> Result<(), Refusal> {
        for c in cluster.chars() {
            let Some(flag) = self.schema.short_flag(c) else {
                return Err(unknown_flag(self.schema, &format!("-{c}"), &c.to_string()));
            };
            let target = self.long_target(&flag.name)?;
            self.set(target, &format!("-{c}"), "true")?;
        }
        Ok(())
    }

    fn ty(&self, target: Target) -> &'a Ty {
        match target {
            Target::Param(i) => &self.schema.params[i].ty,
            Target::Field(name) => self.schema.field(name).map(|f| &f.ty).unwrap_or(&Ty::Any),
        }
    }

    fn name(&self, target: Target<'a>) -> &'a str {
        match target {
            Target::Param(i) => &self.schema.params[i].name,
            Target::Field(name) => name,
        }
    }

    /// Reads `word` for `target`; arrays gather repeated values, anything else is given once.
    fn set(&mut self, target: Target<'a>, label: &str, word: &str) -> Result<(), Refusal> {
        let ty = self.ty(target);
        let value = read_word(ty, word, self.cwd, label)?;
        let gathers = matches!(ty.without_nil(), Ty::Array(_));
        let existing = match target {
            Target::Param(i) => self.slots[i].as_mut(),
            Target::Field(f) => self.fields.get_mut(f),
        };
        match (existing, value) {
            (Some(Json::Array(items)), Json::Array(more)) if gathers => items.extend(more),
            (Some(_), _) => return Err(given_twice(self.schema, label)),
            (None, value) => match target {
                Target::Param(i) => self.slots[i] = Some(value),
                Target::Field(f) => {
                    self.fields.insert(f.to_string(), value);
                }
            },
        }
        self.given.push(self.name(target).to_string());
        Ok(())
    }

    fn positionals(&mut self, words: &[&str]) -> Result<(), Refusal> {
        let order = self.schema.positional();
        let mut slots = order
            .iter()
            .filter(|i| !self.given.contains(&self.schema.params[**i].name));
        let mut extra: Vec<&str> = Vec::new();
        for word in words {
            match slots.next() {
                Some(&i) => {
                    let p = &self.schema.params[i];
                    let value = read_word(&p.ty, word, self.cwd, &format!("<{}>", p.name))?;
                    self.slots[i] = Some(value);
                }
                None => extra.push(word),
            }
        }
        if extra.is_empty() {
            return Ok(());
        }
        if let (None, Some(ty)) = (self.schema.rest, &self.schema.vararg) {
            for word in extra {
                let value = read_word(ty, word, self.cwd, "<...>")?;
                self.slots.push(Some(value));
            }
            return Ok(());
        }
        let Some(r) = self.schema.rest else {
            return Err(Refusal::new(
                Reason::TooManyArguments,
                format!(
                    "{} takes {} positional argument{}; \"{}\" is one too many (quote a value that holds spaces)\nusage: {}",
                    self.schema.identity,
                    order.len(),
                    if order.len() == 1 { "" } else { "s" },
                    extra[0],
                    usage_line(self.schema)
                ),
            ));
        };
        if self.slots[r].is_some() {
            return Err(given_twice(
                self.schema,
                &format!("--{}", self.schema.params[r].name),
            ));
        }
        let label = format!("<{}>", self.schema.params[r].name);
        let value = match self.schema.params[r].ty.without_nil() {
            Ty::Array(item) => Json::Array(
                extra
                    .iter()
                    .map(|w| read_word(&item, w, self.cwd, &label))
                    .collect::<Result<_, _>>()?,
            ),
            ty if ty == Ty::String || ty.accepts_anything() => Json::String(extra.join(" ")),
            _ => Json::Array(extra.iter().map(|w| Json::String(w.to_string())).collect()),
        };
        self.slots[r] = Some(value);
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<Option<Json>>, Refusal> {
        self.fields.retain(|_, v| !v.is_null());
        if let (false, Some((o, _))) = (self.fields.is_empty(), &self.schema.options) {
            if self.slots[*o].is_some() {
                let first = self.fields.keys().next().cloned().unwrap_or_default();
                return Err(Refusal::new(
                    Reason::GivenTwice,
                    format!(
                        "{}: <{}> was given as a table and --{first} sets one of its fields; use one or the other",
                        self.schema.identity, self.schema.params[*o].name
                    ),
                ));
            }
            self.slots[*o] = Some(Json::Object(self.fields));
        }
        Ok(self
            .slots
            .into_iter()
            .map(|s| s.filter(|v| !v.is_null()))
            .collect())
    }
}

/// Reads one word as `ty`: string and Path as written (Path resolved against `cwd`),
/// number and boolean strictly, a union of string literals against its members, and
/// anything else as JSON, `true`/`false`/`null`, a number, a comma run of numbers, or text.
pub(crate) fn read_word(ty: &Ty, word: &str, cwd: &Path, label: &str) -> Result<Json, Refusal> {
    let bad = |what: String| Refusal::new(Reason::BadValue, format!("{label}: {what}"));
    let ty = ty.without_nil();
    if let Some(choices) = ty.literal_choices() {
        return if choices.contains(&word) {
            Ok(Json::String(word.to_string()))
        } else {
            Err(bad(format!(
                "\"{word}\" is not one of: {}",
                choices.join(", ")
            )))
        };
    }
    match &ty {
        Ty::String => Ok(Json::String(word.to_string())),
        Ty::Path => Ok(Json::String(resolve(cwd, word))),
        Ty::Number => number(word).ok_or_else(|| bad(format!("expected a number, got \"{word}\""))),
        Ty::Boolean | Ty::BoolLiteral(_) => match word {
            "true" => Ok(Json::Bool(true)),
            "false" => Ok(Json::Bool(false)),
            _ => Err(bad(format!("expected true or false, got \"{word}\""))),
        },
        Ty::Array(item) if !word.starts_with(['[', '{']) => match comma_numbers(word) {
            Some(run) => Ok(run),
            None => Ok(Json::Array(vec![read_word(item, word, cwd, label)?])),
        },
        _ => generic(word).map_err(bad),
    }
}

/// A word for a slot of no simple type.
fn generic(word: &str) -> Result<Json, String> {
    if word.starts_with(['{', '[']) {
        return serde_json::from_str(word).map_err(|e| format!("'{word}' is not valid JSON: {e}"));
    }
    Ok(match word {
        "true" => Json::Bool(true),
        "false" => Json::Bool(false),
        "null" => Json::Null,
        _ => number(word)
            .or_else(|| comma_numbers(word))
            .unwrap_or_else(|| Json::String(word.to_string())),
    })
}

/// A strict decimal number: optional sign, digits with an optional fraction, optional exponent.
fn number(word: &str) -> Option<Json> {
    let digits = word.strip_prefix(['-', '+']).unwrap_or(word);
    let mantissa = digits.split(['e', 'E']).next().unwrap_or("");
    let well_formed = !mantissa.is_empty()
        && mantissa.chars().any(|c| c.is_ascii_digit())
        && digits
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'));
    if !well_formed {
        return None;
    }
    if let Ok(i) = word.parse::<i64>() {
        return Some(Json::from(i));
    }
    let f: f64 = word.parse().ok()?;
    serde_json::Number::from_f64(f).map(Json::Number)
}

/// `0,5,0`: two or more numbers separated by commas.
fn comma_numbers(word: &str) -> Option<Json> {
    if !word.contains(',') {
        return None;
    }
    word.split(',')
        .map(number)
        .collect::<Option<Vec<_>>>()
        .map(Json::Array)
}

/// `word` as an absolute path: relative words join `cwd`; `.` and `..` are folded away.
fn resolve(cwd: &Path, word: &str) -> String {
    let joined = cwd.join(word);
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out.to_string_lossy().into_owned()
}

fn unknown_flag(schema: &Schema, shown: &str, name: &str) -> Refusal {
    let mut known: Vec<String> = schema
        .long_names()
        .iter()
        .map(|n| format!("--{n}"))
        .collect();
    known.extend(
        schema
            .flags
            .iter()
            .filter_map(|f| f.short.map(|c| format!("-{c}"))),
    );
    let bare: Vec<&str> = schema.long_names();
    let hint = match nearest(name, bare.iter().copied()).first() {
        Some(best) => format!("did you mean --{best}? "),
        None => String::new(),
    };
    let known = if known.is_empty() {
        "it takes no flags".to_string()
    } else {
        format!("its flags: {}", known.join(", "))
    };
    Refusal::new(
        Reason::UnknownFlag,
        format!(
            "{}: unknown flag {shown}; {hint}{known} (codemode call {} --help shows them all)",
            schema.identity, schema.identity
        ),
    )
}

fn missing_value(schema: &Schema, name: &str) -> Refusal {
    Refusal::new(
        Reason::MissingValue,
        format!(
            "{}: --{name} needs a value: --{name} VALUE or --{name}=VALUE (a value starting with -- needs the = form)",
            schema.identity
        ),
    )
}

fn given_twice(schema: &Schema, label: &str) -> Refusal {
    Refusal::new(
        Reason::GivenTwice,
        format!("{}: {label} was given twice; give it once", schema.identity),
    )
}
