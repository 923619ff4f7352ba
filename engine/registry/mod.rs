//! The registry: the roots the engine reads and the current asset index snapshot.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use include_dir::{include_dir, Dir};

use crate::assets::{AssetIndex, Origin, Root};
use crate::search::SearchService;

/// The repo's `toolboxes/`, compiled into the binary.
static BUNDLED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/toolboxes");

/// A root the registry could not open.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// The world directory is missing or unreadable.
    #[error("world {path}: {source}; pass an existing directory with --world DIR (or set CODEMODE_WORLD)")]
    World {
        /// The path given.
        path: PathBuf,
        /// Why it could not be opened.
        source: std::io::Error,
    },
    /// A `--library` directory is missing or unreadable.
    #[error("library {path}: {source}; pass an existing directory with --library DIR")]
    Library {
        /// The path given.
        path: PathBuf,
        /// Why it could not be opened.
        source: std::io::Error,
    },
}

/// The roots and the asset index built from them. Shared by every runtime in the process.
#[derive(Debug)]
pub struct Registry {
    roots: Arc<Vec<Root>>,
    current: RwLock<Arc<AssetIndex>>,
    search: SearchService,
}

impl Registry {
    /// Opens the world, the `--library` folders and (when `bundled`) the bundled toolboxes,
    /// and indexes them. Precedence: world, then libraries in order, then bundled.
    pub fn open(
        world: &Path,
        libraries: &[PathBuf],
        bundled: bool,
    ) -> Result<Registry, RegistryError> {
        let mut roots =
            vec![
                Root::disk(Origin::World, world).map_err(|source| RegistryError::World {
                    path: world.to_path_buf(),
                    source,
                })?,
            ];
        for lib in libraries {
            roots.push(Root::disk(Origin::Library, lib).map_err(|source| {
                RegistryError::Library {
                    path: lib.clone(),
                    source,
                }
            })?);
        }
        if bundled {
            roots.push(Root::bundled(&BUNDLED));
        }
        Ok(Registry::from_roots(roots))
    }

    /// A registry over the given roots.
    pub fn from_roots(roots: Vec<Root>) -> Registry {
        let roots = Arc::new(roots);
        let index = AssetIndex::build(roots.clone());
        Registry {
            roots,
            current: RwLock::new(Arc::new(index)),
            search: SearchService::new(),
        }
    }

    /// The current snapshot; a run keeps the one it started with.
    pub fn snapshot(&self) -> Arc<AssetIndex> {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Re-reads every root and swaps the new index in whole.
    pub fn reload(&self) {
        let index = Arc::new(AssetIndex::build(self.roots.clone()));
        *self.current.write().unwrap_or_else(|e| e.into_inner()) = index;
    }

    /// The search service; it follows whichever snapshot a search names.
    pub fn search(&self) -> &SearchService {
        &self.search
    }

    /// The world directory.
    pub fn world(&self) -> &Path {
        self.roots[0]
            .dir()
            .expect("the world is always a directory")
    }
}
