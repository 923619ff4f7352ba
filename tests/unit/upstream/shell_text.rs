//! Tests of `engine/upstream/shell_text.rs`, compiled as its child module `tests` (they reach its
//! private items).

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
