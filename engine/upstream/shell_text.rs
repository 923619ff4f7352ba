//! The command text a local server's command line hands a shell (`sh -c TEXT`, `bash -lc
//! TEXT`, `env sh -c TEXT`, `env -S TEXT`), read as the shell would read it, as far as
//! that can be done without running it: quotes removed, operators (`;`, `&&`, `|`, `>`)
//! between words. Text whose words the shell would build at run time (a `$` variable or
//! substitution, a backquote, a glob, a brace expansion, `~`, process substitution) or
//! that turns data into commands (`eval`, `xargs`, `source`) cannot be read whole: the
//! reading says why (the guard refuses it unless the server is trusted with the world),
//! and keeps the words it could read, which are still checked. Code handed to an
//! interpreter (`python3 -c`, `node -e`) is not read at all ([`inline_code`]).

/// Programs that run command text given with `-c`.
const SHELLS: [&str; 13] = [
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "fish", "csh", "tcsh",
    "busybox",
];

/// Commands that run what their words (or their input) make at run time.
const FROM_DATA: [&str; 4] = ["eval", "xargs", "source", "."];

/// How deep text inside text (`sh -c "sh -c '...'"`) is read before giving up.
const MAX_DEPTH: usize = 4;

/// Positions (in `args`) of the arguments a shell runs as command text.
pub(crate) fn scripts(command: &str, args: &[String]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut shell = false;
    let mut text_follows = false;
    let mut env = false;
    for (at, word) in std::iter::once(command)
        .chain(args.iter().map(String::as_str))
        .enumerate()
    {
        let arg = at.checked_sub(1);
        let program = word.rsplit('/').next().unwrap_or(word);
        if !word.starts_with('-') {
            if let (true, Some(arg)) = (text_follows, arg) {
                out.push(arg);
                continue;
            }
            shell |= SHELLS.contains(&program);
            env |= program == "env";
            continue;
        }
        // `env -S TEXT` / `--split-string=TEXT` splits TEXT into a command line.
        if env && (word.starts_with("-S") || word.starts_with("--split-string")) {
            match word.split_once('=') {
                Some(_) => out.extend(arg),
                None if word.len() > 2 && !word.starts_with("--") => out.extend(arg),
                None => text_follows = true,
            }
            continue;
        }
        // `-c`, `-lc`, `-ec`, fish's `--command[=TEXT]`.
        let cluster = word.len() > 1
            && !word.starts_with("--")
            && word[1..].chars().all(|c| c.is_ascii_alphabetic());
        if shell && ((cluster && word.contains('c')) || word.starts_with("--command")) {
            match word.split_once('=') {
                Some(_) => out.extend(arg),
                None => text_follows = true,
            }
        }
    }
    out
}

/// What a shell text holds, as far as it can be read before the shell runs.
pub(crate) struct Reading {
    /// Its words, as the shell reads them (an expansion kept as written).
    pub(crate) words: Vec<String>,
    /// What makes its words unknowable before the shell runs, if anything.
    pub(crate) unknowable: Option<String>,
}

/// Interpreters and the flags that hand them code on the command line.
const INLINE: [(&str, &[&str]); 9] = [
    ("python", &["-c"]),
    ("pypy", &["-c"]),
    ("node", &["-e", "--eval", "-p", "--print"]),
    ("deno", &["eval"]),
    ("bun", &["-e", "--eval", "-p", "--print"]),
    ("perl", &["-e", "-E"]),
    ("ruby", &["-e"]),
    ("php", &["-r"]),
    ("lua", &["-e"]),
];

/// The first argument that is code for an interpreter (`python3 -c CODE`, `node -e CODE`),
/// which cannot be read as a shell's words are: its position in `args`, and what it is.
pub(crate) fn inline_code(command: &str, args: &[String]) -> Option<(usize, String)> {
    let mut interpreter: Option<(&str, &[&str])> = None;
    for (at, word) in std::iter::once(command)
        .chain(args.iter().map(String::as_str))
        .enumerate()
    {
        let program = word.rsplit('/').next().unwrap_or(word);
        if let Some(found) = INLINE.iter().find(|(name, _)| {
            program
                .strip_prefix(name)
                .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit() || c == '.'))
        }) {
            interpreter = Some(*found);
            continue;
        }
        let Some((name, flags)) = interpreter else {
            continue;
        };
        let flag = word.split_once('=').map_or(word, |(flag, _)| flag);
        if at > 0 && flags.contains(&flag) {
            return Some((
                at - 1,
                format!("{name} code (`{flag}`), which codemode cannot read"),
            ));
        }
        // The interpreter's own options end at its script or module (`-m srv -c x`
        // hands `-c` to the module).
        if !word.starts_with('-') {
            interpreter = None;
        }
    }
    None
}

/// The words `text` holds, as a shell reads them.
pub(crate) fn words(text: &str) -> Reading {
    let mut unknowable = None;
    let words = words_within(text, 0, &mut unknowable);
    Reading { words, unknowable }
}

