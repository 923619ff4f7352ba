//! Which tools a profile lets a run see and call: a default, `allow` patterns and `deny`
//! patterns, deny first.

use std::fmt;

use super::glob::Pattern;

/// What a profile does with a tool no pattern names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Verdict {
    /// Every tool no `deny` pattern matches.
    Allow,
    /// Only the tools an `allow` pattern matches (and no `deny` pattern does).
    Deny,
}

/// The tool rules of one profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ToolRules {
    /// The profile's name, for messages.
    pub(crate) profile: String,
    /// What happens to tools no pattern names.
    pub(crate) default: Verdict,
    /// Tools let through when the default is deny.
    pub(crate) allow: Vec<Pattern>,
    /// Tools refused whatever else matches them.
    pub(crate) deny: Vec<Pattern>,
}

/// The rule that refused a tool or a toolbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Denial {
    /// The profile that holds the rule.
    pub(crate) profile: String,
    /// The `deny` pattern that matched; `None` when the profile's default (deny) did.
    pub(crate) pattern: Option<String>,
}

impl fmt::Display for Denial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.pattern {
            Some(pattern) => write!(
                f,
                "profile '{}' denies it (deny pattern \"{pattern}\")",
                self.profile
            ),
            None => write!(
                f,
                "profile '{}' denies it (its default is \"deny\" and no allow pattern matches)",
                self.profile
            ),
        }
    }
}

impl ToolRules {
    /// Rules that let every tool through (a world without a policy file).
    pub(crate) fn open(profile: &str) -> ToolRules {
        ToolRules {
            profile: profile.to_string(),
            default: Verdict::Allow,
            allow: Vec::new(),
            deny: Vec::new(),
        }
    }

    /// True when these rules refuse nothing, so nothing needs filtering.
    pub(crate) fn is_open(&self) -> bool {
        self.default == Verdict::Allow && self.deny.is_empty()
    }

    /// Why the tool `identity` (`box.tool`) is refused, or `None` when it is allowed.
    pub(crate) fn denial(&self, identity: &str) -> Option<Denial> {
        if let Some(rule) = self.deny.iter().find(|p| p.matches(identity)) {
            return Some(self.denied_by(Some(rule)));
        }
        match self.default {
            Verdict::Allow => None,
            Verdict::Deny if self.allow.iter().any(|p| p.matches(identity)) => None,
            Verdict::Deny => Some(self.denied_by(None)),
        }
    }

    /// True when the tool `identity` is allowed.
    pub(crate) fn allows(&self, identity: &str) -> bool {
        self.denial(identity).is_none()
    }

    /// Why every tool of `toolbox` is refused whatever it is called, or `None` when some
    /// tool of it could be allowed.
    pub(crate) fn toolbox_denial(&self, toolbox: &str) -> Option<Denial> {
        let prefix = format!("{toolbox}.");
        if let Some(rule) = self.deny.iter().find(|p| p.covers_all_after(&prefix)) {
            return Some(self.denied_by(Some(rule)));
        }
        match self.default {
            Verdict::Allow => None,
            Verdict::Deny if self.allow.iter().any(|p| p.may_match_after(&prefix)) => None,
            Verdict::Deny => Some(self.denied_by(None)),
        }
    }

    fn denied_by(&self, rule: Option<&Pattern>) -> Denial {
        Denial {
            profile: self.profile.clone(),
            pattern: rule.map(|p| p.as_str().to_string()),
        }
    }
}

#[cfg(test)]
#[path = "../../tests/unit/policy/rules.rs"]
mod tests;
