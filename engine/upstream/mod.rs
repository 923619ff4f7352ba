//! Upstream MCP servers: the servers an agent already uses (configured as `mcpServers`
//! JSON), their tools, and calls to them from a script's thread.
//!
//! - [`config`] reads `<world>/.codemode/mcp.json` and extra files into
//!   [`ServerConfig`]s, with a [`ConfigProblem`] for each file or server that cannot be
//!   used (the others still load);
//! - [`names`] maps server and tool names to Luau identifiers;
//! - [`cache`] keeps each server's `tools/list` answer under
//!   `<world>/.codemode/cache/mcp/`, keyed by a hash of its configuration, so listing
//!   never starts a server; a [`Catalogue`] is what it holds, with what the server said
//!   about itself at `initialize` ([`ServerAbout`], which describes its toolbox);
//! - [`Upstreams`] owns the connections (rmcp's client over a child process's stdio or
//!   streamable HTTP) and the tokio runtime their requests run on: servers start on the
//!   first call, stay up, restart after a crash, and die with it;
//! - [`PendingCall`] and [`wait_any`] let a blocked script thread wait for one or several
//!   calls under a deadline and a stop check; past the deadline the request is
//!   cancelled upstream (`notifications/cancelled`);
//! - `http_client` is the HTTPS-capable client behind streamable-HTTP servers (rustls,
//!   the platform's roots; `SSL_CERT_FILE` trusts a private CA);
//! - `meta` describes an upstream tool as a folder tool's metadata, so `codemode call`
//!   binds shell words against its input schema with the one binder;
//! - [`types`] turns a tool's input and output JSON Schemas into Luau type text.
//!
//! Secrets (values in `env` and `headers`) reach the server and nothing else: they are
//! [`Secret`]s whose Debug prints `***`, only their hash names a cache file, and text
//! from a server is masked before it goes into an error or a log line.

mod about;
mod apis;
pub(crate) mod cache;
mod catalogue;
mod client;
pub(crate) mod config;
mod content;
mod error;
mod guard;
pub(crate) use guard::served_folders;
mod http_client;
pub(crate) use http_client::client as http_client;
mod load;
mod meta;
pub(crate) mod names;
mod pending;
mod process;
mod secret;
mod settings;
mod shell_text;
mod stdout;
mod tail;
mod tool;
pub(crate) mod types;
mod upstreams;

#[cfg(test)]
pub(crate) use catalogue::Listing;
pub(crate) use catalogue::{Catalogue, ServerView};
pub(crate) use config::{ConfigProblem, Configs, ServerConfig};
pub(crate) use error::UpstreamError;
pub(crate) use load::load;
pub(crate) use pending::{wait_any, PendingCall};
pub(crate) use tool::UpstreamTool;
pub(crate) use types::ToolTypes;
pub(crate) use upstreams::{Reconfigured, UpstreamOptions, Upstreams};
