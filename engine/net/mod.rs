//! Outbound HTTP for scripts (the `http` capability): which hosts a profile allows
//! ([`Allow`]), which addresses are never reached unless named exactly (`guard`), the
//! credentials the host attaches for the hosts they belong to ([`Credentials`]), and the
//! request itself ([`fetch`]): resolved and checked by codemode, connected to the checked
//! address only, redirects re-checked hop by hop, body and time capped.
//!
//! Nothing here knows of Luau or runs: the host's `http` module reads the run's grant and
//! limits and calls [`fetch`].

mod allow;
mod credentials;
mod error;
mod fetch;
mod guard;

pub use allow::{Allow, Grant, HostPattern};
pub use credentials::{Credentials, CREDENTIALS_FILE};
pub use error::NetError;
pub use fetch::{fetch, Request, Response, MAX_REDIRECTS};
pub use guard::{check_address, refused_range, Target};