fn words_within(text: &str, depth: usize, unknowable: &mut Option<String>) -> Vec<String> {
    if depth > MAX_DEPTH {
        unknowable.get_or_insert_with(|| "command text nested too deep to read".into());
        return Vec::new();
    }
    let mut reader = Reader {
        words: Vec::new(),
        word: String::new(),
        started: false,
        command_start: true,
        unknowable: None,
    };
    reader.read(text);
    let unknown = reader.unknowable.take();
    if unknowable.is_none() {
        *unknowable = unknown;
    }
    // A word that is itself command text (`sh -c "sh -c '...'"`) is read again.
    let mut all = Vec::new();
    for word in reader.words {
        if word.contains(|c: char| c.is_whitespace() || "'\"\\$`;&|<>(){}*?[~".contains(c)) {
            all.extend(words_within(&word, depth + 1, unknowable));
        }
        all.push(word);
    }
    all
}

impl Reader {
    /// Reads `text` into words, noting the first thing that makes them unknowable and
    /// reading on (what can be read is still checked).
    fn read(&mut self, text: &str) {
        if let Err(why) = self.read_until_lost(text) {
            self.unknowable.get_or_insert(why);
            // An unterminated quote: the word read so far still counts.
            let _ = self.end_word();
        }
    }

    fn read_until_lost(&mut self, text: &str) -> Result<(), String> {
        let reader = self;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\'' => {
                    reader.started = true;
                    loop {
                        match chars.next() {
                            Some('\'') => break,
                            Some(c) => reader.word.push(c),
                            None => return Err("an unterminated quote".into()),
                        }
                    }
                }
                '"' => {
                    reader.started = true;
                    loop {
                        match chars.next() {
                            Some('"') => break,
                            Some('\\') => match chars.next() {
                                Some(c @ ('$' | '`' | '"' | '\\')) => reader.word.push(c),
                                Some('\n') => {}
                                Some(c) => {
                                    reader.word.push('\\');
                                    reader.word.push(c);
                                }
                                None => return Err("an unterminated quote".into()),
                            },
                            Some(c @ ('$' | '`')) => {
                                reader.lost(expansion(c));
                                reader.word.push(c);
                            }
                            Some(c) => reader.word.push(c),
                            None => return Err("an unterminated quote".into()),
                        }
                    }
                }
                '\\' => {
                    reader.started = true;
                    match chars.next() {
                        Some('\n') | None => {}
                        Some(c) => reader.word.push(c),
                    }
                }
                '$' | '`' | '*' | '?' | '[' | '{' | '~' => {
                    reader.lost(expansion(c));
                    reader.started = true;
                    reader.word.push(c);
                }
                c if c.is_whitespace() || ";&|<>()".contains(c) => {
                    if (c == '<' || c == '>') && chars.peek() == Some(&'(') {
                        reader.lost("process substitution (`<(` or `>(`)".into());
                    }
                    reader.end_word()?;
                    // After an operator (or a line's end) comes a command.
                    if ";&|()\n".contains(c) {
                        reader.command_start = true;
                    }
                }
                c => {
                    reader.started = true;
                    reader.word.push(c);
                }
            }
        }
        reader.end_word()
    }
}

/// The state of reading one text.
struct Reader {
    words: Vec<String>,
    word: String,
    /// Whether the word being read began (an empty quoted word is a word).
    started: bool,
    /// Whether the next word is a command.
    command_start: bool,
    /// The first thing that makes the words unknowable.
    unknowable: Option<String>,
}

impl Reader {
    fn lost(&mut self, why: String) {
        self.unknowable.get_or_insert(why);
    }

    fn end_word(&mut self) -> Result<(), String> {
        if !self.started {
            return Ok(());
        }
        self.started = false;
        let word = std::mem::take(&mut self.word);
        let is_command = self.command_start;
        // `eval`, `xargs`, `source` anywhere; `.` where it is a command.
        if FROM_DATA.contains(&word.as_str()) && (word != "." || is_command) {
            self.lost(format!("`{word}`, which runs commands made from data"));
        }
        self.command_start = is_command && is_prefix(&word);
        self.words.push(word);
        Ok(())
    }
}

/// Words after which the next word is still a command (`exec node`, `nohup x`).
fn is_prefix(word: &str) -> bool {
    matches!(
        word,
        "exec" | "command" | "builtin" | "nohup" | "time" | "then" | "do" | "else" | "if" | "!"
    )
}

fn expansion(c: char) -> String {
    match c {
        '$' => "`$` (a variable, or a command or arithmetic substitution)".into(),
        '`' => "a backquote (command substitution)".into(),
        '{' => "`{` (brace expansion)".into(),
        '~' => "`~` (a home folder)".into(),
        c => format!("`{c}` (a glob)"),
    }
}

#[cfg(test)]
#[path = "../../tests/unit/upstream/shell_text.rs"]
mod tests;
