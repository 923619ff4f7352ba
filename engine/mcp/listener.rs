//! The HTTP accept loop: hyper with a deadline for request headers and a cap on open
//! connections, so that clients that open connections and never finish a request
//! (slowloris) cannot use up the server's file descriptors.

use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// A connection must send its request headers within this time.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Connections served at once; more wait in the kernel's accept queue.
const MAX_CONNECTIONS: usize = 512;

/// Serves `router` on `listener` until accepting fails.
pub(crate) async fn serve(listener: TcpListener, router: axum::Router) -> std::io::Result<()> {
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let permit = open
            .clone()
            .acquire_owned()
            .await
            .map_err(std::io::Error::other)?;
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of descriptors or a connection reset before accept: wait, go on.
            Err(e) => {
                tracing::debug!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service);
            if let Err(e) = connection.await {
                tracing::debug!("HTTP connection ended: {e}");
            }
            drop(permit);
        });
    }
}
