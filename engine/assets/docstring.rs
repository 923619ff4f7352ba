//! The `--!key value` docstring lines of a tool's `init.luau`.

/// Directives Luau itself reads; they are never docstring keys.
const LUAU_DIRECTIVES: [&str; 6] = [
    "strict",
    "nonstrict",
    "nocheck",
    "nolint",
    "optimize",
    "native",
];

/// Words that end in a period without ending a sentence.
const ABBREVIATIONS: [&str; 7] = ["etc", "vs", "cf", "approx", "incl", "al", "resp"];

/// The first sentence of a description, with its period: up to the first period and
/// space that end a sentence, or the whole text. A period after a digit (`1. item`), a
/// single letter (`z. B.`), a word holding a period (`e.g.`) or a common abbreviation
/// (`etc.`) ends none; a blank line ends one that has no period.
pub(crate) fn first_sentence(description: &str) -> &str {
    // A paragraph ends a sentence that has no full stop (a summary line).
    let description = match description.find("\n\n") {
        Some(end) => description[..end].trim_end(),
        None => description,
    };
    let mut from = 0;
    while let Some(at) = description[from..].find(". ").map(|i| from + i) {
        let word = description[..at]
            .rsplit(char::is_whitespace)
            .next()
            .unwrap_or_default();
        let ends = word.chars().count() > 1
            && word
                .chars()
                .last()
                .is_some_and(|c| c.is_alphabetic() || ")\"'`".contains(c))
            && !word.contains('.')
            && !ABBREVIATIONS.contains(&word.to_lowercase().as_str());
        if ends {
            return &description[..=at];
        }
        from = at + 1;
    }
    description
}

/// `text` with every control character but newline and tab written as its escape
/// (`\u{1b}`): a description shown in a terminal (`codemode list`, `call --help`) or read
/// back by an agent cannot clear the screen, move the cursor, retitle the window or
/// overwrite what came before it on the line.
pub(crate) fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let control = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.contains(control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if control(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// One `--!arg NAME TYPE DESCRIPTION` line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DocArg {
    /// Parameter name.
    pub(crate) name: String,
    /// Type token (no spaces).
    pub(crate) ty: String,
    /// The rest of the line.
    pub(crate) description: String,
}

/// Everything the docstring lines of one file say.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Docstring {
    /// `--!desc` lines, in order.
    pub(crate) desc: Vec<String>,
    /// `--!arg` lines, in order.
    pub(crate) args: Vec<DocArg>,
    /// `--!return TYPE DESCRIPTION`.
    pub(crate) returns: Option<(String, String)>,
    /// `--!example` lines.
    pub(crate) examples: Vec<String>,
    /// `--!flag NAME [SHORT]`.
    pub(crate) flags: Vec<(String, Option<String>)>,
    /// `--!rest NAME`.
    pub(crate) rest: Option<String>,
    /// Lines that look like docstrings but could not be read, with why.
    pub(crate) problems: Vec<String>,
}

impl Docstring {
    /// Reads every `--!` line of `source` (Luau's own directives excepted).
    pub(crate) fn parse(source: &str) -> Docstring {
        let mut doc = Docstring::default();
        for (number, line) in source.lines().enumerate() {
            let Some(rest) = line.trim_start().strip_prefix("--!") else {
                continue;
            };
            let (key, value) = split_word(rest);
            if LUAU_DIRECTIVES.contains(&key) {
                continue;
            }
            doc.read_line(number + 1, key, printable(value).trim());
        }
        doc
    }

    fn read_line(&mut self, line: usize, key: &str, value: &str) {
        match key {
            "desc" => self.desc.push(value.to_string()),
            "example" if value.trim().is_empty() => self.problems.push(format!(
                "line {line}: `--!example` is empty; write a call, e.g. `--!example tools.text.slugify(\"Hi\")`"
            )),
            "example" => self.examples.push(value.trim().to_string()),
            "arg" => {
                let (name, rest) = split_word(value);
                let (ty, description) = split_type(rest);
                if name.is_empty() || ty.is_empty() {
                    self.problems.push(format!(
                        "line {line}: `--!arg` needs NAME TYPE DESCRIPTION, e.g. `--!arg text string The text.`"
                    ));
                } else {
                    self.args.push(DocArg {
                        name: name.to_string(),
                        ty: ty.to_string(),
                        description: description.trim().to_string(),
                    });
                }
            }
            "return" | "returns" => {
                let (ty, description) = split_type(value);
                if ty.is_empty() {
                    self.problems.push(format!(
                        "line {line}: `--!return` needs TYPE DESCRIPTION, e.g. `--!return string The slug.`"
                    ));
                } else {
                    self.returns = Some((ty.to_string(), description.trim().to_string()));
                }
            }
            "flag" => {
                let (name, rest) = split_word(value);
                let (short, _) = split_word(rest);
                if name.is_empty() {
                    self.problems.push(format!("line {line}: `--!flag` needs NAME [SHORT]"));
                } else {
                    let short = (!short.is_empty()).then(|| short.trim_start_matches('-').to_string());
                    self.flags.push((name.to_string(), short));
                }
            }
            "rest" => {
                let (name, _) = split_word(value);
                if name.is_empty() {
                    self.problems.push(format!("line {line}: `--!rest` needs NAME"));
                } else {
                    self.rest = Some(name.to_string());
                }
            }
            "global" => {}
            other => self.problems.push(format!(
                "line {line}: unknown docstring key `--!{other}` (known: desc, arg, return, example, flag, rest)"
            )),
        }
    }

    /// The description: `--!desc` lines joined with spaces.
    pub(crate) fn description(&self) -> String {
        self.desc.join(" ").trim().to_string()
    }
}

/// Splits off the first whitespace-delimited word.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find(char::is_whitespace) {
        Some(at) => (&text[..at], &text[at..]),
        None => (text, ""),
    }
}

/// Splits off a type: the first word, where spaces inside brackets do not end it
/// (`{ sep: string? }`, `(string, number)`). A scan, not the type reader (`crate::types`,
/// which parses with `full_moon` and sits above this module): the line holds a type and then
/// prose, so where the type ends is found before anything can be parsed, for every `--!arg`
/// of every tool read. The reader then reads the text found here; a test there checks that
/// it reads as one type.
fn split_type(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    let mut depth = 0usize;
    let mut previous = ' ';
    for (at, c) in text.char_indices() {
        match c {
            '(' | '{' | '[' | '<' => depth += 1,
            // The `>` of an arrow (`->`) closes nothing.
            '>' if previous == '-' => {}
            ')' | '}' | ']' | '>' => depth = depth.saturating_sub(1),
            // A space ends the type unless an operator joins it to more (`(x) -> y`,
            // `string | number`).
            c if c.is_whitespace() && depth == 0 && !continues(&text[..at], &text[at..]) => {
                return (&text[..at], &text[at..])
            }
            _ => {}
        }
        previous = c;
    }
    (text, "")
}

/// True when the type read so far (`head`) goes on past the space: `head` ends with an
/// operator, or what follows starts with one.
fn continues(head: &str, tail: &str) -> bool {
    const JOINS: [&str; 3] = ["->", "|", "&"];
    let next = tail.trim_start();
    JOINS
        .iter()
        .any(|op| head.ends_with(op) || next.starts_with(op))
}

#[cfg(test)]
#[path = "../../tests/unit/assets/docstring.rs"]
mod tests;
