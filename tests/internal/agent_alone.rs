//! An agent alone: a world whose MCP servers nobody synced, served to an agent with
//! nothing but MCP, and edited while it is served. The servers fetch their tools when a
//! script needs them (or in the background while serving); an edit of
//! `.codemode/mcp.json` is applied and announced without a restart.

use super::common;
use super::servers;

use serde_json::json;
use servers::*;

/// The whole loop through the official MCP Python SDK: see `tests/upstream/agent_alone.py`.
#[test]
fn an_agent_alone_uses_never_synced_servers_and_sees_edits_while_serving() {
    let _serial = serial();
    let timings = common::sdk_client(
        "tests/upstream/agent_alone.py",
        [common::bin().as_os_str(), installed().as_os_str()],
    );
    eprintln!("edits announced after: {timings}");
    for key in ["added_announced_s", "removed_announced_s"] {
        // The watcher applies an edit within a fraction of a second; the bound leaves
        // room for a loaded machine.
        let seconds = timings[key].as_f64().unwrap();
        assert!(seconds < 5.0, "{key}: {seconds} s");
    }
}

/// A one-shot `exec` calls a server never synced: the call fetches its tools first, and
/// the catalogue is kept for the next run.
#[test]
fn a_one_shot_run_fetches_the_tools_it_calls() {
    let _serial = serial();
    let dir = world(json!({ "everything": everything_stdio() }));
    let (env, code) = common::exec(
        dir.path(),
        &[],
        "return tools.everything.get_sum({a = 20, b = 22})",
    );
    assert_eq!(code, 0, "{env}");
    assert!(env["value"].as_str().unwrap().contains("42"), "{env}");
    let cached: Vec<String> = std::fs::read_dir(dir.path().join(".codemode/cache/mcp"))
        .expect("the catalogue is cached")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        // A refresh the server asked for may be cut short by the exit (its temporary
        // file is cleared by the next write).
        .filter(|name| !name.starts_with('.'))
        .collect();
    assert_eq!(cached.len(), 1, "{cached:?}");
}

/// `tools.search` covers servers not fetched yet: it fetches them first.
#[test]
fn a_search_fetches_the_servers_it_covers() {
    let _serial = serial();
    let dir = world(json!({ "everything": everything_stdio() }));
    let (env, code) = common::exec(
        dir.path(),
        &[],
        "local found = tools.search('sum of two numbers', {toolbox = 'everything'})\n\
         return found.value[1].identity",
    );
    assert_eq!(code, 0, "{env}");
    assert_eq!(env["value"], "everything.get_sum", "{env}");
}

/// A fetch that fails says which server, how it was started and what it wrote to
/// stderr, with its secret masked; the script learns it at the call.
#[test]
fn a_failed_fetch_names_the_server_its_command_and_its_stderr() {
    let _serial = serial();
    let dir = world(json!({ "banner": fixture_server("banner", &[]) }));
    let (env, code) = common::exec(dir.path(), &[], "return tools.banner.sleep({ms = 1})");
    assert_ne!(code, 0, "{env}");
    let message = env["error"]["message"].as_str().unwrap();
    assert!(message.contains("tools.banner"), "{message}");
    assert!(message.contains("started as `python3 "), "{message}");
    assert!(message.contains("fixture banner starting"), "{message}");
    assert!(!env.to_string().contains(SECRET), "{env}");
    let hint = env["error"]["hint"].as_str().unwrap();
    assert!(hint.contains(".codemode/mcp.json"), "{hint}");
}

/// A one-shot listing starts no server: it says the tools are not fetched yet, and how
/// to fetch them.
#[test]
fn a_one_shot_listing_starts_nothing_and_says_how_to_fetch() {
    let _serial = serial();
    let dir = world(json!({ "everything": everything_stdio() }));
    let out = common::codemode(dir.path(), &["list"], "");
    let listed = common::text(&out.stdout);
    assert!(out.status.success(), "{listed}");
    assert!(listed.contains("codemode mcp sync everything"), "{listed}");
    assert!(!dir.path().join(".codemode/cache/mcp").exists());
}

