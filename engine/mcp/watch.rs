//! Notices when the set of exposed tools changes, so sessions can send
//! `notifications/tools/list_changed`.
//!
//! It polls the registry's snapshot pointer: cheap, and it sees every swap, whether by
//! the file watcher `codemode serve` starts or by `tools.create`.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use super::exposed::exposed_tools;
use crate::registry::Registry;

/// How often the snapshot pointer is compared.
const POLL: Duration = Duration::from_millis(300);

/// Starts the poller on the current tokio runtime; the receiver's value is a generation
/// number bumped on every change of the exposed tool set.
pub(crate) fn watch_tool_set(registry: Arc<Registry>) -> watch::Receiver<u64> {
    let (sender, receiver) = watch::channel(0u64);
    tokio::spawn(async move {
        let mut seen = registry.snapshot();
        let mut names = fingerprint(&seen);
        loop {
            tokio::time::sleep(POLL).await;
            if sender.is_closed() {
                return;
            }
            let now = registry.snapshot();
            if Arc::ptr_eq(&now, &seen) {
                continue;
            }
            let now_names = fingerprint(&now);
            seen = now;
            if now_names != names {
                names = now_names;
                sender.send_modify(|generation| *generation += 1);
                tracing::info!("the exposed tool set changed; notifying clients");
            }
        }
    });
    receiver
}

/// What a client would see in `tools/list` for the exposed tools.
fn fingerprint(index: &crate::assets::AssetIndex) -> String {
    let tools: Vec<_> = exposed_tools(index).into_values().collect();
    serde_json::to_string(&tools).unwrap_or_default()
}
