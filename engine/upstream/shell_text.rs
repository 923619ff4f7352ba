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
mod tests {
    use super::*;

    fn list(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn the_text_a_shell_runs_is_found_however_the_shell_is_started() {
        for (command, args, texts) in [
            ("sh", &["-c", "T"][..], vec![1]),
            ("/bin/sh", &["-c", "T"], vec![1]),
            ("bash", &["-lc", "T"], vec![1]),
            ("bash", &["-l", "-c", "T", "name"], vec![2, 3]),
            ("dash", &["-ec", "T"], vec![1]),
            ("zsh", &["-c", "T"], vec![1]),
            ("env", &["sh", "-c", "T"], vec![2]),
            ("/usr/bin/env", &["-i", "FOO=1", "bash", "-c", "T"], vec![4]),
            ("env", &["-S", "T"], vec![1]),
            ("env", &["--split-string=T"], vec![0]),
            ("fish", &["--command=T"], vec![0]),
            ("busybox", &["sh", "-c", "T"], vec![2]),
            ("node", &["server.js", "-c", "conf"], vec![]),
            ("sh", &["server.sh"], vec![]),
        ] {
            assert_eq!(scripts(command, &list(args)), texts, "{command} {args:?}");
        }
    }

    #[test]
    fn code_handed_to_an_interpreter_is_found() {
        for (command, args, at) in [
            ("python3", &["-c", "import os"][..], Some(0)),
            ("/usr/bin/python3.12", &["-u", "-c", "x"], Some(1)),
            ("node", &["--eval=x"], Some(0)),
            ("env", &["node", "-e", "x"], Some(1)),
            ("deno", &["eval", "x"], Some(0)),
            ("perl", &["-E", "x"], Some(0)),
            ("python3", &["-m", "server", "-c", "conf.toml"], None),
            ("node", &["server.js", "-e", "x"], None),
            ("python3", &["-m", "server"], None),
            ("node", &["server.js", "--port=1"], None),
            ("nodemon", &["-e", "js"], None),
        ] {
            let got = inline_code(command, &list(args)).map(|(at, _)| at);
            assert_eq!(got, at, "{command} {args:?}");
        }
    }

    #[test]
    fn words_are_read_as_the_shell_reads_them() {
        let read = |text: &str| {
            let reading = words(text);
            assert_eq!(reading.unknowable, None, "{text}");
            reading.words
        };
        assert_eq!(
            read("cd /opt/srv && exec node 'my server.js' \"./da\"ta>log"),
            list(&[
                "cd",
                "/opt/srv",
                "exec",
                "node",
                "my",
                "server.js",
                "my server.js",
                "./data",
                "log"
            ])
        );
        assert_eq!(
            read("cat ./.code'mode'/mcp.json;ls .code\\mode"),
            list(&["cat", "./.codemode/mcp.json", "ls", ".codemode"])
        );
        // Text inside text is read too.
        let inner = read("sh -c \"cat ./.codemode/x\"");
        assert!(inner.contains(&"./.codemode/x".to_string()), "{inner:?}");
    }

    #[test]
    fn words_made_at_run_time_cannot_be_read() {
        // What can be read is still read.
        let reading = words("cat $X ./.codemode/y");
        assert!(
            reading.words.contains(&"./.codemode/y".to_string()),
            "{:?}",
            reading.words
        );
        for (text, says) in [
            ("cat $PWD/.codemode/mcp.json", "`$`"),
            ("D=.codemode; cat ./$D/mcp.json", "`$`"),
            ("cat \"${HOME}\"", "`$`"),
            ("cat `pwd`/x", "backquote"),
            ("cat ./.codemod?/mcp.json", "glob"),
            ("cat ./.code*/mcp.json", "glob"),
            ("cat ./.codemod[e]/mcp.json", "glob"),
            ("cat ./.code{mode,x}/mcp.json", "brace"),
            ("cat ~/w/.codemode/x", "`~`"),
            ("diff <(cat a) b", "process substitution"),
            ("cat <(ls)", "process substitution"),
            ("eval 'cat x'", "`eval`"),
            ("printf '\\056codemode' | xargs cat", "`xargs`"),
            ("cd data; . ./env", "`.`"),
            ("source ./env", "`source`"),
            ("echo 'open", "unterminated"),
            ("sh -c 'cat $X'", "`$`"),
        ] {
            let e = words(text).unknowable.unwrap_or_default();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
