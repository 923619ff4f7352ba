//! Helpers shared by the integration tests: temp worlds and running the binary.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A temp world that is deleted when dropped.
pub struct World {
    pub dir: tempfile::TempDir,
}

impl World {
    pub fn new() -> World {
        World {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `text` to `rel`, creating folders.
    pub fn file(&self, rel: &str, text: &str) -> &World {
        let path = self.dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }

    /// Writes a tool whose init.luau is `source`.
    pub fn tool(&self, identity: &str, source: &str) -> &World {
        let (b, n) = identity.split_once('.').unwrap();
        self.file(&format!("{b}.toolbox/{n}.tool/init.luau"), source)
    }
}

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_codemode"))
}

/// Runs `codemode ARGS` in `world` with `stdin`.
pub fn codemode(world: &Path, args: &[&str], stdin: &str) -> Output {
    // Global flags first: after `call <box>.<tool>` every word belongs to the tool.
    let mut child = Command::new(bin())
        .arg("--world")
        .arg(world)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn codemode");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).ok();
    child.wait_with_output().expect("wait codemode")
}

/// Runs `codemode exec` on `script` and parses its single line of JSON.
pub fn exec(world: &Path, extra: &[&str], script: &str) -> (serde_json::Value, i32) {
    let mut args = vec!["exec"];
    args.extend_from_slice(extra);
    let out = codemode(world, &args, script);
    let stdout = String::from_utf8(out.stdout).expect("utf-8 stdout");
    assert_eq!(
        stdout.lines().count(),
        1,
        "exec must print exactly one line, got:\n{stdout}"
    );
    let json =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}"));
    (json, out.status.code().unwrap_or(-1))
}