/// A server that quotes its secret in a tool's description: listings show it masked, and
/// the search index never held it, so its scores cannot tell a right guess of the secret
/// from a wrong one.
#[test]
fn a_secret_a_server_quotes_is_masked_before_search_indexes_it() {
    let _serial = serial();
    let dir = world(json!({ "tells": fixture_server("tells", &[]) }));
    let wrong: String = SECRET.chars().rev().collect();
    let script = format!(
        "local right = tools.search('{SECRET}', {{toolbox = 'tells', mode = 'keyword', all = true}})\n\
         local wrong = tools.search('{wrong}', {{toolbox = 'tells', mode = 'keyword', all = true}})\n\
         local p = function(found) return if found.value[1] then found.value[1].p else 0 end\n\
         return {{right = p(right), wrong = p(wrong), description = tools.get('tells.tell').description}}"
    );
    let (env, code) = common::exec(dir.path(), &[], &script);
    assert_eq!(code, 0, "{env}");
    assert_eq!(env["value"]["right"], env["value"]["wrong"], "{env}");
    let description = env["value"]["description"].as_str().unwrap();
    assert!(description.contains("Account key *"), "{description}");
    assert!(!env.to_string().contains(SECRET), "{env}");
}

/// A server that fails to start is not started again by every call: a script calling it
/// in a loop starts it a few times, not once per call.
#[test]
fn a_server_that_fails_to_start_is_not_started_again_by_every_call() {
    let _serial = serial();
    let scratch = tempfile::tempdir().unwrap();
    let marker = scratch.path().join("starts");
    let dir = world(json!({ "bad": {
        "command": "sh",
        "args": ["-c", format!("echo x >> '{}'; exit 1", marker.display())],
        "allowWorldAccess": true
    }}));
    let (env, _) = common::exec(
        dir.path(),
        &["--check", "off"],
        "local t0 = os.clock()\n\
         local tries = 0\n\
         while os.clock() - t0 < 2 do\n\
         \tpcall(tools.get, 'bad.x')\n\
         \tpcall(function() return tools.bad.x({}) end)\n\
         \ttries += 1\n\
         end\n\
         local ok, why = pcall(function() return tools.bad.x({}) end)\n\
         return {tries = tries, why = tostring(why)}",
    );
    let starts = std::fs::read_to_string(&marker)
        .unwrap_or_default()
        .lines()
        .count();
    assert!(env["value"]["tries"].as_u64().unwrap() > 10, "{env}");
    assert!((1..=2).contains(&starts), "{starts} starts: {env}");
    assert!(
        env["value"]["why"]
            .as_str()
            .unwrap()
            .contains("not started again for"),
        "{env}"
    );
}

/// A folder a server is given that becomes a link into `.codemode/` after the
/// configuration was read (a granted command makes one) is refused when the server
/// starts: the guard looks again at every start (a long-running process starts a server
/// on first use, or again after a crash), and the server never gets the settings.
#[test]
fn a_folder_turned_into_a_link_to_the_settings_is_refused_at_the_start() {
    let _serial = serial();
    let dir = world(json!({ "files": {
        "command": "node",
        "args": [package("server-filesystem"), "./data/inner"]
    }}));
    std::fs::create_dir_all(dir.path().join("data/inner")).unwrap();
    let mcp = dir.path().join(".codemode/mcp.json");
    let before = std::fs::read_to_string(&mcp).unwrap();
    // Read with the folder real: the entry is accepted.
    let configs = crate::upstream::load(dir.path(), &[]);
    assert_eq!(configs.servers.len(), 1, "{:?}", configs.problems);
    let upstreams = crate::upstream::Upstreams::new(
        dir.path(),
        &configs,
        crate::upstream::UpstreamOptions::default(),
    )
    .unwrap();
    // Then it becomes a link, as `rm -r data/inner; ln -s ../.codemode data/inner` by a
    // granted shell would make it.
    std::fs::remove_dir(dir.path().join("data/inner")).unwrap();
    std::os::unix::fs::symlink("../.codemode", dir.path().join("data/inner")).unwrap();
    let reports = upstreams.sync(Some("files"));
    let error = reports[0].result.as_ref().unwrap_err().to_string();
    assert!(error.contains("it is not started"), "{error}");
    assert!(error.contains(".codemode"), "{error}");
    assert_eq!(std::fs::read_to_string(&mcp).unwrap(), before);
    // A new process reads the link at once and refuses the entry.
    let (env, _) = common::exec(
        dir.path(),
        &[],
        "return tools.files.write_file({path = 'mcp.json', content = '{}'})",
    );
    assert_eq!(env["ok"], false, "{env}");
    assert!(
        env["error"]["hint"].as_str().unwrap().contains(".codemode"),
        "{env}"
    );
    assert_eq!(std::fs::read_to_string(&mcp).unwrap(), before);
}
