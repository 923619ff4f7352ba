//! The HTTP accept loop: hyper with a deadline for request headers (which also closes a
//! keep-alive connection idle that long: hyper waits for the next request's headers under
//! the same deadline), a cap on open connections and one per client address, so that
//! clients that open connections and never finish a request (slowloris) cannot use up
//! the server's file descriptors, nor one address every connection.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

use super::limits::{HttpLimits, PeerIp};

/// Connections open per client address.
#[derive(Default)]
struct PerIp(Mutex<HashMap<IpAddr, usize>>);

impl PerIp {
    /// Counts a connection from `ip`, unless it holds `max` already.
    fn enter(self: &Arc<Self>, ip: IpAddr, max: usize) -> Option<Held> {
        let mut open = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(ip).or_insert(0);
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(Held(self.clone(), ip))
    }
}

/// One counted connection, uncounted when dropped.
struct Held(Arc<PerIp>, IpAddr);

impl Drop for Held {
    fn drop(&mut self) {
        let mut open = self.0 .0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.1) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.1);
            }
        }
    }
}

/// Serves `router` on `listener` until accepting fails.
pub(crate) async fn serve(
    listener: TcpListener,
    router: axum::Router,
    limits: Arc<HttpLimits>,
) -> std::io::Result<()> {
    let open = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let per_ip = Arc::new(PerIp::default());
    loop {
        let permit = open
            .clone()
            .acquire_owned()
            .await
            .map_err(std::io::Error::other)?;
        let (mut stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of descriptors or a connection reset before accept: wait, go on.
            Err(e) => {
                tracing::debug!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // Responses stream as small writes (an event stream's priming event, then the
        // answer): without this, Nagle holds the answer for the client's delayed ACK.
        let _ = stream.set_nodelay(true);
        let ip = peer.ip().to_canonical();
        let Some(held) = per_ip.enter(ip, limits.connections_per_ip) else {
            let max = limits.connections_per_ip;
            tokio::spawn(async move {
                let body = format!("too many connections from {ip}: at most {max} at once; close idle ones or reuse them\n");
                let reply = format!("HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len());
                let send = stream.write_all(reply.as_bytes());
                let _ = tokio::time::timeout(Duration::from_secs(1), send).await;
                drop(permit);
            });
            continue;
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<_>| {
            request.extensions_mut().insert(PeerIp(ip));
            router.clone().oneshot(request.map(axum::body::Body::new))
        });
        let timeout = limits.request_timeout;
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(timeout)
                .serve_connection(TokioIo::new(stream), service);
            if let Err(e) = connection.await {
                tracing::debug!("HTTP connection ended: {e}");
            }
            drop(held);
            drop(permit);
        });
    }
}
