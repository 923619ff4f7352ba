//! A reader that closes the pipe early (`codemode list | head -1`) ends each command
//! quietly: exit 0, nothing on stderr (no panic message), and a script that streams its
//! prints stops at once instead of printing into nothing until its deadline.

mod common;

use std::time::Duration;

use common::{codemode_closed_stdout, World};

fn world() -> World {
    let world = World::new();
    world.tool(
        "demo.twice",
        "--!desc Twice a number.\n--!arg n number The number.\n--!return number Twice n.\nlocal function twice(n: number): number\n\treturn n * 2\nend\nreturn twice\n",
    );
    world
}

fn assert_quiet(args: &[&str], stdin: &str) -> Duration {
    let world = world();
    let (status, stderr, took) = codemode_closed_stdout(world.path(), args, stdin);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "codemode {args:?} on a closed stdout wrote to stderr:\n{stderr}"
    );
    assert!(stderr.trim().is_empty(), "codemode {args:?}: {stderr}");
    assert_eq!(status.code(), Some(0), "codemode {args:?}: {status}");
    took
}

#[test]
fn listing_searching_and_calling_end_quietly() {
    assert_quiet(&["list", "3"], "");
    assert_quiet(&["list", "--json"], "");
    assert_quiet(&["search", "twice a number", "--mode", "keyword"], "");
    assert_quiet(&["call", "demo.twice", "21"], "");
    assert_quiet(&["call", "demo.twice", "--help"], "");
    assert_quiet(&["types"], "");
}

#[test]
fn exec_ends_quietly() {
    assert_quiet(&["exec"], "return tools.demo.twice(21)");
}

#[test]
fn a_streaming_script_stops_when_its_reader_goes() {
    // Without the stop, this prints into the closed pipe until the 10 s deadline.
    let took = assert_quiet(
        &["--timeout-ms", "10000", "run", "-"],
        "while true do print('more') end",
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn the_repl_ends_quietly() {
    let took = assert_quiet(&["repl"], "1 + 1\nwhile true do print('x') end\n");
    assert!(took < Duration::from_secs(5), "took {took:?}");
}
