//! Who a run acts for.

use std::sync::Arc;

/// The agent a run acts for, as its audit lines name it. A front end sets it before the
/// run (`Runtime::set_agent`): an authenticated server the agent of the request, the
/// command line [`Agent::local`]. The profile is not part of it: a line names the profile
/// the run's registry enforced, so the log cannot say one profile while another applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Agent {
    name: Arc<str>,
}

impl Agent {
    /// The agent named `name` (a server's authenticated agent).
    pub(crate) fn named(name: impl Into<Arc<str>>) -> Agent {
        Agent { name: name.into() }
    }

    /// Whoever runs the command line on this machine: `local`.
    pub(crate) fn local() -> Agent {
        Agent::named("local")
    }

    /// The agent's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }
}

impl Default for Agent {
    fn default() -> Agent {
        Agent::local()
    }
}
