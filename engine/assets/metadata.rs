//! The `.metadata` JSON of toolboxes and tools.

use serde::{Deserialize, Serialize};

/// Tags one `.metadata` may give: they are words for search, and everything that reads
/// them (search, docs, export) compares them with each other.
pub const MAX_TAGS: usize = 32;
/// The longest tag.
pub const MAX_TAG_CHARS: usize = 64;

/// The fields of `.metadata` the engine reads; others are kept by the author and ignored.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Metadata {
    /// Toolbox description (used when the README has no purpose line).
    pub description: Option<String>,
    /// Tags for search.
    pub tags: Vec<String>,
    /// `ready` | `planned` | `deprecated`.
    pub status: Option<String>,
    /// `"workflow"` marks a workflow toolbox.
    pub kind: Option<String>,
}

impl Metadata {
    /// Parses `.metadata` text; the error says which file and how to fix it.
    pub fn parse(text: &str, path: &str) -> Result<Metadata, String> {
        let meta: Metadata = serde_json::from_str(text).map_err(|e| {
            format!("{path}: invalid JSON ({e}); expected e.g. {{\"tags\": [\"text\"], \"status\": \"ready\"}}")
        })?;
        if meta.tags.len() > MAX_TAGS {
            return Err(format!(
                "{path}: {} tags; give at most {MAX_TAGS}, the words a search for this should match",
                meta.tags.len()
            ));
        }
        if let Some(long) = meta.tags.iter().find(|t| t.chars().count() > MAX_TAG_CHARS) {
            let shown: String = long.chars().take(24).collect();
            return Err(format!(
                "{path}: the tag \"{shown}…\" is longer than {MAX_TAG_CHARS} characters; a tag is a word or two"
            ));
        }
        if let Some(status) = &meta.status {
            if !matches!(status.as_str(), "ready" | "planned" | "deprecated") {
                return Err(format!(
                    "{path}: status \"{status}\" is not one of \"ready\", \"planned\", \"deprecated\""
                ));
            }
        }
        Ok(meta)
    }
}

/// The purpose of a README: its first descriptive line (not a heading, badge or comment).
pub fn readme_purpose(text: &str) -> Option<String> {
    let mut in_front_matter = false;
    let mut in_fence = false;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if i == 0 && line == "---" {
            in_front_matter = true;
            continue;
        }
        if in_front_matter {
            in_front_matter = line != "---";
            continue;
        }
        if line.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        let skip = in_fence
            || line.is_empty()
            || line.starts_with('#')
            || line.starts_with("![")
            || line.starts_with("[![")
            || line.starts_with("<!--")
            || line.starts_with('<')
            || line.chars().all(|c| matches!(c, '-' | '=' | '*' | '_'));
        if !skip {
            return Some(line.trim_start_matches(['>', ' ']).to_string());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn purpose_skips_headings_badges_and_front_matter() {
        let text = "---\ntitle: x\n---\n# Text\n\n![badge](x.svg)\n<!-- note -->\nSmall text helpers.\nMore.";
        assert_eq!(readme_purpose(text).as_deref(), Some("Small text helpers."));
        assert_eq!(readme_purpose("# Only a heading\n"), None);
    }

    #[test]
    fn metadata_errors_name_the_file_and_the_fix() {
        let err = Metadata::parse("{tags: }", "a.tool/.metadata").unwrap_err();
        assert!(
            err.contains("a.tool/.metadata") && err.contains("expected"),
            "{err}"
        );
        let err = Metadata::parse(r#"{"status": "done"}"#, "m").unwrap_err();
        assert!(err.contains("\"ready\""), "{err}");
        let ok = Metadata::parse(r#"{"tags": ["a"], "extra": 1}"#, "m").unwrap();
        assert_eq!(ok.tags, vec!["a"]);
        let many = serde_json::json!({ "tags": vec!["t"; 300_000] }).to_string();
        let err = Metadata::parse(&many, "m").unwrap_err();
        assert!(
            err.contains("300000 tags") && err.contains("at most 32"),
            "{err}"
        );
        let long = serde_json::json!({ "tags": ["x".repeat(65)] }).to_string();
        assert!(Metadata::parse(&long, "m")
            .unwrap_err()
            .contains("longer than 64"));
    }
}
