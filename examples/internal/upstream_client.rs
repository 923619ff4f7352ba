//! A small client over `crate::upstream`, for the tests that need one as a program of
//! its own:
//!
//! ```sh
//! upstream_client conformance URL   # what the MCP conformance suite runs (`client --command`):
//!                                   # connect, list the tools, call each with arguments made
//!                                   # from its input schema, print the results
//! upstream_client hold WORLD        # start every server of WORLD/.codemode/mcp.json, print
//!                                   # "pid <server> <pid>" lines, then wait to be killed
//! ```

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::upstream::{self, config, UpstreamOptions, Upstreams};
use serde_json::{json, Map, Value};

pub fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("CODEMODE_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["conformance", url] => conformance(url),
        ["hold", world] => hold(Path::new(world)),
        _ => {
            eprintln!("usage: upstream_client conformance URL | upstream_client hold WORLD");
            ExitCode::from(2)
        }
    }
}

fn conformance(url: &str) -> ExitCode {
    let world = tempfile::tempdir().expect("a temporary folder");
    let text = json!({ "mcpServers": { "server": { "type": "http", "url": url } } }).to_string();
    let configs = config::parse_text(Path::new("conformance.json"), &text);
    if let Some(problem) = configs.problems.first() {
        eprintln!("{problem}");
        return ExitCode::from(1);
    }
    let upstreams = match Upstreams::new(world.path(), &configs, UpstreamOptions::default()) {
        Ok(u) => u,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let catalogue = match upstreams.sync(None).remove(0).result {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    let mut failed = false;
    for tool in &catalogue.tools {
        let arguments = arguments_for(&tool.input_schema);
        let result = upstreams
            .start_call("server", &tool.original, arguments)
            .wait(Instant::now() + Duration::from_secs(10), &|| false);
        match result {
            Ok(value) => println!("{}: {value}", tool.original),
            Err(e) => {
                failed = true;
                eprintln!("{}: {e}", tool.original);
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// A value of the right type for each required property (numbers count up from 1).
fn arguments_for(schema: &Value) -> Map<String, Value> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut next = 0;
    let mut out = Map::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, prop) in props {
            if !required.contains(&name.as_str()) {
                continue;
            }
            next += 1;
            let value = match prop.get("type").and_then(Value::as_str) {
                Some("number" | "integer") => json!(next),
                Some("boolean") => json!(true),
                Some("array") => json!([]),
                Some("object") => json!({}),
                _ => json!(format!("value{next}")),
            };
            out.insert(name.clone(), value);
        }
    }
    out
}

fn hold(world: &Path) -> ExitCode {
    let configs = upstream::load(world, &[]);
    let upstreams = match Upstreams::new(world, &configs, UpstreamOptions::default()) {
        Ok(u) => u,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    for report in upstreams.sync(None) {
        if let Err(e) = report.result {
            eprintln!("{}: {e}", report.server);
        }
        if let Some(pid) = upstreams.process_id(&report.server) {
            println!("pid {} {pid}", report.server);
        }
    }
    println!("ready");
    use std::io::Write;
    let _ = std::io::stdout().flush();
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}
