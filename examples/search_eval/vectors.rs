//! Other meaning models for the evaluation, to measure what a better signal would gain
//! before anyone builds it into the engine.
//!
//! `CM_VECTORS_LOG=FILE` ranks as the engine does and writes every text it embeds
//! to FILE, one JSON line `["asset" | "request", text]` each. A script then computes
//! another model's vector of each (`scripts/teacher_vectors.py` runs the table's
//! teacher, MiniLM, on whole texts) and writes them as `["asset" | "request", text,
//! [f32, ...]]` lines; `CM_VECTORS=FILE` ranks with those. A text the file lacks has no
//! vector (the asset or request is then ranked by keywords only), and the number of
//! such texts is printed at exit. `CM_VECTORS_MIX=A` (0..1) ranks by both: the MiniLM
//! table's vector and the file's, joined into one, so that their dot product is
//! `(1 - A)` times the table's cosine plus `A` times the file's.

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::search::{join_vectors, Bundled, Meaning, StaticModel};

/// The model `CM_VECTORS` or `CM_VECTORS_LOG` asks for, if any.
pub(crate) fn from_env() -> Option<Arc<dyn Meaning>> {
    if let Ok(path) = std::env::var("CM_VECTORS") {
        return Some(Arc::new(Given::read(&path)));
    }
    let path = std::env::var("CM_VECTORS_LOG").ok()?;
    let file = std::fs::File::create(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Some(Arc::new(Logged(Mutex::new(file))))
}

/// The engine's model, writing down each text it is asked for.
struct Logged(Mutex<std::fs::File>);

impl Logged {
    fn note(&self, role: &str, text: &str) {
        let line = serde_json::to_string(&(role, text)).unwrap();
        let mut file = self.0.lock().unwrap();
        writeln!(file, "{line}").unwrap();
    }
}

impl Meaning for Logged {
    fn dims(&self) -> usize {
        Bundled::default().dims()
    }

    fn asset(&self, text: &str) -> Option<Vec<f32>> {
        self.note("asset", text);
        Bundled::default().asset(text)
    }

    fn request(&self, text: &str) -> Option<Vec<f32>> {
        self.note("request", text);
        Bundled::default().request(text)
    }
}

/// Vectors computed ahead, by role and text.
struct Given {
    vectors: HashMap<(String, String), Vec<f32>>,
    dims: usize,
    missing: AtomicUsize,
    /// The file's share when joined with the bundled table's vectors.
    mix: Option<f32>,
}

impl Given {
    fn read(path: &str) -> Given {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut vectors = HashMap::new();
        for line in text.lines() {
            let (role, text, vector): (String, String, Vec<f32>) =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{path}: {e}"));
            vectors.insert((role, text), vector);
        }
        let dims = vectors.values().next().map_or(0, Vec::len);
        assert!(
            dims > 0 && vectors.values().all(|v| v.len() == dims),
            "{path}: the vectors must all be of one length"
        );
        let mix = std::env::var("CM_VECTORS_MIX").ok().map(|a| {
            a.parse::<f32>()
                .ok()
                .filter(|a| (0.0..=1.0).contains(a))
                .expect("CM_VECTORS_MIX is a number from 0 to 1")
        });
        Given {
            vectors,
            dims,
            missing: AtomicUsize::new(0),
            mix,
        }
    }

    fn get(&self, role: &str, text: &str) -> Option<Vec<f32>> {
        let found = self
            .vectors
            .get(&(role.to_string(), text.to_string()))
            .cloned();
        if found.is_none() {
            self.missing.fetch_add(1, Ordering::Relaxed);
        }
        let Some(mix) = self.mix else {
            return found;
        };
        let table = StaticModel::minilm();
        join_vectors(table.embed(text), table.dims(), found, self.dims, mix)
    }
}

impl Drop for Given {
    fn drop(&mut self) {
        let missing = self.missing.load(Ordering::Relaxed);
        if missing > 0 {
            eprintln!("CM_VECTORS: {missing} texts had no vector in the file");
        }
    }
}

impl Meaning for Given {
    fn dims(&self) -> usize {
        match self.mix {
            Some(_) => self.dims + StaticModel::minilm().dims(),
            None => self.dims,
        }
    }

    fn asset(&self, text: &str) -> Option<Vec<f32>> {
        self.get("asset", text)
    }

    fn request(&self, text: &str) -> Option<Vec<f32>> {
        self.get("request", text)
    }
}
