//! One pool of VMs per profile. A registry serves one profile (its rules filter every
//! snapshot it hands out, its capabilities reach every host call), so an agent's runs go
//! to a pool over a registry of the agent's profile: made the first time an agent of that
//! profile calls, then kept. The server's own profile (`--profile`, for stdio and
//! `--no-auth`) is the pool it was started with.

use std::collections::HashMap;
use std::sync::Arc;

use crate::auth::Agent;
use crate::registry::Registry;
use crate::runtime::Pool;

/// A pool and the registry its VMs run over, with whatever must live as long as they do
/// (a file watcher).
pub(crate) struct Served {
    /// The VMs.
    pub pool: Arc<Pool>,
    /// What they see.
    pub registry: Arc<Registry>,
    /// Kept alive with the pool.
    pub _keep: Option<Box<dyn std::any::Any + Send + Sync>>,
}

/// Makes the pool of a profile, or says why it cannot (no such profile in the policy
/// file, most often). Called off the async threads.
pub(crate) type MakeServed = Arc<dyn Fn(&str) -> Result<Served, String> + Send + Sync>;

pub(crate) struct Profiles {
    /// The server's own profile's name, and its pool.
    own: (String, Arc<Served>),
    make: Option<MakeServed>,
    made: tokio::sync::Mutex<HashMap<String, Arc<Served>>>,
}

impl Profiles {
    pub(crate) fn new(own_name: String, own: Served, make: Option<MakeServed>) -> Profiles {
        Profiles {
            own: (own_name, Arc::new(own)),
            make,
            made: tokio::sync::Mutex::new(HashMap::new()),
        }
    }

    /// The server's own pool.
    pub(crate) fn own(&self) -> &Arc<Served> {
        &self.own.1
    }

    /// The pool `agent`'s runs go to: the server's own without an agent.
    pub(crate) async fn of(&self, agent: Option<&Agent>) -> Result<Arc<Served>, String> {
        let Some(agent) = agent else {
            return Ok(self.own.1.clone());
        };
        if agent.profile == self.own.0 {
            return Ok(self.own.1.clone());
        }
        let Some(make) = self.make.clone() else {
            return Err(format!(
                "agent '{}' has profile '{}', and this server serves only profile '{}'",
                agent.name, agent.profile, self.own.0
            ));
        };
        // Held while a pool is made: two first calls of one profile make it once.
        let mut made = self.made.lock().await;
        if let Some(served) = made.get(&agent.profile) {
            return Ok(served.clone());
        }
        let profile = agent.profile.clone();
        let served = tokio::task::spawn_blocking(move || make(&profile))
            .await
            .map_err(|e| format!("making the pool failed: {e}"))?
            .map_err(|why| {
                format!(
                    "agent '{}' cannot run: its profile '{}' cannot be served ({why}); the operator fixes .codemode/policy.json or gives the agent another profile",
                    agent.name, agent.profile
                )
            })?;
        let served = Arc::new(served);
        made.insert(agent.profile.clone(), served.clone());
        tracing::info!(profile = %agent.profile, "made the pool of a profile");
        Ok(served)
    }
}
