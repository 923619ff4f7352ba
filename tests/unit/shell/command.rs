//! Tests of `engine/shell/command.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn list(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[test]
fn only_listed_names_resolve_on_the_fixed_path() {
    let allowed = list(&[
        "echo",
        "sh",
        "/bin/echo",
        "nosuchcommand-xyz",
        "./echo",
        "/bin/../bin/echo",
    ]);
    let echo = resolve("echo", &allowed).unwrap();
    assert!(echo.is_absolute() && echo.ends_with("echo"), "{echo:?}");
    let e = resolve("cat", &allowed).unwrap_err().to_string();
    assert!(
        e.contains("not an allowed command") && e.contains("capabilities.shell"),
        "{e}"
    );
    // A path is started only when listed as that very path.
    assert_eq!(
        resolve("/bin/echo", &allowed).unwrap(),
        Path::new("/bin/echo")
    );
    let e = resolve("/usr/bin/echo", &allowed).unwrap_err().to_string();
    assert!(e.contains("not an allowed command"), "{e}");
    let e = resolve("./echo", &allowed).unwrap_err().to_string();
    assert!(e.contains("must be absolute"), "{e}");
    let e = resolve("/bin/../bin/echo", &allowed)
        .unwrap_err()
        .to_string();
    assert!(e.contains("without '..'"), "{e}");
    let e = resolve("nosuchcommand-xyz", &allowed)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no program of that name"), "{e}");
    let e = resolve("echo", &[]).unwrap_err().to_string();
    assert!(e.contains("allowed: none"), "{e}");
}
