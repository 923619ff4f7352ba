//! A search ranks by the meaning model it is given: the seam the evaluation uses to
//! measure another model (a transformer's vectors) before anyone builds it in.

use std::path::Path;
use std::sync::Arc;

use crate::registry::Registry;
use crate::search::{Meaning, SearchRequest, SearchService};

/// Puts every asset that mentions a forecast at one point and all others at another;
/// a request is put with the forecasts when it asks about a picnic.
struct Forecasts;

impl Meaning for Forecasts {
    fn dims(&self) -> usize {
        2
    }

    fn asset(&self, text: &str) -> Option<Vec<f32>> {
        Some(if text.to_lowercase().contains("forecast") {
            vec![1.0, 0.0]
        } else {
            vec![0.0, 1.0]
        })
    }

    fn request(&self, text: &str) -> Option<Vec<f32>> {
        text.contains("picnic").then(|| vec![1.0, 0.0])
    }
}

fn first_row(service: &SearchService, query: &str) -> Option<String> {
    let world = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/worlds/search");
    let registry = Registry::open(&world, &[], false).unwrap();
    let mut request = SearchRequest::new(query);
    request.all = true;
    let result = service.search(&registry.snapshot(), &request).unwrap();
    result.rows.first().map(|r| r.identity.clone())
}

#[test]
fn a_search_ranks_by_the_meaning_model_it_is_given() {
    // No tool carries these words, so only meaning can place a tool first.
    let query = "zorblat picnic";
    let given = SearchService::new().with_meaning(Arc::new(Forecasts));
    assert_eq!(
        first_row(&given, query).as_deref(),
        Some("weather.forecast")
    );
    let bundled = SearchService::new();
    assert_ne!(
        first_row(&bundled, query).as_deref(),
        Some("weather.forecast")
    );
}

#[test]
fn a_request_the_model_cannot_read_is_ranked_by_its_words_alone() {
    let given = SearchService::new().with_meaning(Arc::new(Forecasts));
    assert_eq!(
        first_row(&given, "make a url slug from a title").as_deref(),
        Some("text.slugify")
    );
}
