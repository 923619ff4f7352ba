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

pub(crate) use allow::{Allow, HostPattern};
pub(crate) use credentials::Credentials;
pub(crate) use error::NetError;
pub(crate) use fetch::{fetch, Request, Response};
