//! A script the type check refuses takes no effect of any class, whatever it reaches
//! before its mistaken line: no file written, no request sent, no command started, no
//! MCP server started or called, no tool written. Each effect runs alone before a
//! certain mistake (a number passed where a tool takes a string), after a type slow to
//! check so that the effect is reached before the verdict, against real
//! counterparts (a loopback HTTP listener, `touch`, the fixture MCP server started
//! through a shell that marks each start); the same script without the mistake shows
//! each effect does take place. `tests/unit/host/classes.rs` holds every host function of a
//! class that acts to the same rule, from the list of what the linker registered.

mod common;
#[path = "upstream/servers.rs"]
mod servers;

use std::net::TcpListener;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{exec, World};
use serde_json::{json, Value};

/// The certain mistake that ends a refused script: `slugify` takes a string.
const MISTAKE: &str = "return tools.text.slugify(42)";

/// The one for a script that writes tools, whose own tools the check cannot know: a
/// misspelt option of a function of `tools`, which no script changes.
const MISTAKE_AFTER_AUTHORING: &str = "return tools.search('slug', { limt = 3 })";

/// What ends the same script when it is let through.
const FINE: &str = "return tools.text.slugify('done')";

/// What opens every script: a type the checker takes a while to compute (a tenth of a
/// second or more), so that the script reaches its effect before the verdict is in and
/// the effect waits at the gate, however fast the checker is otherwise.
const SLOW_TO_CHECK: &str = "type function slow(t)
	local n = 0
	for i = 1, 1000000 do
		n += 1
	end
	return t
end
local _: slow<number> = 1
";

/// The check's own limit, well past what [`SLOW_TO_CHECK`] takes.
const FLAGS: [&str; 4] = ["--check-timeout-ms", "10000", "--timeout-ms", "30000"];

/// A loopback listener that counts the connections made to it (and answers none).
fn listener() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let connections = Arc::new(AtomicUsize::new(0));
    let count = connections.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            count.fetch_add(1, Ordering::SeqCst);
            // Answered at once, so a let-through request does not wait for its deadline.
            let mut stream = stream;
            let _ = std::io::Write::write_all(
                &mut stream,
                b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n",
            );
        }
    });
    (port, connections)
}

/// A world whose profile grants requests to `port` and `touch`, with the MCP server
/// `fixture` (never fetched) started through a shell that appends to `marker` first.
fn world(port: u16, marker: &Path) -> World {
    let world = World::new();
    let policy = json!({ "profiles": { "default": {
        "default": "allow",
        "capabilities": {
            "http": [format!("127.0.0.1:{port}")],
            "shell": ["touch"],
            "shellUnconfined": true,
        },
    }}});
    world.file(".codemode/policy.json", &policy.to_string());
    let fixture = format!("python3 '{}' typed 0", servers::fixture());
    let server = json!({
        "command": "sh",
        "args": ["-c", format!("echo started >> '{}'; exec {fixture}", marker.display())],
    });
    world.file(
        ".codemode/mcp.json",
        &json!({ "mcpServers": { "fixture": server } }).to_string(),
    );
    // Commands may not create entries at the top of the world: `touch` writes in here.
    world.file("out/keep.txt", "");
    world
}

/// Each effect, as a script's first line, and what shows it took place.
struct Effect {
    class: &'static str,
    line: &'static str,
    mistake: &'static str,
    took_place: fn(&Path, &Path, &AtomicUsize) -> bool,
}

fn effects() -> Vec<Effect> {
    vec![
        Effect {
            class: "write:files",
            line: "vfs.write('wrote.txt', 'x')",
            mistake: MISTAKE,
            took_place: |world, _, _| world.join("wrote.txt").exists(),
        },
        Effect {
            class: "write:files",
            line: "vfs.remove('out/keep.txt')",
            mistake: MISTAKE,
            took_place: |world, _, _| !world.join("out/keep.txt").exists(),
        },
        Effect {
            class: "write:tools",
            line: "tools.createToolbox({ name = 'mine', description = 'Mine.' })",
            mistake: MISTAKE_AFTER_AUTHORING,
            took_place: |world, _, _| world.join("mine.toolbox").exists(),
        },
        Effect {
            class: "network",
            line: "pcall(http.request, { url = 'http://127.0.0.1:PORT/' })",
            mistake: MISTAKE,
            took_place: |_, _, connections| connections.load(Ordering::SeqCst) > 0,
        },
        Effect {
            class: "process",
            line: "shell.run({ cmd = 'touch', args = { 'out/ran.txt' } })",
            mistake: MISTAKE,
            took_place: |world, _, _| world.join("out/ran.txt").exists(),
        },
        Effect {
            class: "upstream",
            line: "pcall(function() return tools.fixture.echo({ a = 1 }) end)",
            mistake: MISTAKE,
            took_place: |_, marker, _| marker.exists(),
        },
        Effect {
            class: "upstream on use (a search)",
            line: "tools.search('echo the arguments')",
            mistake: MISTAKE,
            took_place: |_, marker, _| marker.exists(),
        },
        Effect {
            class: "upstream on use (a listing)",
            line: "tools.list('fixture', 2)",
            mistake: MISTAKE,
            took_place: |_, marker, _| marker.exists(),
        },
    ]
}

#[test]
fn a_refused_script_takes_no_effect_of_any_class_and_the_same_script_let_through_does() {
    let _serial = servers::serial();
    for effect in effects() {
        for refused in [true, false] {
            let (port, connections) = listener();
            let marker = tempfile::tempdir().unwrap();
            let marker = marker.path().join("started");
            let world = world(port, &marker);
            let first = effect.line.replace("PORT", &port.to_string());
            let last = if refused { effect.mistake } else { FINE };
            let script = format!("{SLOW_TO_CHECK}{first}\n{last}\n");
            let (envelope, _) = exec(world.path(), &FLAGS, &script);
            let took_place = (effect.took_place)(world.path(), &marker, &connections);
            if refused {
                assert_eq!(
                    envelope["error"]["kind"], "type",
                    "{}: {script}\n{envelope}",
                    effect.class
                );
                assert_eq!(envelope["error"]["line"], 10, "{envelope}");
                assert!(
                    !took_place,
                    "{}: a refused script took effect: {script}\n{envelope}",
                    effect.class
                );
            } else {
                assert_eq!(
                    envelope["value"],
                    json!("done"),
                    "{}: {script}\n{envelope}",
                    effect.class
                );
                assert!(
                    took_place,
                    "{}: the script let through took no effect, so the test shows nothing: {script}\n{envelope}",
                    effect.class
                );
            }
            // A refused run's envelope is the refusal alone.
            if refused {
                assert_eq!(envelope["value"], Value::Null, "{envelope}");
            }
        }
    }
}
