//! The result cache: results of tools that opt in (`"cache": {"ttlSeconds": N}`), kept
//! in one SQLite file per world, `<world>/.codemode/results.db` (hidden from `vfs`).
//!
//! A call's key is a hash of the tool's identity, its content stamp (so an edit of the
//! tool invalidates what it returned before) and the canonical JSON of its arguments
//! ([`key`]). A tool may return the contract `{ brief, raw, indexTerms }`: its caller gets
//! `brief` and the key, the store keeps `raw` and the terms, and `tools.results.get` and
//! `tools.results.search` bring raw results back without the caller's context paying for
//! them. The store is shared by every process of the world (SQLite's locking, WAL
//! journal), capped in size (least recently used rows go first) and honours each row's
//! time to live. A store that cannot be used (corrupt, locked too long, unwritable) is
//! never a failed run: the calls run uncached, and one warning says why ([`Shared`]).

mod key;
mod shared;
mod store;

pub(crate) use key::key;
pub(crate) use shared::{foreign_files, Shared};
pub(crate) use store::{Entry, NewEntry, Store, StoreError, DEFAULT_CAP_BYTES, FILE};
