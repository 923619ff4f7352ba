//! HTTP APIs with an OpenAPI description as toolboxes (`.codemode/apis.json`), against
//! descriptions and servers nobody here wrote, installed by `tests/openapi/setup.sh`
//! (pinned, once, under the target directory): GitHub's published description
//! (`@octokit/openapi`) for import, listing, types, search and policy at scale; the
//! example descriptions of `@readme/oas-examples` served by the Prism mock server on
//! loopback (OpenAPI 3.1 JSON and 3.0 YAML), and refused when Swagger 2.0; `httpbin`
//! for status codes, redirects, headers and compressed bodies, under a description of
//! its endpoints (`tests/openapi/httpbin.yaml`). No request leaves the machine.
//!
//! Setup failures fail the tests: CI installs node and python3, so a missing dependency
//! there is a bug, not a reason to skip.

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// Prism and httpbin are processes of their own; two cores run these tests one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `<target>/openapi-deps`, set up once per test binary.
fn deps() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        common::install(
            "tests/openapi/setup.sh",
            "openapi-deps",
            "node, npm, python3 and the package registries are needed",
        )
    })
}

fn github_spec() -> PathBuf {
    deps().join("node_modules/@octokit/openapi/generated/api.github.com.json")
}

fn example(rel: &str) -> PathBuf {
    deps().join("node_modules/@readme/oas-examples").join(rel)
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A server process on loopback, killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(mut command: Command, port: u16, what: &str) -> Server {
        let child = command
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
        let mut server = Server { child, port };
        let until = Instant::now() + Duration::from_secs(90);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!("{what} exited ({status}) before it listened");
            }
            assert!(Instant::now() < until, "{what} did not listen within 90 s");
            std::thread::sleep(Duration::from_millis(100));
        }
        server
    }

    /// Prism serving `spec` (its examples as answers, requests checked against it).
    fn prism(spec: &Path) -> Server {
        let port = free_port();
        let mut command = Command::new(deps().join("node_modules/.bin/prism"));
        command
            .args(["mock", "-h", "127.0.0.1", "-p", &port.to_string()])
            .arg(spec);
        Server::start(command, port, "Prism")
    }

    fn httpbin() -> Server {
        let port = free_port();
        let mut command = Command::new(deps().join("venv/bin/python"));
        command.args([
            "-m",
            "httpbin.core",
            "--host",
            "127.0.0.1",
            "--port",
            &port.to_string(),
        ]);
        Server::start(command, port, "httpbin")
    }

    /// Python's static file server over the example descriptions, on `port`.
    fn example_files(port: u16) -> Server {
        let mut command = Command::new("python3");
        command
            .args(["-m", "http.server", &port.to_string()])
            .args(["--bind", "127.0.0.1", "--directory"])
            .arg(example(""));
        Server::start(command, port, "python -m http.server")
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A world whose `.codemode/apis.json` holds `apis`.
fn world(apis: Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".codemode")).unwrap();
    std::fs::write(
        dir.path().join(".codemode/apis.json"),
        serde_json::to_string_pretty(&json!({ "apis": apis })).unwrap(),
    )
    .unwrap();
    dir
}

/// Runs `script` with `codemode exec` (extra global flags first) and returns the envelope.
fn exec(world: &Path, flags: &[&str], script: &str) -> Value {
    // Unchecked unless the test asks: the checks here are the engine's own, at the call.
    let mut args: Vec<&str> = flags.to_vec();
    if !flags.contains(&"--check") {
        args.extend(["--check", "off"]);
    }
    args.push("exec");
    let out = common::codemode(world, &args, script);
    common::envelope(&out)
}

fn value(envelope: &Value) -> &Value {
    assert_eq!(envelope["ok"], true, "{envelope:#}");
    &envelope["value"]
}

