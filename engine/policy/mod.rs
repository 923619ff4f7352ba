//! What a run is allowed to do: which host capabilities it gets (and, with profiles,
//! which tools it may see and call). A registry holds the [`Capabilities`] of the profile
//! it serves; host capabilities read them from the registry of the running script.

mod capabilities;

pub use capabilities::Capabilities;
