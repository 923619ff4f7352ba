//! The README's test command (`./test`) on a machine that lacks what the tests need: as a
//! user who cannot install packages, it stops at once and names what to install and how.
//! (On a machine that has them, `.ci/run` runs the same script for real.)

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A PATH of this machine's shell tools only: no node, npm, python3, chromium or sudo.
fn bare_path(dir: &Path) {
    for tool in ["bash", "env", "id", "dirname", "apt-get"] {
        let found = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]
            .iter()
            .map(|d| Path::new(d).join(tool))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("{tool} is on every Debian machine"));
        symlink(found, dir.join(tool)).unwrap();
    }
    // `cargo` only has to be there: the script stops before it runs it.
    std::fs::write(dir.join("cargo"), "#!/bin/sh\nexit 99\n").unwrap();
    std::fs::set_permissions(
        dir.join("cargo"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
}

#[test]
fn without_the_packages_and_without_root_the_test_command_stops_fast_naming_them() {
    let bin = tempfile::tempdir().unwrap();
    bare_path(bin.path());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/test");
    let root = unsafe { libc::geteuid() } == 0;
    let mut command = if root {
        // As root the script would install the packages: run it as `nobody` instead.
        let mut c = Command::new("/usr/bin/setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"]);
        c.arg(script);
        c
    } else {
        Command::new(script)
    };
    command
        .env_clear()
        .env("PATH", bin.path())
        .env("HOME", bin.path());
    let started = Instant::now();
    let out = command.output().expect("./test starts");
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(took < Duration::from_secs(10), "it took {took:?} to stop");
    for package in ["nodejs", "npm", "python3", "chromium"] {
        assert!(stderr.contains(package), "{package} is not named: {stderr}");
    }
    assert!(
        stderr.contains("sudo apt-get install -y"),
        "the command to run is not given: {stderr}"
    );
    assert!(!stderr.contains("exit 99"), "cargo ran: {stderr}");
}