fn error(envelope: &Value) -> String {
    assert_eq!(envelope["ok"], false, "{envelope:#}");
    envelope["error"]["message"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

fn github_world() -> tempfile::TempDir {
    world(json!({"github": {
        "spec": github_spec(),
        "baseUrl": "https://api.github.com",
        "methods": ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
    }}))
}

/// Every operation of GitHub's description is a tool that scripts list, get, call by
/// its typed signature and search; `codemode types` declares them for the checker.
#[test]
fn githubs_description_is_listed_typed_and_searchable() {
    let _serial = serial();
    let spec: Value = serde_json::from_slice(&std::fs::read(github_spec()).unwrap()).unwrap();
    let operations = spec["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().keys())
        .filter(|m| ["get", "put", "post", "delete", "patch", "head"].contains(&m.as_str()))
        .count();
    assert!(operations > 1000, "{operations}");
    let world = github_world();
    let started = Instant::now();
    let envelope = exec(
        world.path(),
        &["--timeout-ms", "120000"],
        r#"
        local rows = tools.list(3, "github").value
        local typed = 0
        for _, row in rows do
            if string.find(row.signature, "args: {", 1, true) then typed += 1 end
        end
        local pulls = tools.get("github.pulls_list")
        return { count = #rows, typed = typed, signature = pulls.signature, description = pulls.description }
        "#,
    );
    let cold = started.elapsed();
    let got = value(&envelope);
    assert_eq!(got["count"], operations, "every operation is a tool");
    assert!(got["typed"].as_u64().unwrap() > 1000, "{got}");
    let signature = got["signature"].as_str().unwrap();
    assert!(
        signature.starts_with("pulls_list(args: { owner: string, repo: string, state: (\"open\" | \"closed\" | \"all\")?"),
        "{signature}"
    );
    assert!(signature.contains("): { { url: string"), "{signature}");
    assert!(
        got["description"]
            .as_str()
            .unwrap()
            .contains("GET /repos/{owner}/{repo}/pulls (tags: pulls)"),
        "{got}"
    );
    // Parsed once: the next process reads the cached catalogue.
    let cache = world.path().join(".codemode/cache/mcp");
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 1);
    let started = Instant::now();
    let envelope = exec(world.path(), &[], "return #tools.list(1, 'github').value");
    let cached = started.elapsed();
    assert_eq!(value(&envelope), &json!(operations));
    assert!(cached < cold, "cached {cached:?}, cold {cold:?}");

    // The checker takes the declarations: a right call is clean, a wrong one is named.
    // (Past 1,000 tools a toolbox is typed `any` for the checker; the 639 reading
    // operations, the default methods, are declared in full.)
    let all = world;
    let world = self::world(
        json!({"github": {"spec": github_spec(), "baseUrl": "https://api.github.com"}}),
    );
    let reading = exec(world.path(), &[], "return #tools.list(1, 'github').value");
    assert_eq!(value(&reading), &json!(639));
    let right = exec(
        world.path(),
        &["--check", "strict"],
        r#"
        local function open_titles(owner: string, repo: string): { string }
            local titles = {}
            for _, pr in tools.github.pulls_list({ owner = owner, repo = repo, state = "open" }) do
                if not pr.draft then table.insert(titles, pr.title) end
            end
            return titles
        end
        return type(open_titles)
        "#,
    );
    let diagnostics = right["diagnostics"].as_array().cloned().unwrap_or_default();
    assert!(diagnostics.is_empty(), "{right:#}");
    let wrong = exec(
        world.path(),
        &["--check", "strict"],
        "local function f() return tools.github.pulls_list({ repo = 'r', state = 'shut' }) end return type(f)",
    );
    // The operation's description is exact: a call that cannot fit is refused.
    assert_eq!(wrong["error"]["kind"], "type", "{wrong:#}");
    let said = wrong.to_string();
    assert!(said.contains("missing field 'owner'"), "{wrong:#}");
    let types = common::codemode(world.path(), &["types"], "");
    let declared = common::text(&types.stdout);
    assert!(types.status.success(), "{}", common::text(&types.stderr));
    assert!(
        declared.contains("pulls_list: (args: {"),
        "{}",
        &declared[..2000]
    );
    let world = all;

    // Search: thirty everyday requests, the right operation in the top five for 27; and
    // fifteen more written before the search was changed for the thirty, for 13.
    let (hits, misses) = top_five(world.path(), "github_requests.json", 30);
    eprintln!("search: {hits} of 30 in the top 5; misses: {misses:#}");
    assert!(hits >= 27, "{hits} of 30: {misses:#}");
    let (hits, misses) = top_five(world.path(), "github_requests_heldout.json", 15);
    eprintln!("search (held out): {hits} of 15 in the top 5; misses: {misses:#}");
    assert!(hits >= 13, "{hits} of 15: {misses:#}");
}

/// How many of the requests in `tests/openapi/<file>` (each with the operations that
/// answer it) find one of them in the top five of `tools.search`, and the misses.
fn top_five(world: &Path, file: &str, count: usize) -> (u64, Value) {
    let requests: Vec<(String, Vec<String>)> = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/openapi").join(file)).unwrap(),
    )
    .unwrap();
    assert_eq!(requests.len(), count);
    let mut script = String::from("local requests = {\n");
    for (request, wanted) in &requests {
        script.push_str(&format!(
            "{{ {}, {{ {} }} }},\n",
            json!(request),
            wanted
                .iter()
                .map(|w| json!(w).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    script.push_str(
        r#"}
        local hits, misses = 0, {}
        for _, r in requests do
            local rows = tools.search(r[1], { limit = 5, toolbox = "github", all = true }).value
            local found, got = false, {}
            for _, row in rows do
                table.insert(got, row.name)
                if table.find(r[2], row.name) then found = true end
            end
            if found then hits += 1 else table.insert(misses, r[1] .. " => " .. table.concat(got, " ")) end
        end
        return { hits = hits, misses = misses }
        "#,
    );
    let envelope = exec(world, &["--timeout-ms", "120000"], &script);
    let got = value(&envelope);
    (got["hits"].as_u64().unwrap(), got["misses"].clone())
}

/// A profile's rules name operations as they name any tool (`github.pulls_*`).
#[test]
fn policy_globs_allow_and_deny_operations() {
    let _serial = serial();
    let world = github_world();
    std::fs::write(
        world.path().join(".codemode/policy.json"),
        r#"{"profiles": {"default": {"default": "deny", "allow": ["github.pulls_*"], "deny": ["github.pulls_merge*"]}}}"#,
    )
    .unwrap();
    let envelope = exec(
        world.path(),
        &["--timeout-ms", "120000"],
        r#"
        local names = {}
        for _, row in tools.list(1, "github").value do table.insert(names, row.name) end
        return { names = names, merge = tools.get("github.pulls_merge") == nil }
        "#,
    );
    let got = value(&envelope);
    let names: Vec<&str> = got["names"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(names.len() > 20, "{names:?}");
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("pulls_") && !n.starts_with("pulls_merge")),
        "{names:?}"
    );
    assert!(names.contains(&"pulls_list"));
    assert_eq!(got["merge"], true);
    let refused = exec(
        world.path(),
        &[],
        "return tools.github.issues_list_for_repo({ owner = 'o', repo = 'r' })",
    );
    assert_eq!(refused["error"]["kind"], "denied", "{refused:#}");
    assert!(
        error(&refused).contains("issues_list_for_repo"),
        "{refused:#}"
    );
}

/// Prism serves descriptions nobody here wrote (3.1 JSON, 3.0 YAML): calls are checked
/// before they are sent, answered from the description's examples, and a status other
/// than 2xx fails with the API's own error body; the credential of `http.json` goes to
/// the API's host outside the script.
#[test]
fn prism_answers_calls_made_from_31_json_and_30_yaml() {
    let _serial = serial();
    let train = Server::prism(&example("3.1/json/train-travel.json"));
    let pets = Server::prism(&example("3.0/yaml/petstore.yaml"));
    let world = world(json!({
        "train": {"spec": example("3.1/json/train-travel.json"), "baseUrl": train.url(), "methods": ["GET", "POST"]},
        "pets": {"spec": example("3.0/yaml/petstore.yaml"), "baseUrl": pets.url()},
    }));
    // A listing and a search from the shell read the descriptions (no sync, no server
    // started for them).
    let listed = common::text(&common::codemode(world.path(), &["list", "2", "pets"], "").stdout);
    assert!(listed.contains("findPets"), "{listed}");
    let found = common::text(&common::codemode(world.path(), &["search", "find pets"], "").stdout);
    assert!(found.contains("pets.findPets"), "{found}");
    // Without a credential, the API's own answer: 401 and its problem body.
    let envelope = exec(world.path(), &[], "return tools.train.get_stations()");
    let message = error(&envelope);
    assert!(
        message.contains("HTTP 401")
            && message.contains("You do not have the necessary permissions"),
        "{message}"
    );
    std::fs::write(
        world.path().join(".codemode/http.json"),
        format!(
            r#"{{"credentials": {{"127.0.0.1:{}": {{"headers": {{"Authorization": "Bearer ${{CODEMODE_TEST_TRAIN_TOKEN}}"}}}},
                "127.0.0.1:{}": {{"headers": {{"api_key": "special-key", "Authorization": "Bearer pets"}}}}}}}}"#,
            train.port, pets.port
        ),
    )
    .unwrap();
    let run = |script: &str| {
        let out = common::output(
            common::command()
                .env("CODEMODE_TEST_TRAIN_TOKEN", "train-t0ken-4411")
                .arg("--world")
                .arg(world.path())
                .arg("exec"),
            script,
        );
        common::envelope(&out)
    };
    let envelope = run(r#"
        local stations = tools.train.get_stations()
        local trips = tools.train.get_trips({ origin = "efdbb9d1-02c2-4bc3-afb7-6788d8782b1e",
            destination = "b2e783e1-c824-4d63-b37a-d8d698862f1d", date = "2024-02-01T09:00:00Z", dogs = true })
        local booked = tools.train.create_booking({
            trip_id = "4f4e4e1c-c824-4d63-b37a-d8d698862f1d", passenger_name = "Ada Lovelace" })
        return { stations = stations, trips = trips, booked = booked }
        "#);
    let got = value(&envelope);
    assert!(
        got["stations"]["data"]
            .as_array()
            .is_some_and(|d| !d.is_empty()),
        "{got:#}"
    );
    assert!(got["trips"]["data"].is_array(), "{got:#}");
    assert!(
        got["booked"]["id"].is_string() || got["booked"]["trip_id"].is_string(),
        "{got:#}"
    );
    assert!(!envelope.to_string().contains("train-t0ken-4411"));
    // A call the schema refuses is never sent: a required parameter missing, a wrong type.
    let envelope = run("return tools.train.get_trips({ origin = 'x', date = 5 })");
    let message = error(&envelope);
    assert!(
        message.contains("destination") || message.contains("date"),
        "{message}"
    );
    // DELETE is not among this API's methods: the operation is not a tool.
    let envelope = run("return tools.get('train.delete_booking') == nil");
    assert_eq!(value(&envelope), &json!(true));
    // Called anyway, the check names it an operation left out, and where the methods
    // are; unchecked, the call says the same.
    let script =
        "local ok, e = pcall(tools.train.delete_booking, { bookingId = 'x' })\nreturn tostring(e)";
    let envelope = run(script);
    let hint = envelope["error"]["hint"].as_str().unwrap_or_default();
    assert!(
        hint.contains("has no operation `delete_booking`") && hint.contains("\"methods\""),
        "{envelope}"
    );
    let envelope = exec(world.path(), &["--check", "off"], script);
    assert!(
        error(&envelope).contains("no operation named 'delete_booking' in the API 'train'"),
        "{envelope}"
    );
    // The 3.0 YAML description: path parameters, a query list.
    let envelope = exec(
        world.path(),
        &[],
        r#"
        local pet = tools.pets.getPetById({ petId = 7 })
        local found = tools.pets.findPetsByStatus({ status = { "available", "sold" } })
        return { name = pet.name, found = #found }
        "#,
    );
    let got = value(&envelope);
    assert!(got["name"].is_string(), "{got:#}");
    assert!(got["found"].as_u64().unwrap() >= 1, "{got:#}");
}

/// httpbin: statuses, redirects (to the same host followed, to another refused), echoed
/// and compressed credentials masked, bodies sent as JSON, the run's deadline cancelling a
/// slow call. The token shows nowhere: not in a value, an error, the envelope, the log on
/// stderr or the audit log.
#[test]
fn httpbin_statuses_redirects_and_echoed_credentials() {
    let _serial = serial();
    let bin = Server::httpbin();
    let world = world(json!({"bin": {
        "spec": root().join("tests/openapi/httpbin.yaml"),
        "baseUrl": bin.url(),
        "methods": ["GET", "POST"],
        "tools": {"uuid": {"cache": {"ttlSeconds": 60}}, "delay": {"limits": {"timeoutMs": 400}}},
    }}));
    std::fs::write(
        world.path().join(".codemode/http.json"),
        format!(
            r#"{{"credentials": {{"127.0.0.1:{}": {{"headers": {{"Authorization": "Bearer ${{CODEMODE_TEST_BIN_TOKEN}}"}}}}}}}}"#,
            bin.port
        ),
    )
    .unwrap();
    const TOKEN: &str = "bin-s3cret-77Qx";
    let run = |script: &str, timeout: &str| {
        let out = common::output(
            common::command()
                .env("CODEMODE_TEST_BIN_TOKEN", TOKEN)
                .args(["-vv", "--timeout-ms", timeout, "--audit", "file", "--world"])
                .arg(world.path())
                .arg("exec"),
            script,
        );
        let stderr = common::text(&out.stderr);
        assert!(!stderr.contains(TOKEN), "the log shows the token: {stderr}");
        common::envelope(&out)
    };
    let envelope = run(
        &format!(
            r#"
            local bearer = tools.bin.bearer()
            local headers = tools.bin.headers()
            local zipped = tools.bin.gzip()
            local same = tools.bin.redirectTo({{ url = "/headers" }})
            local echoed = tools.bin.anything({{ name = "ada", count = 3 }})
            local ok, teapot = pcall(tools.bin.status, {{ code = 418 }})
            local ok2, away = pcall(tools.bin.redirectTo, {{ url = "http://localhost:{port}/headers" }})
            return {{ bearer = bearer, auth = headers.headers.Authorization, zipped = zipped.headers.Authorization,
                same = same.headers.Authorization, json = echoed.json, teapot = tostring(teapot), away = tostring(away) }}
            "#,
            port = bin.port
        ),
        "10000",
    );
    let got = value(&envelope).clone();
    assert_eq!(got["bearer"]["authenticated"], true, "{got:#}");
    assert_eq!(got["bearer"]["token"], "***", "{got:#}");
    // The whole header value is the secret http.json holds: masked whole.
    assert_eq!(got["auth"], "***");
    assert_eq!(got["zipped"], "***");
    assert_eq!(got["same"], "***");
    assert_eq!(got["json"], json!({"name": "ada", "count": 3}));
    let teapot = got["teapot"].as_str().unwrap();
    assert!(
        teapot.contains("HTTP 418") && teapot.contains("teapot"),
        "{teapot}"
    );
    let away = got["away"].as_str().unwrap();
    assert!(
        away.contains("localhost")
            && away.contains("refused")
            && away.contains("API 'bin' reaches only 127.0.0.1:")
            && away.contains(".codemode/apis.json"),
        "{away}"
    );
    assert!(
        !away.contains("capabilities.http") && !away.contains("http.request"),
        "{away}"
    );
    assert!(!envelope.to_string().contains(TOKEN));
    let audit = std::fs::read_to_string(world.path().join(".codemode/audit.jsonl")).unwrap();
    assert!(audit.contains("bin.bearer"), "{audit}");
    assert!(!audit.contains(TOKEN));
    // The result cache answers a GET again, across processes.
    let first = value(&run("return tools.bin.uuid().uuid", "10000")).clone();
    let second = value(&run("return tools.bin.uuid().uuid", "10000")).clone();
    assert!(first.is_string());
    assert_eq!(first, second, "the cached uuid");
    // An empty body is nil, as a script tests it; a path parameter of dots is refused
    // before anything is sent.
    let envelope = run(
        "local empty = tools.bin.status({ code = 200 })\nlocal ok, dots = pcall(tools.bin.item, { name = '..' })\nreturn { empty = empty == nil, dots = tostring(dots), dotted = tools.bin.item({ name = 'a..b' }).url }",
        "10000",
    );
    assert_eq!(value(&envelope)["empty"], true, "{envelope}");
    let dots = value(&envelope)["dots"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(dots.contains("cannot be empty, `.` or `..`"), "{envelope}");
    let dotted = value(&envelope)["dotted"].as_str().unwrap_or_default();
    assert!(dotted.ends_with("/anything/items/a..b"), "{envelope}");
    // An operation the description lacks is a certain mistake (the catalogue is the
    // description as it is, not a server's that may have changed): nothing runs.
    let envelope = run(
        "vfs.write('sent.txt', 'x')\nreturn tools.bin.itme({ name = 'a' })",
        "10000",
    );
    assert_eq!(envelope["error"]["kind"], "type", "{envelope}");
    assert!(!world.path().join("sent.txt").exists(), "{envelope}");
    // Operations side by side, as any tools are.
    let envelope = run(
        "local r = tools.parallel({ function() return tools.bin.uuid().uuid end, function() return tools.bin.item({ name = 'p' }).url end })\nreturn { r[1].ok, r[2].ok, r[2].value }",
        "10000",
    );
    let got = value(&envelope);
    assert_eq!(
        (&got[0], &got[1]),
        (&json!(true), &json!(true)),
        "{envelope}"
    );
    assert!(got[2]
        .as_str()
        .unwrap_or_default()
        .ends_with("/anything/items/p"));
    // An operation's own time limit (apis.json `tools.delay.limits`) ends its call, and
    // the run goes on.
    let started = Instant::now();
    let envelope = run(
        "local ok, e = pcall(tools.bin.delay, { seconds = 3 })\nreturn { ok, tostring(e) }",
        "10000",
    );
    let got = value(&envelope);
    assert_eq!(got[0], false, "{envelope}");
    assert!(
        got[1].as_str().unwrap_or_default().contains("bin.delay"),
        "{envelope}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    // The docs pages list the operations.
    let out = world.path().join("site");
    let written = common::codemode(world.path(), &["docs", "--out", out.to_str().unwrap()], "");
    assert!(
        written.status.success(),
        "{}",
        common::text(&written.stderr)
    );
    let skill = std::fs::read_to_string(out.join("bin/SKILL.md")).unwrap_or_default();
    assert!(skill.contains("item"), "{skill}");
    // A call past the run's deadline is cancelled, and the run says which.
    let started = Instant::now();
    let envelope = run("return tools.bin.delay({ seconds = 5 })", "1500");
    let message = error(&envelope);
    assert!(message.contains("bin.delay"), "{message}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

/// An API with `"response"` in apis.json answers `{ status, headers, body }` (the headers
/// it names), typed so; the same description without it answers the body alone.
#[test]
fn an_api_may_answer_status_and_headers_beside_the_body() {
    let _serial = serial();
    let bin = Server::httpbin();
    let spec = root().join("tests/openapi/httpbin.yaml");
    let world = world(json!({
        "bin": {"spec": spec, "baseUrl": bin.url()},
        "binx": {"spec": spec, "baseUrl": bin.url(),
                 "response": {"headers": ["Content-Type", "X-Not-Sent"]}},
    }));
    let envelope = exec(
        world.path(),
        &[],
        r#"
        local whole = tools.binx.uuid()
        local created = tools.binx.status({ code = 201 })
        local ok, missing = pcall(tools.binx.status, { code = 404 })
        return { plain = tools.bin.uuid().uuid, status = whole.status, headers = whole.headers,
            uuid = whole.body.uuid, created = created.status, empty = created.body == nil,
            missing = tostring(missing), signature = tools.get("binx.uuid").signature }
        "#,
    );
    let got = value(&envelope);
    assert!(got["plain"].is_string(), "{got:#}");
    assert_eq!(got["status"], 200, "{got:#}");
    assert_eq!(
        got["headers"],
        json!({"content-type": "application/json"}),
        "{got:#}"
    );
    assert!(got["uuid"].is_string(), "{got:#}");
    assert_eq!(got["created"], 201, "{got:#}");
    assert_eq!(got["empty"], true, "{got:#}");
    assert!(
        got["missing"].as_str().unwrap().contains("HTTP 404"),
        "{got:#}"
    );
    let signature = got["signature"].as_str().unwrap();
    assert!(
        signature.contains("status: number") && signature.contains("body: {"),
        "{signature}"
    );
    // The checker reads the wrapped type: a script using it is clean under strict.
    let checked = exec(
        world.path(),
        &["--check", "strict"],
        "local function f(): number return tools.binx.uuid().status end return type(f)",
    );
    let diagnostics = checked["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(diagnostics.is_empty(), "{checked:#}");
}

/// A description given by URL is read from its copy, which `codemode api sync` fetches
/// (here from a static server on loopback serving descriptions nobody here wrote): never
/// while a script runs, and a failed fetch (an error status, a Swagger 2.0 file) leaves
/// the copy as it was.
#[test]
fn api_sync_fetches_a_description_given_by_url() {
    let _serial = serial();
    let port = free_port();
    let files = Server::example_files(port);
    let base = files.url();
    let url = |rel: &str| format!("{base}/{rel}");
    let world = world(json!({
        "pets": {"spec": url("3.0/json/petstore.json"), "baseUrl": "http://127.0.0.1:9"},
        "train": {"spec": url("3.1/yaml/train-travel.yaml"), "baseUrl": "http://127.0.0.1:9"},
    }));
    // Not fetched: the API is a problem that says how to fetch it, and a run fetches nothing.
    let out = common::codemode(world.path(), &["check"], "");
    let said = format!("{}{}", common::text(&out.stdout), common::text(&out.stderr));
    assert!(said.contains("run codemode api sync pets"), "{said}");
    let envelope = exec(
        world.path(),
        &[],
        "return tools.get('pets.getPetById') == nil",
    );
    assert_eq!(value(&envelope), &json!(true));
    let copy = world.path().join(".codemode/cache/openapi/pets.spec");
    assert!(!copy.exists());

    let out = common::codemode(world.path(), &["api", "sync"], "");
    let said = common::text(&out.stdout);
    assert!(out.status.success(), "{said}{}", common::text(&out.stderr));
    assert!(
        said.contains("pets: ") && said.contains("(OpenAPI 3.0.0, ") && said.contains("train: "),
        "{said}"
    );
    let served = std::fs::read(example("3.0/json/petstore.json")).unwrap();
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        served,
        "the copy is what was served"
    );
    // Read from the copy, with the static server gone.
    drop(files);
    let envelope = exec(
        world.path(),
        &[],
        "return { pets = #tools.list(1, 'pets').value, train = #tools.list(1, 'train').value }",
    );
    let got = value(&envelope);
    assert!(got["pets"].as_u64().unwrap() >= 3, "{got}");
    let envelope = exec(
        world.path(),
        &[],
        "return tools.get('pets.getPetById') ~= nil",
    );
    assert_eq!(value(&envelope), &json!(true));
    assert!(got["train"].as_u64().unwrap() >= 3, "{got}");

    // Failures: the copy stays; the command says what happened and exits 1.
    let files = Server::example_files(port);
    for (spec, needle) in [
        (url("3.0/json/no-such-file.json"), "HTTP 404"),
        (url("2.0/json/petstore.json"), "Swagger 2.0"),
    ] {
        std::fs::write(
            world.path().join(".codemode/apis.json"),
            json!({"apis": {"pets": {"spec": spec, "baseUrl": "http://127.0.0.1:9"}}}).to_string(),
        )
        .unwrap();
        let out = common::codemode(world.path(), &["api", "sync", "pets"], "");
        let said = common::text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{said}");
        assert!(
            said.contains("pets: failed") && said.contains(needle),
            "{said}"
        );
        assert_eq!(
            std::fs::read(&copy).unwrap(),
            served,
            "the copy is unchanged"
        );
    }
    let out = common::codemode(world.path(), &["api", "sync", "nosuch"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        common::text(&out.stdout).contains("no API 'nosuch'"),
        "{}",
        common::text(&out.stdout)
    );
    drop(files);
}

/// An edit of `.codemode/apis.json` while `codemode serve` runs is applied and announced
/// to the agent (the official MCP Python SDK): see `tests/openapi/apis_edit.py`.
#[test]
fn apis_edited_while_serving_are_announced() {
    let _serial = serial();
    let train = Server::prism(&example("3.1/json/train-travel.json"));
    let timings = common::sdk_client(
        "tests/openapi/apis_edit.py",
        [
            common::bin().into_os_string(),
            example("3.0/yaml/petstore.yaml").into_os_string(),
            example("3.1/json/train-travel.json").into_os_string(),
            train.url().into(),
        ],
    );
    eprintln!("apis.json edits announced after: {timings}");
    for key in ["added_announced_s", "removed_announced_s"] {
        let seconds = timings[key].as_f64().unwrap();
        assert!(seconds < 5.0, "{key}: {seconds} s");
    }
}

/// Problems name the file, the API and the fix; the other APIs still load.
#[test]
fn bad_entries_and_swagger_are_named_with_the_fix() {
    let _serial = serial();
    let world = world(json!({
        "old": {"spec": example("2.0/json/petstore.json"), "baseUrl": "http://127.0.0.1:9"},
        "nowhere": {"spec": "missing.yaml", "baseUrl": "http://127.0.0.1:9"},
        "open": {"spec": "../open.json", "baseUrl": "http://127.0.0.1:9"},
        "pets": {"spec": example("3.0/yaml/petstore.yaml"), "baseUrl": "http://127.0.0.1:9"},
    }));
    std::fs::copy(
        example("3.0/json/petstore.json"),
        world.path().join("open.json"),
    )
    .unwrap();
    let out = common::codemode(world.path(), &["check"], "");
    let said = format!("{}{}", common::text(&out.stdout), common::text(&out.stderr));
    assert!(
        said.contains("apis.json: server 'nowhere'") && said.contains("fix the path"),
        "{said}"
    );
    assert!(
        said.contains("server 'open'") && said.contains("inside the world"),
        "{said}"
    );
    let envelope = exec(world.path(), &[], "return tools.old.listPets()");
    let message = error(&envelope);
    assert!(
        message.contains("Swagger 2.0") && message.contains("convert it"),
        "{message}"
    );
    let envelope = exec(world.path(), &[], "return #tools.list(1, 'pets').value");
    assert!(value(&envelope).as_u64().unwrap() >= 5);
}
