//! Tests of `engine/policy/file.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn profile(text: &str, name: Option<&str>) -> Result<Profile, String> {
    parse(Path::new("w/.codemode/policy.json"), text, name).map_err(|e| e.to_string())
}

const EXAMPLE: &str = r#"{ "profiles": {
        "default":  { "default": "allow", "deny": ["ops.drop*"] },
        "readonly": { "default": "deny", "allow": ["text.*", "ops.read"],
                      "capabilities": { "authoring": false, "vfsWrite": false,
                                        "http": ["api.example.com", "*.example.org"], "shell": ["wc", "echo"] } } } }"#;

#[test]
fn reads_the_documented_example() {
    let default = profile(EXAMPLE, None).unwrap();
    assert_eq!(default.name(), "default");
    assert_eq!(default.capabilities, Capabilities::default());
    assert!(!default.rules.allows("ops.drop_table"));
    assert!(default.rules.allows("ops.read"));
    let readonly = profile(EXAMPLE, Some("readonly")).unwrap();
    assert!(!readonly.capabilities.authoring);
    assert!(!readonly.capabilities.vfs_write);
    assert_eq!(
        readonly.capabilities.http,
        ["api.example.com", "*.example.org"]
    );
    assert_eq!(readonly.capabilities.shell, ["wc", "echo"]);
    assert!(readonly.rules.allows("text.slugify"));
    assert!(!readonly.rules.allows("json.parse"));
}

#[test]
fn what_the_file_does_not_say_exactly_stops_with_the_line() {
    let unknown_cap = "{ \"profiles\": {\n \"default\": { \"default\": \"allow\",\n \"capabilities\": { \"network\": true } } } }";
    let e = profile(unknown_cap, None).unwrap_err();
    assert!(e.starts_with("w/.codemode/policy.json:3:"), "{e}");
    assert!(e.contains("unknown field `network`"), "{e}");
    assert!(e.contains("vfsWrite"), "{e}");

    let e = profile(
        "{ \"profiles\": {\n \"default\": { \"default\": \"maybe\" } } }",
        None,
    )
    .unwrap_err();
    assert!(e.starts_with("w/.codemode/policy.json:2:"), "{e}");
    assert!(e.contains("unknown variant `maybe`"), "{e}");

    let e = profile(
        "{ \"profiles\": {\n\"default\": { \"allow\": [] } } }",
        None,
    )
    .unwrap_err();
    assert!(e.contains("missing field `default`"), "{e}");

    let e = profile(
        "{ \"profiles\": { \"default\": { \"default\": \"deny\",\n\"allow\": [\"ops\"] } } }",
        None,
    )
    .unwrap_err();
    assert!(e.starts_with("w/.codemode/policy.json:2:"), "{e}");
    assert!(e.contains("\"ops.*\""), "{e}");

    let e = profile("{ \"profiles\": { \"default\": { \"default\": \"deny\", \"capabilities\": { \"http\": [\"https://x.org/\"] } } } }", None).unwrap_err();
    assert!(e.contains("without scheme"), "{e}");
    let e = profile("{ \"profiles\": { \"default\": { \"default\": \"deny\", \"capabilities\": { \"http\": [\"x.org:99999\"] } } } }", None).unwrap_err();
    assert!(e.contains("port"), "{e}");
    let e = profile("{ \"profiles\": { \"default\": { \"default\": \"deny\", \"capabilities\": { \"http\": [\"*.10.0.0.1\"] } } } }", None).unwrap_err();
    assert!(e.contains("is not a host pattern"), "{e}");
    let e = profile("{ \"profiles\": { \"default\": { \"default\": \"deny\", \"capabilities\": { \"shell\": [\"git status\"] } } } }", None).unwrap_err();
    assert!(e.contains("one command name"), "{e}");
    let e = profile("{ \"profiles\": { \"default\": { \"default\": \"deny\", \"capabilities\": { \"shell\": [\"./bin/x\"] } } } }", None).unwrap_err();
    assert!(
        e.contains("is a relative path") && e.contains("/usr/bin/wc"),
        "{e}"
    );
    let e = profile("{ \"profiles\": { \"default\": { \"default\": \"deny\", \"capabilities\": { \"http\": [\"*.1\"] } } } }", None).unwrap_err();
    assert!(e.contains("is not a host pattern"), "{e}");

    // A profile given twice is refused, not read as whichever copy came last.
    let e = profile(
        "{ \"profiles\": { \"default\": { \"default\": \"deny\" },\n \"default\": { \"default\": \"allow\" } } }",
        None,
    )
    .unwrap_err();
    assert!(e.starts_with("w/.codemode/policy.json:2:"), "{e}");
    assert!(e.contains("profile \"default\" is given twice"), "{e}");

    let e = profile("[]", None).unwrap_err();
    assert!(e.contains("one JSON object with \"profiles\""), "{e}");
    assert!(!e.contains("struct"), "{e}");
    let e = profile("{ \"profiles\": { \"default\": [] } }", None).unwrap_err();
    assert!(!e.contains("struct"), "{e}");
    let e = profile("{ \"profiles\": { \"default\": ", None).unwrap_err();
    assert!(e.starts_with("w/.codemode/policy.json:1:"), "{e}");
    assert!(e.contains("fix that line"), "{e}");
}

#[test]
fn commands_get_the_network_and_run_unconfined_only_when_the_profile_says_so() {
    let readonly = profile(EXAMPLE, Some("readonly")).unwrap();
    assert!(!readonly.capabilities.shell_network);
    assert!(!readonly.capabilities.shell_unconfined);
    let open = r#"{ "profiles": { "default": { "default": "allow", "capabilities":
            { "shell": ["curl"], "shellNetwork": true, "shellUnconfined": true } } } }"#;
    let caps = profile(open, None).unwrap().capabilities;
    assert!(caps.shell_network && caps.shell_unconfined);
    // Cached results made with the network are not handed to a profile without it.
    assert_ne!(
        caps.fingerprint(),
        Capabilities {
            shell_network: false,
            ..caps.clone()
        }
        .fingerprint()
    );
    let e = profile(r#"{ "profiles": { "default": { "default": "allow", "capabilities": { "shellNetwork": "yes" } } } }"#, None).unwrap_err();
    assert!(e.contains("expected a boolean"), "{e}");
}

#[test]
fn a_missing_profile_is_named_with_the_ones_there() {
    let e = profile(EXAMPLE, Some("admin")).unwrap_err();
    assert!(
        e.contains("no profile named 'admin' (profiles: default, readonly)"),
        "{e}"
    );
    assert!(e.contains("--profile"), "{e}");
    let only = r#"{ "profiles": { "ci": { "default": "deny" } } }"#;
    let e = profile(only, None).unwrap_err();
    assert!(e.contains("add a profile 'default'"), "{e}");
}

#[test]
fn hosts_with_ports_and_ipv6_literals_are_hosts() {
    assert!(check_host("api.example.com:8443").is_ok());
    assert!(check_host("*.example.org").is_ok());
    assert!(check_host("[::1]:8080").is_ok());
    assert!(check_host("[::1]").is_ok());
    assert!(check_host("user@host").is_err());
    assert!(check_host("host:0").is_err());
}
