//! Where the user's resident checker listens (see `engine/checker/resident.rs`, which
//! serves there): a socket in a folder only the user may enter, named by the checker
//! binary it runs, so a rebuilt checker gets a resident of its own.

use std::hash::{BuildHasher, Hasher};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::PathBuf;

/// The environment variable a checker is started with to serve on the socket it names
/// (the checker binary spells it again: it does not link this library).
pub(crate) const RESIDENT_ENV: &str = "CODEMODE_CHECK_RESIDENT";

/// The longest socket path the kernel takes (`sun_path` holds 108 bytes with its NUL).
const MAX_SOCKET_PATH: usize = 107;

/// The socket of the resident checker for the binary `identity` names (see
/// [`super::Checker::identity`]), in `$XDG_RUNTIME_DIR/codemode/` or else in
/// `codemode-<uid>/` under the temporary folder. `None` when that folder is not the user's
/// alone: a socket another user could replace would let them answer for the checker.
pub(crate) fn socket(identity: &str) -> Option<PathBuf> {
    let uid = rustix::process::geteuid().as_raw();
    let dir = match std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        Some(runtime) => PathBuf::from(runtime).join("codemode"),
        None => std::env::temp_dir().join(format!("codemode-{uid}")),
    };
    let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
    let meta = std::fs::symlink_metadata(&dir).ok()?;
    let private = meta.is_dir() && meta.uid() == uid && meta.permissions().mode() & 0o077 == 0;
    if !private {
        return None;
    }
    let mut hasher = foldhash::fast::FixedState::with_seed(0x0C0D_E5EC).build_hasher();
    hasher.write(identity.as_bytes());
    let path = dir.join(format!("check-{:016x}.sock", hasher.finish()));
    (path.as_os_str().len() <= MAX_SOCKET_PATH).then_some(path)
}
