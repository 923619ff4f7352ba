//! A bound on the HTTP server's sessions. rmcp's `LocalSessionManager` keeps every session
//! until it has been idle for its keep-alive; a client opening thousands would hold
//! memory for all of them. [`BoundedSessions`] wraps it: when a new session would pass the
//! bound, the session idle the longest is closed, and its id remembered (a bounded
//! number of them), so the evicted client's next request gets a 404 saying why and what
//! to do rather than rmcp's bare "Session not found".

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};

/// How many evicted ids are remembered for their clients' next request.
const REMEMBERED: usize = 4096;

/// rmcp's local session manager with at most `max` sessions.
pub(crate) struct BoundedSessions {
    inner: LocalSessionManager,
    max: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Each live session's last request.
    used: HashMap<SessionId, Instant>,
    /// The agent each live session was made for (when callers authenticate).
    owners: HashMap<SessionId, String>,
    evicted: HashSet<SessionId>,
    evicted_order: VecDeque<SessionId>,
}

impl BoundedSessions {
    /// At most `max` sessions, each closed after `idle` without a request.
    pub(crate) fn new(max: usize, idle: Duration) -> BoundedSessions {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(idle);
        BoundedSessions {
            inner,
            max: max.max(1),
            state: Mutex::new(State::default()),
        }
    }

    /// Notes that the session `id` was made for the agent `owner`: only it may use it.
    pub(crate) fn claim(&self, id: &str, owner: &str) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((id, _)) = state.used.get_key_value(id) {
            let id = id.clone();
            state.owners.insert(id, owner.to_string());
        }
    }

    /// The agent the session `id` was made for, when it is live and was claimed.
    pub(crate) fn owner(&self, id: &str) -> Option<String> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.owners.get(id).cloned()
    }

    /// True when `id` was closed to make room (not when it ended any other way).
    pub(crate) fn was_evicted(&self, id: &str) -> bool {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.evicted.contains(id)
    }

    /// The most sessions held at once.
    pub(crate) fn max(&self) -> usize {
        self.max
    }

    fn touch(&self, id: &SessionId) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(used) = state.used.get_mut(id) {
            *used = Instant::now();
        }
    }

    /// The session idle the longest, taken out of the count, when there is no room.
    fn make_room(&self) -> Option<SessionId> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.used.len() < self.max {
            return None;
        }
        let oldest = state
            .used
            .iter()
            .min_by_key(|(_, used)| **used)
            .map(|(id, _)| id.clone())?;
        state.used.remove(&oldest);
        state.owners.remove(&oldest);
        state.evicted.insert(oldest.clone());
        state.evicted_order.push_back(oldest.clone());
        if state.evicted_order.len() > REMEMBERED {
            if let Some(old) = state.evicted_order.pop_front() {
                state.evicted.remove(&old);
            }
        }
        Some(oldest)
    }
}

impl SessionManager for BoundedSessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        if let Some(oldest) = self.make_room() {
            tracing::info!(
                "closed the session idle the longest: the server holds {} sessions at most",
                self.max
            );
            self.inner.close_session(&oldest).await?;
        }
        let (id, transport) = self.inner.create_session().await?;
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.used.insert(id.clone(), Instant::now());
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            state.used.remove(id);
            state.owners.remove(id);
        }
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_stream(id, message).await
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.resume(id, last_event_id).await
    }

    async fn restore_session(
        &self,
        _id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        // No session store is configured: a session unknown here stays unknown.
        Ok(RestoreOutcome::NotSupported)
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}
