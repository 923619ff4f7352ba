//! The world of the policy tests, shared by `tests/policy.rs` (through the binary) and
//! the crate's own `tests/internal/policy.rs` (through a registry).

use super::World;

/// The profiles every policy test reads.
pub const POLICY: &str = r#"{ "profiles": {
    "default": { "default": "allow", "deny": ["secret.*", "*.delete*"] },
    "agent": { "default": "deny", "allow": ["text.*", "files.*", "github.*"],
               "deny": ["text.shout", "*.delete*", "github.merge_*"] },
    "readonly": { "default": "allow",
                  "capabilities": { "authoring": false, "vfsWrite": false } },
    "notes": { "default": "allow", "capabilities": { "authoring": false } }
} }
"#;

/// A tool `box.name` that returns "<name>:<arg>".
pub fn tool(world: &World, identity: &str, description: &str) {
    let name = identity.split_once('.').unwrap().1;
    world.tool(
        identity,
        &format!(
            "--!desc {description}\n--!arg x string Anything.\n--!return string Tagged.\n\
             local function {name}(x: string): string\n\treturn \"{name}:\" .. x\nend\n\nreturn {name}\n"
        ),
    );
}

/// A world of four toolboxes (no bundled ones are read: every command gets
/// `--no-bundled`) and the policy above.
pub fn world() -> World {
    let w = World::new();
    tool(&w, "text.slugify", "Turn text into a slug.");
    tool(&w, "text.shout", "Upper-case text.");
    tool(&w, "files.read", "Read a file of the store.");
    tool(&w, "files.delete_all", "Delete all files of the store.");
    tool(&w, "files.undelete", "Bring back deleted files.");
    tool(&w, "github.merge_pr", "Merge a pull request.");
    tool(&w, "github.list_prs", "List pull requests.");
    tool(&w, "secret.launch", "Launch the rockets.");
    w.file(".codemode/policy.json", POLICY);
    w
}
