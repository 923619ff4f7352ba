//! Notices when the set of exposed tools (or of configured MCP servers) changes, so
//! sessions can send `notifications/tools/list_changed`.
//!
//! It wakes on the registry's change signal (every snapshot swap, whether by the file
//! watcher `codemode serve` starts or by `tools.create`, and every refreshed upstream
//! catalogue), so a change is announced as soon as the index sees it. A slow poll is
//! kept only for catalogue caches another process writes (`codemode mcp sync`), which
//! send no signal here.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use super::exposed::exposed_tools;
use crate::registry::Registry;

/// How often the catalogue caches are looked at when no signal came.
const POLL: Duration = Duration::from_secs(2);

/// Starts the poller on the current tokio runtime; the receiver's value is a generation
/// number bumped on every change of the exposed tool set.
pub(crate) fn watch_tool_set(registry: Arc<Registry>, exposed: bool) -> watch::Receiver<u64> {
    let (sender, receiver) = watch::channel(0u64);
    let mut signal = registry.subscribe();
    tokio::spawn(async move {
        let mut seen = registry.snapshot();
        let mut upstream = upstream_key(&registry, &seen);
        let mut names = fingerprint(&registry, &seen, exposed);
        loop {
            tokio::select! {
                changed = signal.changed() => {
                    if changed.is_err() {
                        return;
                    }
                }
                _ = tokio::time::sleep(POLL) => {}
            }
            if sender.is_closed() {
                return;
            }
            let now = registry.snapshot();
            // An upstream server's catalogue changes without a new snapshot (a sync, or
            // its tools/list_changed): its cache entry says when.
            let now_upstream = upstream_key(&registry, &now);
            if Arc::ptr_eq(&now, &seen) && now_upstream == upstream {
                continue;
            }
            let now_names = fingerprint(&registry, &now, exposed);
            seen = now;
            upstream = now_upstream;
            if now_names != names {
                names = now_names;
                sender.send_modify(|generation| *generation += 1);
                tracing::info!("the exposed tool set changed; notifying clients");
            }
        }
    });
    receiver
}

/// What a client would see in `tools/list` (the exposed tools when `exposed`, and the
/// toolboxes `tool_exec`'s description names), and which MCP servers stand behind the
/// toolboxes as configured: an added, changed or removed server is
/// announced too, so a client looks again at what it can call.
fn fingerprint(registry: &Registry, index: &crate::assets::AssetIndex, exposed: bool) -> String {
    let upstream = registry.upstream_views(index);
    let tools: Vec<_> = if exposed {
        exposed_tools(index, &upstream).into_values().collect()
    } else {
        Vec::new()
    };
    let toolboxes = super::describe::toolboxes(index, &upstream);
    let servers: Vec<(String, String)> = registry.upstreams().map_or_else(Vec::new, |u| {
        u.servers()
            .iter()
            .map(|s| (s.name.clone(), crate::upstream::cache::key(s)))
            .collect()
    });
    serde_json::to_string(&(tools, toolboxes, servers)).unwrap_or_default()
}

/// When each visible upstream server's catalogue was fetched.
fn upstream_key(registry: &Registry, index: &crate::assets::AssetIndex) -> Vec<(String, u64)> {
    registry
        .upstream_views(index)
        .into_iter()
        .map(|v| {
            let fetched = v.catalogue.as_ref().map_or(0, |c| c.fetched_at_ms);
            (v.name, fetched)
        })
        .collect()
}
