//! Tests of `engine/upstream/about.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

fn tool(name: &str, description: &str) -> UpstreamTool {
    UpstreamTool {
        name: name.to_string(),
        original: name.to_string(),
        title: None,
        description: description.to_string(),
        input_schema: json!({"type": "object"}),
        output_schema: None,
        annotations: None,
        request: None,
    }
}

fn memory() -> Vec<UpstreamTool> {
    vec![
        tool(
            "create_entities",
            "Create multiple new entities in the knowledge graph",
        ),
        tool(
            "add_observations",
            "Add new observations to existing entities in the knowledge graph",
        ),
        tool("read_graph", "Read the entire knowledge graph"),
    ]
}

#[test]
fn without_instructions_the_tools_say_what_the_toolbox_is_for() {
    let about = ServerAbout {
        name: Some("memory-server".into()),
        version: Some("0.6.3".into()),
        ..ServerAbout::default()
    };
    assert_eq!(
        about.purpose(&memory()),
        "memory-server: knowledge graph: create entities, add observations, read graph"
    );
    // Nothing shared by a third of the tools: their actions alone.
    let time = [
        tool(
            "get_current_time",
            "Get current time in a specific timezone",
        ),
        tool("convert_time", "Convert time between timezones"),
    ];
    assert_eq!(summary(&time), "get current time, convert time");
}

#[test]
fn a_description_or_the_first_prose_of_the_instructions_leads() {
    let about = ServerAbout {
        title: Some("Weather".into()),
        instructions: Some(
            "# Weather server\n\n- a list\n\nForecasts for any city. Ask by name.\n".into(),
        ),
        ..ServerAbout::default()
    };
    assert_eq!(about.purpose(&[]), "Weather: Forecasts for any city.");
    let described = ServerAbout {
        description: Some("Weather forecasts by city.".into()),
        ..about
    };
    assert_eq!(described.purpose(&[]), "Weather forecasts by city.");
}

#[test]
fn names_read_as_actions() {
    assert_eq!(action("create_entities"), "create entities");
    assert_eq!(action("getCurrentTime"), "get current time");
    assert_eq!(action("get-env"), "get env");
    assert_eq!(action("parseHTMLDoc"), "parse html doc");
}

#[test]
fn a_long_summary_says_how_many_tools_it_left_out() {
    let many: Vec<UpstreamTool> = (0..80)
        .map(|i| tool(&format!("do_thing_{i}"), ""))
        .collect();
    let line = summary(&many);
    assert!(line.len() < MAX_PURPOSE_CHARS + 20, "{line}");
    assert!(line.ends_with(" more"), "{line}");
}

#[test]
fn the_instructions_about_one_tool_are_the_sentences_that_name_it() {
    let about = ServerAbout {
        instructions: Some(
            "## Tips\n- Use `get-roots-list` before file operations. Then read.\n\
                 - `get-roots-list-extra` is another tool\nNothing else."
                .into(),
        ),
        ..ServerAbout::default()
    };
    assert_eq!(
        about.about_tool("get-roots-list"),
        "Use `get-roots-list` before file operations."
    );
    assert_eq!(about.about_tool("echo"), "");
}

#[test]
fn old_files_and_odd_values_read_as_nothing_said() {
    assert_eq!(ServerAbout::from_json(None), ServerAbout::default());
    let odd = json!({"name": 7, "title": "  ", "instructions": "a\u{1b}[2Jb"});
    let about = ServerAbout::from_json(Some(&odd));
    assert_eq!(about.name, None);
    assert_eq!(about.title, None);
    assert_eq!(about.instructions.as_deref(), Some("a\\u{1b}[2Jb"));
    let kept = ServerAbout::from_json(Some(&about.to_json()));
    assert_eq!(kept, about);
}
