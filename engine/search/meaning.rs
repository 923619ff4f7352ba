//! What ranks by meaning: a model that turns an asset's text and a request into unit
//! vectors of one space. The engine ships one, [`Bundled`] (two static tables joined);
//! the evaluation plugs in others (a transformer's vectors computed ahead, for
//! instance) to measure what a better signal would gain before anyone builds it.

use super::embed::StaticModel;

/// A meaning model: the vectors it gives are unit length and `dims()` long, and a
/// request's vector is compared with an asset's by their dot product.
pub(crate) trait Meaning: Send + Sync {
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

/// The model every search uses: the two static tables compiled into the binary, MiniLM's
/// and WordLlama's, joined into one vector whose dot product with another is `(1 -
/// share)` times the MiniLM cosine plus `share` times the WordLlama one. They fail on
/// different requests: on the evaluation's dev split either alone ranked worse than
/// both (docs/search.md).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bundled {
    /// WordLlama's share of the cosine (0..1); tuned on dev.
    pub share: f32,
}

impl Default for Bundled {
    fn default() -> Bundled {
        Bundled { share: 0.4 }
    }
}

impl Meaning for Bundled {
    fn dims(&self) -> usize {
        StaticModel::minilm().dims() + StaticModel::wordllama().dims()
    }

    fn asset(&self, text: &str) -> Option<Vec<f32>> {
        let (first, second) = (StaticModel::minilm(), StaticModel::wordllama());
        join_vectors(
            first.embed(text),
            first.dims(),
            second.embed(text),
            second.dims(),
            self.share,
        )
    }
}

/// Two models' unit vectors of one text (or none) as one unit vector, the second weighing
/// `share` of a dot product; `None` when neither model read the text.
pub(crate) fn join_vectors(
    first: Option<Vec<f32>>,
    first_dims: usize,
    second: Option<Vec<f32>>,
    second_dims: usize,
    share: f32,
) -> Option<Vec<f32>> {
    if first.is_none() && second.is_none() {
        return None;
    }
    let first = first.unwrap_or_else(|| vec![0.0; first_dims]);
    let second = second.unwrap_or_else(|| vec![0.0; second_dims]);
    let (a, b) = ((1.0 - share).sqrt(), share.sqrt());
    let mut joined: Vec<f32> = first.iter().map(|x| x * a).collect();
    joined.extend(second.iter().map(|x| x * b));
    let norm = joined.iter().map(|x| x * x).sum::<f32>().sqrt();
    (norm > 0.0).then(|| joined.iter().map(|x| x / norm).collect())
}

#[cfg(test)]
#[path = "../../tests/unit/search/meaning.rs"]
mod tests;
