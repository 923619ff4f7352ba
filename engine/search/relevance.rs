//! A row's relevance `p`: how sure the search is that the row is what the request (or
//! the part of it the row answers) asked for. It is read from the evidence a row carries
//! (how much of the request's rare words it holds, in which roles, and in semantic mode
//! how close it is in meaning), mapped through a logistic curve fitted on the dev split
//! of the evaluation sets, so that rows below the threshold are rarely what was asked and
//! "nothing fits" can be told from "weak matches".

/// A logistic curve from a row's evidence to `p`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Curve {
    /// Weight of the coverage of the request's words (0..1).
    pub coverage: f32,
    /// Weight of the cosine to the request (0 in keyword mode).
    pub cosine: f32,
    /// Weight of how far the cosine stands out from the request's tenth nearest asset.
    pub margin: f32,
    /// The log-odds with no evidence.
    pub bias: f32,
}

impl Curve {
    fn p(&self, coverage: f32, cosine: f32, margin: f32) -> f32 {
        let z = self.coverage * coverage + self.cosine * cosine + self.margin * margin + self.bias;
        1.0 / (1.0 + (-z).exp())
    }
}

/// The curves from evidence to `p` per mode, and the threshold below which rows are not
/// shown. Fitted by logistic regression on the dev split of the hand-made sets (the top
/// 10 rows of every request, labelled by whether the row is a tool the request asked
/// for), so `p` reads as the chance that a row is one.
#[derive(Debug, Clone)]
pub(crate) struct Relevance {
    /// Keyword mode: coverage only.
    pub keyword: Curve,
    /// Semantic mode: coverage and cosine.
    pub semantic: Curve,
    /// A request (or part of one) fits when one of its first rows reaches this `p`;
    /// otherwise none of its rows is shown (unless the caller asks for them all). Set
    /// as high as the dev split allows while losing at most a point of recall@5 on any
    /// set: it says "nothing fits" only when that is clear.
    pub threshold: f32,
    /// The threshold for a request (or part) none of whose words is in any indexed text:
    /// its rows are near it in meaning only, and words the index has never seen
    /// ("xyzzy plugh") still land near some tool.
    pub unmatched: f32,
    /// Rows of a request that fits are shown from this `p`. 0: recall is measured with
    /// the default options, and on held-out requests any floor that hid weak rows also
    /// hid tools asked for, so only a request that nothing fits loses its rows.
    pub floor: f32,
}

impl Default for Relevance {
    fn default() -> Relevance {
        Relevance {
            keyword: Curve {
                coverage: 3.44,
                cosine: 0.0,
                margin: 0.0,
                bias: -2.54,
            },
            semantic: Curve {
                coverage: 2.77,
                cosine: 1.61,
                margin: 9.21,
                bias: -3.58,
            },
            threshold: 0.06,
            unmatched: 0.3,
            floor: 0.0,
        }
    }
}

/// `p` never reaches 1 without a pinned name: 1 says "this is the name you wrote".
const MAX_UNPINNED: f32 = 0.99;

impl Relevance {
    /// `p` from a row's coverage of the request's words (0..1) and, in semantic mode
    /// (`cosine` given), its cosine to the request and the cosine of the request's tenth
    /// nearest asset; a keyword hit outside the nearest assets counts as cosine 0.
    pub(crate) fn p(&self, coverage: f32, cosine: Option<(Option<f32>, f32)>) -> f32 {
        let p = match cosine {
            None => self.keyword.p(coverage, 0.0, 0.0),
            Some((cos, crowd)) => {
                let cos = cos.unwrap_or(0.0).max(0.0);
                self.semantic.p(coverage, cos, (cos - crowd).max(0.0))
            }
        };
        p.min(MAX_UNPINNED)
    }

    /// Whether a row of relevance `p` shows that the request fits; `matched` is false
    /// when no word of the request is in the keyword index.
    pub(crate) fn clears(&self, p: f32, matched: bool) -> bool {
        p >= if matched {
            self.threshold
        } else {
            self.unmatched
        }
    }

    /// Whether a row of relevance `p` is shown beside one that clears the threshold.
    pub(crate) fn accompanies(&self, p: f32) -> bool {
        p >= self.floor
    }
}

#[cfg(test)]
#[path = "../../tests/unit/search/relevance.rs"]
mod tests;
