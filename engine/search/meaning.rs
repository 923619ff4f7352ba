//! What ranks by meaning: a model that turns an asset's text and a request into unit
//! vectors of one space. The engine ships one, the static table of [`StaticModel`];
//! the evaluation plugs in others (a transformer's vectors computed ahead, for
//! instance) to measure what a better signal would gain before anyone builds it.

use super::embed::StaticModel;

/// A meaning model: the vectors it gives are unit length and `dims()` long, and a
/// request's vector is compared with an asset's by their dot product.
pub trait Meaning: Send + Sync {
    /// Length of every vector.
    fn dims(&self) -> usize;
    /// The vector of an asset's text, or `None` when the model can read none of it.
    fn asset(&self, text: &str) -> Option<Vec<f32>>;
    /// The vector of a request (or one part of it). The same as [`Meaning::asset`]
    /// unless the model reads requests and descriptions differently.
    fn request(&self, text: &str) -> Option<Vec<f32>> {
        self.asset(text)
    }
}

/// The static table compiled into the binary: the model every search uses.
pub(crate) struct Bundled;

impl Meaning for Bundled {
    fn dims(&self) -> usize {
        StaticModel::bundled().dims()
    }

    fn asset(&self, text: &str) -> Option<Vec<f32>> {
        StaticModel::bundled().embed(text)
    }
}
