//! The audit log: one JSON line per run and per tool call, for the operator who handed
//! codemode real credentials and wants to know what was done with them.
//!
//! A line says when, which agent under which profile, what ran (a tool's identity, or
//! `run:<front end>` for a whole run), how it ended (`ok` or the envelope's error kind),
//! how long it took and how many bytes it gave back; never an argument, a script's text,
//! an error message or a secret, which are the agent's data and may hold the operator's.
//! Every line is one `serde_json` object, so no identity or value a script chooses can
//! end a line early and forge the next.
//!
//! A run's lines are gathered by its [`Trail`] (the host adds a call line per tool call,
//! the runtime the run line at the end) and handed to the [`Log`] together, in one
//! `write` to a file opened with `O_APPEND`: processes sharing a world append whole
//! lines, never pieces of each other's. A trail holding more than [`FLUSH_BYTES`] writes
//! what it has at once, so a run of a million calls holds no more than that. The file
//! (`<world>/.codemode/audit.jsonl`, hidden from scripts as all of `.codemode/` is) is
//! rotated when a write would take it past its size: `audit.jsonl` becomes
//! `audit.jsonl.1`, the older ones move up, and the oldest past [`KEEP`] goes.

mod agent;
mod line;
mod log;
mod tail;
mod trail;

pub(crate) use agent::Agent;
pub(crate) use line::{Kind, Line};
pub(crate) use log::{Log, DEFAULT_MAX_BYTES, FILE, KEEP};
pub(crate) use tail::tail;
pub(crate) use trail::Trail;
