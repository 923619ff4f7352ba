//! A temp world, shared by the integration tests (`tests/common`) and the crate's own
//! tests (`tests/internal/`).

#![allow(dead_code)]

use std::path::Path;

/// A temp world that is deleted when dropped.
pub struct World {
    pub dir: tempfile::TempDir,
}

impl World {
    pub fn new() -> World {
        World {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `text` to `rel`, creating folders.
    pub fn file(&self, rel: &str, text: &str) -> &World {
        let path = self.dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }

    /// Writes a tool whose init.luau is `source`.
    pub fn tool(&self, identity: &str, source: &str) -> &World {
        let (b, n) = identity.split_once('.').unwrap();
        self.file(&format!("{b}.toolbox/{n}.tool/init.luau"), source)
    }
}
